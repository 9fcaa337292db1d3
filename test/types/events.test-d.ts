import { describe, expectTypeOf, it } from 'vitest';
import { ContextManager } from '../../src/index.js';
import type { BuiltContext, ContextMessage, GraduationReport, SecretRedaction, Summarizer } from '../../src/index.js';

describe('ContextManager types', () => {
  it('types event payloads by event name', () => {
    const manager = new ContextManager();
    manager.on('graduation-end', (report) => {
      expectTypeOf(report).toEqualTypeOf<GraduationReport>();
      expectTypeOf(report.removed[0]?.archivedAs).toEqualTypeOf<string | undefined>();
    });
    manager.on('file-close', (event) => expectTypeOf(event.cause).toEqualTypeOf<'explicit' | 'auto' | 'evicted'>());
    manager.on('secret-redact', (event) => expectTypeOf(event.redactions).toEqualTypeOf<readonly SecretRedaction[]>());
    // @ts-expect-error: the payload carries redactions, never a secret
    manager.on('secret-redact', (event) => event.secret);
    manager.on('tool-call-orphan', (event) => expectTypeOf(event.reason).toEqualTypeOf<'later-message' | 'id-reused'>());
    // @ts-expect-error: the orphan event names the call by `callId`
    manager.on('tool-call-orphan', (event) => event.id);
    // @ts-expect-error: not an event
    manager.on('graduation-finish', () => undefined);
    // @ts-expect-error: wrong payload type
    manager.on('fact-add', (event: { value: number }) => event);
  });

  it('returns provider-neutral messages from build()', () => {
    const manager = new ContextManager();
    expectTypeOf(manager.build()).toEqualTypeOf<BuiltContext>();
    expectTypeOf(manager.build().messages).toEqualTypeOf<readonly ContextMessage[]>();
    // @ts-expect-error: build() takes an options object
    manager.build(28_000);
  });

  it('accepts any object with name and summarize() as a Summarizer', () => {
    const summarizer: Summarizer = { name: 'mine', summarize: () => ({ summary: 'x' }) };
    expectTypeOf(new ContextManager({ summarizer })).toEqualTypeOf<ContextManager>();
  });
});

import { describe, expect, it } from 'vitest';
import { Graduator, InvalidArgumentError, TierStore } from '../../src/index.js';

function filledStore(): TierStore {
  const store = new TierStore();
  store.addMessage({ role: 'user', content: "Let's use Postgres 16 for the orders service." });
  for (let step = 1; step <= 10; step += 1) {
    store.addMessage({ role: 'user', content: `Step ${step}: move query ${step} into src/orders/repository.ts.` });
    store.addMessage({ role: 'assistant', content: `Done: query ${step} moved, and its test passes.` });
  }
  return store;
}

describe('TierStore', () => {
  describe('addMessage() / addToolResult() / pin()', () => {
    it('numbers items in order and counts their tokens once', () => {
      const store = new TierStore();
      const call = store.addMessage({ role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'bash', input: { command: 'ls' } }] });
      const result = store.addToolResult({ callId: 'c1', output: 'README.md' });
      expect([call.seq, result.seq]).toEqual([1, 2]);
      expect(store.workingTokens).toBe(call.tokens + result.tokens);
      expect(store.pin({ text: 'Never edit vendor/.' }).seq).toBe(3);
    });

    it('rejects a result for an unknown call with UNKNOWN_TOOL_CALL and changes nothing', () => {
      const store = new TierStore();
      expect(() => store.addToolResult({ callId: 'nope', output: '' })).toThrow(expect.objectContaining({ code: 'UNKNOWN_TOOL_CALL' }));
      expect(store.lastSeq).toBe(0);
    });
  });

  describe('graduation and expand()', () => {
    it('loses nothing: every entry is in T0 or the archive, and a summary expands to the entries it replaced', async () => {
      const store = filledStore();
      const before = store.entries().map((entry) => entry.seq);
      await new Graduator().graduate({ subject: store.graduationSubject({ limits: { working: 200, summaries: 4_000 } }) });
      const summary = store.summaries()[0];
      expect(summary).toBeDefined();
      expect(store.workingTokens).toBeLessThanOrEqual(200);
      const archived = store.archive().flatMap((item) => (item.type === 'entry' ? [item.entry.seq] : []));
      const kept = store.entries().map((entry) => entry.seq);
      expect([...archived, ...kept].sort((a, b) => a - b)).toEqual(before);
      expect(store.expand(summary?.id ?? '').map((entry) => entry.seq)).toEqual(archived.sort((a, b) => a - b));
    });

    it('keeps pins through graduation and throws for an unknown id in expand()', async () => {
      const store = filledStore();
      store.pin({ text: 'Never edit vendor/.' });
      await new Graduator().graduate({ subject: store.graduationSubject({ limits: { working: 150, summaries: 4_000 } }) });
      expect(store.pins().map((pin) => pin.text)).toEqual(['Never edit vendor/.']);
      expect(() => store.expand('s999')).toThrow(InvalidArgumentError);
    });
  });

  describe('toJSON() / initial', () => {
    it('round-trips to an equal store', () => {
      const store = filledStore();
      const copy = new TierStore({ initial: store.toJSON() });
      expect(copy.entries()).toEqual(store.entries());
      expect(copy.addNote({ content: 'next' }).seq).toBe(store.lastSeq + 1);
    });
  });
});

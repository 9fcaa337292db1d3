// The Mastra recorder and prompt mapping import nothing from @mastra/core at run time, so their
// edge cases run on Node 20 with hand-built messages in Mastra's stored shape.
import type { MastraDBMessage, MastraMessagePart } from '@mastra/core/agent/message-list';
import { describe, expect, it } from 'vitest';
import { createMastraRecorder } from '../../src/adapters/mastra/message-recorder.js';
import { toMastraPrompt } from '../../src/adapters/mastra/index.js';
import { ContextManager } from '../../src/context-manager.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { createMemoryStorage } from '../../src/storage/memory.js';
import { findProviderProblems } from '../../src/testing/provider-validity.js';

describe('createMastraRecorder()', () => {
  it('records each step of a growing assistant message once, with its results', () => {
    const manager = new ContextManager();
    const recorder = createMastraRecorder(manager);
    const user = message('u1', 'user', [{ type: 'text', text: 'Fix it' }]);
    const parts: MastraMessagePart[] = [{ type: 'text', text: 'Reading.' }, invocation({ state: 'result', toolCallId: 'c1', toolName: 'read', args: { path: 'a.ts' }, result: 'export {}' }), { type: 'step-start' }];
    expect(recorder.record([user, message('a1', 'assistant', parts)])).toBe(3);
    // The next step is appended to the same message; seeing the earlier parts again records nothing.
    parts.push(invocation({ state: 'output-error', toolCallId: 'c2', toolName: 'run', args: {}, errorText: 'exit 1' }), { type: 'step-start' });
    expect(recorder.record([user, message('a1', 'assistant', parts)])).toBe(2);
    parts.push({ type: 'text', text: 'Fixed.' });
    expect(recorder.record([user, message('a1', 'assistant', parts)])).toBe(1);
    expect(recorder.record([user, message('a1', 'assistant', parts)])).toBe(0);
    const entries = manager.state().entries;
    expect(entries.map((entry) => [entry.kind, entry.text])).toEqual([
      ['user', 'Fix it'],
      ['assistant', 'Reading.'],
      ['tool-result', 'export {}'],
      ['assistant', ''],
      ['tool-result', 'exit 1'],
      ['assistant', 'Fixed.'],
    ]);
    expect(entries[4]?.isError).toBe(true);
  });

  it('records a result filled in after its call was recorded, and a denied call as an error', () => {
    const manager = new ContextManager();
    const recorder = createMastraRecorder(manager);
    const pending = invocation({ state: 'call', toolCallId: 'c1', toolName: 'deploy', args: { env: 'prod' } });
    recorder.record([message('a1', 'assistant', [pending])]);
    expect(manager.state().entries.map((entry) => entry.kind)).toEqual(['assistant']);
    const denied = invocation({ state: 'output-denied', toolCallId: 'c1', toolName: 'deploy', args: { env: 'prod' }, approval: { id: 'x', approved: false, reason: 'not on Fridays' } });
    expect(recorder.record([message('a1', 'assistant', [denied])])).toBe(1);
    const result = manager.state().entries[1];
    expect(result?.text).toBe('The tool call was denied: not on Fridays.');
    expect(result?.isError).toBe(true);
  });

  it('leaves out system messages and keeps a non-text user part as a marker', () => {
    const manager = new ContextManager();
    const recorder = createMastraRecorder(manager);
    recorder.record([
      message('s1', 'system', [{ type: 'text', text: 'rules' }]),
      message('u1', 'user', [{ type: 'text', text: 'See the log' }, { type: 'file', data: 'aGk=', mimeType: 'text/plain' }]),
    ]);
    expect(manager.state().entries.map((entry) => entry.text)).toEqual(['See the log\n[file: text/plain]']);
  });
});

describe('createMastraRecorder() under real traffic', () => {
  it('records a conversation resent with new message ids once (agent.generate([...history, message]))', () => {
    const manager = new ContextManager();
    const recorder = createMastraRecorder(manager);
    const history = (prefix: string): MastraDBMessage[] => [
      message(`${prefix}-u1`, 'user', [{ type: 'text', text: 'Where is the retry policy?' }]),
      message(`${prefix}-a1`, 'assistant', [invocation({ state: 'result', toolCallId: 'c1', toolName: 'search', args: { q: 'retry' }, result: 'src/retry.ts' }), { type: 'step-start' }, { type: 'text', text: 'In src/retry.ts.' }]),
    ];
    expect(recorder.record(history('first'))).toBe(4);
    // Mastra gives the resent messages new ids, and may re-serialise their text.
    const resent = [...history('second'), message('second-u2', 'user', [{ type: 'text', text: 'Raise it  to 5.\n' }])];
    expect(recorder.record(resent)).toBe(1);
    expect(manager.state().entries.map((entry) => entry.kind)).toEqual(['user', 'assistant', 'tool-result', 'assistant', 'user']);
  });

  it('records the new suffix only after the session is restored', async () => {
    const storage = createMemoryStorage();
    const manager = new ContextManager({ storage, sessionId: 's' });
    const conversation = [
      message('u1', 'user', [{ type: 'text', text: 'Fix the flaky test' }]),
      message('a1', 'assistant', [{ type: 'text', text: 'It races on the clock; I froze time in the test.' }]),
    ];
    createMastraRecorder(manager).record(conversation);
    await manager.save();
    const restored = await ContextManager.load({ storage, sessionId: 's' });
    const recorder = createMastraRecorder(restored);
    expect(recorder.record([...conversation, message('u2', 'user', [{ type: 'text', text: 'Thanks' }])])).toBe(1);
    expect(restored.state().entries.map((entry) => entry.text)).toEqual(['Fix the flaky test', 'It races on the clock; I froze time in the test.', 'Thanks']);
  });

  it('does not throw when an answered call id comes back, and keeps the window provider-valid', () => {
    const manager = new ContextManager();
    const recorder = createMastraRecorder(manager);
    const answered = invocation({ state: 'result', toolCallId: 'c1', toolName: 'run', args: {}, result: 'ok' });
    const reused = invocation({ state: 'result', toolCallId: 'c1', toolName: 'run', args: {}, result: 'ok, second run' });
    const pendingTwice = [invocation({ state: 'call', toolCallId: 'c2', toolName: 'run', args: {} }), invocation({ state: 'call', toolCallId: 'c2', toolName: 'run', args: {} })];
    const messages = [message('u1', 'user', [{ type: 'text', text: 'Run it' }]), message('a1', 'assistant', [answered]), message('a2', 'assistant', [reused]), message('a3', 'assistant', pendingTwice)];
    expect(() => recorder.record(messages)).not.toThrow();
    expect(recorder.record(messages)).toBe(0);
    // The id reused by a later step is a new call; two calls with one id in one step keep the first.
    expect(manager.state().entries.map((entry) => entry.kind)).toEqual(['user', 'assistant', 'tool-result', 'assistant', 'tool-result', 'assistant']);
    expect(manager.state().entries[5]?.toolCalls).toHaveLength(1);
    expect(findProviderProblems(manager.build().messages)).toEqual([]);
  });
});


describe('toMastraPrompt()', () => {
  it('puts the given system messages first and maps tool results to text or error-text output', () => {
    const prompt = toMastraPrompt(
      {
        system: 'window system',
        messages: [
          { role: 'user', content: 'go' },
          { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'run', input: { cmd: 'ls' } }] },
          { role: 'tool', results: [{ toolCallId: 'c1', toolName: 'run', content: 'boom', isError: true }] },
        ],
      },
      { systemMessages: ['agent rules', ''] },
    );
    expect(prompt.map((message) => message.role)).toEqual(['system', 'system', 'user', 'assistant', 'tool']);
    expect(prompt[0]).toEqual({ role: 'system', content: 'agent rules' });
    expect(prompt[3]).toEqual({ role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'run', input: { cmd: 'ls' } }] });
    expect(prompt[4]).toEqual({ role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'run', output: { type: 'error-text', value: 'boom' } }] });
  });

  it('throws an InvalidArgumentError for something that is not a normalized window', () => {
    let error: unknown;
    try {
      toMastraPrompt({ system: 'x', messages: [{ role: 'system', content: 'no' }] } as never);
    } catch (caught) {
      error = caught;
    }
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('toMastraPrompt(normalizeWindow(manager.build())');
  });
});

// --- Internal helpers ---

function message(id: string, role: MastraDBMessage['role'], parts: MastraMessagePart[]): MastraDBMessage {
  return { id, role, createdAt: new Date(0), content: { format: 2, parts: [...parts] } };
}

function invocation(toolInvocation: Record<string, unknown>): MastraMessagePart {
  return { type: 'tool-invocation', toolInvocation } as unknown as MastraMessagePart;
}

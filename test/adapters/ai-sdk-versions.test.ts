// The AI SDK adapter after the manager's version operations: a rollback forgets what the adapter
// recorded since the version, and a fork records in its own session.
import { generateText, stepCountIs } from 'ai';
import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { createMobiusMiddleware, createMobiusPrepareStep } from '../../src/adapters/ai-sdk/index.js';
import { ContextManager } from '../../src/context-manager.js';
import { createMemoryStorage } from '../../src/storage/memory.js';
import { kinds, scriptedModel, tools } from './ai-sdk-mock-model.js';
import type { Content } from './ai-sdk-mock-model.js';

const SYSTEM_PROMPT = 'You are a careful coding agent.';

/** One user turn through `generateText` with the adapter; the response messages are appended to `history`. */
async function turn(options: { manager: ContextManager; history: ModelMessage[]; question: string; replies: readonly Content[] }): Promise<void> {
  const mobius = createMobiusPrepareStep({ manager: options.manager });
  options.history.push({ role: 'user', content: options.question });
  const result = await generateText({
    model: scriptedModel(options.replies),
    tools,
    messages: [...options.history],
    prepareStep: mobius.prepareStep,
    onStepFinish: mobius.onStepFinish,
    stopWhen: stepCountIs(5),
  });
  options.history.push(...result.response.messages);
}

const READ_RETRY: readonly Content[] = [[{ type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: '{"path":"src/retry.ts"}' }], [{ type: 'text', text: 'Retries are set to 3.' }]];
const FIRST_TURN = ['user:How many retries does src/retry.ts allow', 'assistant:', 'tool-result:contents of src/retry.ts: export const r', 'assistant:Retries are set to 3.'];

describe('AI SDK adapter and version operations', () => {
  it('records a rolled-back turn again when the app resends it, and nothing twice', async () => {
    const manager = new ContextManager({ systemPrompt: SYSTEM_PROMPT, storage: createMemoryStorage(), sessionId: 'rollback-resend' });
    const history: ModelMessage[] = [];
    await turn({ manager, history, question: 'How many retries does src/retry.ts allow?', replies: READ_RETRY });
    const { version } = await manager.snapshot('after the first question');
    const kept = [...history];
    await turn({ manager, history, question: 'Raise it to 5.', replies: [[{ type: 'text', text: 'Done: retries is now 5.' }]] });
    await turn({ manager, history, question: 'Now read src/timeout.ts.', replies: [[{ type: 'tool-call', toolCallId: 'c2', toolName: 'read_file', input: '{"path":"src/timeout.ts"}' }], [{ type: 'text', text: 'The timeout is 30 s.' }]] });
    expect(kinds(manager)).toHaveLength(10);

    await manager.rollback(version);
    expect(kinds(manager)).toEqual(FIRST_TURN);
    // The app did not roll back: it resends the whole conversation with a new question.
    await turn({ manager, history, question: 'Thanks.', replies: [[{ type: 'text', text: 'You are welcome.' }]] });
    expect(kinds(manager)).toEqual([
      ...FIRST_TURN,
      'user:Raise it to 5.',
      'assistant:Done: retries is now 5.',
      'user:Now read src/timeout.ts.',
      'assistant:',
      'tool-result:contents of src/timeout.ts: export const',
      'assistant:The timeout is 30 s.',
      'user:Thanks.',
      'assistant:You are welcome.',
    ]);
    // The app rolled back too: it resends what the version held and asks again.
    await manager.rollback(version);
    await turn({ manager, history: kept, question: 'Raise it to 7.', replies: [[{ type: 'text', text: 'Done: retries is now 7.' }]] });
    expect(kinds(manager)).toEqual([...FIRST_TURN, 'user:Raise it to 7.', 'assistant:Done: retries is now 7.']);
  });

  it('records a resent tool result again when its call was rolled back and resent', async () => {
    const manager = new ContextManager({ systemPrompt: SYSTEM_PROMPT, storage: createMemoryStorage(), sessionId: 'rollback-result' });
    const middleware = createMobiusMiddleware({ manager });
    const { version } = await manager.snapshot('empty');
    const history: ModelMessage[] = [];
    await turn({ manager, history, question: 'How many retries does src/retry.ts allow?', replies: READ_RETRY });
    expect(kinds(manager)).toEqual(FIRST_TURN);
    await manager.rollback(version);
    expect(kinds(manager)).toEqual([]);
    expect(middleware.record(history)).toBe(4);
    expect(kinds(manager)).toEqual(FIRST_TURN);
    expect(middleware.record(history)).toBe(0);
  });

  it('gives a forked manager its own recorded history', async () => {
    const storage = createMemoryStorage();
    const manager = new ContextManager({ systemPrompt: SYSTEM_PROMPT, storage, sessionId: 'fork-source' });
    const history: ModelMessage[] = [];
    await turn({ manager, history, question: 'How many retries does src/retry.ts allow?', replies: READ_RETRY });
    const { version } = await manager.snapshot('after the first question');
    const kept = [...history];
    await turn({ manager, history, question: 'Raise it to 5.', replies: [[{ type: 'text', text: 'Done: retries is now 5.' }]] });

    const forked = await manager.fork({ version, sessionId: 'fork-target' });
    expect(kinds(forked)).toEqual(FIRST_TURN);
    await turn({ manager: forked, history: kept, question: 'Raise it to 7.', replies: [[{ type: 'text', text: 'Done: retries is now 7.' }]] });
    expect(kinds(forked)).toEqual([...FIRST_TURN, 'user:Raise it to 7.', 'assistant:Done: retries is now 7.']);
    // The original records on, unaffected by what the fork recorded.
    await turn({ manager, history, question: 'Thanks.', replies: [[{ type: 'text', text: 'You are welcome.' }]] });
    expect(kinds(manager)).toEqual([...FIRST_TURN, 'user:Raise it to 5.', 'assistant:Done: retries is now 5.', 'user:Thanks.', 'assistant:You are welcome.']);
    expect(forked.listenerCount('entry-add')).toBe(1);
  });
});

// Real agent traffic through the AI SDK adapter: a conversation resent after a restart, a tool
// result answered twice, options that are wrong, a budget that cannot hold the newest turn.
import { generateText, stepCountIs } from 'ai';
import type { ModelMessage } from 'ai';
import { describe, expect, it } from 'vitest';
import { createMobiusMiddleware, createMobiusPrepareStep } from '../../src/adapters/ai-sdk/index.js';
import { ContextManager } from '../../src/context-manager.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { createMemoryStorage } from '../../src/storage/memory.js';
import { findProviderProblems } from '../../src/testing/provider-validity.js';
import { kinds, scriptedModel, tools } from './ai-sdk-mock-model.js';
import type { Content } from './ai-sdk-mock-model.js';

const SYSTEM_PROMPT = 'You are a careful coding agent.';

describe('AI SDK adapter under real traffic', () => {
  it('records only the new suffix when a restored session resends its whole history', async () => {
    const storage = createMemoryStorage();
    const first = new ContextManager({ systemPrompt: SYSTEM_PROMPT, storage, sessionId: 'resend' });
    const mobius = createMobiusPrepareStep({ manager: first });
    const turn1 = await generateText({
      model: scriptedModel([[{ type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: '{"path":"src/retry.ts"}' }], [{ type: 'text', text: 'Retries are set to 3.' }]]),
      tools,
      messages: [{ role: 'user', content: 'How many retries does src/retry.ts allow?' }],
      prepareStep: mobius.prepareStep,
      onStepFinish: mobius.onStepFinish,
      stopWhen: stepCountIs(5),
    });
    const history: ModelMessage[] = [{ role: 'user', content: 'How many retries does src/retry.ts allow?' }, ...turn1.response.messages];
    const before = kinds(first);
    expect(before).toHaveLength(4);
    await first.save();

    // A new process: the session is restored and the app sends the whole conversation again.
    const restored = await ContextManager.load({ systemPrompt: SYSTEM_PROMPT, storage, sessionId: 'resend' });
    const again = createMobiusPrepareStep({ manager: restored });
    // Round-tripped through a database: same content, new objects.
    const resent: ModelMessage[] = [...structuredClone(history), { role: 'user', content: 'Raise it to 5.' }];
    await generateText({
      model: scriptedModel([[{ type: 'text', text: 'Done: retries is now 5.' }]]),
      tools,
      messages: resent,
      prepareStep: again.prepareStep,
      onStepFinish: again.onStepFinish,
      stopWhen: stepCountIs(5),
    });
    expect(kinds(restored)).toEqual([...before, 'user:Raise it to 5.', 'assistant:Done: retries is now 5.']);
  });

  it('records only the new suffix when the app keeps just the user messages and final answers', async () => {
    const manager = new ContextManager({ systemPrompt: SYSTEM_PROMPT });
    const mobius = createMobiusPrepareStep({ manager });
    const history: ModelMessage[] = [];
    const turns: Array<[string, Content[]]> = [
      ['How many retries does src/retry.ts allow?', [[{ type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: '{"path":"src/retry.ts"}' }], [{ type: 'text', text: 'Retries are set to 3.' }]]],
      ['Raise it to 5.', [[{ type: 'text', text: 'Done: retries is now 5.' }]]],
      ['Thanks.', [[{ type: 'text', text: 'You are welcome.' }]]],
    ];
    for (const [question, replies] of turns) {
      history.push({ role: 'user', content: question });
      const result = await generateText({ model: scriptedModel(replies), tools, messages: [...history], prepareStep: mobius.prepareStep, onStepFinish: mobius.onStepFinish, stopWhen: stepCountIs(5) });
      // A chat app often stores only what it shows: the question and the final text.
      history.push({ role: 'assistant', content: result.text });
    }
    expect(kinds(manager)).toEqual([
      'user:How many retries does src/retry.ts allow',
      'assistant:',
      'tool-result:contents of src/retry.ts: export const r',
      'assistant:Retries are set to 3.',
      'user:Raise it to 5.',
      'assistant:Done: retries is now 5.',
      'user:Thanks.',
      'assistant:You are welcome.',
    ]);
  });

  it('records only the new suffix when each call passes the whole history (middleware)', async () => {
    const manager = new ContextManager({ systemPrompt: SYSTEM_PROMPT });
    const middleware = createMobiusMiddleware({ manager });
    const messages: ModelMessage[] = [];
    for (const [index, question] of ['Which file holds the retry policy?', 'And the timeout?', 'Thanks.'].entries()) {
      messages.push({ role: 'user', content: question });
      const { wrapLanguageModel } = await import('ai');
      const model = wrapLanguageModel({ model: scriptedModel([[{ type: 'text', text: `Answer ${index}.` }]]), middleware });
      const result = await generateText({ model, messages: [...messages] });
      messages.push(...result.response.messages);
    }
    middleware.record(messages);
    expect(kinds(manager)).toEqual([
      'user:Which file holds the retry policy?',
      'assistant:Answer 0.',
      'user:And the timeout?',
      'assistant:Answer 1.',
      'user:Thanks.',
      'assistant:Answer 2.',
    ]);
  });

  it('shares one recorded history per manager, however many adapters are created for it', async () => {
    const manager = new ContextManager({ systemPrompt: SYSTEM_PROMPT });
    const conversation: ModelMessage[] = [{ role: 'user', content: 'Where is the retry policy?' }];
    // A server that creates the adapter per request, for one long-lived manager.
    for (let request = 0; request < 20; request += 1) await createMobiusPrepareStep({ manager }).prepareStep({ messages: conversation });
    expect(manager.listenerCount('entry-add')).toBe(1);
    // The middleware form sees what the prepareStep form recorded.
    expect(createMobiusMiddleware({ manager }).record(conversation)).toBe(0);
    expect(kinds(manager)).toEqual(['user:Where is the retry policy?']);
  });

  it('does not throw on a tool result answered twice, and keeps the window provider-valid', async () => {
    const manager = new ContextManager({ systemPrompt: SYSTEM_PROMPT });
    const mobius = createMobiusPrepareStep({ manager });
    const call: ModelMessage = { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: { path: 'a.ts' } }] };
    const result = (text: string): ModelMessage => ({ role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'read_file', output: { type: 'text', value: text } }] });
    const messages: ModelMessage[] = [{ role: 'user', content: 'Read a.ts' }, call, result('export {}'), result('export {}'), result('export const a = 1;')];
    expect(() => mobius.record(messages)).not.toThrow();
    const entries = manager.state().entries;
    expect(entries.filter((entry) => entry.kind === 'tool-result')).toHaveLength(1);
    // The differing second answer is kept, as a note; the identical copy is dropped.
    const notes = entries.filter((entry) => entry.kind === 'note');
    expect(notes).toHaveLength(1);
    expect(notes[0]?.text).toContain('export const a = 1;');
    const step = await mobius.prepareStep({ messages });
    expect(findProviderProblems(mobius.lastWindow()?.messages ?? [])).toEqual([]);
    expect(step.messages.filter((message) => message.role === 'tool')).toHaveLength(1);
  });

  it('does not throw on two calls with one id in one assistant message', async () => {
    const manager = new ContextManager({ systemPrompt: SYSTEM_PROMPT });
    const mobius = createMobiusPrepareStep({ manager });
    const messages: ModelMessage[] = [
      { role: 'user', content: 'Read a.ts twice' },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: { path: 'a.ts' } },
          { type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: { path: 'a.ts' } },
        ],
      },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'read_file', output: { type: 'text', value: 'export {}' } }] },
    ];
    await expect(mobius.prepareStep({ messages })).resolves.toBeDefined();
    expect(findProviderProblems(mobius.lastWindow()?.messages ?? [])).toEqual([]);
  });

  it('throws InvalidArgumentError naming the bad option and how to fix it', () => {
    const manager = new ContextManager();
    for (const bad of [{ manager, budget: -5 }, { manager, budget: '28k' }, { manager, settle: 'yes' }, { manager: {} }]) {
      let thrown: unknown;
      try {
        createMobiusPrepareStep(bad as never);
      } catch (error) {
        thrown = error;
      }
      expect(InvalidArgumentError.isInstance(thrown)).toBe(true);
      const error = thrown as InvalidArgumentError;
      const path = Object.keys(bad).find((key) => key !== 'manager') ?? 'manager';
      expect(error.parameter).toBe(path);
      expect(error.message).toContain(path);
      expect(error.message).toContain('Example: createMobiusPrepareStep({ manager, budget: 28_000 })');
    }
    expect(() => createMobiusMiddleware({ manager, budjet: 1 } as never)).toThrow(/createMobiusMiddleware\(\).*budjet/s);
  });

  it('throws BUDGET_TOO_SMALL when the budget cannot hold the system prompt and the newest turn', async () => {
    const manager = new ContextManager({ systemPrompt: SYSTEM_PROMPT });
    const mobius = createMobiusPrepareStep({ manager, budget: 120 });
    const question = `Please review this stack trace: ${'at handler (src/server/routes/user.ts:42:17) '.repeat(30)}`;
    const error = await mobius.prepareStep({ messages: [{ role: 'user', content: question }] }).catch((caught: unknown) => caught);
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as InvalidArgumentError).code).toBe('BUDGET_TOO_SMALL');
    expect((error as Error).message).toMatch(/budget.*120.*newest turn/s);
    // A prefix alone too large for the budget is the same typed error.
    const tiny = createMobiusPrepareStep({ manager, budget: 5 });
    await expect(tiny.prepareStep({ messages: [] })).rejects.toMatchObject({ code: 'BUDGET_TOO_SMALL' });
  });
});

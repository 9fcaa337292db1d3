// Real agent traffic through the LangChain.js middleware: a plain message history resent with
// every invoke(), a restored session, a tool result answered twice, a budget too small.
import { AIMessage, HumanMessage, ToolMessage, createAgent, fakeModel, tool } from 'langchain';
import type { BaseMessage } from 'langchain';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { mobiusContextMiddleware } from '../../src/adapters/langchain/index.js';
import { contentText } from '../../src/adapters/langchain/message-recorder.js';
import { ContextManager } from '../../src/context-manager.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { createMemoryStorage } from '../../src/storage/memory.js';
import { findProviderProblems } from '../../src/testing/provider-validity.js';
import type { ContextMessage } from '../../src/types.js';

const SYSTEM_PROMPT = 'You are a careful coding agent.';

const readFile = tool((args: { path: string }) => `contents of ${args.path}:\n  export const retries = 3;`, {
  name: 'read_file',
  description: 'Reads a file.',
  schema: z.object({ path: z.string() }),
});

/** A message history as an app keeps it in its database: plain objects, no ids. */
type PlainMessage = { role: 'user' | 'assistant' | 'tool'; content: string; tool_calls?: { id: string; name: string; args: Record<string, unknown> }[]; tool_call_id?: string };

function toPlain(message: BaseMessage): PlainMessage {
  const content = contentText(message.content);
  if (AIMessage.isInstance(message)) {
    const calls = (message.tool_calls ?? []).map((call) => ({ id: call.id ?? '', name: call.name, args: call.args }));
    return calls.length > 0 ? { role: 'assistant', content, tool_calls: calls } : { role: 'assistant', content };
  }
  if (ToolMessage.isInstance(message)) return { role: 'tool', content, tool_call_id: message.tool_call_id };
  return { role: 'user', content };
}

function entries(manager: ContextManager): string[] {
  return manager.state().entries.map((entry) => `${entry.kind}:${entry.text.replace(/\s+/g, ' ').slice(0, 40)}`);
}

function toContextMessages(messages: readonly BaseMessage[]): ContextMessage[] {
  return messages.flatMap((message): ContextMessage[] => {
    const content = contentText(message.content);
    if (HumanMessage.isInstance(message)) return [{ role: 'user', content }];
    if (AIMessage.isInstance(message)) {
      const toolCalls = (message.tool_calls ?? []).map((call) => ({ id: call.id ?? '', name: call.name, input: call.args }));
      return [toolCalls.length > 0 ? { role: 'assistant', content, toolCalls } : { role: 'assistant', content }];
    }
    if (ToolMessage.isInstance(message)) return [{ role: 'tool', toolCallId: message.tool_call_id, toolName: message.name ?? '', content, isError: message.status === 'error' }];
    return [];
  });
}

describe('mobiusContextMiddleware() under real traffic', () => {
  it('records a plain message history resent with every invoke() once', async () => {
    const manager = new ContextManager({ systemPrompt: SYSTEM_PROMPT });
    const model = fakeModel()
      .respond(new AIMessage({ content: '', tool_calls: [{ id: 'c1', name: 'read_file', args: { path: 'src/retry.ts' }, type: 'tool_call' }] }))
      .respond(new AIMessage('Retries are set to 3.'))
      .respond(new AIMessage('Done: retries is now 5.'));
    // No checkpointer: the app keeps the history and sends all of it each time.
    const agent = createAgent({ model, tools: [readFile], middleware: [mobiusContextMiddleware({ manager })] });
    const first = await agent.invoke({ messages: [{ role: 'user', content: 'How many retries does src/retry.ts allow?' }] });
    const before = entries(manager);
    expect(before).toEqual(['user:How many retries does src/retry.ts allow', 'assistant:', 'tool-result:contents of src/retry.ts: export const r', 'assistant:Retries are set to 3.']);
    await agent.invoke({ messages: [...first.messages.map(toPlain), { role: 'user', content: 'Raise it to 5.' }] });
    expect(entries(manager)).toEqual([...before, 'user:Raise it to 5.', 'assistant:Done: retries is now 5.']);
  });

  it('records only the new suffix of a restored session', async () => {
    const storage = createMemoryStorage();
    const manager = new ContextManager({ systemPrompt: SYSTEM_PROMPT, storage, sessionId: 'restored' });
    const model = fakeModel().respond(new AIMessage('The retry policy lives in src/retry.ts.')).respond(new AIMessage('The timeout is 30 s.'));
    const first = await createAgent({ model, tools: [], middleware: [mobiusContextMiddleware({ manager })] }).invoke({ messages: [new HumanMessage('Where is the retry policy?')] });
    await manager.save();

    const restored = await ContextManager.load({ systemPrompt: SYSTEM_PROMPT, storage, sessionId: 'restored' });
    const agent = createAgent({ model, tools: [], middleware: [mobiusContextMiddleware({ manager: restored })] });
    await agent.invoke({ messages: [...first.messages.map(toPlain), { role: 'user', content: 'And the timeout?' }] });
    expect(entries(restored)).toEqual(['user:Where is the retry policy?', 'assistant:The retry policy lives in src/retry.ts.', 'user:And the timeout?', 'assistant:The timeout is 30 s.']);
    // The model saw each message once.
    const seen = toContextMessages(model.calls.at(-1)?.messages ?? []);
    expect(seen.filter((message) => message.role === 'user')).toHaveLength(2);
  });

  it('does not fail the agent on a tool result answered twice, and keeps the window provider-valid', async () => {
    const manager = new ContextManager({ systemPrompt: SYSTEM_PROMPT });
    const model = fakeModel().respond(new AIMessage('It exports nothing.'));
    const agent = createAgent({ model, tools: [], middleware: [mobiusContextMiddleware({ manager })] });
    const call = new AIMessage({ content: '', tool_calls: [{ id: 'c1', name: 'read_file', args: { path: 'a.ts' }, type: 'tool_call' }] });
    await agent.invoke({
      messages: [
        new HumanMessage('Read a.ts'),
        call,
        new ToolMessage({ content: 'export {}', tool_call_id: 'c1', name: 'read_file' }),
        new ToolMessage({ content: 'export {}', tool_call_id: 'c1', name: 'read_file' }),
        new ToolMessage({ content: 'export const a = 1;', tool_call_id: 'c1', name: 'read_file' }),
      ],
    });
    expect(entries(manager)).toEqual([
      'user:Read a.ts',
      'assistant:',
      'tool-result:export {}',
      'note:Another result of tool call "c1" (read_f',
      'assistant:It exports nothing.',
    ]);
    const sent = toContextMessages(model.calls[0]?.messages ?? []);
    expect(findProviderProblems([{ role: 'system', content: SYSTEM_PROMPT }, ...sent])).toEqual([]);
    expect(sent.filter((message) => message.role === 'tool')).toHaveLength(1);
  });

  it('records an AI message\'s text blocks, not its tool_use or reasoning blocks, and marks a user\'s image', async () => {
    const manager = new ContextManager({ systemPrompt: SYSTEM_PROMPT });
    // Content as Anthropic models return it: reasoning, text and tool_use blocks beside tool_calls.
    const model = fakeModel()
      .respond(
        new AIMessage({
          content: [
            { type: 'thinking', thinking: 'The user wants the retry count.' },
            { type: 'text', text: 'Reading the file.' },
            { type: 'tool_use', id: 'c1', name: 'read_file', input: { path: 'src/retry.ts' } },
          ],
          tool_calls: [{ id: 'c1', name: 'read_file', args: { path: 'src/retry.ts' }, type: 'tool_call' }],
        }),
      )
      .respond(new AIMessage('Retries are set to 3.'));
    const agent = createAgent({ model, tools: [readFile], middleware: [mobiusContextMiddleware({ manager })] });
    await agent.invoke({
      messages: [new HumanMessage({ content: [{ type: 'text', text: 'How many retries?' }, { type: 'image', url: 'https://example.com/screenshot.png' }] })],
    });
    expect(entries(manager)).toEqual(['user:How many retries? [image]', 'assistant:Reading the file.', 'tool-result:contents of src/retry.ts: export const r', 'assistant:Retries are set to 3.']);
  });

  it('throws BUDGET_TOO_SMALL when the budget cannot hold the system prompt and the newest turn', async () => {
    const manager = new ContextManager({ systemPrompt: SYSTEM_PROMPT });
    const model = fakeModel().respond(new AIMessage('ok'));
    const agent = createAgent({ model, tools: [], middleware: [mobiusContextMiddleware({ manager, budget: 120 })] });
    const question = `Please review this stack trace: ${'at handler (src/server/routes/user.ts:42:17) '.repeat(30)}`;
    const thrown = await agent.invoke({ messages: [new HumanMessage(question)] }).catch((caught: unknown) => caught);
    // LangChain wraps what a middleware throws in a MiddlewareError; ours is its cause.
    const error = (thrown as Error).cause;
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/budget.*120.*newest turn/s);
    expect((error as InvalidArgumentError).code).toBe('BUDGET_TOO_SMALL');
    expect(model.calls).toHaveLength(0);
  });
});

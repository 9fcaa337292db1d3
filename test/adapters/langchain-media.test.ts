// Images and files in the newest human turn reach the model through the LangChain.js middleware
// as the blocks the app gave; history keeps their placeholders, and the budget makes room for them.
import { AIMessage, HumanMessage, createAgent, fakeModel } from 'langchain';
import type { BaseMessage } from 'langchain';
import { describe, expect, it } from 'vitest';
import { MEDIA_PART_TOKENS, mobiusContextMiddleware } from '../../src/adapters/langchain/index.js';
import { ContextManager } from '../../src/context-manager.js';
import { InvalidArgumentError } from '../../src/errors.js';

const SYSTEM_PROMPT = 'You are a careful coding agent.';
const SCREENSHOT = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk';

/** The human messages a model call received, each as its blocks' types (and text). */
function humanContent(messages: readonly BaseMessage[] | undefined): string[][] {
  return (messages ?? []).flatMap((message) => {
    if (!HumanMessage.isInstance(message)) return [];
    if (typeof message.content === 'string') return [[`text:${message.content}`]];
    return [message.content.map((block) => (typeof block === 'string' ? `text:${block}` : block.type === 'text' ? `text:${String(block['text'])}` : String(block.type)))];
  });
}

const withScreenshot = (): HumanMessage =>
  new HumanMessage({
    content: [
      { type: 'text', text: 'The login page renders blank. What is wrong in this screenshot?' },
      { type: 'image', source_type: 'base64', data: SCREENSHOT, mime_type: 'image/png' },
    ],
  });

describe('mobiusContextMiddleware(): media in the newest human turn', () => {
  it('passes the newest turn’s image block through and keeps the placeholder in history', async () => {
    const manager = new ContextManager({ systemPrompt: SYSTEM_PROMPT });
    const model = fakeModel().respond(new AIMessage('The CSS bundle failed to load.')).respond(new AIMessage('Rebuild the bundle.'));
    const agent = createAgent({ model, tools: [], middleware: [mobiusContextMiddleware({ manager })] });
    const first = await agent.invoke({ messages: [withScreenshot()] });
    expect(humanContent(model.calls[0]?.messages)).toEqual([['text:The login page renders blank. What is wrong in this screenshot?', 'image']]);
    const sent = model.calls[0]?.messages.find((message) => HumanMessage.isInstance(message));
    const block = Array.isArray(sent?.content) ? sent.content[1] : undefined;
    expect(typeof block === 'object' ? block['data'] : undefined).toBe(SCREENSHOT);
    expect(manager.state().entries[0]?.text).toBe('The login page renders blank. What is wrong in this screenshot?\n[image]');

    await agent.invoke({ messages: [...first.messages, new HumanMessage('Thanks, how do I fix it?')] });
    expect(humanContent(model.calls[1]?.messages)).toEqual([['text:The login page renders blank. What is wrong in this screenshot?\n[image]'], ['text:Thanks, how do I fix it?']]);
    expect(manager.state().entries.map((entry) => entry.kind)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });

  it('keeps room in the budget for the media and throws BUDGET_TOO_SMALL when there is none', async () => {
    const manager = new ContextManager({ systemPrompt: SYSTEM_PROMPT });
    const model = fakeModel().respond(new AIMessage('ok'));
    const agent = createAgent({ model, tools: [], middleware: [mobiusContextMiddleware({ manager, budget: MEDIA_PART_TOKENS })] });
    const thrown = await agent.invoke({ messages: [withScreenshot()] }).catch((caught: unknown) => caught);
    const error = (thrown as Error).cause;
    expect(InvalidArgumentError.isInstance(error) && error.code).toBe('BUDGET_TOO_SMALL');
    expect((error as Error).message).toContain('1 media part');
    expect(model.calls).toHaveLength(0);
  });
});

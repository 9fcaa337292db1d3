// Images and files in the newest user turn reach the model through the AI SDK adapter as the
// parts the app gave; history keeps their placeholders, and the budget makes room for them.
import { generateText, wrapLanguageModel } from 'ai';
import type { ModelMessage } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { MEDIA_PART_TOKENS, createMobiusMiddleware, createMobiusPrepareStep } from '../../src/adapters/ai-sdk/index.js';
import { ContextManager } from '../../src/context-manager.js';
import { InvalidArgumentError } from '../../src/errors.js';

type Prompt = Parameters<MockLanguageModelV3['doGenerate']>[0]['prompt'];

const SYSTEM_PROMPT = 'You are a careful coding agent.';
const SCREENSHOT = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3, 4]);
const LOG_FILE = new Uint8Array([52, 48, 52, 32, 110, 111, 116, 32, 102, 111, 117, 110, 100]);

/** A mock model that answers `reply` and keeps every prompt it was given. */
function answeringModel(reply: string): { model: MockLanguageModelV3; prompts: Prompt[] } {
  const prompts: Prompt[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options) => {
      prompts.push(options.prompt);
      return {
        content: [{ type: 'text', text: reply }],
        finishReason: { unified: 'stop', raw: undefined },
        usage: { inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 5, text: 5, reasoning: undefined } },
        warnings: [],
      };
    },
  });
  return { model, prompts };
}

/** The user messages of a prompt, each as the types of its parts with their text or media type. */
function userContent(prompt: Prompt | undefined): string[][] {
  return (prompt ?? []).flatMap((message) =>
    message.role === 'user' ? [message.content.map((part) => (part.type === 'text' ? `text:${part.text}` : `${part.type}:${part.mediaType}`))] : [],
  );
}

const withScreenshot: ModelMessage = {
  role: 'user',
  content: [
    { type: 'text', text: 'The login page renders blank. What is wrong in this screenshot?' },
    { type: 'image', image: SCREENSHOT, mediaType: 'image/png' },
    { type: 'text', text: 'And in this log?' },
    { type: 'file', data: LOG_FILE, mediaType: 'text/plain', filename: 'server.log' },
  ],
};

describe('AI SDK adapter: media in the newest user turn', () => {
  it('passes the newest turn’s image and file through (prepareStep) and keeps placeholders in history', async () => {
    const manager = new ContextManager({ systemPrompt: SYSTEM_PROMPT });
    const mobius = createMobiusPrepareStep({ manager });
    const first = answeringModel('The CSS bundle failed to load.');
    const history: ModelMessage[] = [withScreenshot];
    const result = await generateText({ model: first.model, messages: [...history], prepareStep: mobius.prepareStep, onStepFinish: mobius.onStepFinish });
    expect(userContent(first.prompts[0])).toEqual([['text:The login page renders blank. What is wrong in this screenshot?', 'file:image/png', 'text:And in this log?', 'file:text/plain']]);
    const sent = first.prompts[0]?.find((message) => message.role === 'user');
    const image = sent?.role === 'user' ? sent.content.find((part) => part.type === 'file') : undefined;
    expect(image?.type === 'file' ? image.data : undefined).toEqual(SCREENSHOT);
    // The manager holds the placeholders.
    expect(manager.state().entries[0]?.text).toBe('The login page renders blank. What is wrong in this screenshot?\n[image]\nAnd in this log?\n[file server.log (text/plain)]');

    // The next turn is the newest: the screenshot's turn is history, shown as text.
    history.push(...result.response.messages, { role: 'user', content: 'Thanks, how do I fix it?' });
    const second = answeringModel('Rebuild the bundle.');
    await generateText({ model: second.model, messages: [...history], prepareStep: mobius.prepareStep, onStepFinish: mobius.onStepFinish });
    expect(userContent(second.prompts[0])).toEqual([
      ['text:The login page renders blank. What is wrong in this screenshot?\n[image]\nAnd in this log?\n[file server.log (text/plain)]'],
      ['text:Thanks, how do I fix it?'],
    ]);
    expect(manager.state().entries.map((entry) => entry.kind)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });

  it('passes the newest turn’s media through the middleware too', async () => {
    const manager = new ContextManager({ systemPrompt: SYSTEM_PROMPT });
    const middleware = createMobiusMiddleware({ manager });
    const { model, prompts } = answeringModel('A blank page.');
    await generateText({ model: wrapLanguageModel({ model, middleware }), messages: [{ role: 'user', content: [{ type: 'image', image: SCREENSHOT, mediaType: 'image/png' }] }] });
    expect(userContent(prompts[0])).toEqual([['file:image/png']]);
    // The prompt the middleware reads holds images as files.
    expect(manager.state().entries[0]?.text).toBe('[file (image/png)]');
  });

  it('keeps room in the budget for each media part and says so when there is none', async () => {
    const manager = new ContextManager({ systemPrompt: SYSTEM_PROMPT });
    for (let turn = 0; turn < 40; turn += 1) {
      manager.addMessage({ role: 'user', content: `Question ${turn}: which module reads the retry setting from the environment, and where is it validated?` });
      manager.addMessage({ role: 'assistant', content: `Answer ${turn}: src/config/env.ts reads it; src/config/schema.ts validates it against the allowed range.` });
    }
    const budget = 5_000;
    const mobius = createMobiusPrepareStep({ manager, budget, settle: false });
    const { model, prompts } = answeringModel('It is blank.');
    await generateText({ model, messages: [withScreenshot], prepareStep: mobius.prepareStep });
    expect(userContent(prompts[0]).at(-1)).toContain('file:image/png');
    const built = mobius.lastWindow();
    expect(built?.tokens.total).toBeLessThanOrEqual(budget - 2 * MEDIA_PART_TOKENS);
    expect(built?.tokens.total).toBeGreaterThan(0);

    const tight = createMobiusPrepareStep({ manager, budget: 3_000, settle: false });
    const fourImages: ModelMessage = { role: 'user', content: [{ type: 'text', text: 'Compare these.' }, ...[1, 2, 3, 4].map(() => ({ type: 'image' as const, image: SCREENSHOT, mediaType: 'image/png' }))] };
    const error = await tight.prepareStep({ messages: [fourImages] }).catch((caught: unknown) => caught);
    expect(InvalidArgumentError.isInstance(error) && error.code).toBe('BUDGET_TOO_SMALL');
    expect(String((error as Error).message)).toContain('4 media parts');
  });

  it('sends a window without media parts unchanged when the newest turn has none', async () => {
    const manager = new ContextManager({ systemPrompt: SYSTEM_PROMPT });
    const mobius = createMobiusPrepareStep({ manager });
    const step = await mobius.prepareStep({ messages: [withScreenshot, { role: 'assistant', content: 'A blank page.' }, { role: 'user', content: 'Why?' }] });
    expect(step.messages.map((message) => typeof message.content)).toEqual(['string', 'object', 'string']);
  });
});

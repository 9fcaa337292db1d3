// Runs on Node >= 22.13 only (Mastra's requirement): `npm run test:node22`.
// Images and files in the newest user turn reach the model through the Mastra processor as the
// parts Mastra built; history keeps their placeholders, and the budget makes room for them.
import { Agent } from '@mastra/core/agent';
import type { LanguageModelV3CallOptions, LanguageModelV3Prompt } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { MEDIA_PART_TOKENS, MobiusContextProcessor } from '../../src/adapters/mastra/index.js';
import { ContextManager } from '../../src/context-manager.js';

const SYSTEM_PROMPT = 'You are a careful coding agent.';
const SCREENSHOT = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 1, 2, 3, 4]);

function answeringModel(replies: readonly string[]): { model: MockLanguageModelV3; prompts: LanguageModelV3Prompt[] } {
  const prompts: LanguageModelV3Prompt[] = [];
  const model = new MockLanguageModelV3({
    doGenerate: async (options: LanguageModelV3CallOptions) => {
      prompts.push(options.prompt);
      return {
        content: [{ type: 'text', text: replies[Math.min(prompts.length - 1, replies.length - 1)] ?? '' }],
        finishReason: { unified: 'stop', raw: undefined },
        usage: { inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 5, text: 5, reasoning: undefined } },
        warnings: [],
      };
    },
  });
  return { model, prompts };
}

function userContent(prompt: LanguageModelV3Prompt | undefined): string[][] {
  return (prompt ?? []).flatMap((message) => (message.role === 'user' ? [message.content.map((part) => (part.type === 'text' ? `text:${part.text}` : `file:${part.mediaType}`))] : []));
}

const question = {
  role: 'user' as const,
  content: [
    { type: 'text' as const, text: 'The login page renders blank. What is wrong in this screenshot?' },
    { type: 'image' as const, image: SCREENSHOT, mediaType: 'image/png' },
  ],
};

describe('MobiusContextProcessor: media in the newest user turn', () => {
  it('passes the newest turn’s image through and keeps the placeholder in history', async () => {
    const manager = new ContextManager({ systemPrompt: SYSTEM_PROMPT });
    const mobius = new MobiusContextProcessor({ manager });
    const { model, prompts } = answeringModel(['The CSS bundle failed to load.', 'Rebuild the bundle.']);
    const agent = new Agent({ id: 'coder', name: 'coder', instructions: '', model, inputProcessors: [mobius], outputProcessors: [mobius] });
    const first = await agent.generate([question]);
    expect(userContent(prompts[0])).toEqual([['text:The login page renders blank. What is wrong in this screenshot?', 'file:image/png']]);
    const recorded = manager.state().entries[0]?.text ?? '';
    expect(recorded).toMatch(/^The login page renders blank\. What is wrong in this screenshot\?\n\[file: image\/png\]$/);

    await agent.generate([question, ...(first.response.messages ?? []), { role: 'user', content: 'Thanks, how do I fix it?' }]);
    expect(userContent(prompts[1])).toEqual([[`text:${recorded}`], ['text:Thanks, how do I fix it?']]);
    expect(manager.state().entries.map((entry) => entry.kind)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });

  it('throws BUDGET_TOO_SMALL when the budget cannot hold the media', async () => {
    const manager = new ContextManager({ systemPrompt: SYSTEM_PROMPT });
    const mobius = new MobiusContextProcessor({ manager, budget: MEDIA_PART_TOKENS });
    const { model, prompts } = answeringModel(['ok']);
    const agent = new Agent({ id: 'coder', name: 'coder', instructions: '', model, inputProcessors: [mobius], outputProcessors: [mobius] });
    const error = await agent.generate([question]).then(
      (result) => result.error,
      (caught: unknown) => caught,
    );
    // Mastra hands back a copy of what a processor throws: its name, message and fields survive.
    expect(error).toMatchObject({ name: 'InvalidArgumentError', code: 'BUDGET_TOO_SMALL', parameter: 'budget' });
    expect((error as Error).message).toContain('1 media part (1600 tokens each)');
    expect(prompts).toHaveLength(0);
  });
});

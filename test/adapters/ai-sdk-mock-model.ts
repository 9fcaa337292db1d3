// A scripted AI SDK mock model, a file-reading tool and a one-line view of what a manager
// recorded, shared by the AI SDK traffic and version-operation suites.
import { jsonSchema, tool } from 'ai';
import type { ToolSet } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import type { ContextManager } from '../../src/context-manager.js';

type GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;

/** What the mock model answers at one step. */
export type Content = GenerateResult['content'];

/** A mock model that answers with the given replies in turn, then repeats the last one. */
export function scriptedModel(replies: readonly Content[]): MockLanguageModelV3 {
  let call = 0;
  return new MockLanguageModelV3({
    doGenerate: async () => {
      const content = replies[Math.min(call, replies.length - 1)] ?? [];
      call += 1;
      return {
        content,
        finishReason: { unified: content.some((part) => part.type === 'tool-call') ? 'tool-calls' : 'stop', raw: undefined },
        usage: { inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 5, text: 5, reasoning: undefined } },
        warnings: [],
      };
    },
  });
}

/** A `read_file` tool whose result names the path it read. */
export const tools: ToolSet = {
  read_file: tool({
    description: 'Reads a file.',
    inputSchema: jsonSchema<{ path: string }>({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }),
    execute: async ({ path }) => `contents of ${path}: export const retries = 3;`,
  }),
};

/** Each recorded entry as `kind:first 40 characters`. */
export function kinds(manager: ContextManager): string[] {
  return manager.state().entries.map((entry) => `${entry.kind}:${entry.text.slice(0, 40)}`);
}

import type { ProcessLLMRequestArgs } from '@mastra/core/processors';
import { z } from 'zod';
import type { NormalizedWindow } from '../../providers/normalize.js';
import { parse } from '../../validation.js';

/** The prompt Mastra hands a model (the AI SDK's provider-level prompt). */
export type MastraPrompt = ProcessLLMRequestArgs['prompt'];

/**
 * Turns a normalized window into the prompt Mastra sends to the model: the `systemMessages`
 * given (e.g. the agent's instructions and other processors' system messages) first, then the
 * window's system prompt, then its turns — user text, assistant text with `tool-call` parts,
 * and `tool-result` parts with `text` or `error-text` output right after their calls.
 *
 * @example
 * ```ts
 * const prompt = toMastraPrompt(normalizeWindow(manager.build({ budget: 28_000 })));
 * ```
 * @throws {InvalidArgumentError} when `window` is not a normalized window or `systemMessages` not a list of strings.
 */
export function toMastraPrompt(window: Pick<NormalizedWindow, 'system' | 'messages'>, options: { systemMessages?: readonly string[] | undefined } = {}): MastraPrompt {
  parse(promptInputSchema, { window, options }, 'toMastraPrompt', 'toMastraPrompt(normalizeWindow(manager.build()), { systemMessages: [] })');
  const prompt: MastraPrompt = (options.systemMessages ?? []).filter((text) => text.length > 0).map((content) => ({ role: 'system' as const, content }));
  if (window.system.length > 0) prompt.push({ role: 'system', content: window.system });
  for (const turn of window.messages) {
    if (turn.role === 'user') {
      prompt.push({ role: 'user', content: [{ type: 'text', text: turn.content }] });
    } else if (turn.role === 'assistant') {
      prompt.push({
        role: 'assistant',
        content: [
          ...(turn.content.length > 0 ? [{ type: 'text' as const, text: turn.content }] : []),
          ...turn.toolCalls.map((call) => ({ type: 'tool-call' as const, toolCallId: call.id, toolName: call.name, input: call.input })),
        ],
      });
    } else {
      prompt.push({
        role: 'tool',
        content: turn.results.map((result) => ({
          type: 'tool-result' as const,
          toolCallId: result.toolCallId,
          toolName: result.toolName,
          output: result.isError ? { type: 'error-text' as const, value: result.content } : { type: 'text' as const, value: result.content },
        })),
      });
    }
  }
  return prompt;
}

// --- Internal helpers ---

const promptInputSchema = z.object({
  window: z.looseObject({ system: z.string(), messages: z.array(z.looseObject({ role: z.enum(['user', 'assistant', 'tool']) })) }),
  options: z.strictObject({ systemMessages: z.array(z.string()).optional() }),
});

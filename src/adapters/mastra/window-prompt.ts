import type { ProcessLLMRequestArgs } from '@mastra/core/processors';
import type { NormalizedWindow } from '../../providers/normalize.js';

/** The prompt Mastra hands a model (the AI SDK's provider-level prompt). */
export type MastraPrompt = ProcessLLMRequestArgs['prompt'];

/**
 * Turns a normalized window into the prompt Mastra sends to the model: the `systemMessages`
 * given (the agent's instructions and other processors' system messages) first, then the
 * window's system prompt, then its turns — user text, assistant text with `tool-call` parts,
 * and `tool-result` parts with `text` or `error-text` output right after their calls.
 *
 * @example
 * ```ts
 * const prompt = toMastraPrompt(normalizeWindow(manager.build({ budget: 28_000 })));
 * ```
 */
export function toMastraPrompt(window: Pick<NormalizedWindow, 'system' | 'messages'>, systemMessages: readonly string[] = []): MastraPrompt {
  const prompt: MastraPrompt = systemMessages.filter((text) => text.length > 0).map((content) => ({ role: 'system' as const, content }));
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

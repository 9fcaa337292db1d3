import type { BuiltContext } from '../build/window-builder.js';
import { normalizeFor } from './normalize.js';
import { resultText } from './openai-chat.js';

/** An input item of an OpenAI Responses request (the subset Mobius produces). */
export type OpenAIResponsesInputItem =
  | { readonly type: 'message'; readonly role: 'user' | 'assistant'; readonly content: string }
  | { readonly type: 'function_call'; readonly call_id: string; readonly name: string; readonly arguments: string }
  | { readonly type: 'function_call_output'; readonly call_id: string; readonly output: string };

/** The `instructions` and `input` of a Responses request: spread them into the request body. */
export interface OpenAIResponsesRequest {
  /** The system prompt; absent when the window has none. */
  readonly instructions?: string;
  /** The history as input items; each `function_call` is followed by its `function_call_output`. */
  readonly input: readonly OpenAIResponsesInputItem[];
}

/**
 * Converts a built window to an OpenAI Responses request (stateless: no `previous_response_id`):
 * the system prompt as `instructions`, the normalized history (see `normalizeWindow`) as `input`
 * items, each `function_call` answered by its `function_call_output` right after the calls of its
 * turn. A result the tool reported as an error starts with `Error: `.
 *
 * @example
 * ```ts
 * const response = await openai.responses.create({ model: 'gpt-4.1', store: false, ...toOpenAIResponses(manager.build()) });
 * ```
 * @throws {InvalidArgumentError} when `built` is not a `build()` result.
 */
export function toOpenAIResponses(built: BuiltContext): OpenAIResponsesRequest {
  const normalized = normalizeFor(built, 'toOpenAIResponses');
  const input: OpenAIResponsesInputItem[] = [];
  for (const message of normalized.messages) {
    if (message.role === 'user') {
      input.push({ type: 'message', role: 'user', content: message.content });
    } else if (message.role === 'assistant') {
      if (message.content.length > 0) input.push({ type: 'message', role: 'assistant', content: message.content });
      for (const call of message.toolCalls) input.push({ type: 'function_call', call_id: call.id, name: call.name, arguments: JSON.stringify(call.input) });
    } else {
      for (const result of message.results) input.push({ type: 'function_call_output', call_id: result.toolCallId, output: resultText(result) });
    }
  }
  return normalized.system.trim().length > 0 ? { instructions: normalized.system, input } : { input };
}

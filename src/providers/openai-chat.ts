import { z } from 'zod';
import type { BuiltContext } from '../build/window-builder.js';
import { parse } from '../validation.js';
import { normalizeFor } from './normalize.js';
import type { NormalizedToolResult } from './normalize.js';

/** A tool call of an OpenAI Chat Completions assistant message. */
export interface OpenAIChatToolCall {
  /** The call's id; the `tool` message answering it carries the same id. */
  readonly id: string;
  /** Always `'function'`. */
  readonly type: 'function';
  /** The function called and its arguments as a JSON string. */
  readonly function: { readonly name: string; readonly arguments: string };
}

/** A message of an OpenAI Chat Completions request (the subset Mobius produces). */
export type OpenAIChatMessage =
  | { readonly role: 'system' | 'developer'; readonly content: string }
  | { readonly role: 'user'; readonly content: string }
  | { readonly role: 'assistant'; readonly content: string | null; readonly tool_calls?: readonly OpenAIChatToolCall[] }
  | { readonly role: 'tool'; readonly tool_call_id: string; readonly content: string };

/** Options of {@link toOpenAIChat}. */
export interface OpenAIChatOptions {
  /** Role of the system message: `'developer'` for reasoning models that expect it. @default 'system' */
  systemRole?: 'system' | 'developer' | undefined;
}

/** The `messages` of a Chat Completions request: spread it into the request body. */
export interface OpenAIChatRequest {
  /** The system message (when the window has a system prompt), then the history. */
  readonly messages: readonly OpenAIChatMessage[];
}

/**
 * Converts a built window to OpenAI Chat Completions `messages`: the system prompt first, then the
 * normalized history (see `normalizeWindow`), each assistant `tool_calls` message followed by one
 * `tool` message per call. A result the tool reported as an error starts with `Error: `, since the
 * API has no error flag.
 *
 * @example
 * ```ts
 * const response = await openai.chat.completions.create({ model: 'gpt-4.1', ...toOpenAIChat(manager.build()) });
 * ```
 * @throws {InvalidArgumentError} when `built` is not a `build()` result or an option is invalid.
 */
export function toOpenAIChat(built: BuiltContext, options: OpenAIChatOptions = {}): OpenAIChatRequest {
  const { systemRole } = parse(optionsSchema, options, 'toOpenAIChat', "toOpenAIChat(built, { systemRole: 'developer' })");
  const normalized = normalizeFor(built, 'toOpenAIChat');
  const messages: OpenAIChatMessage[] = [];
  if (normalized.system.trim().length > 0) messages.push({ role: systemRole, content: normalized.system });
  for (const message of normalized.messages) {
    if (message.role === 'user') {
      messages.push({ role: 'user', content: message.content });
    } else if (message.role === 'assistant') {
      if (message.toolCalls.length === 0) {
        messages.push({ role: 'assistant', content: message.content });
      } else {
        messages.push({
          role: 'assistant',
          content: message.content.length > 0 ? message.content : null,
          tool_calls: message.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.input) } })),
        });
      }
    } else {
      for (const result of message.results) messages.push({ role: 'tool', tool_call_id: result.toolCallId, content: resultText(result) });
    }
  }
  return { messages };
}

/**
 * The text a tool result is given in formats without an error flag: the result, prefixed with
 * `Error: ` when the tool reported an error.
 * @internal
 */
export function resultText(result: NormalizedToolResult): string {
  return result.isError ? `Error: ${result.content}` : result.content;
}

// --- Internal helpers ---

const optionsSchema = z.strictObject({
  systemRole: z.enum(['system', 'developer']).default('system'),
});

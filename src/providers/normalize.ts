/**
 * `normalizeWindow(built)`: turns a built window into a provider-neutral sequence of turns that
 * every chat API accepts as is. The provider formats (`toOpenAIChat`, `toOpenAIResponses`,
 * `toAnthropic`) and the framework adapters all start from it.
 *
 * What it guarantees, whatever the window holds:
 * - the history begins with a user turn: when the window's first shown message is the assistant's
 *   (its earlier turns graduated into the system prompt) or the window has no message at all, a
 *   short neutral user turn ({@link CONTINUATION_TEXT}) is inserted before it. Leading assistant
 *   content is not folded into a user turn: that would put the assistant's words, and possibly its
 *   tool calls, in the user's mouth;
 * - no two consecutive turns have the same role: consecutive user texts are joined with a blank
 *   line, and an assistant text is joined with the assistant turn that follows it (whose tool
 *   calls it keeps);
 * - each assistant turn with tool calls is followed at once by one `tool` turn that holds a result
 *   for each of its calls, in call order (consecutive results grouped);
 * - no text is empty or whitespace only: such messages carry nothing and are left out (before the
 *   merge), and an assistant turn that only calls tools has `content: ''`.
 *
 * The inserted turn costs at most {@link CONTINUATION_TOKENS} tokens more than `build()` charged;
 * merging turns saves the framing of each merged message, which usually pays for it.
 */
import type { BuiltContext, SystemBlock } from '../build/window-builder.js';
import type { ContextMessage, ToolCall } from '../types.js';
import { parseBuiltContext } from './built-context-input.js';

/** Text of the user turn inserted when a window's history does not begin with a user turn. */
export const CONTINUATION_TEXT = '(Continuing the session: earlier turns are summarised above.)';

/** Upper bound of the tokens the inserted continuation turn adds to a window (text + framing). */
export const CONTINUATION_TOKENS = 20;

/** One tool result of a normalized `tool` turn. */
export interface NormalizedToolResult {
  /** Id of the call it answers (the call is in the assistant turn right before). */
  readonly toolCallId: string;
  /** The tool's name. */
  readonly toolName: string;
  /** The result as text (may be empty). */
  readonly content: string;
  /** Whether the tool reported an error. */
  readonly isError: boolean;
}

/** A turn of a normalized window: user text, an assistant turn, or the results of its tool calls. */
export type NormalizedMessage =
  | { readonly role: 'user'; readonly content: string }
  | { readonly role: 'assistant'; readonly content: string; readonly toolCalls: readonly ToolCall[] }
  | { readonly role: 'tool'; readonly results: readonly NormalizedToolResult[] };

/** A built window as a structurally valid, provider-neutral sequence (see {@link normalizeWindow}). */
export interface NormalizedWindow {
  /** The system prompt (all system blocks joined), as in `BuiltContext.system`. */
  readonly system: string;
  /** The system prompt per block, most stable first; their texts joined with a blank line are `system`. */
  readonly systemBlocks: readonly SystemBlock[];
  /** The history: starts with a user turn, alternates roles, each call answered right after it. */
  readonly messages: readonly NormalizedMessage[];
  /** Whether a {@link CONTINUATION_TEXT} turn was inserted at the start. */
  readonly isContinuationInserted: boolean;
}

/**
 * Normalizes a built window so that any chat API accepts it (see the file's header for the rules).
 * Pure: the same window gives the same result; `built` is not changed.
 * @throws {InvalidArgumentError} when `built` is not a `build()` result.
 *
 * @example
 * ```ts
 * const { system, messages } = normalizeWindow(manager.build({ budget: 28_000 }));
 * ```
 */
export function normalizeWindow(built: BuiltContext): NormalizedWindow {
  return normalizeFor(built, 'normalizeWindow');
}

/** {@link normalizeWindow}, with `method` named in the error when `built` is invalid. @internal */
export function normalizeFor(built: BuiltContext, method: string): NormalizedWindow {
  parseBuiltContext(built, method);
  const turns: MutableTurn[] = [];
  for (const message of built.history) appendMessage(turns, message);
  const first = turns[0];
  const isContinuationInserted = first === undefined || first.role !== 'user';
  if (isContinuationInserted) turns.unshift({ role: 'user', parts: [CONTINUATION_TEXT] });
  const messages = turns.map(freeze);
  return { system: built.system, systemBlocks: built.systemBlocks, messages, isContinuationInserted };
}

// --- Internal helpers ---

type MutableTurn =
  | { role: 'user'; parts: string[] }
  | { role: 'assistant'; parts: string[]; toolCalls: ToolCall[] }
  | { role: 'tool'; results: NormalizedToolResult[] };

function appendMessage(turns: MutableTurn[], message: ContextMessage): void {
  const last = turns[turns.length - 1];
  switch (message.role) {
    case 'system':
      // build() puts the system prompt in `system`, never in the history; kept as user text if it ever is.
      appendText(turns, 'user', message.content);
      return;
    case 'user':
      appendText(turns, 'user', message.content);
      return;
    case 'assistant': {
      const calls = message.toolCalls ?? [];
      if (calls.length === 0) {
        appendText(turns, 'assistant', message.content);
        return;
      }
      if (last !== undefined && last.role === 'assistant' && last.toolCalls.length === 0) {
        if (hasText(message.content)) last.parts.push(message.content);
        last.toolCalls.push(...calls);
        return;
      }
      turns.push({ role: 'assistant', parts: hasText(message.content) ? [message.content] : [], toolCalls: [...calls] });
      return;
    }
    case 'tool': {
      const result: NormalizedToolResult = {
        toolCallId: message.toolCallId,
        toolName: message.toolName,
        content: message.content,
        isError: message.isError === true,
      };
      if (last !== undefined && last.role === 'tool') last.results.push(result);
      else turns.push({ role: 'tool', results: [result] });
      return;
    }
  }
}

function appendText(turns: MutableTurn[], role: 'user' | 'assistant', content: string): void {
  if (!hasText(content)) return;
  const last = turns[turns.length - 1];
  // An assistant turn with tool calls is closed: its results must come right after it.
  if (last !== undefined && last.role === role && (last.role === 'user' || last.toolCalls.length === 0)) {
    last.parts.push(content);
    return;
  }
  turns.push(role === 'user' ? { role, parts: [content] } : { role, parts: [content], toolCalls: [] });
}

function hasText(content: string): boolean {
  return content.trim().length > 0;
}

function freeze(turn: MutableTurn): NormalizedMessage {
  if (turn.role === 'tool') return { role: 'tool', results: turn.results };
  const content = turn.parts.join('\n\n');
  return turn.role === 'user' ? { role: 'user', content } : { role: 'assistant', content, toolCalls: turn.toolCalls };
}

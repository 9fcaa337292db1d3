import { z } from 'zod';
import type { BuiltContext } from '../build/window-builder.js';
import type { JsonValue } from '../types.js';
import { parse } from '../validation.js';
import { normalizeFor } from './normalize.js';
import type { NormalizedMessage } from './normalize.js';

/** Marks a prompt-cache breakpoint: the request up to and including this block is cached. */
export interface AnthropicCacheControl {
  /** Always `'ephemeral'`. */
  readonly type: 'ephemeral';
}

/** A text block (system prompt, user or assistant text). */
export interface AnthropicTextBlock {
  readonly type: 'text';
  /** Never empty or whitespace only. */
  readonly text: string;
  readonly cache_control?: AnthropicCacheControl;
}

/** A tool call made by the assistant. */
export interface AnthropicToolUseBlock {
  readonly type: 'tool_use';
  /** Matches `^[a-zA-Z0-9_-]+$`; ids that do not are rewritten (consistently with their result). */
  readonly id: string;
  readonly name: string;
  /** Always an object: a non-object input is passed as `{ input: value }`. */
  readonly input: { readonly [key: string]: JsonValue };
  readonly cache_control?: AnthropicCacheControl;
}

/** The result of a tool call, first in the user message after the call. */
export interface AnthropicToolResultBlock {
  readonly type: 'tool_result';
  readonly tool_use_id: string;
  /** The result text; absent when the tool returned nothing. */
  readonly content?: string;
  readonly is_error?: boolean;
  readonly cache_control?: AnthropicCacheControl;
}

/** A content block of a message Mobius produces. */
export type AnthropicContentBlock = AnthropicTextBlock | AnthropicToolUseBlock | AnthropicToolResultBlock;

/** A message of an Anthropic Messages request. */
export interface AnthropicMessage {
  readonly role: 'user' | 'assistant';
  /** Never empty. */
  readonly content: readonly AnthropicContentBlock[];
}

/** The `system` and `messages` of a Messages request: spread them into the request body. */
export interface AnthropicRequest {
  /** The system prompt, one text block per window block; absent when the window has none. */
  readonly system?: readonly AnthropicTextBlock[];
  /** Starts with a user message; roles alternate; each `tool_use` is answered in the next message. */
  readonly messages: readonly AnthropicMessage[];
}

/** Options of {@link toAnthropic}. */
export interface AnthropicOptions {
  /**
   * How many `cache_control` breakpoints to place (the API accepts at most 4), in this order:
   * the end of the stable prefix (prefix, facts, pins, summaries), the end of the last message,
   * the end of the static prefix, the end of the whole system prompt. Fewer are placed when the
   * window has fewer distinct edges. @default 4
   */
  cacheBreakpoints?: number | undefined;
}

/**
 * Converts a built window to an Anthropic Messages request: the system prompt as one text block
 * per window block (so that `cache_control` can sit at the edge of the stable prefix), then the
 * normalized history (see `normalizeWindow`) with each call's `tool_result` blocks first in the
 * next user message, followed by any user text of that turn.
 *
 * @example
 * ```ts
 * const message = await anthropic.messages.create({
 *   model: 'claude-sonnet-4-5', max_tokens: 2_048, ...toAnthropic(manager.build(), { cacheBreakpoints: 4 }),
 * });
 * ```
 * @throws {InvalidArgumentError} when `built` is not a `build()` result or `cacheBreakpoints` is not an integer from 0 to 4.
 */
export function toAnthropic(built: BuiltContext, options: AnthropicOptions = {}): AnthropicRequest {
  const { cacheBreakpoints } = parse(optionsSchema, options, 'toAnthropic', 'toAnthropic(built, { cacheBreakpoints: 4 })');
  const normalized = normalizeFor(built, 'toAnthropic');
  const blocks = normalized.systemBlocks.filter((block) => block.text.trim().length > 0);
  const ids = createIdMap();
  const messages = toMessages(normalized.messages, ids);

  // Breakpoint candidates, most useful first: [system block index] or 'tail' (the last message).
  const candidates: (number | 'tail')[] = [];
  const lastStable = blocks.reduce((found, block, index) => (block.isStablePrefix && index === found + 1 ? index : found), -1);
  if (lastStable >= 0) candidates.push(lastStable);
  candidates.push('tail');
  if (blocks[0]?.name === 'prefix') candidates.push(0);
  if (blocks.length > 0) candidates.push(blocks.length - 1);
  const chosen = [...new Set(candidates)].slice(0, cacheBreakpoints);

  const system: AnthropicTextBlock[] = blocks.map((block, index) =>
    chosen.includes(index) ? { type: 'text', text: block.text, cache_control: EPHEMERAL } : { type: 'text', text: block.text },
  );
  if (chosen.includes('tail')) {
    const last = messages[messages.length - 1];
    if (last !== undefined) {
      const content = [...last.content];
      content[content.length - 1] = { ...(content[content.length - 1] as AnthropicContentBlock), cache_control: EPHEMERAL };
      messages[messages.length - 1] = { role: last.role, content };
    }
  }
  return system.length > 0 ? { system, messages } : { messages };
}

// --- Internal helpers ---

const EPHEMERAL: AnthropicCacheControl = { type: 'ephemeral' };

const optionsSchema = z.strictObject({
  cacheBreakpoints: z.int().min(0).max(4).default(4),
});

function toMessages(turns: readonly NormalizedMessage[], ids: (id: string) => string): AnthropicMessage[] {
  const messages: AnthropicMessage[] = [];
  let pendingResults: AnthropicToolResultBlock[] | undefined;
  for (const turn of turns) {
    if (turn.role === 'tool') {
      pendingResults = turn.results.map((result) => ({
        type: 'tool_result',
        tool_use_id: ids(result.toolCallId),
        ...(result.content.length > 0 ? { content: result.content } : {}),
        ...(result.isError ? { is_error: true } : {}),
      }));
      continue;
    }
    if (turn.role === 'user') {
      // A user turn right after tool results joins them: results first, then the text.
      messages.push({ role: 'user', content: [...(pendingResults ?? []), { type: 'text', text: turn.content }] });
      pendingResults = undefined;
      continue;
    }
    if (pendingResults !== undefined) messages.push({ role: 'user', content: pendingResults });
    pendingResults = undefined;
    const content: AnthropicContentBlock[] = [];
    if (turn.content.length > 0) content.push({ type: 'text', text: turn.content });
    for (const call of turn.toolCalls) content.push({ type: 'tool_use', id: ids(call.id), name: call.name, input: asObject(call.input) });
    messages.push({ role: 'assistant', content });
  }
  if (pendingResults !== undefined) messages.push({ role: 'user', content: pendingResults });
  return messages;
}

function asObject(input: JsonValue): { readonly [key: string]: JsonValue } {
  return typeof input === 'object' && input !== null && !Array.isArray(input) ? (input as { readonly [key: string]: JsonValue }) : { input };
}

/** Maps call ids to ids the API accepts (`^[a-zA-Z0-9_-]+$`), keeping distinct ids distinct. */
function createIdMap(): (id: string) => string {
  const mapped = new Map<string, string>();
  const used = new Set<string>();
  return (id) => {
    const known = mapped.get(id);
    if (known !== undefined) return known;
    const base = VALID_ID.test(id) ? id : `id_${id.replace(/[^a-zA-Z0-9_-]/g, '_')}`;
    let candidate = base;
    for (let attempt = 2; used.has(candidate); attempt += 1) candidate = `${base}_${attempt}`;
    mapped.set(id, candidate);
    used.add(candidate);
    return candidate;
  };
}

const VALID_ID = /^[a-zA-Z0-9_-]+$/;

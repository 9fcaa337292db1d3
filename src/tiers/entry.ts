import { formatCount } from '../format.js';
import { isProse } from '../language/prose.js';
import { countWithin, estimateTokens } from '../tokens/bounded-count.js';
import { MESSAGE_OVERHEAD_TOKENS } from '../tokens/token-counter.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import type { Entry, EntryKind, JsonValue, ToolCall } from '../types.js';

/** Longest string value of a tool-call input shown in the window; longer ones are shortened. */
export const MAX_TOOL_INPUT_STRING = 400;
/** Longest prose string of a tool-call input (a plan, a report to the user) shown in full. */
const MAX_TOOL_INPUT_PROSE = 4_000;

/**
 * Creates a T0 entry and counts its tokens, once. An entry longer than `maxEntryTokens` is shown
 * as a head/tail excerpt with an explicit marker; its full text stays in `text`. Only what the
 * window shows is counted exactly: a text over the limit is counted as far as it takes to learn
 * that (a prefix), and its full size is estimated from that part.
 */
export function createEntry(options: {
  seq: number;
  kind: EntryKind;
  role: Entry['role'];
  text: string;
  counter: TokenCounter;
  maxEntryTokens: number;
  exchange: number;
  toolCalls?: readonly ToolCall[] | undefined;
  callId?: string | undefined;
  callSeq?: number | undefined;
  isLate?: boolean | undefined;
  isRelayedAnswer?: boolean | undefined;
  toolName?: string | undefined;
  isError?: boolean | undefined;
  path?: string | undefined;
  at?: string | undefined;
}): Entry {
  const { counter } = options;
  const counted = countWithin(options.text, { counter, limit: options.maxEntryTokens });
  const isShort = counted.isExact && counted.tokens <= options.maxEntryTokens;
  const display = isShort
    ? options.text
    : excerpt({ text: options.text, tokens: estimateTokens(options.text, counted), maxTokens: options.maxEntryTokens, seq: options.seq, counter });
  // The excerpt's count is cached from the check that it fits.
  const displayTokens = isShort ? counted.tokens : counter.count(display);
  // Calls without a string long enough to shorten are shown as they are: nothing to copy or compare.
  const displayToolCalls = options.toolCalls?.some((call) => hasLongString(call.input)) === true ? options.toolCalls.map((call) => shortenToolCall(call)) : options.toolCalls;
  const callTokens = (displayToolCalls ?? []).reduce((sum, call) => sum + toolCallTokens(call, counter), 0);
  // Built key by key (in the order snapshots have always had) rather than with conditional
  // spreads: an entry is made for every recorded event.
  const entry: Record<string, unknown> = {
    seq: options.seq,
    kind: options.kind,
    role: options.role,
    text: options.text,
    display,
    tokens: displayTokens + MESSAGE_OVERHEAD_TOKENS + callTokens,
    exchange: options.exchange,
  };
  if (options.toolCalls !== undefined) entry['toolCalls'] = options.toolCalls;
  if (displayToolCalls !== undefined && !sameCalls(displayToolCalls, options.toolCalls)) entry['displayToolCalls'] = displayToolCalls;
  if (options.callId !== undefined) entry['callId'] = options.callId;
  if (options.callSeq !== undefined) entry['callSeq'] = options.callSeq;
  if (options.isLate === true) entry['isLate'] = true;
  if (options.isRelayedAnswer === true) entry['isRelayedAnswer'] = true;
  if (options.toolName !== undefined) entry['toolName'] = options.toolName;
  if (options.isError !== undefined) entry['isError'] = options.isError;
  if (options.path !== undefined) entry['path'] = options.path;
  if (options.at !== undefined) entry['at'] = options.at;
  return Object.freeze(entry) as unknown as Entry;
}

/** Tokens a tool call adds to its message: its name and JSON input. */
export function toolCallTokens(call: ToolCall, counter: TokenCounter): number {
  return counter.count(call.name) + counter.count(JSON.stringify(call.input)) + 3;
}

/**
 * A head/tail excerpt of `text` (of about `tokens` tokens: an estimate is enough) that fits in
 * `maxTokens`, counted exactly, with a marker that says what was left out (the tokens rounded, as
 * the estimate they are) and where the full text is kept.
 * @internal
 */
export function excerpt(options: {
  text: string;
  tokens: number;
  maxTokens: number;
  seq: number;
  counter: TokenCounter;
}): string {
  const { text, counter } = options;
  const charsPerToken = text.length / Math.max(1, options.tokens);
  let budget = options.maxTokens - 60;
  for (;;) {
    const headChars = Math.max(0, Math.floor(budget * 0.6 * charsPerToken));
    const tailChars = Math.max(0, Math.floor(budget * 0.3 * charsPerToken));
    const head = text.slice(0, headChars);
    const tail = tailChars === 0 ? '' : text.slice(text.length - tailChars);
    const omitted = text.length - head.length - tail.length;
    const marker = `\n[… ${formatCount(omitted)} characters (about ${formatCount(roughly(Math.max(0, options.tokens - options.maxTokens)))} tokens) omitted from the window; the full text is kept in history as entry #${options.seq} …]\n`;
    const result = `${head}${marker}${tail}`;
    const tokens = counter.count(result);
    if (budget <= 0 || tokens <= options.maxTokens) return result;
    // The tail was denser than the text sized from: shrink by how far over it is, not by half,
    // so that the excerpt still fills most of its share.
    budget = Math.min(budget - 1, Math.floor(budget * (options.maxTokens / tokens) * EXCERPT_SHRINK));
  }
}

// --- Internal helpers ---

/** Margin taken when an excerpt over its limit is sized again. */
const EXCERPT_SHRINK = 0.95;

// Two significant digits: 513,247 → 510,000.
function roughly(value: number): number {
  if (value < 100) return value;
  const unit = 10 ** (Math.floor(Math.log10(value)) - 1);
  return Math.round(value / unit) * unit;
}

function shortenToolCall(call: ToolCall): ToolCall {
  return { id: call.id, name: call.name, input: shortenJson(call.input) };
}

function shortenJson(value: JsonValue): JsonValue {
  if (typeof value === 'string') {
    if (value.length <= MAX_TOOL_INPUT_STRING) return value;
    // What the agent tells the user through a tool (a plan, a report) is shown like a message.
    if (value.length <= MAX_TOOL_INPUT_PROSE && isProse(value)) return value;
    return `${value.slice(0, MAX_TOOL_INPUT_STRING / 2)}…[${value.length - MAX_TOOL_INPUT_STRING / 2} more characters not shown]`;
  }
  // A value with nothing to shorten is returned as is, so that an unchanged call is told apart by identity.
  if (Array.isArray(value)) {
    const items = value.map((item: JsonValue) => shortenJson(item));
    return items.every((item, index) => item === value[index]) ? value : items;
  }
  if (value !== null && typeof value === 'object') {
    const result: Record<string, JsonValue> = {};
    let isChanged = false;
    for (const [key, item] of Object.entries(value as Record<string, JsonValue>)) {
      const shortened = shortenJson(item);
      isChanged ||= shortened !== item;
      result[key] = shortened;
    }
    return isChanged ? result : value;
  }
  return value;
}

// Whether `value` holds a string that shortenJson may shorten (it changes nothing else).
function hasLongString(value: JsonValue): boolean {
  if (typeof value === 'string') return value.length > MAX_TOOL_INPUT_STRING;
  if (Array.isArray(value)) return value.some((item: JsonValue) => hasLongString(item));
  if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value as Record<string, JsonValue>)) if (hasLongString(item)) return true;
  }
  return false;
}

// A shortened string is always shorter than the original, so identical inputs mean equal calls.
function sameCalls(a: readonly ToolCall[], b: readonly ToolCall[] | undefined): boolean {
  return b !== undefined && a.length === b.length && a.every((call, index) => call.input === b[index]?.input);
}

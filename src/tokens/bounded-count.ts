import type { TokenCounter } from './token-counter.js';

/** What {@link countWithin} learnt about a text. @internal */
export interface BoundedCount {
  /** Tokens of the whole text when `isExact`; else of its first `chars` characters, over the limit. */
  readonly tokens: number;
  /** Whether `tokens` is the count of the whole text (then at most the limit, or the text is short). */
  readonly isExact: boolean;
  /** Characters counted: the whole text when `isExact`, else the prefix that exceeded the limit. */
  readonly chars: number;
}

/**
 * Counts `text` when it may fit in `limit` tokens, and otherwise only as much of it as it takes to
 * learn that it does not: a prefix of a few characters per token of the limit, longer ones only
 * while the prefixes hold fewer tokens than that. A text that fits is always counted whole, so
 * its count is exact; a text over the limit costs O(limit) characters of counting, whatever its
 * length. The prefix must exceed the limit by a few tokens (`PREFIX_SLACK`), so that no cut
 * inside a word makes a text that fits look longer than it is. `countWhole`, when given, counts
 * the whole text instead of `counter.count(text)` (a text framed by more, counted as one).
 * @internal
 */
export function countWithin(
  text: string,
  options: { counter: TokenCounter; limit: number; countWhole?: (() => number) | undefined },
): BoundedCount {
  const { counter, limit } = options;
  let chars = Math.max(PREFIX_MIN_CHARS, limit * PREFIX_CHARS_PER_TOKEN);
  for (;;) {
    if (chars >= text.length) return { tokens: options.countWhole?.() ?? counter.count(text), isExact: true, chars: text.length };
    // A cut between the halves of a surrogate pair would hand the counter a lone surrogate.
    const cut = isHighSurrogate(text.charCodeAt(chars - 1)) ? chars - 1 : chars;
    const tokens = counter.count(text.slice(0, cut));
    if (tokens > limit + PREFIX_SLACK) return { tokens, isExact: false, chars: cut };
    chars *= PREFIX_GROWTH;
  }
}

/**
 * Estimates the tokens of a whole text from a {@link BoundedCount} of it, by the density of the
 * counted part.
 * @internal
 */
export function estimateTokens(text: string, counted: BoundedCount): number {
  if (counted.isExact) return counted.tokens;
  return Math.round((text.length * counted.tokens) / Math.max(1, counted.chars));
}

// --- Internal helpers ---

/** First prefix, in characters per token of the limit: ordinary text holds 3–5 characters per token. */
const PREFIX_CHARS_PER_TOKEN = 6;
/** Shortest first prefix, so that a small limit still sees a representative stretch of the text. */
const PREFIX_MIN_CHARS = 4_096;
/** How much longer each further prefix is (a text sparse in tokens: long runs of spaces, say). */
const PREFIX_GROWTH = 4;
/** Tokens by which a prefix must exceed the limit: a cut inside a word can add a token or two. */
const PREFIX_SLACK = 8;

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

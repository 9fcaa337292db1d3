import { detachedCopy } from '../detached-copy.js';
import { parse } from '../validation.js';
import { hasWideCharacter, oneByteCopy } from './one-byte.js';
import { exactCounter } from './pretoken-count.js';
import type { CountText } from './pretoken-count.js';
import { z } from 'zod';

/** Counts tokens. Implement it to match a model family that `gpt-tokenizer` does not cover. */
export interface TokenCounter {
  /** Identifies the counter in events and errors, e.g. `"o200k_base"`. */
  readonly name: string;
  /** Returns the number of tokens in `text`. Must be deterministic and must not throw. */
  count(text: string): number;
}

/** Encodings shipped with the default counter. */
export type EncodingName = 'o200k_base' | 'cl100k_base';

/** Options for {@link createTokenCounter}. */
export interface TokenCounterOptions {
  /** Picks the encoding from a model name, e.g. `"gpt-4o"` or `"gpt-4"`. @default undefined */
  model?: string | undefined;
  /** Forces an encoding; wins over `model`. @default 'o200k_base' */
  encoding?: EncodingName | undefined;
}

/** Tokens added for the framing of each message (role markers and separators). */
export const MESSAGE_OVERHEAD_TOKENS = 4;

/**
 * Creates the default token counter on `gpt-tokenizer`. Special-token strings such as
 * `<|endoftext|>` are counted as plain text, and pathological inputs (very long runs without
 * whitespace) are counted in slices so that counting stays linear. Each distinct text is counted
 * once: counts are cached by content (the texts not used for longest go first; bounded by characters), and a
 * long text is counted as the sum of its blocks (cut where the tokenizer always cuts), each block
 * cached, so that an edited file re-counts only the blocks that changed. The sum is exact. A text
 * not cached is cut into the tokenizer's own pre-tokens, whose counts are remembered across texts
 * and counters, so that the tokenizer itself sees each distinct pre-token about once.
 */
export function createTokenCounter(options: TokenCounterOptions = {}): TokenCounter {
  const parsed = parse(tokenCounterOptionsSchema, options, 'createTokenCounter', "createTokenCounter({ model: 'gpt-4o' })");
  const encoding = parsed.encoding ?? encodingForModel(parsed.model);
  const countRaw = exactCounter(encoding);
  const cache = createCountCache();
  const countBlock: CountBlock = (block, countMissing, isCutFromWide) => {
    const known = cache.get(block);
    if (known !== undefined) return known;
    // A block cut out of a text with a character above U+00FF is a two-byte string even when
    // its own characters are all below U+0100, and the split pattern runs more than fifteen times
    // slower on it: a one-byte copy is counted (and kept) instead.
    const subject = isCutFromWide?.() === true ? (oneByteCopy(block) ?? block) : block;
    const tokens = countMissing?.() ?? countLinear(subject, countRaw);
    cache.set(subject, tokens);
    return tokens;
  };
  const counter: TokenCounter = {
    name: encoding,
    count: (text: string): number => {
      if (text.length < BLOCK_SPLIT_MIN) return text.length === 0 ? 0 : countBlock(text);
      const known = cache.get(text);
      if (known !== undefined) return known;
      const tokens = sumOfBlocks(text, countBlock);
      if (text.length <= MAX_WHOLE_KEY) cache.set(text, tokens);
      return tokens;
    },
  };
  blockCounters.set(counter, countBlock);
  return counter;
}

/**
 * Counts the tokens of `parts` joined together. With a counter from {@link createTokenCounter},
 * where every part after the first starts a line with a character the tokenizer never merges
 * with the line break before it, the parts are counted apart (each count cached by content, or
 * by `countPart` when given: a caller's own memo of the same counts) and the sum equals the count
 * of the joined text; otherwise, and for any other counter, the joined text is counted whole.
 * @internal
 */
export function countJoined(counter: TokenCounter, parts: readonly string[], countPart: (part: string) => number = counter.count): number {
  if (!blockCounters.has(counter)) return counter.count(parts.join(''));
  for (let index = 1; index < parts.length; index += 1) {
    const previous = parts[index - 1] ?? '';
    const part = parts[index] ?? '';
    if (part === '') continue;
    if (previous.charCodeAt(previous.length - 1) !== NEWLINE || !isBlockStart(part, 0)) {
      return counter.count(parts.join(''));
    }
  }
  let total = 0;
  for (const part of parts) total += countPart(part);
  return total;
}

/**
 * Counts one block through the cache of a counter from {@link createTokenCounter}. A block not
 * cached is counted by `countMissing` when it is given and returns a count (the caller's way to a
 * count it can derive exactly, see {@link isCountedWhole}), and otherwise by the tokenizer.
 * `isCutFromWide` tells, when asked, whether the text the block was cut out of has a character
 * above U+00FF (asked only for a block not cached: it may read the whole text).
 * @internal
 */
export type CountBlock = (block: string, countMissing?: (() => number | undefined) | undefined, isCutFromWide?: (() => boolean) | undefined) => number;

/**
 * The function that counts one block through the cache of a counter from
 * {@link createTokenCounter} (the count of a text of at least {@link BLOCK_SPLIT_MIN} characters
 * is the sum of its blocks' counts, see {@link isBlockEnd}); `undefined` for any other counter.
 * @internal
 */
export function blockCounterOf(counter: TokenCounter): CountBlock | undefined {
  return blockCounters.get(counter);
}

/**
 * Whether a counter from {@link createTokenCounter} counts `text` with the tokenizer in one
 * piece (it is short enough and has no long run to count in slices), so that its count is the sum
 * of the counts of its parts between cuts the tokenizer always makes (see {@link isBlockEnd}).
 * @internal
 */
export function isCountedWhole(text: string): boolean {
  return text.length <= LONG_RUN || (text.length <= PIECE && !hasLongRun(text));
}

/** Texts of at least this many characters are counted block by block. @internal */
export const BLOCK_SPLIT_MIN = 2_048;

/**
 * Whether a block of a counted text ends at `next`, the start of the line after the line that
 * starts at `lineStart`: decided by that line alone and by the start of the line at `next` (up to
 * its first character that is not a space, never past its line break).
 * @internal
 */
export function isBlockEnd(text: string, lineStart: number, next: number): boolean {
  return lineDigest(text, lineStart, next - 1) % BLOCK_LINES === 0 && isBlockStart(text, next);
}

/** Returns the encoding `gpt-tokenizer` uses for a model; o200k for unknown or newer models. */
export function encodingForModel(model: string | undefined): EncodingName {
  if (model === undefined) return 'o200k_base';
  const name = model.toLowerCase();
  if (/^(gpt-4(?!o|\.1|\.5)|gpt-3\.5|text-embedding-(ada|3)|davinci|babbage)/.test(name)) {
    return 'cl100k_base';
  }
  return 'o200k_base';
}

// --- Internal helpers ---

const tokenCounterOptionsSchema = z.strictObject({
  model: z.string().min(1).optional(),
  encoding: z.enum(['o200k_base', 'cl100k_base']).optional(),
});

/** Runs of non-whitespace at least this long are counted in slices. */
const LONG_RUN = 256;
const SLICE = 128;
/** Texts are handed to the tokenizer in pieces of about this size, split at whitespace. */
const PIECE = 65_536;
/** A line ends a block when a cheap digest of it is divisible by this (blocks of ~8 lines). */
const BLOCK_LINES = 8;
/** Longest text cached whole (longer ones are cached as their blocks only). */
const MAX_WHOLE_KEY = 1_048_576;
/** Characters of cached text (keys) kept, in two generations of at most half of it each. */
const CACHE_CHARS = 4_194_304;
/** Cached texts kept at most, whatever their size. */
const CACHE_ENTRIES = 65_536;
const NEWLINE = 10;
const SLASH = 47;
const CARRIAGE_RETURN = 13;

/**
 * Counters whose count of a text is the sum of the counts of its blocks (see {@link countJoined}),
 * with the function that counts one block through their cache.
 */
const blockCounters = new WeakMap<TokenCounter, CountBlock>();

/** A map from text to token count that forgets the texts not used for longest, bounded by characters and entries. */
interface CountCache {
  get(text: string): number | undefined;
  set(text: string, tokens: number): void;
}

/** A cached count with its key, a flat copy of the text it was made for. */
interface Cached {
  readonly key: string;
  readonly tokens: number;
}

// Two generations instead of a least-recently-used order: a hit in the young map costs one
// lookup (re-inserting into one ordered map costs three, each comparing the whole text), a hit in
// the old map moves the entry to the young one, and when the young map is full the old one is
// dropped whole and the young one takes its place. A text used since the last turnover is kept.
function createCountCache(): CountCache {
  const maxChars = CACHE_CHARS / 2;
  const maxEntries = CACHE_ENTRIES / 2;
  let young = new Map<string, Cached>();
  let old = new Map<string, Cached>();
  let chars = 0;
  const keep = (cached: Cached): void => {
    if (chars + cached.key.length > maxChars || young.size >= maxEntries) {
      old = young;
      young = new Map();
      chars = 0;
    }
    young.set(cached.key, cached);
    chars += cached.key.length;
  };
  return {
    get(text) {
      const cached = young.get(text);
      if (cached !== undefined) return cached.tokens;
      const older = old.get(text);
      if (older === undefined) return undefined;
      keep(older);
      return older.tokens;
    },
    set(text, tokens) {
      if (text.length > maxChars) return;
      // A copy, so that a cached block does not keep the whole text it was cut from alive (shared
      // with the clean-text cache of redaction when it copied the same text just before).
      keep({ key: detachedCopy(text), tokens });
    },
  };
}

// Cuts a text into blocks at line starts where the tokenizers' pre-tokenization always cuts (see
// isBlockStart), choosing among those by a digest of the line before, so that a block's bounds
// depend only on the text around them: an edit changes the blocks it touches and leaves the others
// equal (and cached). Both encodings never merge across such a cut, so the sum of the blocks'
// counts is the count of the text.
function sumOfBlocks(text: string, countBlock: CountBlock): number {
  let isWide: boolean | undefined;
  const isCutFromWide = (): boolean => (isWide ??= hasWideCharacter(text));
  let total = 0;
  let blockStart = 0;
  let lineStart = 0;
  for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', end + 1)) {
    const next = end + 1;
    if (isBlockEnd(text, lineStart, next)) {
      total += countBlock(text.slice(blockStart, next), undefined, isCutFromWide);
      blockStart = next;
    }
    lineStart = next;
  }
  if (blockStart < text.length) total += blockStart === 0 ? countBlock(text) : countBlock(text.slice(blockStart), undefined, isCutFromWide);
  return total;
}

// FNV-1a over the line [start, end): equal for equal lines, and spread evenly over its range
// even for lines that share their shape (indentation, a final `;`), which a digest of a few
// characters is not.
function lineDigest(text: string, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let index = start; index < end; index += 1) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  return hash >>> 0;
}

/**
 * Whether the tokenizers' pre-tokenization of o200k and cl100k always cuts at `start`, the start
 * of a line, whatever came before: the line break before it ends its pre-token when the line goes
 * on (after any indentation) with a character that is not a line break, and does not start with
 * `/` (which o200k appends to a punctuation run ending in line breaks, as in `;\n//`).
 * @internal
 */
export function isBlockStart(text: string, start: number): boolean {
  let index = start;
  while (index < text.length) {
    const code = text.charCodeAt(index);
    if (code === NEWLINE || code === CARRIAGE_RETURN) return false;
    if (!isWhitespace(code)) return index > start || code !== SLASH;
    index += 1;
  }
  return false;
}

// Byte-pair encoding is quadratic in the length of one pre-token, so a 1 MB string without
// whitespace (or of whitespace only) would take minutes, and a regular expression over a
// multi-megabyte run overflows the regexp stack. One loop over the characters finds the runs
// instead: runs of whitespace or non-whitespace longer than LONG_RUN are counted in fixed slices
// (a slightly higher count, safe for budgets), the rest in pieces cut where whitespace starts, so
// that the work and the stack stay linear in the text.
function countLinear(text: string, countRaw: CountText): number {
  if (text.length <= LONG_RUN) return text.length === 0 ? 0 : countRaw(text);
  // The common case, a text of one piece without a long run, is told apart by looking at a
  // few characters in every SLICE: then the loop below would hand the whole text over anyway.
  if (text.length <= PIECE && !hasLongRun(text)) return countRaw(text);
  let total = 0;
  let pieceStart = 0;
  let runStart = 0;
  let isSpaceRun = isWhitespace(text.charCodeAt(0));
  const flush = (end: number): void => {
    if (end > pieceStart) total += countRaw(text.slice(pieceStart, end));
    pieceStart = end;
  };
  for (let index = 1; index <= text.length; index += 1) {
    const isSpace = index < text.length && isWhitespace(text.charCodeAt(index));
    if (index < text.length && isSpace === isSpaceRun) continue;
    // A run [runStart, index) just ended.
    if (index - runStart >= LONG_RUN) {
      flush(runStart);
      for (let offset = runStart; offset < index; offset += SLICE) {
        total += countRaw(text.slice(offset, Math.min(offset + SLICE, index)));
      }
      pieceStart = index;
    } else if (isSpace && index - pieceStart >= PIECE) {
      flush(index);
    }
    runStart = index;
    isSpaceRun = isSpace;
  }
  flush(text.length);
  return total;
}

// Whether `text` holds a run of LONG_RUN or more whitespace or non-whitespace characters. Such a
// run covers two characters SLICE apart (LONG_RUN >= 2 * SLICE): only where the characters at
// `index` and `index + SLICE` are of one kind is the run around them measured.
function hasLongRun(text: string): boolean {
  for (let index = 0; index + SLICE < text.length; index += SLICE) {
    const isSpace = isWhitespace(text.charCodeAt(index));
    if (isWhitespace(text.charCodeAt(index + SLICE)) !== isSpace) continue;
    let start = index;
    while (start > 0 && isWhitespace(text.charCodeAt(start - 1)) === isSpace) start -= 1;
    let end = index + 1;
    while (end < text.length && isWhitespace(text.charCodeAt(end)) === isSpace) {
      end += 1;
      if (end - start >= LONG_RUN) return true;
    }
    if (end - start >= LONG_RUN) return true;
    // The run ended before `index + SLICE`: the next sample starts a fresh look.
  }
  return false;
}

// The characters `\s` matches, without a regular expression per character.
function isWhitespace(code: number): boolean {
  if (code < 128) return code === 32 || (code >= 9 && code <= 13);
  return code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
}

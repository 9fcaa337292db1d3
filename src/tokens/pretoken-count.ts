import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { CL100K_TOKEN_SPLIT_REGEX, O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import type { EncodingName } from './token-counter.js';

/** Counts the tokens of one text; special-token strings count as plain text. @internal */
export type CountText = (text: string) => number;

/**
 * Returns a counter equal to gpt-tokenizer's `countTokens` for `encoding` (special-token strings
 * counted as plain text), only faster: it cuts the text into pre-tokens with the encoding's own
 * split pattern (a sticky match, which allocates no match arrays) and sums the counts of the
 * pre-tokens, each remembered per distinct pre-token (they repeat massively in code and prose); a
 * pre-token not seen before is counted by `countTokens` itself. Byte-pair encoding never merges
 * across pre-tokens, so the sum is exact. When a pre-token would not stay one pre-token on its
 * own, the whole text goes to `countTokens`; when the counter disagrees with `countTokens` on probe
 * texts (a gpt-tokenizer release that cuts otherwise), `countTokens` counts every text instead.
 * One counter per encoding and process.
 * @internal
 */
export function exactCounter(encoding: EncodingName): CountText {
  const known = counters.get(encoding);
  if (known !== undefined) return known;
  const countRaw = encoding === 'cl100k_base' ? countCl100kText : countO200kText;
  const pattern = encoding === 'cl100k_base' ? CL100K_TOKEN_SPLIT_REGEX : O200K_TOKEN_SPLIT_REGEX;
  const counter = createPretokenCounter(pattern, countRaw);
  const isExact = PROBES.every((probe) => counter(probe) === countRaw(probe));
  const chosen = isExact ? counter : countRaw;
  counters.set(encoding, chosen);
  return chosen;
}

/**
 * The counter of {@link exactCounter} for any split pattern (the pattern the tokenizer behind
 * `countRaw` cuts texts with), without the probe: exact only when the pattern is that one.
 * @internal
 */
export function createPretokenCounter(pattern: RegExp, countRaw: CountText): CountText {
  const flags = `${pattern.flags.replace(/[gy]/g, '')}y`;
  const step = new RegExp(pattern.source, flags);
  const alone = new RegExp(pattern.source, flags);
  const memo = createPieceMemo<string>(copyOf);
  const shortMemo = createPieceMemo<number>(identity);
  // The count of one pre-token, or -1 when on its own it would be cut differently (a lookahead
  // or an end anchor that sees the end of the piece instead of what followed it).
  const countPiece = (piece: string): number => {
    alone.lastIndex = 0;
    if (!alone.test(piece) || alone.lastIndex !== piece.length) return -1;
    return countRaw(piece);
  };
  return (text: string): number => {
    const length = text.length;
    let total = 0;
    let start = 0;
    step.lastIndex = 0;
    while (start < length) {
      if (!step.test(text) || step.lastIndex <= start) return countRaw(text);
      const end = step.lastIndex;
      const key = end - start > SHORT_PIECE ? -1 : shortKey(text, start, end);
      let tokens: number | undefined;
      if (key === SINGLE_BYTE) {
        // Every single byte is a token of its own in both encodings.
        tokens = 1;
      } else if (key >= 0) {
        tokens = shortMemo.get(key);
        if (tokens === undefined) {
          tokens = countPiece(text.slice(start, end));
          if (tokens < 0) return countRaw(text);
          shortMemo.set(key, tokens);
        }
      } else if (end - start > MEMO_MAX_PIECE) {
        tokens = countPiece(text.slice(start, end));
        if (tokens < 0) return countRaw(text);
      } else {
        const piece = text.slice(start, end);
        tokens = memo.get(piece);
        if (tokens === undefined) {
          tokens = countPiece(piece);
          if (tokens < 0) return countRaw(text);
          memo.set(piece, tokens);
        }
      }
      total += tokens;
      start = end;
    }
    return total;
  };
}

// --- Internal helpers ---

const ASCII_END = 128;
/** Characters below this fit in a byte of a {@link shortKey}. */
const BYTE_END = 256;
/** Longest pre-token looked up by a number instead of a string. */
const SHORT_PIECE = 3;
/** The {@link shortKey} of a single ASCII character. */
const SINGLE_BYTE = -2;
/** Longest pre-token remembered (longer ones are rare: counted each time they occur). */
const MEMO_MAX_PIECE = 64;
/** Pre-tokens remembered per generation (the bundled sessions hold ~21,000 distinct ones). */
const MEMO_ENTRIES = 32_768;

/** Slices shorter than this are copies in V8; longer ones point into the text they were cut from. */
const SLICE_COPY_MAX = 13;

/** The length bit of a two-character {@link shortKey} (three characters fill the lower 24 bits). */
const TWO_CHARACTERS = 1 << 24;

const counters = new Map<EncodingName, CountText>();
const NO_SPECIAL = { disallowedSpecial: new Set<string>() };
const countCl100kText = (text: string): number => countCl100k(text, NO_SPECIAL);
const countO200kText = (text: string): number => countO200k(text, NO_SPECIAL);

// Texts on which the fast counter must agree with the tokenizer before it is used: contractions,
// digit runs, letter case changes, punctuation with line breaks and `/`, whitespace before words
// and at the end, non-Latin letters and marks, Unicode spaces, special-token strings.
const PROBES = [
  "It's 12345 o'clock; DON'T we'll THEY'RE fooBar XMLHttpRequest\r\n\n  x  \t\u00a0y  ",
  'const a = b?.c ?? 1_000;\n\n// note\n\t}\n);\n//x\n   \n',
  '日本語のテキスト и русский, éàü naïve café\u0301 \u3000 \u2028 <|endoftext|><|im_start|>  ',
];

/** A map from pre-token (or its {@link shortKey}) to count, forgetting the pre-tokens unused for longest (two generations). */
interface PieceMemo<Key> {
  get(key: Key): number | undefined;
  set(key: Key, tokens: number): void;
}

// `keyOf` turns a key into the one kept (a string is copied, see copyOf).
function createPieceMemo<Key>(keyOf: (key: Key) => Key): PieceMemo<Key> {
  let young = new Map<Key, number>();
  let old = new Map<Key, number>();
  const keep = (key: Key, tokens: number): void => {
    if (young.size >= MEMO_ENTRIES) {
      old = young;
      young = new Map();
    }
    young.set(keyOf(key), tokens);
  };
  return {
    get(key) {
      const tokens = young.get(key);
      if (tokens !== undefined) return tokens;
      const older = old.get(key);
      if (older !== undefined) keep(key, older);
      return older;
    },
    set: keep,
  };
}

// A copy of a piece, so that a remembered piece does not keep the text it was cut from alive (V8
// copies short slices anyway).
function copyOf(piece: string): string {
  return piece.length < SLICE_COPY_MAX ? piece : ` ${piece}`.slice(1);
}

function identity(key: number): number {
  return key;
}

// A number standing for the pre-token [start, end) of two or three characters below U+0100 (a
// third of the pre-tokens of code), so that it is looked up without being cut out of the text:
// its characters as bytes, with a bit for the length; SINGLE_BYTE for one ASCII character; -1
// for any other.
function shortKey(text: string, start: number, end: number): number {
  const first = text.charCodeAt(start);
  if (end - start === 1) return first < ASCII_END ? SINGLE_BYTE : -1;
  const second = text.charCodeAt(start + 1);
  if (end - start === 2) return (first | second) < BYTE_END ? TWO_CHARACTERS | (first << 8) | second : -1;
  const third = text.charCodeAt(start + 2);
  return (first | second | third) < BYTE_END ? (first << 16) | (second << 8) | third : -1;
}

import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { CL100K_TOKEN_SPLIT_REGEX, O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { BYTE_END, bytesFor, C1_END, C1_START, decodeBytes, MAX_KEPT_BYTES, releaseLargeBuffer } from './one-byte.js';
import type { EncodingName } from './token-counter.js';

/** Counts the tokens of one text; special-token strings count as plain text. @internal */
export type CountText = (text: string) => number;

/**
 * Returns a counter equal to gpt-tokenizer's `countTokens` for `encoding` (special-token strings
 * counted as plain text), only faster: it cuts the text into pre-tokens with the encoding's own
 * split pattern (a sticky match, which allocates no match arrays) and sums the counts of the
 * pre-tokens, each remembered per distinct pre-token (they repeat massively in code and prose) and
 * looked up where it lies in the text, without being cut out of it; a pre-token not seen before is
 * counted by `countTokens` itself. Byte-pair encoding never merges
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
  const table = createPieceTable(TABLE_SLOTS);
  const longTable = createPieceTable(LONG_TABLE_SLOTS);
  const packedTable = createPackedTable(PACKED_SLOTS);
  const shortMemo = createPieceMemo();
  // The count of one pre-token, or -1 when on its own it would be cut differently (a lookahead
  // or an end anchor that sees the end of the piece instead of what followed it).
  const countPiece = (piece: string): number => {
    alone.lastIndex = 0;
    if (!alone.test(piece) || alone.lastIndex !== piece.length) return -1;
    return countRaw(piece);
  };
  return (text: string): number => {
    const length = text.length;
    // The pre-tokens are found in a one-byte copy when the text has characters above U+00FF:
    // V8 matches the pattern more than fifteen times slower in a two-byte string.
    const subject = oneByteSubject(text);
    // A character beyond U+FFFF is one character of the copy: where each character of the copy
    // starts in the text.
    const starts = subject.length === length ? undefined : subjectStarts;
    let total = 0;
    let start = 0;
    step.lastIndex = 0;
    while (start < length) {
      if (!step.test(subject)) return countRaw(text);
      const end = starts === undefined ? step.lastIndex : (starts[step.lastIndex] as number);
      if (end <= start) return countRaw(text);
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
      } else if (end - start <= PACKED_MAX_PIECE && (tokens = packedTable.find(text, start, end)) !== NOT_PACKED) {
        // A pre-token of up to twelve characters below U+0100 (half of those of code and prose)
        // is looked up by its characters packed in three numbers: no string to reach and compare.
        if (tokens === ABSENT) {
          tokens = countPiece(text.slice(start, end));
          if (tokens < 0) return countRaw(text);
          packedTable.remember(end - start, tokens);
        }
      } else if (end - start > LONG_MEMO_MAX_PIECE) {
        tokens = countPiece(text.slice(start, end));
        if (tokens < 0) return countRaw(text);
      } else {
        // Long pre-tokens (rules of `=` or `-`, progress bars, long identifiers) have a table of
        // their own, smaller, so that they neither crowd out the common ones nor hold much memory.
        const pieces = end - start > MEMO_MAX_PIECE ? longTable : table;
        const hash = pieceHash(text, start, end);
        tokens = pieces.find(text, start, end, hash);
        if (tokens === undefined) {
          const piece = text.slice(start, end);
          tokens = countPiece(piece);
          if (tokens < 0) return countRaw(text);
          pieces.remember(piece, hash, tokens);
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
/** Longest pre-token looked up by a number instead of a string. */
const SHORT_PIECE = 3;
/** The {@link shortKey} of a single ASCII character. */
const SINGLE_BYTE = -2;
/** Longest pre-token looked up in the {@link PackedTable} (its characters fill three 32-bit numbers). */
const PACKED_MAX_PIECE = 12;
/** Slots of the {@link PackedTable}, a power of two (16 bytes each). */
const PACKED_SLOTS = 1 << 15;
/** What {@link PackedTable.find} returns for a pre-token it does not hold (a count is at least 1). */
const ABSENT = 0;
/** What {@link PackedTable.find} returns for a pre-token it cannot hold (a character above U+00FF). */
const NOT_PACKED = -1;
/** Longest pre-token remembered in the main table; longer ones go to the table of long pre-tokens. */
const MEMO_MAX_PIECE = 64;
/**
 * Longest pre-token remembered at all (longer ones are counted each time they occur). Byte-pair
 * encoding is quadratic in a pre-token's length, so a repeated long one (an 80-character rule of
 * `=` in every test report) costs far more to count again than to look up.
 */
const LONG_MEMO_MAX_PIECE = 1_024;
/** Slots of the table of long pre-tokens: at most 2 MB of them (one-byte characters) are kept. */
const LONG_TABLE_SLOTS = 1 << 11;
/** Short pre-tokens remembered per generation (see {@link createPieceMemo}). */
const MEMO_ENTRIES = 32_768;
/** Slots of a {@link PieceTable}, a power of two (for the pre-tokens the {@link PackedTable} cannot hold: longer ones, other scripts). */
const TABLE_SLOTS = 1 << 16;
/** Slots a lookup in a {@link PieceTable} tries, from the one its hash names. */
const TABLE_PROBES = 8;
/** FNV-1a's offset basis and prime (32 bits), for {@link pieceHash}. */
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

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

/** A map from the {@link shortKey} of a pre-token to its count, forgetting the keys unused for longest (two generations). */
interface PieceMemo {
  get(key: number): number | undefined;
  set(key: number, tokens: number): void;
}

function createPieceMemo(): PieceMemo {
  let young = new Map<number, number>();
  let old = new Map<number, number>();
  const keep = (key: number, tokens: number): void => {
    if (young.size >= MEMO_ENTRIES) {
      old = young;
      young = new Map();
    }
    young.set(key, tokens);
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

/**
 * The counts of pre-tokens, found by the place of a pre-token in a text and its
 * {@link pieceHash}: a pre-token seen before is compared where it lies, and only one not seen
 * before is cut out of the text (most of them are seen before).
 */
interface PieceTable {
  /** The count of `text.slice(start, end)` when it is remembered. */
  find(text: string, start: number, end: number, hash: number): number | undefined;
  /** Remembers the count of `piece`, whose {@link pieceHash} is `hash`. */
  remember(piece: string, hash: number, tokens: number): void;
}

// Open addressing: a pre-token sits in one of the TABLE_PROBES slots from the one its hash names;
// when they are all taken, a new one replaces each of them in turn. A count of 0 marks a free
// slot (every pre-token is at least one token).
function createPieceTable(slots: number): PieceTable {
  const mask = slots - 1;
  const hashes = new Int32Array(slots);
  const counts = new Int32Array(slots);
  const pieces: string[] = new Array<string>(slots).fill('');
  let replaced = 0;
  return {
    find(text, start, end, hash) {
      for (let probe = 0, slot = hash & mask; probe < TABLE_PROBES; probe += 1, slot = (slot + 1) & mask) {
        const tokens = counts[slot] as number;
        if (tokens === 0) return undefined;
        if (hashes[slot] !== hash) continue;
        const piece = pieces[slot] as string;
        if (piece.length === end - start && text.startsWith(piece, start)) return tokens;
      }
      return undefined;
    },
    remember(piece, hash, tokens) {
      let slot = hash & mask;
      for (let probe = 0; probe < TABLE_PROBES && counts[slot] !== 0; probe += 1) slot = (slot + 1) & mask;
      if (counts[slot] !== 0) {
        slot = ((hash & mask) + replaced) & mask;
        replaced = (replaced + 1) % TABLE_PROBES;
      }
      hashes[slot] = hash;
      counts[slot] = tokens;
      pieces[slot] = copyOf(piece);
    },
  };
}

/**
 * The counts of short pre-tokens (up to {@link PACKED_MAX_PIECE} characters, each below U+0100),
 * each kept with its characters packed into three numbers and its length, side by side in one
 * array: a lookup reads one slot and compares numbers, where a string table also reaches the
 * remembered string (two more places in memory, the costliest part of a lookup).
 */
interface PackedTable {
  /** The count of `text.slice(start, end)`; {@link ABSENT} when it is not held, {@link NOT_PACKED} when it has a character above U+00FF. */
  find(text: string, start: number, end: number): number;
  /** Remembers the count of the pre-token of `length` characters that the last `find()` found {@link ABSENT}. */
  remember(length: number, tokens: number): void;
}

// Open addressing as in createPieceTable, four numbers a slot: characters 0–3, 4–7 and 8–11 (a
// missing character is 0), then the length with the count above it (0: a free slot).
function createPackedTable(slots: number): PackedTable {
  const mask = slots - 1;
  const cells = new Int32Array(slots * PACKED_STRIDE);
  let replaced = 0;
  // Set by find() for the remember() that follows a miss.
  let first = 0;
  let second = 0;
  let third = 0;
  let home = 0;
  return {
    find(text, start, end) {
      first = 0;
      second = 0;
      third = 0;
      const length = end - start;
      for (let offset = 0; offset < length; offset += 1) {
        const code = text.charCodeAt(start + offset);
        if (code >= BYTE_END) return NOT_PACKED;
        const shifted = code << ((offset & 3) << 3);
        if (offset < 4) first |= shifted;
        else if (offset < 8) second |= shifted;
        else third |= shifted;
      }
      home = Math.imul(first ^ Math.imul(second ^ Math.imul(third ^ length, PACKED_MIX), PACKED_MIX), PACKED_MIX_OUT);
      home = (home ^ (home >>> 16)) & mask;
      for (let probe = 0, slot = home; probe < TABLE_PROBES; probe += 1, slot = (slot + 1) & mask) {
        const cell = slot * PACKED_STRIDE;
        const info = cells[cell + 3] as number;
        if (info === 0) return ABSENT;
        if (cells[cell] === first && cells[cell + 1] === second && cells[cell + 2] === third && (info & LENGTH_MASK) === length) return info >>> COUNT_SHIFT;
      }
      return ABSENT;
    },
    remember(length, tokens) {
      let slot = home;
      for (let probe = 0; probe < TABLE_PROBES && cells[slot * PACKED_STRIDE + 3] !== 0; probe += 1) slot = (slot + 1) & mask;
      if (cells[slot * PACKED_STRIDE + 3] !== 0) {
        slot = (home + replaced) & mask;
        replaced = (replaced + 1) % TABLE_PROBES;
      }
      const cell = slot * PACKED_STRIDE;
      cells[cell] = first;
      cells[cell + 1] = second;
      cells[cell + 2] = third;
      cells[cell + 3] = (tokens << COUNT_SHIFT) | length;
    },
  };
}

/** Numbers per slot of a {@link PackedTable}: three of characters, one of length and count (16 bytes). */
const PACKED_STRIDE = 4;
/** The bits of a {@link PackedTable} slot's last number that hold the length; the count is above them. */
const LENGTH_MASK = 0xff;
const COUNT_SHIFT = 8;
/** Odd constants that spread the packed characters over a slot number (from MurmurHash3's finalizer). */
const PACKED_MIX = 0x85ebca6b;
const PACKED_MIX_OUT = 0xc2b2ae35;

/**
 * `text` when no unit of it is above U+00FF; otherwise a one-byte string in which every
 * character above U+00FF is replaced by a stand-in below U+0100 that the split patterns cannot
 * tell from it (see {@link standInFor}; a character beyond U+FFFF, two units, by one), and every
 * C1 control by `#` (a one-byte string is built from bytes, and the decoder reads 0x80–0x9F as
 * other characters). Both patterns then cut it where they cut `text`; when it is shorter than
 * `text`, {@link subjectStarts} holds where each of its characters starts in `text`, then the
 * length of `text`. `text` again when a character has no stand-in (a combining mark, a letter
 * whose case folds into U+0000–U+00FF).
 */
function oneByteSubject(text: string): string {
  const length = text.length;
  // A text of ordinary size after a huge one: the buffers it grew are let go.
  if (length <= MAX_KEPT_BYTES) {
    releaseLargeBuffer(length);
    if (subjectStarts.length > MAX_KEPT_BYTES + 1) subjectStarts = new Int32Array(INITIAL_STARTS);
  }
  let index = 0;
  while (index < length && text.charCodeAt(index) < BYTE_END) index += 1;
  if (index === length) return text;
  const bytes = bytesFor(length);
  let size = 0;
  let starts: Int32Array | undefined;
  for (let at = 0; at < length; at += 1) {
    const code = text.charCodeAt(at);
    const next = at + 1 < length ? text.charCodeAt(at + 1) : 0;
    const isPair = code >= HIGH_SURROGATE && code < LOW_SURROGATE && next >= LOW_SURROGATE && next <= LAST_SURROGATE;
    const byte = code < C1_START ? code : code < BYTE_END ? (code <= C1_END ? OTHER_STAND_IN : code) : isPair ? standInBeyond(text.codePointAt(at) as number) : standInFor(code);
    if (byte === NO_STAND_IN) return text;
    if (isPair && starts === undefined) {
      if (subjectStarts.length <= length) subjectStarts = new Int32Array(Math.max(length + 1, 2 * subjectStarts.length));
      starts = subjectStarts;
      for (let before = 0; before < size; before += 1) starts[before] = before;
    }
    if (starts !== undefined) starts[size] = at;
    bytes[size] = byte;
    size += 1;
    if (isPair) at += 1;
  }
  if (starts !== undefined) starts[size] = length;
  return decodeBytes(size) ?? text;
}

/**
 * The one-byte character the split patterns cannot tell from the character `code` (above
 * U+00FF), or {@link NO_STAND_IN}. The patterns see a character only through the classes they
 * name (upper-case-like and lower-case-like letters, letters, numbers, whitespace) and through
 * comparisons with a few ASCII characters (line breaks, space, `/`, `'` and the letters of
 * contractions, these without regard to case): a stand-in in the same classes that equals none
 * of those characters, and a character whose case folds to none of them, are cut alike. Found
 * once per character and remembered.
 */
function standInFor(code: number): number {
  const known = standIns[code] as number;
  if (known !== UNKNOWN) return known;
  // A surrogate here stands alone: a character of its own to the patterns, in none of their classes.
  const standIn = findStandIn(String.fromCharCode(code));
  standIns[code] = standIn;
  return standIn;
}

/** {@link standInFor} of a character beyond U+FFFF (an emoji, a mathematical letter). */
function standInBeyond(codePoint: number): number {
  let standIn = standInsBeyond.get(codePoint);
  if (standIn === undefined) {
    if (standInsBeyond.size >= MAX_STAND_INS_BEYOND) standInsBeyond.clear();
    standIn = findStandIn(String.fromCodePoint(codePoint));
    standInsBeyond.set(codePoint, standIn);
  }
  return standIn;
}

function findStandIn(character: string): number {
  if (FOLDS_TO_ONE_BYTE.test(character)) return NO_STAND_IN;
  const classes = classesOf(character);
  for (const candidate of STAND_INS) if (classesOf(String.fromCharCode(candidate)) === classes) return candidate;
  return NO_STAND_IN;
}

// The classes of the split patterns that `character` belongs to, as bits.
function classesOf(character: string): number {
  let classes = 0;
  for (let bit = 0; bit < PATTERN_CLASSES.length; bit += 1) if ((PATTERN_CLASSES[bit] as RegExp).test(character)) classes |= 1 << bit;
  return classes;
}

/** The character classes the split patterns of o200k and cl100k name. */
const PATTERN_CLASSES = [/^[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]$/u, /^[\p{Ll}\p{Lm}\p{Lo}\p{M}]$/u, /^\p{L}$/u, /^\p{N}$/u, /^\s$/u];
/** A character whose case folds into U+0000–U+00FF (`ſ` is `s` to a case-blind match). */
const FOLDS_TO_ONE_BYTE = /^[\u0000-\u00ff]$/iu;
/** Stand-ins, in order of preference: none is a line break, space, `/`, `'` or a letter of a contraction. */
const STAND_INS = [0x41, 0x61, 0xaa, 0x30, 0xa0, 0x23];
/** The stand-in of C1 controls (in no class). */
const OTHER_STAND_IN = 0x23;
/** {@link standInFor} of a character without one (a C1 control, never a stand-in). */
const NO_STAND_IN = 0x80;
/** Not looked at yet, in {@link standIns}. */
const UNKNOWN = 0;
/** Per UTF-16 unit: its stand-in once known. */
const standIns = new Uint8Array(0x10000);
/** Stand-ins of characters beyond U+FFFF, by code point (at most {@link MAX_STAND_INS_BEYOND}). */
const standInsBeyond = new Map<number, number>();
const MAX_STAND_INS_BEYOND = 4_096;
const HIGH_SURROGATE = 0xd800;
const LOW_SURROGATE = 0xdc00;
const LAST_SURROGATE = 0xdfff;
/** See {@link oneByteSubject}. */
const INITIAL_STARTS = 1_024;
let subjectStarts = new Int32Array(INITIAL_STARTS);

// FNV-1a of the UTF-16 units of text[start, end).
function pieceHash(text: string, start: number, end: number): number {
  let hash = FNV_OFFSET;
  for (let index = start; index < end; index += 1) hash = Math.imul(hash ^ text.charCodeAt(index), FNV_PRIME);
  return hash;
}

// A copy of a piece, so that a remembered piece does not keep the text it was cut from alive (V8
// copies short slices anyway).
function copyOf(piece: string): string {
  return piece.length < SLICE_COPY_MAX ? piece : ` ${piece}`.slice(1);
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

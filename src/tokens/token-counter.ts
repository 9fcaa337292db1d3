import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { parse } from '../validation.js';
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
 * whitespace) are counted in slices so that counting stays linear.
 */
export function createTokenCounter(options: TokenCounterOptions = {}): TokenCounter {
  const parsed = parse(tokenCounterOptionsSchema, options, 'createTokenCounter', "createTokenCounter({ model: 'gpt-4o' })");
  const encoding = parsed.encoding ?? encodingForModel(parsed.model);
  const countRaw = encoding === 'cl100k_base' ? countCl100k : countO200k;
  return {
    name: encoding,
    count: (text: string): number => countLinear(text, countRaw),
  };
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

const NO_SPECIAL = { disallowedSpecial: new Set<string>() };
/** Runs of non-whitespace at least this long are counted in slices. */
const LONG_RUN = 256;
const SLICE = 128;
/** Texts are handed to the tokenizer in pieces of about this size, split at whitespace. */
const PIECE = 65_536;

type RawCount = (text: string, options: typeof NO_SPECIAL) => number;

// Byte-pair encoding is quadratic in the length of one pre-token, so a 1 MB string without
// whitespace (or of whitespace only) would take minutes, and a regular expression over a
// multi-megabyte run overflows the regexp stack. One loop over the characters finds the runs
// instead: runs of whitespace or non-whitespace longer than LONG_RUN are counted in fixed slices
// (a slightly higher count, safe for budgets), the rest in pieces cut where whitespace starts, so
// that the work and the stack stay linear in the text.
function countLinear(text: string, countRaw: RawCount): number {
  if (text.length <= LONG_RUN) return text.length === 0 ? 0 : countRaw(text, NO_SPECIAL);
  let total = 0;
  let pieceStart = 0;
  let runStart = 0;
  let isSpaceRun = isWhitespace(text.charCodeAt(0));
  const flush = (end: number): void => {
    if (end > pieceStart) total += countRaw(text.slice(pieceStart, end), NO_SPECIAL);
    pieceStart = end;
  };
  for (let index = 1; index <= text.length; index += 1) {
    const isSpace = index < text.length && isWhitespace(text.charCodeAt(index));
    if (index < text.length && isSpace === isSpaceRun) continue;
    // A run [runStart, index) just ended.
    if (index - runStart >= LONG_RUN) {
      flush(runStart);
      for (let offset = runStart; offset < index; offset += SLICE) {
        total += countRaw(text.slice(offset, Math.min(offset + SLICE, index)), NO_SPECIAL);
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

// The characters `\s` matches, without a regular expression per character.
function isWhitespace(code: number): boolean {
  if (code < 128) return code === 32 || (code >= 9 && code <= 13);
  return code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
}

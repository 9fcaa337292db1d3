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
const LONG_RUN = /\S{256,}/g;
const SLICE = 128;

type RawCount = (text: string, options: typeof NO_SPECIAL) => number;

// Byte-pair encoding is quadratic in the length of one pre-token, so a 1 MB string without
// whitespace would take minutes. Long runs are counted in fixed slices: a slightly higher count
// (safe for budgets) in linear time.
function countLinear(text: string, countRaw: RawCount): number {
  if (text.length === 0) return 0;
  LONG_RUN.lastIndex = 0;
  if (!LONG_RUN.test(text)) return countRaw(text, NO_SPECIAL);
  LONG_RUN.lastIndex = 0;
  let total = 0;
  let start = 0;
  for (const match of text.matchAll(LONG_RUN)) {
    const index = match.index;
    if (index > start) total += countRaw(text.slice(start, index), NO_SPECIAL);
    const run = match[0];
    for (let offset = 0; offset < run.length; offset += SLICE) {
      total += countRaw(run.slice(offset, offset + SLICE), NO_SPECIAL);
    }
    start = index + run.length;
  }
  if (start < text.length) total += countRaw(text.slice(start), NO_SPECIAL);
  return total;
}

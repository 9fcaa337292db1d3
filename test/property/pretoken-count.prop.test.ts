import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { eventTexts, loadBenchSession } from '../../bench/session-source.js';
import type { EncodingName } from '../../src/index.js';
import { exactCounter } from '../../src/tokens/pretoken-count.js';
import { PROPERTY_RUNS } from '../helpers.js';

const NO_SPECIAL = { disallowedSpecial: new Set<string>() };
const RAW: Record<EncodingName, (text: string) => number> = {
  o200k_base: (text) => countO200k(text, NO_SPECIAL),
  cl100k_base: (text) => countCl100k(text, NO_SPECIAL),
};
const ENCODINGS: readonly EncodingName[] = ['o200k_base', 'cl100k_base'];
const FIXTURES = new URL('../../bench/fixtures/', import.meta.url).pathname;

// Pieces around which the split patterns decide differently: contractions in every case, digit
// runs, case changes inside words, punctuation before line breaks and `/`, whitespace runs of
// every kind (before words, before digits, at the end), letters with combining marks, scripts
// without spaces, and the special-token strings, which must stay plain text.
const piece = fc.oneof(
  fc.constantFrom(
    "'s", "'S", "'t", "'re", "'RE", "'ve", "'m", "'ll", "'LL", "'d", "'x", "n't", "'",
    '0', '7', '42', '123', '1234', '98765', '3.14', '1e9', '٣', '①',
    'a', 'Z', 'word', 'Word', 'WORD', 'camelCase', 'HTTPServer', 'snake_case', 'ǅemal',
    ' ', '  ', '   ', '\t', '\n', '\r\n', '\r', '\n\n', ' \n', '\n  ', '\u00a0', '\u2028', '\u3000', '\u200b', '\ufeff',
    '/', '//', ';\n', '});', '=>', '...', '?!', '"', '`', '```', '#', '-', '_', '|', '<', '>', '<|', '|>',
    'é', 'e\u0301', 'ж', 'Ж', 'ü', '日本', '語', '한국어', 'ไทย', 'عربي', '😀', '👍🏽', '\ud83d', '\ude00',
    // Characters above U+00FF that the split patterns must see as they are (letters of every
    // case, a modifier letter, numbers, spaces, symbols, letters whose case folds to ASCII or
    // Latin-1), and C1 controls: a text with any of them is matched in a one-byte copy.
    'ǅ', 'ʰ', 'Ω', 'ω', 'ſ', 'K', 'Å', 'Ÿ', '—', '→', '…', '’', '✓', '\u2714\ufe0f', '\u0085', '\u008a', '\u009f', 'ª', '²', '\u00ad',
    '<|endoftext|>', '<|im_start|>', '<|im_end|>', '<|fim_prefix|>', '<|endofprompt|>',
  ),
  fc.string({ maxLength: 6 }),
  fc.string({ unit: 'binary', maxLength: 4 }),
  fc.nat({ max: 99_999 }).map(String),
);
const text = fc.array(piece, { maxLength: 40 }).map((pieces) => pieces.join(''));
const encoding = fc.constantFrom<EncodingName>(...ENCODINGS);

describe('exactCounter() counts as gpt-tokenizer does', () => {
  it('on any text: Unicode, whitespace runs, digits, contractions, special-token strings', () => {
    fc.assert(
      fc.property(encoding, text, (name, sample) => {
        expect(exactCounter(name)(sample)).toBe(RAW[name](sample));
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });

  it('on texts with long pre-tokens (rules, runs of spaces, long words), remembered or not', () => {
    const run = fc.tuple(fc.constantFrom('=', '-', ' ', 'a', 'Q', '_', '\t', '*', '日'), fc.integer({ min: 1, max: 1_300 })).map(([character, length]) => character.repeat(length));
    const longText = fc.array(fc.oneof(run, piece), { maxLength: 12 }).map((pieces) => pieces.join(''));
    fc.assert(
      fc.property(encoding, longText, (name, sample) => {
        // Twice: the second count may come from what the first remembered.
        expect(exactCounter(name)(sample)).toBe(RAW[name](sample));
        expect(exactCounter(name)(sample)).toBe(RAW[name](sample));
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });

  it('on every text of the bundled sessions, for both encodings', () => {
    const texts = new Set<string>();
    for (const file of readdirSync(FIXTURES).filter((name) => /\.jsonl(\.gz)?$/.test(name))) {
      for (const line of loadBenchSession(join(FIXTURES, file)).lines) for (const part of eventTexts(line)) texts.add(part);
    }
    expect(texts.size).toBeGreaterThan(1_000);
    for (const name of ENCODINGS) {
      const count = exactCounter(name);
      const mismatches = [...texts].filter((sample) => count(sample) !== RAW[name](sample)).map((sample) => sample.slice(0, 80));
      expect(mismatches).toEqual([]);
    }
  }, 120_000);
});

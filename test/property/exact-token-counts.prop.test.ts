import fc from 'fast-check';
import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { createTokenCounter } from '../../src/index.js';
import type { EncodingName } from '../../src/index.js';
import { createScratchpad } from '../../src/scratchpad/scratchpad.js';
import { PROPERTY_RUNS } from '../helpers.js';

const NO_SPECIAL = { disallowedSpecial: new Set<string>() };
const RAW: Record<EncodingName, (text: string) => number> = {
  o200k_base: (text) => countO200k(text, NO_SPECIAL),
  cl100k_base: (text) => countCl100k(text, NO_SPECIAL),
};

// Pieces that stress the cut rules: line breaks of every kind, indentation, `/` after a break,
// punctuation runs, contractions, digits, non-Latin letters and Unicode whitespace.
const piece = fc.constantFrom(
  '\n', '\r\n', '\n\n', '  ', '\t', ' ', '/', '//', ';', ')', '})', "'s", "'ll", 'don', 'T', 'x',
  'foo', 'Bar', '123', '4567', 'é', 'ж', '日本', '\u00a0', '\u2028', '\u3000', '<|endoftext|>', '`', '```',
  '#', '-', '=>', '.', ',', '"', 'if (a) {', 'return b;',
);
const line = fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join(''));
// Long enough to be counted block by block (2,048 characters and more), without long runs.
const longText = fc.array(line, { minLength: 200, maxLength: 500 }).map((lines) => lines.join('\n'));
const encoding = fc.constantFrom<EncodingName>('o200k_base', 'cl100k_base');

describe('createTokenCounter() counts exactly', () => {
  it('counts any text without long runs as the tokenizer does, block by block included', () => {
    fc.assert(
      fc.property(encoding, longText, (name, text) => {
        expect(createTokenCounter({ encoding: name }).count(text)).toBe(RAW[name](text));
      }),
      { numRuns: Math.max(20, Math.floor(PROPERTY_RUNS / 20)) },
    );
  });

  it('gives an edited text the count of a fresh count after re-counting only changed blocks', () => {
    fc.assert(
      fc.property(
        encoding,
        longText,
        fc.array(fc.tuple(fc.nat(), fc.nat({ max: 40 }), line), { minLength: 1, maxLength: 5 }),
        (name, text, edits) => {
          const counter = createTokenCounter({ encoding: name });
          let current = text;
          counter.count(current);
          for (const [at, removed, inserted] of edits) {
            const start = at % (current.length + 1);
            current = `${current.slice(0, start)}${inserted}${current.slice(start + removed)}`;
            expect(counter.count(current)).toBe(RAW[name](current));
          }
        },
      ),
      { numRuns: Math.max(20, Math.floor(PROPERTY_RUNS / 20)) },
    );
  });

  it('keeps a scratchpad section count equal to a whole count of the rendered section', () => {
    fc.assert(
      fc.property(
        encoding,
        longText,
        fc.array(fc.tuple(fc.nat(), line, fc.nat({ max: 3 })), { minLength: 1, maxLength: 6 }),
        (name, content, edits) => {
          const counter = createTokenCounter({ encoding: name });
          const scratchpad = createScratchpad({ counter, budget: 1_000_000, autoCloseAfter: 100 });
          scratchpad.open({ path: 'src/a.ts', content, seq: 1, exchange: 1 });
          let current = content;
          let seq = 1;
          for (const [at, inserted, exchangeStep] of edits) {
            const lines = current.split('\n');
            lines.splice(at % (lines.length + 1), 1, inserted);
            current = lines.join('\n');
            seq += 1;
            const file = scratchpad.update({ path: 'src/a.ts', content: current, seq, exchange: 1 + exchangeStep }).file;
            expect(file.tokens).toBe(RAW[name](scratchpad.renderSection('src/a.ts')));
          }
        },
      ),
      { numRuns: Math.max(20, Math.floor(PROPERTY_RUNS / 20)) },
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wordTokensOf } from '../../src/language/word-tokens.js';
import { PROPERTY_RUNS } from '../helpers.js';

// Name-slot reading walks the words of a statement once; it must see the words and the character
// after each exactly as the matchAll() and regex-per-word reading did.

const piece = fc.oneof(
  fc.constantFrom(
    'we bundle with', 'esbuild', 'Switch to', 'pnpm', 'by caddy', 'task 7.2', 'open(x)', "don't", 'it’s', 'v1.2', 'node_modules', 'a.b', 'x-y', '`uv`',
    '.', ',', ';', ':', '!', '?', ')', ']', '—', '–', '-', '(', '"', "'", '/', '\n', '\t', ' ', '\u00a0', '\u2003', '\u2028', '\u3000', '\ufeff', '\u180e', '\u200b',
    'é', 'Ünï', 'ß', '日本', 'и', '٣', '😀', '𝐀', '\ud835', '\udc00', '_',
  ),
  fc.string({ maxLength: 8 }),
  fc.string({ unit: 'grapheme', maxLength: 4 }),
);
const prose = fc.array(piece, { maxLength: 24 }).chain((pieces) => fc.constantFrom(' ', '', '  ').map((glue) => pieces.join(glue)));

describe('wordTokensOf()', () => {
  it('reads the words and what follows each as matchAll() and a sticky regex per word did', () => {
    fc.assert(
      fc.property(prose, (value) => {
        expect(wordTokensOf(value)).toEqual(tokensByRegex(value));
      }),
      { numRuns: PROPERTY_RUNS * 2 },
    );
  });

  it('sees every whitespace character and clause end', () => {
    for (let code = 0; code < 0x10000; code += 1) {
      const value = `pnpm${String.fromCharCode(code)}x`;
      expect(wordTokensOf(value)).toEqual(tokensByRegex(value));
    }
  });
});

// --- Internal helpers ---

// The reading as it was written in scoreSalience's lowerCaseNames().
function tokensByRegex(prose: string): { raw: string; word: string; joined: boolean; ends: boolean }[] {
  const nextCharacter = /\s*(\S?)/uy;
  return [...prose.matchAll(/(?<![\p{L}\p{N}_`'’.-])\p{L}(?:[\p{L}\p{N}_'’.-]*[\p{L}\p{N}_])?/gu)].map((match) => {
    nextCharacter.lastIndex = match.index + match[0].length;
    const next = nextCharacter.exec(prose)?.[1] ?? '';
    return { raw: match[0], word: match[0].toLowerCase(), joined: /\p{L}/u.test(next), ends: next === '' || /[.,;:!?)\]—–]/u.test(next) };
  });
}

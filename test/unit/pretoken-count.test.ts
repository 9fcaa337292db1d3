import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createPretokenCounter, exactCounter } from '../../src/tokens/pretoken-count.js';

// The real tokenizer, wrapped so that each test can see which texts reached it.
vi.mock('gpt-tokenizer/encoding/o200k_base', async (importOriginal) => {
  const actual = await importOriginal<typeof import('gpt-tokenizer/encoding/o200k_base')>();
  return { ...actual, countTokens: vi.fn(actual.countTokens) };
});

const tokenized = (): string[] => vi.mocked(countTokens).mock.calls.map((call) => call[0] as string);
const NO_SPECIAL = { disallowedSpecial: new Set<string>() };

beforeEach(() => {
  exactCounter('o200k_base');
  vi.mocked(countTokens).mockClear();
});

describe('exactCounter()', () => {
  it('hands the tokenizer each distinct pre-token once, never a whole text', () => {
    const count = exactCounter('o200k_base');
    const text = 'The quixotic parser reads the zephyr config twice; the quixotic parser then writes the zephyr config.\n';
    const expected = countTokens(text, NO_SPECIAL);
    vi.mocked(countTokens).mockClear();
    expect(count(text)).toBe(expected);
    expect(tokenized().filter((piece) => piece === ' quixotic')).toHaveLength(1);
    expect(tokenized().every((piece) => piece.lastIndexOf(' ') <= 0)).toBe(true);
    const reordered = 'The zephyr config reads the quixotic parser; then the parser writes twice.\n';
    vi.mocked(countTokens).mockClear();
    const total = count(reordered);
    expect(tokenized()).toEqual([]);
    expect(total).toBe(countTokens(reordered, NO_SPECIAL));
  });

  it('tells apart pre-tokens whose hashes are equal', () => {
    // ' qpilxe' and ' dthtovgo' have the same 32-bit FNV-1a hash: the second must not be taken for the first.
    const count = exactCounter('o200k_base');
    for (const word of [' qpilxe', ' dthtovgo', ' qpilxe', ' dthtovgo']) {
      vi.mocked(countTokens).mockClear();
      expect(count(`Sure${word}`)).toBe(countTokens(`Sure${word}`, NO_SPECIAL));
    }
    vi.mocked(countTokens).mockClear();
    count('Sure dthtovgo qpilxe');
    expect(tokenized()).toEqual([]);
  });

  it('stays exact when more pre-tokens than a slot holds compete for it', () => {
    // Ten pre-tokens whose hashes end in the same 16 bits, so all of them look in the same slots.
    const words = [' elafe', ' islawe', ' znmie', ' xvgodxg', ' grdxn', ' gnsyum', ' kvmbm', ' jalkg', ' dbsmu', ' avaer'];
    const count = exactCounter('o200k_base');
    for (let round = 0; round < 3; round += 1) {
      for (const word of words) expect(count(`Then${word}.`)).toBe(countTokens(`Then${word}.`, NO_SPECIAL));
    }
    const text = `Then${words.join('')} and${[...words].reverse().join('')}.`;
    expect(count(text)).toBe(countTokens(text, NO_SPECIAL));
  });

  it('remembers a long pre-token too: a rule repeated in every report reaches the tokenizer once', () => {
    const count = exactCounter('o200k_base');
    const rule = ` ${'='.repeat(81)}`;
    const report = (passed: number): string => `${rule}\n tests passed: ${passed}\n${rule}\n`;
    for (let run = 1; run <= 3; run += 1) expect(count(report(run))).toBe(countTokens(report(run), NO_SPECIAL));
    vi.mocked(countTokens).mockClear();
    count(report(4));
    count(`${rule}\n`);
    expect(tokenized().filter((piece) => piece.includes('='))).toEqual([]);
    // A different rule of the same length is not taken for it.
    const dashes = `${` ${'-'.repeat(81)}`}\n`;
    const expected = countTokens(dashes, NO_SPECIAL);
    vi.mocked(countTokens).mockClear();
    expect(count(dashes)).toBe(expected);
    expect(tokenized()).toEqual([` ${'-'.repeat(81)}\n`]);
  });

  it('counts a pre-token longer than any it remembers each time it occurs, exactly', () => {
    const count = exactCounter('o200k_base');
    const word = ` ${'ab'.repeat(600)}`;
    for (let round = 0; round < 2; round += 1) {
      const expected = countTokens(`x${word}.`, NO_SPECIAL);
      vi.mocked(countTokens).mockClear();
      expect(count(`x${word}.`)).toBe(expected);
      expect(tokenized()).toContain(word);
    }
  });

  it('counts special-token strings as plain text', () => {
    const count = exactCounter('o200k_base');
    expect(count('a <|endoftext|> b')).toBe(countTokens('a <|endoftext|> b', NO_SPECIAL));
    expect(count('<|endoftext|>')).toBeGreaterThan(1);
  });

  it('is one counter per encoding', () => {
    expect(exactCounter('o200k_base')).toBe(exactCounter('o200k_base'));
    expect(exactCounter('cl100k_base')).not.toBe(exactCounter('o200k_base'));
  });
});

describe('createPretokenCounter()', () => {
  it('hands a text whole to the tokenizer when the pattern leaves characters uncut', () => {
    const countRaw = vi.fn((text: string) => text.length);
    const count = createPretokenCounter(/[a-z]+| /gu, countRaw);
    expect(count('ab cd')).toBe(5);
    expect(countRaw.mock.calls.map((call) => call[0])).toEqual(['ab', 'cd']);
    countRaw.mockClear();
    expect(count('ab, cd')).toBe(6);
    expect(countRaw.mock.calls.map((call) => call[0])).toEqual(['ab, cd']);
  });

  it('hands a text whole to the tokenizer when a pre-token would be cut otherwise on its own', () => {
    // In context `ab` is one pre-token (a `c` follows); alone it would be cut into `a` and `b`.
    const countRaw = vi.fn((text: string) => (text === 'abc' ? 99 : text.length));
    const count = createPretokenCounter(/ab(?=c)|a|b|c/gu, countRaw);
    expect(count('abc')).toBe(99);
    expect(countRaw.mock.calls.map((call) => call[0])).toEqual(['abc']);
  });

  // Short pre-tokens are remembered by their characters packed into numbers: pieces that differ
  // only in their last character, in a NUL against no character, or in a character of the upper
  // half of U+0000–U+00FF must never share a count.
  it('tells remembered short pre-tokens apart by every character and by length, and counts each once', () => {
    const weight = (piece: string): number => 1 + ([...piece].reduce((sum, character, index) => sum + character.charCodeAt(0) * (index + 1), piece.length) % 97);
    const countRaw = vi.fn((text: string) => text.split(/( )/).filter((piece) => piece !== '').reduce((sum, piece) => sum + weight(piece), 0));
    const count = createPretokenCounter(/[^ ]+| /gu, countRaw);
    const pieces = [
      'abcdefghijkl', 'abcdefghijkm', 'bbcdefghijkl', 'abcdefgh', 'abcdefgh\u0000', 'abcd', 'abcd\u0000', '\u0000abc',
      'ab\u00ffcd', 'ab\u00fecd', 'ab\u0100cd', '\u00ff'.repeat(12), '\u00ff'.repeat(11), 'abcdefghijklm', 'é', 'ÿ',
    ];
    for (let round = 0; round < 2; round += 1) {
      for (const piece of pieces) expect(count(`${piece} ${piece}`)).toBe(2 * weight(piece) + 1);
    }
    // Each distinct piece reached the tokenizer once (the space is one byte, never looked up).
    expect(countRaw.mock.calls.map((call) => call[0]).sort()).toEqual([...pieces].sort());
  });

  it('keeps every count right once more short pre-tokens are seen than it remembers', () => {
    const countRaw = vi.fn((text: string) => text.split(/( )/).filter((piece) => piece !== '').reduce((sum, piece) => sum + 1 + (piece.charCodeAt(piece.length - 1) % 5), 0));
    const count = createPretokenCounter(/[^ ]+| /gu, countRaw);
    const pieces = Array.from({ length: 100_000 }, (_, index) => `w${index.toString(36)}`);
    const expected = pieces.map((piece) => countRaw(piece));
    for (let round = 0; round < 2; round += 1) {
      expect(pieces.map((piece) => count(piece))).toEqual(expected);
    }
  });
});

describe('a huge text with characters above U+00FF', () => {
  it('is counted exactly, and so are the ordinary texts after it, once its buffers are let go', () => {
    const count = exactCounter('o200k_base');
    const huge = 'step → next — done 😀 naïve\n'.repeat(45_000);
    const after = ['arrow → here 😀', 'plain text after it', 'ça — va 👍🏽'];
    const expected = [huge, ...after].map((text) => countTokens(text, NO_SPECIAL));
    expect([huge, ...after].map((text) => count(text))).toEqual(expected);
  });
});

import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createTokenCounter } from '../../src/index.js';
import type { TokenCounter } from '../../src/index.js';
import { createScratchpad } from '../../src/scratchpad/scratchpad.js';

// The exact counter behind the count cache (the tokenizer, pre-token by pre-token), wrapped so
// that each test can see which texts reached it.
const tokenizer = vi.hoisted(() => ({ texts: [] as string[] }));
vi.mock('../../src/tokens/pretoken-count.js', async (importOriginal) => {
  const { spyOnExactCounter } = await import('../tokenizer-spy.js');
  return spyOnExactCounter(await importOriginal(), tokenizer.texts);
});

const tokenized = (): string[] => tokenizer.texts;
const tokenizedChars = (): number => tokenized().reduce((sum, text) => sum + text.length, 0);

function sourceFile(lines: number): string {
  const result: string[] = [];
  for (let index = 0; index < lines; index += 1) {
    result.push(index % 7 === 0 ? `export function step${index}(input: number): number {` : `  return input * ${index} + offset(${index % 13});`);
    if (index % 7 === 6) result.push('}');
  }
  return `${result.join('\n')}\n`;
}

beforeEach(() => {
  tokenizer.texts.length = 0;
});

describe('createTokenCounter()', () => {
  it('tokenizes a text it has counted before no more', () => {
    const counter = createTokenCounter();
    const text = sourceFile(40);
    const first = counter.count(text);
    const calls = tokenized().length;
    expect(calls).toBeGreaterThan(0);
    expect(counter.count(text)).toBe(first);
    expect(tokenized()).toHaveLength(calls);
  });

  it('keeps a text used again while others fill the cache, and forgets one left unused', () => {
    const counter = createTokenCounter();
    // Distinct texts under the block size, about 1,500 characters each: 1,500 of them fill more
    // than half of the cache (4 M characters), so the cache turns over once per such run.
    const filler = (run: number, index: number): string => `run ${run} text ${index}: ${'the build step reads the settings file and writes a report. '.repeat(25)}`;
    const kept = `kept ${'a note on the migration plan, checked after every step. '.repeat(25)}`;
    const dropped = `dropped ${'a remark about the old deployment script and its flags. '.repeat(25)}`;
    const keptTokens = counter.count(kept);
    const droppedTokens = counter.count(dropped);
    for (let run = 0; run < 3; run += 1) {
      for (let index = 0; index < 1_500; index += 1) counter.count(filler(run, index));
      tokenizer.texts.length = 0;
      expect(counter.count(kept)).toBe(keptTokens);
      expect(tokenized()).toHaveLength(0);
    }
    expect(counter.count(dropped)).toBe(droppedTokens);
    expect(tokenized()).toEqual([dropped]);
  });
});

describe('Scratchpad', () => {
  describe('update()', () => {
    it('re-counts only the blocks around a one-line edit of a large file', () => {
      const counter = createTokenCounter();
      const scratchpad = createScratchpad({ counter, budget: 1_000_000, autoCloseAfter: 10 });
      const content = sourceFile(3_000);
      scratchpad.open({ path: 'src/steps.ts', content, seq: 1, exchange: 1 });
      tokenizer.texts.length = 0;
      const edited = content.replace('return input * 1500 +', 'return input * 1501 +');
      expect(edited).not.toBe(content);
      const file = scratchpad.update({ path: 'src/steps.ts', content: edited, seq: 2, exchange: 1 }).file;
      // The header line and the block holding the edited line, not the file.
      expect(tokenizedChars()).toBeLessThan(content.length / 20);
      expect(tokenized().some((text) => text.includes('return input * 1501 +'))).toBe(true);
      expect(file.tokens).toBe(countTokens(scratchpad.renderSection('src/steps.ts'), { disallowedSpecial: new Set() }));
    });
  });

  describe('open()', () => {
    it('re-counts only the header when a re-read changes nothing but the header', () => {
      const counter = createTokenCounter();
      const scratchpad = createScratchpad({ counter, budget: 1_000_000, autoCloseAfter: 10 });
      const content = sourceFile(500);
      scratchpad.open({ path: 'src/steps.ts', content, seq: 1, exchange: 1 });
      tokenizer.texts.length = 0;
      const file = scratchpad.open({ path: 'src/steps.ts', content, seq: 2, exchange: 2 }).file;
      expect(tokenized()).toEqual([expect.stringMatching(/^### src\/steps\.ts \(.*last touched turn 2\)\n$/)]);
      expect(file.tokens).toBe(countTokens(scratchpad.renderSection('src/steps.ts'), { disallowedSpecial: new Set() }));
    });

    it('counts whole sections with a counter of its own, which it cannot split', () => {
      const texts: string[] = [];
      const counter: TokenCounter = { name: 'words', count: (text) => (texts.push(text), text.split(/\s+/).length) };
      const scratchpad = createScratchpad({ counter, budget: 1_000_000, autoCloseAfter: 10 });
      const content = sourceFile(50);
      scratchpad.open({ path: 'src/steps.ts', content, seq: 1, exchange: 1 });
      scratchpad.open({ path: 'src/steps.ts', content, seq: 2, exchange: 2 });
      expect(texts.at(-1)).toBe(scratchpad.renderSection('src/steps.ts'));
    });
  });
});

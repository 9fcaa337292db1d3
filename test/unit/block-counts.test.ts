import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createTokenCounter } from '../../src/index.js';
import { countBlocks } from '../../src/tokens/block-counts.js';
import type { BlockCounts } from '../../src/tokens/block-counts.js';

// The exact counter behind the count cache, wrapped so that each test sees which texts reached it.
const tokenizer = vi.hoisted(() => ({ texts: [] as string[] }));
vi.mock('../../src/tokens/pretoken-count.js', async (importOriginal) => {
  const { spyOnExactCounter } = await import('../tokenizer-spy.js');
  return spyOnExactCounter(await importOriginal(), tokenizer.texts);
});

const NO_SPECIAL = { disallowedSpecial: new Set<string>() };

function moduleSource(lines: number): string {
  const result: string[] = [];
  for (let index = 0; index < lines; index += 1) {
    result.push(index % 6 === 0 ? `export function handler${index}(request: Request): Response {` : `    const value${index} = lookup(request, ${index * 7});`);
    if (index % 6 === 5) result.push('}');
  }
  return `${result.join('\n')}\n`;
}

function counted(text: string, shared?: { previous: BlockCounts; prefix: number; suffix: number }): BlockCounts {
  const counts = countBlocks(createTokenCounter(), text, shared);
  if (counts === undefined) throw new Error('the default counter counts by blocks');
  return counts;
}

beforeEach(() => {
  tokenizer.texts.length = 0;
});

describe('countBlocks()', () => {
  it('counts only the blocks around a one-line edit, even with a counter that has counted nothing', () => {
    const before = moduleSource(2_000);
    const previous = counted(before);
    const edited = before.replace('const value1201 = lookup(request, 8407);', 'const value1201 = lookup(request, 8408);');
    expect(edited).not.toBe(before);
    const prefix = before.indexOf('8407');
    const suffix = before.length - prefix - 4;
    tokenizer.texts.length = 0;
    // A fresh counter has no cached block: whatever it does not take from `previous`, it tokenizes.
    const result = counted(edited, { previous, prefix, suffix });
    const tokenizedChars = tokenizer.texts.reduce((sum, text) => sum + text.length, 0);
    expect(tokenizedChars).toBeGreaterThan(0);
    expect(tokenizedChars).toBeLessThan(before.length / 50);
    expect(tokenizer.texts.some((text) => text.includes('8408'))).toBe(true);
    expect(result.total).toBe(countTokens(edited, NO_SPECIAL));
    expect(result.ends).toEqual(counted(edited).ends);
  });

  it('cuts a block end again when the edit is in the indentation of the line after it', () => {
    const before = moduleSource(400);
    const previous = counted(before);
    // Every block end inside the text: empty the line after it but for its indentation, which the
    // decision to end a block there reads (the end goes away: a blank line starts no block).
    const inner = previous.ends.slice(0, -1);
    expect(inner.length).toBeGreaterThan(10);
    for (const end of inner) {
      const indentation = /^[ \t]*/.exec(before.slice(end))?.[0].length ?? 0;
      const lineEnd = before.indexOf('\n', end);
      const edited = `${before.slice(0, end + indentation)}${before.slice(lineEnd)}`;
      const result = counted(edited, { previous, prefix: end + indentation, suffix: before.length - lineEnd });
      expect(result.ends).toEqual(counted(edited).ends);
      expect(result.total).toBe(countTokens(edited, NO_SPECIAL));
    }
  });

  it('counts a short text whole, as the counter does', () => {
    const text = 'export const limit = 10;\n';
    expect(counted(text)).toEqual({ text, ends: [text.length], tokens: [countTokens(text, NO_SPECIAL)], total: countTokens(text, NO_SPECIAL) });
  });

  it('is undefined for a counter that does not count by blocks', () => {
    expect(countBlocks({ name: 'characters', count: (text) => text.length }, moduleSource(400))).toBeUndefined();
  });
});

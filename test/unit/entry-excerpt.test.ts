import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContextManager } from '../../src/index.js';
import { createEntry } from '../../src/tiers/entry.js';
import { createTokenCounter, MESSAGE_OVERHEAD_TOKENS } from '../../src/tokens/token-counter.js';
import type { TokenCounter } from '../../src/tokens/token-counter.js';

// The default counter, wrapped so that a test sees how many characters it was asked to count.
function createSpyCounter(): TokenCounter & { chars: number } {
  const inner = createTokenCounter();
  const spy = {
    name: 'spy',
    chars: 0,
    count: (text: string): number => {
      spy.chars += text.length;
      return inner.count(text);
    },
  };
  return spy;
}

// Lines of a test run's log, varied so that no two blocks of them are alike.
function testLog(lineCount: number): string {
  const lines: string[] = [];
  for (let index = 0; index < lineCount; index += 1) {
    lines.push(`PASS suite_${index % 97}/case_${index}.spec.ts (${(index * 37) % 1_000} ms) retries=${index % 4}`);
  }
  return `${lines.join('\n')}\n`;
}

const MARKER = 'omitted from the window; the full text is kept in history as entry #';

describe('createEntry()', () => {
  it('counts a few times the excerpt of a 2 MB tool output, not the output', () => {
    const counter = createSpyCounter();
    const manager = new ContextManager({ budget: 28_000, tokenCounter: counter });
    manager.addMessage({ role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'test', input: {} }] });
    const output = testLog(40_000);
    expect(output.length).toBeGreaterThan(2_000_000);
    counter.chars = 0;
    const entry = manager.addToolResult({ callId: 'c1', output });
    expect(entry.text).toBe(output);
    expect(entry.display).toContain(MARKER);
    expect(counter.chars).toBeLessThan(entry.display.length * 10);
    const reference = createTokenCounter();
    expect(reference.count(entry.display)).toBeLessThanOrEqual(2_000);
    expect(entry.tokens).toBe(reference.count(entry.display) + MESSAGE_OVERHEAD_TOKENS);
  });

  it('rounds the omitted tokens of an excerpt, an estimate, to two significant digits', () => {
    const entry = createEntry({ seq: 7, kind: 'tool-result', role: 'tool', text: testLog(5_000), counter: createTokenCounter(), maxEntryTokens: 2_000, exchange: 1 });
    const omitted = /\(about ([\d,]+) tokens\) omitted/.exec(entry.display)?.[1];
    const digits = (omitted ?? '').replaceAll(',', '');
    expect(Number(digits)).toBeGreaterThan(1_000);
    expect(digits.replace(/0+$/u, '').length).toBeLessThanOrEqual(2);
  });

  it('shows a text of at most maxEntryTokens whole and counts it exactly; excerpts a longer one within the limit', () => {
    const reference = createTokenCounter();
    fc.assert(
      fc.property(
        fc.integer({ min: 64, max: 600 }),
        fc.integer({ min: 1, max: 400 }),
        fc.constantFrom(' ', '    ', 'x', 'word ', 'é ', '🙂'),
        (maxEntryTokens, lineCount, filler) => {
          const text = testLog(lineCount) + filler.repeat(lineCount * 3);
          const counter = createTokenCounter();
          const entry = createEntry({ seq: 1, kind: 'tool-result', role: 'tool', text, counter, maxEntryTokens, exchange: 1 });
          const tokens = reference.count(text);
          if (tokens <= maxEntryTokens) {
            expect(entry.display).toBe(text);
            expect(entry.tokens).toBe(tokens + MESSAGE_OVERHEAD_TOKENS);
          } else {
            expect(entry.display).not.toBe(text);
            expect(entry.display).toContain(MARKER);
            expect(entry.tokens).toBe(reference.count(entry.display) + MESSAGE_OVERHEAD_TOKENS);
            expect(entry.tokens - MESSAGE_OVERHEAD_TOKENS).toBeLessThanOrEqual(maxEntryTokens);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('shows a text of exactly maxEntryTokens whole and excerpts one a token longer', () => {
    const reference = createTokenCounter();
    const text = testLog(400);
    const tokens = reference.count(text);
    const fits = createEntry({ seq: 1, kind: 'tool-result', role: 'tool', text, counter: createTokenCounter(), maxEntryTokens: tokens, exchange: 1 });
    expect(fits.display).toBe(text);
    const over = createEntry({ seq: 1, kind: 'tool-result', role: 'tool', text, counter: createTokenCounter(), maxEntryTokens: tokens - 1, exchange: 1 });
    expect(over.display).toContain(MARKER);
    expect(reference.count(over.display)).toBeLessThanOrEqual(tokens - 1);
  });
});

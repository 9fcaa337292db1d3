import { describe, expect, it } from 'vitest';
import type { BoundaryScore } from '../../src/index.js';
import { createExtractiveSummarizer, createTokenCounter } from '../../src/index.js';
import { planChunk, restoreIdentifiers, summarizeSafely } from '../../src/graduation/graduator.js';
import { createEntry } from '../../src/tiers/entry.js';
import { createMockSummarizer } from '../../src/testing/index.js';
import type { Entry } from '../../src/index.js';

const counter = createTokenCounter();

function entries(count: number): Entry[] {
  return Array.from({ length: count }, (_, index) =>
    createEntry({ seq: index + 1, kind: 'user', role: 'user', text: 'word '.repeat(96), counter, maxEntryTokens: 2_000, exchange: index }),
  );
}
const score = (strength: BoundaryScore['strength']): BoundaryScore => ({ strength, reason: strength });

describe('planChunk()', () => {
  it('picks the strongest allowed boundary that frees at least the target', () => {
    const list = entries(10); // 100 tokens each
    const scores = [score('weak'), score('weak'), score('moderate'), score('strong'), score('weak'), score('strong'), score('weak'), score('weak'), score('weak'), score('weak')];
    const plan = planChunk({ entries: list, scores, targetTokens: 250 });
    expect(plan?.count).toBe(4);
    expect(plan?.boundary.strength).toBe('strong');
  });

  it('never cuts at a forbidden gap and never takes the newest entry', () => {
    const list = entries(4);
    const scores = [score('forbidden'), score('forbidden'), score('forbidden'), score('strong')];
    expect(planChunk({ entries: list, scores, targetTokens: 50 })).toBeUndefined();
  });

  it('goes past twice the target when no allowed cut is closer', () => {
    const list = entries(8);
    const scores = [score('forbidden'), score('forbidden'), score('forbidden'), score('forbidden'), score('weak'), score('weak'), score('weak'), score('weak')];
    expect(planChunk({ entries: list, scores, targetTokens: 100 })?.count).toBe(5);
  });
});

describe('summarizeSafely()', () => {
  const request = { mode: 'chunk' as const, entries: entries(3), summaries: [], targetTokens: 50, countTokens: (text: string) => counter.count(text) };

  it('returns the summarizer result when it is valid', async () => {
    const outcome = await summarizeSafely({ summarizer: createMockSummarizer({ summary: 'ok' }), fallback: createExtractiveSummarizer(), request, timeoutMs: 1_000, retries: 0 });
    expect(outcome).toMatchObject({ summarizer: 'mock', isFallback: false, failure: undefined });
  });

  it('rejects an oversized summary as invalid output and falls back', async () => {
    const outcome = await summarizeSafely({ summarizer: createMockSummarizer({ summary: 'word '.repeat(2_000) }), fallback: createExtractiveSummarizer(), request, timeoutMs: 1_000, retries: 0 });
    expect(outcome.isFallback).toBe(true);
    expect(outcome.failure?.reason).toBe('invalid-output');
    expect(outcome.failure?.error.message).toContain('targetTokens');
  });

  it('does not retry a summarizer that timed out', async () => {
    const summarizer = createMockSummarizer('hang');
    const outcome = await summarizeSafely({ summarizer, fallback: createExtractiveSummarizer(), request, timeoutMs: 1, retries: 3 });
    expect(summarizer.calls).toHaveLength(1);
    expect(summarizer.calls[0]?.signal.aborted).toBe(true);
    expect(outcome.failure?.reason).toBe('timeout');
    expect(outcome.failure?.error.message).toContain('summarizerTimeoutMs');
  });
});

describe('restoreIdentifiers()', () => {
  it('appends paths, error names and numbers with units that the summary dropped', () => {
    const chunk = [createEntry({ seq: 1, kind: 'user', role: 'user', text: 'The ECONNRESET in src/db/pool.ts shows up after 250ms', counter, maxEntryTokens: 2_000, exchange: 1 })];
    const result = restoreIdentifiers({ entries: chunk, result: { summary: 'Looked at the pool.' }, countTokens: (text) => counter.count(text), maxTokens: 100 });
    expect(result.summary).toContain('src/db/pool.ts');
    expect(result.summary).toContain('ECONNRESET');
    expect(result.summary).toContain('250ms');
  });

  it('leaves a summary that kept its identifiers unchanged', () => {
    const chunk = [createEntry({ seq: 1, kind: 'user', role: 'user', text: 'fix src/a.ts', counter, maxEntryTokens: 2_000, exchange: 1 })];
    const original = { summary: 'Fixed src/a.ts.' };
    expect(restoreIdentifiers({ entries: chunk, result: original, countTokens: (text) => counter.count(text), maxTokens: 100 })).toBe(original);
  });
});

import { describe, expect, it } from 'vitest';
import type { BoundaryScore } from '../../src/index.js';
import { createExtractiveSummarizer, createTokenCounter } from '../../src/index.js';
import { planChunk } from '../../src/graduation/chunk-plan.js';
import { restoreIdentifiers } from '../../src/graduation/identifier-restore.js';
import { summarizeSafely } from '../../src/summarizer/summarize-safely.js';
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
    const plan = planChunk({ entries: list, scores, targetTokens: 320 });
    expect(plan?.count).toBe(4);
    expect(plan?.boundary.strength).toBe('strong');
  });

  it('does not reach far past the target for a stronger boundary', () => {
    const list = entries(10); // 100 tokens each
    const scores = [score('weak'), score('weak'), score('moderate'), score('weak'), score('weak'), score('strong'), score('weak'), score('weak'), score('weak'), score('weak')];
    // The strong cut after six entries frees 600 tokens, more than a quarter past the target.
    const plan = planChunk({ entries: list, scores, targetTokens: 300 });
    expect(plan?.count).toBe(3);
    expect(plan?.boundary.strength).toBe('moderate');
  });

  it('never cuts at a forbidden gap and never takes the newest entry', () => {
    const list = entries(4);
    const scores = [score('forbidden'), score('forbidden'), score('forbidden'), score('strong')];
    expect(planChunk({ entries: list, scores, targetTokens: 50 })).toBeUndefined();
  });

  it('goes past the target when no allowed cut is closer', () => {
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

describe('summarizeSafely() isolation and validation', () => {
  const request = { mode: 'chunk' as const, entries: entries(3), summaries: [], targetTokens: 50, countTokens: (text: string) => counter.count(text) };
  const call = (summarizer: ReturnType<typeof createMockSummarizer>, extra: { maxSummaryTokens?: number; retries?: number } = {}) =>
    summarizeSafely({ summarizer, fallback: createExtractiveSummarizer(), request, timeoutMs: 1_000, retries: extra.retries ?? 0, maxSummaryTokens: extra.maxSummaryTokens });

  it('hands the summarizer a frozen deep copy, never the caller\'s entries', async () => {
    const summarizer = createMockSummarizer({ summary: 'ok' });
    await call(summarizer);
    const received = summarizer.calls[0];
    expect(received?.entries).not.toBe(request.entries);
    expect(received?.entries).toEqual(request.entries);
    expect(Object.isFrozen(received)).toBe(true);
    expect(Object.isFrozen(received?.entries)).toBe(true);
    expect(Object.isFrozen(received?.entries[0])).toBe(true);
  });

  it('keeps the caller\'s entries intact when the summarizer tries to empty or rewrite them', async () => {
    const before = request.entries.map((entry) => ({ seq: entry.seq, text: entry.text }));
    const outcome = await call(createMockSummarizer('mutate'));
    expect(request.entries.map((entry) => ({ seq: entry.seq, text: entry.text }))).toEqual(before);
    expect(outcome.result.summary).toContain('tried to change');
  });

  it('treats a result whose getter throws as a failure, retries, then falls back', async () => {
    const summarizer = createMockSummarizer('throwing-getter', { name: 'getter-bot' });
    const outcome = await call(summarizer, { retries: 2 });
    expect(summarizer.calls).toHaveLength(3);
    expect(outcome).toMatchObject({ isFallback: true, summarizer: 'extractive' });
    expect(outcome.failure?.reason).toBe('invalid-output');
    expect(outcome.failure?.error).toMatchObject({ code: 'SUMMARIZER_FAILED', summarizer: 'getter-bot', mode: 'chunk', source: { from: 1, to: 3 } });
    expect(outcome.failure?.error.message).toContain('getter-bot');
    expect(outcome.failure?.error.message).toContain('#1–3');
  });

  it('rejects a summary above maxSummaryTokens as oversized and falls back', async () => {
    const outcome = await call(createMockSummarizer({ summary: 'word '.repeat(120) }), { maxSummaryTokens: 100 });
    expect(outcome.failure?.reason).toBe('oversized');
    expect(outcome.failure?.error.message).toContain('maxSummaryRatio');
    expect(counter.count(outcome.result.summary)).toBeLessThanOrEqual(100);
  });

  it('cuts the fallback\'s own summary to the limit when it cannot fit, and says from how many tokens', async () => {
    const longer = { ...request, entries: [createEntry({ seq: 1, kind: 'user', role: 'user', text: 'We decided to keep src/db/pool.ts at 250ms timeouts because the ECONNRESET came back. '.repeat(6), counter, maxEntryTokens: 2_000, exchange: 1 })] };
    const outcome = await summarizeSafely({ summarizer: createExtractiveSummarizer(), fallback: createExtractiveSummarizer(), request: longer, timeoutMs: 1_000, retries: 0, maxSummaryTokens: 12 });
    expect(counter.count(outcome.result.summary)).toBeLessThanOrEqual(12);
    expect(outcome.result.summary.endsWith('…')).toBe(true);
    expect(outcome.trimmedFrom).toBeGreaterThan(12);
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

  it('keeps the sentence that carried a name the summary lost, not a bare mention', () => {
    const text = 'Looked at the retry loop again. Failed syncs are reported in #billing-watch now. The loop itself is fine.';
    const chunk = [createEntry({ seq: 1, kind: 'assistant', role: 'assistant', text, counter, maxEntryTokens: 2_000, exchange: 1 })];
    const result = restoreIdentifiers({ entries: chunk, result: { summary: 'Looked at the retry loop.' }, countTokens: (value) => counter.count(value), maxTokens: 100 });
    expect(result.summary).toContain('Notes: Failed syncs are reported in #billing-watch now.');
    expect(result.summary).not.toContain('The loop itself is fine');
  });

  it('restores a service name only where it ends its clause, not where it modifies a noun', () => {
    const text = 'Moved the button to the bulk-actions toolbar. Exports are rendered by sheet-builder.';
    const chunk = [createEntry({ seq: 1, kind: 'user', role: 'user', text, counter, maxEntryTokens: 2_000, exchange: 1 })];
    const result = restoreIdentifiers({ entries: chunk, result: { summary: 'Worked on exports.' }, countTokens: (value) => counter.count(value), maxTokens: 100 });
    expect(result.summary).toContain('Notes: Exports are rendered by sheet-builder.');
    expect(result.summary).not.toContain('toolbar');
  });

  it('leaves a summary that kept its identifiers unchanged', () => {
    const chunk = [createEntry({ seq: 1, kind: 'user', role: 'user', text: 'fix src/a.ts', counter, maxEntryTokens: 2_000, exchange: 1 })];
    const original = { summary: 'Fixed src/a.ts.' };
    expect(restoreIdentifiers({ entries: chunk, result: original, countTokens: (text) => counter.count(text), maxTokens: 100 })).toBe(original);
  });
});

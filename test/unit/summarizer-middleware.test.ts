import { describe, expect, it } from 'vitest';
import { createExtractiveSummarizer, createTokenCounter, SummarizerError, withFallback, withRetry, withSizeLimit, withTimeout, withValidation, wrapSummarizer } from '../../src/index.js';
import type { SummarizeRequest, Summarizer } from '../../src/index.js';
import { createMockSummarizer } from '../../src/testing/index.js';
import { createEntry } from '../../src/tiers/entry.js';

const counter = createTokenCounter();
const entries = [1, 2, 3].map((seq) => createEntry({ seq, kind: 'user', role: 'user', text: `Step ${seq}: move query ${seq} into src/orders/repository.ts.`, counter, maxEntryTokens: 2_000, exchange: seq }));
const request = (): SummarizeRequest => ({ mode: 'chunk', entries, summaries: [], targetTokens: 40, countTokens: (text) => counter.count(text), signal: new AbortController().signal });

describe('wrapSummarizer()', () => {
  it('applies the first middleware outermost and keeps the base name', async () => {
    const order: string[] = [];
    const tag = (name: string) => (next: Summarizer): Summarizer => ({ name: next.name, summarize: async (input) => {
      order.push(`${name}:in`);
      const result = await next.summarize(input);
      order.push(`${name}:out`);
      return result;
    } });
    const wrapped = wrapSummarizer({ summarizer: createMockSummarizer({ summary: 'ok' }), middleware: [tag('a'), tag('b')] });
    await wrapped.summarize(request());
    expect(wrapped.name).toBe('mock');
    expect(order).toEqual(['a:in', 'b:in', 'b:out', 'a:out']);
  });
});

describe('withTimeout()', () => {
  it('aborts a hanging call through its signal and fails it with reason timeout', async () => {
    const summarizer = createMockSummarizer('hang');
    const wrapped = wrapSummarizer({ summarizer, middleware: [withTimeout({ timeoutMs: 1 })] });
    await expect(wrapped.summarize(request())).rejects.toMatchObject({ code: 'SUMMARIZER_FAILED', reason: 'timeout' });
    expect(summarizer.calls[0]?.signal.aborted).toBe(true);
  });
});

describe('withRetry()', () => {
  it('retries a throwing summarizer and reports each failed attempt', async () => {
    const summarizer = createMockSummarizer(['throw', { summary: 'second time lucky' }]);
    const failures: number[] = [];
    const wrapped = wrapSummarizer({ summarizer, middleware: [withRetry({ retries: 2, onFailure: ({ attempt }) => failures.push(attempt) }), withValidation()] });
    expect((await wrapped.summarize(request())).summary).toBe('second time lucky');
    expect(failures).toEqual([1]);
  });
});

describe('withValidation()', () => {
  it('rejects garbage as invalid-output and a summary above maxSummaryTokens as oversized', async () => {
    const garbage = wrapSummarizer({ summarizer: createMockSummarizer('garbage'), middleware: [withValidation()] });
    await expect(garbage.summarize(request())).rejects.toMatchObject({ reason: 'invalid-output' });
    const large = wrapSummarizer({ summarizer: createMockSummarizer({ summary: 'word '.repeat(60) }), middleware: [withValidation({ maxSummaryTokens: 10 })] });
    const error: unknown = await Promise.resolve(large.summarize(request())).catch((caught: unknown) => caught);
    expect(SummarizerError.isInstance(error) && error.reason).toBe('oversized');
  });
});

describe('withFallback()', () => {
  it('runs the fallback after a failure and says why', async () => {
    const reasons: string[] = [];
    const wrapped = wrapSummarizer({
      summarizer: createMockSummarizer('throw'),
      middleware: [withFallback({ fallback: createExtractiveSummarizer(), onFallback: ({ reason }) => reasons.push(reason) }), withValidation()],
    });
    expect((await wrapped.summarize(request())).summary.length).toBeGreaterThan(0);
    expect(reasons).toEqual(['threw']);
  });
});

describe('withSizeLimit()', () => {
  it('cuts a summary that stays above the limit and reports the cut', async () => {
    const trims: number[] = [];
    const wrapped = wrapSummarizer({ summarizer: createMockSummarizer({ summary: 'line of words\n'.repeat(40) }), middleware: [withSizeLimit({ maxSummaryTokens: 20, onTrim: ({ tokens }) => trims.push(tokens) })] });
    const result = await wrapped.summarize(request());
    expect(counter.count(result.summary)).toBeLessThanOrEqual(20);
    expect(trims).toHaveLength(1);
  });

  it('shrinks a structured summary as data: the least salient notes go first and sections remain', async () => {
    const source = { from: 1, to: 3 };
    const notes = Array.from({ length: 12 }, (_, index) => ({ text: `note ${index} about the orders repository and its timeouts`, source, salience: index === 5 ? 50 : index }));
    const sections = [{ name: 'Open' as const, items: [{ text: 'finish the migration', source }] }, { name: 'Notes' as const, items: notes }];
    const summary = ['Open: finish the migration', 'Notes:', ...notes.map((note) => `- ${note.text}`)].join('\n');
    const trims: number[] = [];
    const wrapped = wrapSummarizer({ summarizer: createMockSummarizer({ summary, sections }), middleware: [withSizeLimit({ maxSummaryTokens: 40, onTrim: ({ tokens }) => trims.push(tokens) }), withValidation()] });
    const result = await wrapped.summarize(request());
    expect(counter.count(result.summary)).toBeLessThanOrEqual(40);
    expect(result.sections?.map((section) => section.name)).toEqual(['Open', 'Notes']);
    expect(result.sections?.[1]?.items.map((item) => item.text)).toContain(notes[5]?.text);
    expect(result.summary).toContain('finish the migration');
    expect(trims).toHaveLength(1);
  });
});

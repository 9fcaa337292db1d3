import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { slashPaths } from '../../src/language/identifiers.js';
import { PROPERTY_RUNS, summarizeChunk } from '../helpers.js';

/** The same pattern without its start anchor: tries every position of a run, so it is quadratic. */
const UNANCHORED = /(?:[\w.-]+\/)+[\w.-]+/gu;

describe('slashPaths', () => {
  it('finds paths and repository names written in prose', () => {
    expect(slashPaths('The handler lives in src/api/orders.ts, next to acme/billing-core.')).toEqual(['src/api/orders.ts', 'acme/billing-core.']);
    expect(slashPaths('read ./lib/util.js and ../shared/x')).toEqual(['./lib/util.js', '../shared/x']);
  });

  it('finds nothing in a sentence without a slash, or with a slash between words and spaces', () => {
    expect(slashPaths('We keep the retry budget at five for now.')).toEqual([]);
    expect(slashPaths('either / or, and a trailing slash/ here')).toEqual([]);
  });

  it('matches what the pattern without its start anchor matches', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', 'Z', '1', '_', '.', '-', '/', ' ', '@', '\n'), maxLength: 60 }), (text) => {
        expect(slashPaths(text)).toEqual(text.match(UNANCHORED) ?? []);
      }),
      { numRuns: PROPERTY_RUNS * 5 },
    );
  });

  it('reads a two-million-character run without a slash once', () => {
    expect(slashPaths(`${'x'.repeat(2_000_000)} and src/a.ts`)).toEqual(['src/a.ts']);
  });

  it('lets the summarizer summarize a one-megabyte word run with an aside in it without stalling', () => {
    const text = `${'x'.repeat(500_000)} (the aside says the cache lives in lib/cache.ts) ${'y'.repeat(500_000)}`;
    expect(summarizeChunk([{ kind: 'user', text }]).summary.length).toBeGreaterThan(0);
  });
});

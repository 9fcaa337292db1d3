import { describe, expect, it } from 'vitest';
import { defaultPatterns } from '../../src/boundaries/patterns/default.js';
import { matcherFor } from '../../src/boundaries/pattern-pack.js';
import { analyzeSentence } from '../../src/graduation/retention.js';
import { splitAsides } from '../../src/summarizer/aside-split.js';
import { createExtractiveSummarizer } from '../../src/summarizer/extractive.js';
import { settlementOf } from '../../src/summarizer/settling.js';
import type { SummarizeResult } from '../../src/summarizer/summarizer.js';
import { createTokenCounter } from '../../src/tokens/token-counter.js';
import { makeEntries } from '../helpers.js';
import type { EntryInput } from '../helpers.js';

const counter = createTokenCounter();
const matcher = matcherFor(defaultPatterns);
const settles = (sentence: string, role: 'user' | 'assistant' = 'assistant'): string | undefined => {
  const analysis = analyzeSentence(sentence, { role, patterns: defaultPatterns });
  return settlementOf(sentence, { matcher, isQuestion: analysis.isQuestion, specifics: analysis.specifics });
};

async function summarize(inputs: readonly EntryInput[], targetTokens = 120): Promise<SummarizeResult> {
  return createExtractiveSummarizer().summarize({
    mode: 'chunk',
    entries: makeEntries(inputs),
    summaries: [],
    targetTokens,
    countTokens: (text) => counter.count(text),
    signal: new AbortController().signal,
  });
}
const kept = (result: SummarizeResult): string => `${result.summary}\n${(result.facts ?? []).map((fact) => fact.value).join('\n')}`;

describe('a sentence that settles something for later', () => {
  it.each([
    ['assistant', 'Vite bundled the demo in half the time of webpack, so we go with Vite for the docs site.', 'agreement'],
    ['assistant', 'The nightly export keeps 14 days of snapshots, as we decided on Monday.', 'agreement'],
    ['user', "we'll lint with Biome from now on instead of eslint.", 'agreement'],
    ['assistant', 'Worth keeping: the upload bucket holds 90 days of raw logs.', 'marked'],
    ['assistant', 'Put the summary at the top of the review, since you told me you prefer reading that part first.', 'listener'],
    ['assistant', 'Split the migration into two PRs, since you said smaller diffs are easier for you to review.', 'listener'],
  ] as const)('%s: %s', (role, sentence, kind) => {
    expect(settles(sentence, role)).toBe(kind);
  });

  it.each([
    // Narration of an edit, a remark on the code, a recap, a lead-in, an offer, small talk.
    'I bumped the retry count in `sendBatch` from 3 to 5.',
    'The helper in `src/money/format.ts` rounds half up, which is why totals drift by a cent.',
    'Finished: in the parser I moved the limit check to line 40.',
    'Here is the updated handler for the webhook:',
    'If you want, we can keep the old endpoint around for a while.',
    'The team agreed the offsite went well, pizza next Thursday.',
    'Do we go with Caddy or nginx for the proxy?',
    'Next, the importer: we keep the batch size where it is.',
  ])('settles nothing: %s', (sentence) => {
    expect(settles(sentence)).toBeUndefined();
  });
});

describe('a clause that turns to another matter mid-sentence', () => {
  it('is read on its own after a dash or a semicolon with a connective', () => {
    expect(splitAsides(['Keep the v1 routes alive until June - anyway, next up: the CSV export for invoices.'])).toEqual([
      'Keep the v1 routes alive until June',
      'anyway, next up: the CSV export for invoices.',
    ]);
    expect(splitAsides(['The pool stays at ten connections; btw the session cache lives in Redis now.'])).toHaveLength(2);
  });

  it('stays whole when the word is part of the clause or a part is too short', () => {
    expect(splitAsides(['`src/jobs/sync.ts` - also runs on the staging cron, so leave it.'])).toHaveLength(1);
    expect(splitAsides(['Done - anyway, thanks.'])).toHaveLength(1);
    expect(splitAsides(['The cache — separately configured per region — is warm.'])).toHaveLength(1);
  });
});

describe('a long narrated message keeps what it settles', () => {
  const narration = [
    'I moved the null check in `loadInvoiceLines` above the currency lookup.',
    'The parser in `src/billing/lines.ts` builds each row by hand, which is why `discount` is special-cased.',
    'The tests already cover the happy path, so this mostly affects the error branch.',
    'I also renamed `tmp` to `pendingLines` in `src/billing/lines.ts` while I was there.',
  ];

  it.each([
    ['start', 0],
    ['middle', 2],
    ['end', 4],
  ] as const)('an agreed choice said at the %s becomes a fact', async (_where, at) => {
    const statement = 'For the widgets, esbuild gave the smallest output in the trial, which means we standardize on esbuild.';
    const sentences = [...narration.slice(0, at), statement, ...narration.slice(at)];
    const result = await summarize([{ kind: 'assistant', text: sentences.join(' ') }]);
    expect((result.facts ?? []).map((fact) => fact.value)).toContain(statement);
  });

  it("keeps the listener's stated wish, relayed inside a completion report", async () => {
    const text = [
      'All done, the suite is green. Recap:',
      '- Tightened the `currency` validation',
      '- Left `src/config.ts` alone for now',
      'Wrote the review up as a short checklist, which you said suits you best.',
    ].join('\n');
    expect(kept(await summarize([{ kind: 'assistant', text }]))).toContain('which you said suits you best');
  });

  it("keeps the listener's stated wish said first, before narration with identifiers", async () => {
    const text = 'Wrote the review up as a short checklist, which you said suits you best. Change in `src/billing/lines.ts` — I adjusted the constant on line 40 (2 → 3).';
    expect(kept(await summarize([{ kind: 'assistant', text }], 30))).toContain('which you said suits you best');
  });

  it('keeps a rule said before a dash and a new task', async () => {
    const text = 'Keep the payload under 2 MB per request - anyway, new task: make the importer skip rows without a SKU. Nothing fancy.';
    const facts = (await summarize([{ kind: 'user', text }])).facts ?? [];
    expect(facts.map((fact) => fact.value)).toContain('Keep the payload under 2 MB per request');
  });

  it('makes no fact of the narrated edits and the recap around it', async () => {
    const result = await summarize([{ kind: 'assistant', text: narration.join(' ') }]);
    const values = (result.facts ?? []).map((fact) => fact.value);
    for (const sentence of [narration[0], narration[2], narration[3]]) expect(values).not.toContain(sentence);
  });

  it('makes no fact of an offer or a next step that mentions a choice', async () => {
    const text = 'I checked the bundle sizes in `dist/`. If you want, we can go with Rollup for the widgets later. Let me look at the CSS next.';
    const result = await summarize([{ kind: 'assistant', text }]);
    expect((result.facts ?? []).map((fact) => fact.value).join('\n')).not.toContain('Rollup');
  });
});


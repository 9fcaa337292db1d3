import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createExtractiveSummarizer } from '../../src/summarizer/extractive.js';
import type { SummarizeResult } from '../../src/summarizer/summarizer.js';
import { createTokenCounter } from '../../src/tokens/token-counter.js';
import { makeEntries } from '../helpers.js';
import type { EntryInput } from '../helpers.js';

const counter = createTokenCounter();
const countTokens = (text: string): number => counter.count(text);
const user = (text: string): EntryInput => ({ kind: 'user', text });
const assistant = (text: string): EntryInput => ({ kind: 'assistant', text });

async function summarize(inputs: readonly EntryInput[], targetTokens: number): Promise<SummarizeResult> {
  return createExtractiveSummarizer().summarize({
    mode: 'chunk',
    entries: makeEntries(inputs),
    summaries: [],
    targetTokens,
    countTokens,
    signal: new AbortController().signal,
  });
}

// The agent's remarks that name something outside the code (an acronym) and carry no identifier,
// cue or product description that would make them a fact or a picked note: routine by their wording.
const NAMING = [
  'I ran the import through the ETL box once to see the timings.',
  'I tried the upload with the HEIC sample from the ticket.',
];
// Narration of the code: each sentence adds fresh identifiers, so it is picked first.
const NARRATION = [
  'I renamed `rows` to `pending` inside `flushQueue` for clarity.',
  'The helper `toCents` in `src/money/format.ts` rounds half up.',
  'I added a guard to `parseOrderLine` so empty lines are skipped.',
  'There is a second copy of this loop in `src/jobs/rebuildIndex.ts`.',
  'The retry loop in `sendBatch` resets `attempt` after each success.',
  'I moved the constant `PAGE_SIZE` next to `listInvoices` where it is read.',
];

describe('chunk summaries and statements that name something', () => {
  it('keeps a remark naming a tool or an acronym in the room the summary has left', async () => {
    const result = await summarize(
      [user('Could you tidy the order import before lunch?'), ...NAMING.map(assistant), assistant('Done with the tidy-up.')],
      400,
    );
    for (const sentence of NAMING) expect(result.summary).toContain(sentence);
  });

  it('keeps a user aside that names a tool, as before, next to the agent’s remark', async () => {
    const result = await summarize(
      [user('The finance people still read everything out of the S3 bucket.'), assistant('I tried the upload with the HEIC sample from the ticket.')],
      400,
    );
    expect(result.summary).toContain('S3 bucket');
    expect(result.summary).toContain('HEIC');
  });

  it('leaves out intentions and remarks that name nothing, however much room is left', async () => {
    const result = await summarize(
      [user('Please tidy the order import.'), assistant('Let me look at how the ETL box is set up.'), assistant('Right, that reads fine to me.')],
      400,
    );
    expect(result.summary).not.toContain('Let me look');
    expect(result.summary).not.toContain('reads fine');
  });

  it('drops such a remark first when the summary has no room for it', async () => {
    const inputs = [user('Could you tidy the order import before lunch?'), ...NARRATION.map(assistant), assistant(NAMING[0] ?? '')];
    const wide = await summarize(inputs, 2_000);
    const tight = await summarize(inputs, 60);
    expect(wide.summary).toContain('ETL');
    expect(tight.summary).not.toContain('ETL');
    expect(tight.summary).toContain('Notes:');
  });

  it('never displaces an item the summary keeps without it (fast-check)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.subarray(NARRATION, { minLength: 1 }),
        fc.subarray(NAMING, { minLength: 1 }),
        fc.integer({ min: 20, max: 400 }),
        async (narration, naming, target) => {
          const base = [user('Could you tidy the order import before lunch?'), ...narration.map(assistant)];
          const without = await summarize(base, target);
          const withNaming = await summarize([...base, ...naming.map(assistant)], target);
          const itemsOf = (result: SummarizeResult): string[] => (result.sections ?? []).flatMap((section) => section.items.map((item) => `${section.name}: ${item.text}`));
          const kept = itemsOf(withNaming);
          for (const item of itemsOf(without)) expect(kept).toContain(item);
          expect(countTokens(withNaming.summary)).toBeLessThanOrEqual(target * 2);
        },
      ),
      { numRuns: 60 },
    );
  });
});

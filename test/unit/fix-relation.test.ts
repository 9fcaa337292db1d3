import { describe, expect, it } from 'vitest';
import { isChangeForCause } from '../../src/language/fix-relation.js';
import { isChangeReport, isDiagnosticEdit, isMadeChange } from '../../src/language/fix-statement.js';
import { createExtractiveSummarizer } from '../../src/summarizer/extractive.js';
import type { SummarizeResult } from '../../src/summarizer/summarizer.js';
import { createTokenCounter } from '../../src/tokens/token-counter.js';
import type { EntryInput } from '../helpers.js';
import { makeEntries } from '../helpers.js';

// Sentences written fresh for this test: a cause told in one message and a change told in a later
// one, by either speaker, before a failing run turns green. They are one error resolution only
// when the change is about the same thing as the cause (a shared name, file or word, or a change
// that calls itself the fix) and changes behaviour (not a log line, a comment or a rename for the
// reader).
const counter = createTokenCounter();
const RED = { kind: 'tool-result', text: 'FAIL  test/invoices.test.ts\n  ✕ exports every invoice (37 ms)\nTests: 1 failed, 20 passed, 21 total' } as const;
const GREEN = { kind: 'tool-result', text: 'PASS  test/invoices.test.ts\nTests: 21 passed, 21 total' } as const;
const agent = (text: string): EntryInput => ({ kind: 'assistant', text });
const user = (text: string): EntryInput => ({ kind: 'user', text });

function resolutionsOf(inputs: readonly EntryInput[]): string[] {
  const result = createExtractiveSummarizer().summarize({
    mode: 'chunk',
    entries: makeEntries(inputs),
    summaries: [],
    targetTokens: 400,
    countTokens: (value: string) => counter.count(value),
    signal: new AbortController().signal,
  }) as SummarizeResult;
  return (result.facts ?? []).filter((fact) => fact.category === 'error-resolutions').map((fact) => fact.value);
}

describe('isChangeForCause', () => {
  it.each([
    ['`exportInvoices` never awaited the upload.', 'Added the missing `await` in `exportInvoices`.'],
    ['The exporter was capped at 200 invoices by `PAGE_LIMIT`.', 'Raised `PAGE_LIMIT` to 2000 in `src/export.ts`.'],
    ['the invoice exporter dropped rows with a null currency', 'Defaulted currency to EUR in `src/exporter.ts`.'],
    ['`syncLedger` read the balance before the lock was taken.', 'Moved the read inside the transaction, which fixes it.'],
  ])('relates %s / %s', (cause, change) => {
    expect(isChangeForCause({ cause, change })).toBe(true);
  });

  it.each([
    ['The exporter was capped at 200 invoices by a constant nobody remembers adding.', 'Bumped the mailer retry count to 5 in `src/mailer.ts`.'],
    ['`syncLedger` read the balance before the lock was taken.', 'Updated `README.md` with the new env vars.'],
    ['The test fixture was shared between files.', 'Changed the error message in `src/cli.ts`.'],
  ])('does not relate %s / %s', (cause, change) => {
    expect(isChangeForCause({ cause, change })).toBe(false);
  });
});

describe('isDiagnosticEdit', () => {
  it.each([
    'Added a log statement to `parseInvoice` to print each id.',
    'I put a `console.log(total)` in the loop.',
    'added some logging around the retry',
    'Inserted a breakpoint before the upload.',
    'Added a comment above `PAGE_LIMIT`.',
    'Renamed `rows` to `invoices` for clarity.',
    'Reworded the warning so it is easier to grep.',
  ])('is diagnostic or cosmetic: %s', (clause) => {
    expect(isDiagnosticEdit(clause)).toBe(true);
    expect(isMadeChange(clause)).toBe(false);
    expect(isChangeReport(clause)).toBe(false);
  });

  it.each([
    'Added a comments column to the `invoices` table.',
    'Renamed `PAGE_LIMIT` to `MAX_PAGE` so the importer reads the new setting.',
    'Added a retry around the upload in `exportInvoices`.',
    'Lowered the log level to warn in production.',
    'Added the missing `await` and a log line in `exportInvoices`.',
  ])('is a real change: %s', (clause) => {
    expect(isDiagnosticEdit(clause)).toBe(false);
    expect(isMadeChange(clause)).toBe(true);
  });
});

describe('a cause and a change told in two messages before the run turns green', () => {
  it.each([
    [agent('`exportInvoices` never awaited the upload.'), agent('Added the missing `await` in `exportInvoices`.')],
    [user('fyi `exportInvoices` never awaited the upload'), agent('Added the missing `await` in `exportInvoices`.')],
    [agent('Turned out `PAGE_LIMIT` capped the export at 200 invoices.'), user('I raised `PAGE_LIMIT` to 2000 in `src/export.ts`.')],
  ])('are joined when they are about the same thing', (cause, change) => {
    const resolutions = resolutionsOf([RED, cause, change, GREEN]);
    const causeWords = String(cause.text).replace(/^(?:fyi|turned out)\s+/iu, '').slice(0, 16);
    expect(resolutions.some((value) => value.includes(causeWords) && value.includes(String(change.text).slice(0, 16)))).toBe(true);
  });

  it.each([
    // An observation, then a change to something else.
    [agent('Turned out `PAGE_LIMIT` capped the export at 200 invoices.'), agent('Bumped the mailer retry count to 5 in `src/mailer.ts`.')],
    // A debug edit in the very file the cause is about.
    [agent('Turned out the exporter caps every batch at 200.'), agent('Added a log statement to `exportBatch` in `src/exporter.ts`.')],
    [user('turned out `exportInvoices` never awaited the upload'), agent('Added a `console.log(batch.length)` in `exportInvoices`.')],
    // A rename for the reader and a comment.
    [agent('`exportInvoices` never awaited the upload.'), agent('Renamed `rows` to `invoices` in `exportInvoices` for clarity.')],
    [agent('`exportInvoices` never awaited the upload.'), user('I added a comment above `exportInvoices`.')],
  ])('are not joined when the change is unrelated or changes nothing', (cause, change) => {
    const joined = resolutionsOf([RED, cause, change, GREEN]).filter((value) => value.includes(String(change.text).slice(0, 12)));
    expect(joined).toEqual([]);
  });
});

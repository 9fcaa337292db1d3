import { describe, expect, it } from 'vitest';
import { englishPatterns } from '../../src/boundaries/patterns/en.js';
import { analyzeSentence, extractIdentifiers, factCategoryFor, splitSentences } from '../../src/graduation/retention.js';
import { summarizeChunk } from '../helpers.js';

// Sentences written fresh for this test: requirements asked politely, bounded by comparisons or
// defaults, tacked onto a request; conventions given as name shapes, orders and style words; and
// remarks with the same punctuation or words that must not be kept.
const patterns = englishPatterns;
type Role = 'user' | 'assistant';
const kind = (text: string, role: Role): string => analyzeSentence(text, { role, patterns }).retention;
const isKept = (text: string, role: Role): boolean =>
  factCategoryFor(analyzeSentence(text, { role, patterns }).retention) !== undefined;

describe('requirements asked for politely or by a bound are kept', () => {
  it.each([
    ['Could the invoice email also attach the PDF receipt?', 'user'],
    ['Would it be possible for the sync job to skip archived accounts?', 'user'],
    ['Could every webhook payload carry a delivery id?', 'user'],
    ['The scheduler is supposed to retry a failed run after 10 minutes.', 'user'],
    ['Passwords shorter than 10 characters get refused at signup.', 'user'],
    ['Page size defaults to 50 unless the caller asks for more.', 'user'],
  ] as const)('keeps %j (%s) as a requirement', (text, role) => {
    expect(kind(text, role)).toBe('requirement');
  });
});

describe('a durable clause tacked onto another sentence is kept', () => {
  it.each([
    ['Have a look at the upload handler, oh and while you are there, could the uploads also be virus scanned?', 'user'],
    ['can you tidy the settings page next - also could the audit export carry the actor email?', 'user'],
    ['look at the flaky upload test next also, could the importer skip rows without a sku?', 'user'],
  ] as const)('keeps %j (%s)', (text, role) => {
    expect(isKept(text, role), kind(text, role)).toBe(true);
  });

  it.each([
    ['Interesting - no rows came back from the staging database.', 'user'],
    ["I'll keep the handler as it is, so nothing else must change.", 'assistant'],
    ['Let me open the config file - the timeout must be somewhere in there.', 'assistant'],
    ['Are you ready for part 2: the Storage Layer - Setup & Core Types?', 'user'],
    ['Task: Optimize the Report Builder for the Finance Team.', 'user'],
    ['2025-01-04 10:22:31 - worker.queue - INFO - no jobs pending - retrying in 5 s', 'user'],
    ['Thanks, that works - the suite is green again.', 'assistant'],
    ['Perform a full rewrite of src/views/tabs/Settings.tsx.', 'user'],
  ] as const)('does not keep %j (%s)', (text, role) => {
    expect(isKept(text, role), kind(text, role)).toBe(false);
  });
});

describe('conventions stated as shapes, orders or style are kept', () => {
  it.each([
    ['Config keys here follow the <service>.<setting> shape.', 'assistant'],
    ['The event names follow the domain.entity.verb scheme, e.g. billing.invoice.paid.', 'assistant'],
    ['Branch names look like fix/<ticket>-<summary>.', 'user'],
    ['Python strings use double quotes throughout.', 'user'],
    ['Imports are ordered stdlib, then vendor packages, then local modules.', 'user'],
  ] as const)('keeps %j (%s) as a convention', (text, role) => {
    expect(kind(text, role)).toBe('convention');
  });
});

describe('statements of a place, a schedule or an added point are kept', () => {
  it.each([
    ['Shared fixtures are kept in test/fixtures/common.', 'assistant'],
    ['Generated clients live in src/generated/api.', 'assistant'],
    ['plus the totals row goes at the very bottom', 'user'],
    ['Also, the archive page lists the newest items first', 'user'],
    ['The cleanup job runs nightly.', 'user'],
    ['It would help if the error toast showed the request id.', 'user'],
    ['the banner mustnt cover the footer', 'user'],
  ] as const)('keeps %j (%s)', (text, role) => {
    expect(isKept(text, role), kind(text, role)).toBe(true);
  });

  it.each([
    ['Also, check the weekly report for duplicates.', 'user'],
    ['Also, it tries to read the config before the file exists.', 'assistant'],
    ['Added tests for the parser in test/parser.', 'assistant'],
  ] as const)('does not keep %j (%s)', (text, role) => {
    expect(isKept(text, role), kind(text, role)).toBe(false);
  });
});

describe('splitSentences() and extractIdentifiers()', () => {
  it('ends a sentence at a doubled dot before a capitalised word', () => {
    expect(splitSentences('The index will grow very large.. The loader has no cap.')).toHaveLength(2);
    expect(splitSentences('Lock the rows with SELECT.. FOR UPDATE first.')).toHaveLength(1);
  });

  it('finds dotted names of three parts but not abbreviations', () => {
    expect(extractIdentifiers('The flag is called ops.search.fuzzy now.')).toContain('ops.search.fuzzy');
    expect(extractIdentifiers('Use a short name, e.g. a verb.')).toHaveLength(0);
  });
});

describe('a completion report keeps the durable statements in it', () => {
  it('turns a durable sentence that opens a done report into a fact', () => {
    const text = 'The legacy endpoint must keep working through March 2027. Finished the cleanup of the billing job:\n- tidied the retry helper\n- renamed two locals';
    const values = (summarizeChunk([{ kind: 'assistant', text }], 200).facts ?? []).map((fact) => fact.value);
    expect(values.some((value) => value.includes('March 2027'))).toBe(true);
  });
});

describe('a binding lead-in applies to each item under it', () => {
  it('keeps every short item of an acceptance list as a fact with the lead-in', () => {
    const text = ['Acceptance for the CSV download:', '1. headers stay in English', '2. page size defaults to 40', '3. blank cells stay blank'].join('\n');
    const values = (summarizeChunk([{ kind: 'user', text }], 200).facts ?? []).map((fact) => fact.value);
    expect(values.some((value) => value.includes('defaults to 40') && value.startsWith('Acceptance'))).toBe(true);
  });
});

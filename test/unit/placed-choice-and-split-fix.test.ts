import { describe, expect, it } from 'vitest';
import { englishPatterns } from '../../src/boundaries/patterns/en.js';
import { analyzeSentence, classifyEntry, factCategoryFor } from '../../src/graduation/retention.js';
import { turnShapeOf } from '../../src/language/behaviour-statement.js';
import { judgeFact, readMessageLayout } from '../../src/language/fact-worth.js';
import { isSplitCauseAndFix } from '../../src/language/fix-statement.js';
import { makeEntries, summarizeChunk } from '../helpers.js';

// Sentences written fresh for this test: tools the assistant put in a role with no reason given,
// against narration of its own edits; and failures told over two sentences, against pairs that
// only look like it (a success, a plan, a lead-in, an attempt).
type Role = 'user' | 'assistant';
const analysisOf = (text: string, role: Role) => analyzeSentence(text, { role, patterns: englishPatterns, turn: turnShapeOf(text) });
const isKept = (text: string, role: Role): boolean => factCategoryFor(analysisOf(text, role).retention) !== undefined;

describe('a tool the assistant put in a role, with no reason given', () => {
  it.each([
    'I put the order lookup on meilisearch.',
    'I went with pino for structured logging.',
    'Picked zod for request validation.',
    'I moved the nightly reports onto Temporal for scheduling.',
    'We switched the mailers to postmark.',
  ])('is kept: %s', (sentence) => {
    expect(isKept(sentence, 'assistant')).toBe(true);
  });

  it.each([
    'I put a log line in `billing.ts`.',
    "I've added a test for the date parser.",
    'I put a breakpoint on line 40.',
    'I moved the validation into `checkout.ts`.',
    'Went back to the failing spec.',
    'I went through the logs for the stuck job.',
    'I added pino to package.json.',
  ])('narration of an edit stays routine: %s', (sentence) => {
    expect(isKept(sentence, 'assistant')).toBe(false);
  });

  it('reads a list item that reports the choice as a fact, not a plan step', () => {
    const text = 'Callers need no change.\n\n- I put the order lookup on meilisearch; the importer feeds it nightly';
    const sentence = 'I put the order lookup on meilisearch; the importer feeds it nightly';
    expect(judgeFact({ sentence, role: 'assistant', layout: readMessageLayout(text) })).toBeUndefined();
  });
});

describe('a cause and its fix told over two sentences', () => {
  it.each<[string, string]>([
    ['The retry loop never reset its counter after a success.', 'It clears `attempts` on every 2xx now.'],
    ['Problem: the importer swallowed parse errors.', 'Fix: surface them as a row-level warning list.'],
    ['The thumbnail worker ran out of memory on large uploads.', 'Images are resized in a stream now.'],
    ['The connection pool was capped at 5.', 'Raised it to 25 for the API pods.'],
  ])('reads as one fix: %s / %s', (cause, fix) => {
    expect(isSplitCauseAndFix(cause, fix)).toBe(true);
    expect(analysisOf(`${cause} ${fix}`, 'assistant').retention).toBe('error-resolution');
  });

  it.each<[string, string]>([
    ['The unit tests passed.', 'Now running the linter.'],
    ['The handler was slow on big carts.', "I'll add an index next."],
    ['The build failed on node 18.', 'Should be fine now.'],
    ['I checked the worker logs.', 'Nothing stands out now.'],
    ['The CSV export failed for archived rows.', 'For now, we skip them.'],
    ['Updated the install locations:', 'The config now lives in `~/.toolrc`.'],
    ['The retry loop never reset its counter.', 'Every spec is green again now.'],
  ])('does not pair: %s / %s', (cause, fix) => {
    expect(isSplitCauseAndFix(cause, fix)).toBe(false);
  });

  it('keeps the pair as one error resolution in a chunk summary and in the entry class', () => {
    const text = 'The invoice totals drifted by a cent on refunds. `roundCents` runs once per line now. Anything else?';
    const inputs = [{ kind: 'user', text: 'refund totals look off' }, { kind: 'assistant', text }] as const;
    const result = summarizeChunk(inputs, 200);
    const fix = (result.facts ?? []).find((fact) => fact.category === 'error-resolutions');
    expect(fix?.value).toContain('drifted by a cent');
    expect(fix?.value).toContain('roundCents');
    expect(classifyEntry(makeEntries(inputs)[1]!, englishPatterns)).toBe('error-resolution');
  });

  it('leaves the user\'s two sentences apart', () => {
    const entries = makeEntries([{ kind: 'user', text: 'The invoice totals drifted on refunds. They look right now, thanks.' }]);
    expect(classifyEntry(entries[0]!, englishPatterns)).not.toBe('error-resolution');
  });
});

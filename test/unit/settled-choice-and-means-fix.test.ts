import { describe, expect, it } from 'vitest';
import { isMeansResult } from '../../src/language/fix-statement.js';
import { isPassReport } from '../../src/language/pass-report.js';
import { isSettledChoice } from '../../src/language/settled-choice.js';
import type { SummarizeResult } from '../../src/summarizer/summarizer.js';
import type { EntryInput } from '../helpers.js';
import { summarizeChunk } from '../helpers.js';

// Sentences written fresh for this test. Error resolutions told with the means as the subject
// ("stripping it was enough"), after a recap line that repeats the pass, with a cause that has no
// fault word, or with the new practice ("Now we sort …"); decisions settled on how a comparison
// came out; a statement marked as replacing an earlier one by the sentence after it. Each comes
// with look-alikes that must not count: observations, plans, questions, open conditions.
const RED = { kind: 'tool-result', text: 'FAIL  test/import.test.ts\n  ✕ reads the sample file (21 ms)\nTests: 1 failed, 14 passed, 15 total' } as const;
const GREEN = { kind: 'tool-result', text: 'PASS  test/import.test.ts\nTests: 15 passed, 15 total' } as const;
const agent = (text: string): EntryInput => ({ kind: 'assistant', text });
const user = (text: string): EntryInput => ({ kind: 'user', text });

function factsOf(inputs: readonly EntryInput[]): NonNullable<SummarizeResult['facts']> {
  const result = summarizeChunk(inputs, 400);
  return result.facts ?? [];
}

const resolutionsOf = (inputs: readonly EntryInput[]): string[] => factsOf(inputs).filter((fact) => fact.category === 'error-resolutions').map((fact) => fact.value);

describe('a means told as what did the fixing', () => {
  it.each([
    'making the fixture function-scoped isolated them',
    'pinning the zone in the setup file was enough',
    'adding the missing index did the trick',
    'including `locale` in the key separated them',
  ])('is a means and its result: %s', (clause) => {
    expect(isMeansResult(clause)).toBe(true);
  });

  it.each([
    'running the suite showed two failures',
    'logging the ids revealed a duplicate',
    'checking the config confirmed it',
    'adding the flag should fix it',
    'adding a retry was not enough',
  ])('is not: %s', (clause) => {
    expect(isMeansResult(clause)).toBe(false);
  });
});

describe('a pass report with a count of none', () => {
  it('reads "0 failed" as the pass it reports', () => {
    expect(isPassReport('Suite is clean: 0 failed.')).toBe(true);
    expect(isPassReport('No failures this time.')).toBe(true);
  });

  it('still reads a failure count as a failure', () => {
    expect(isPassReport('3 failed, 12 passed.')).toBe(false);
  });
});

describe('error resolutions told after the green run', () => {
  it('keeps a cause and a means that names its result, in one sentence', () => {
    const found = resolutionsOf([RED, agent('Looking at the price cache.'), GREEN, agent('The cache key ignored the locale, so French users saw English prices; including `locale` in `cacheKey()` separated them.')]);
    expect(found.some((value) => value.includes('ignored the locale') && value.includes('cacheKey()'))).toBe(true);
  });

  it('keeps the account after "0 failed", the means given a verdict', () => {
    const found = resolutionsOf([RED, agent('Reading the importer.'), GREEN, agent('Suite is clean: 0 failed.\n\nThe importer choked on the byte-order mark the exporter writes. Stripping it in `readCsv` was enough.')]);
    expect(found.some((value) => value.includes('byte-order mark') && value.includes('readCsv'))).toBe(true);
  });

  it('reads past a recap line that repeats the pass, to a cause with no fault word', () => {
    const found = resolutionsOf([RED, agent('Checking the date helpers.'), GREEN, agent('Green again.\n\nWhat happened:\n- all specs pass\n- a previous spec left `MOCK_NOW` set, and the specs after it inherited the frozen date. Clearing it in `afterEach` restored the real clock.')]);
    expect(found.some((value) => value.includes('MOCK_NOW') && value.includes('afterEach'))).toBe(true);
  });

  it('takes the new practice after the cause, with no name in either', () => {
    const found = resolutionsOf([RED, agent('Comparing the two machines.'), GREEN, agent('All passing now.\n\nCause: the fixtures were loaded in directory order, which differs between machines. Now we sort the file names before loading them.')]);
    expect(found.some((value) => value.includes('directory order') && value.includes('Now we sort'))).toBe(true);
  });

  it('counts when the user tells it', () => {
    const found = resolutionsOf([RED, agent('The native module fails to load after the upgrade. Can you try on your side?'), user("ok green here. node couldn't load the native module after the upgrade; rebuilding it with `npm rebuild sharp` was all it took.")]);
    expect(found.some((value) => value.includes('npm rebuild sharp'))).toBe(true);
  });

  it.each([
    'All green. Running the linter showed two warnings in the importer.',
    'Tests pass. Now we need to update the docs for the new flag.',
    "Tests pass: 0 failed. Next I'll look at the export job.",
    'Green. Trying the new parser shrank the output, should I keep it?',
  ])('a look-alike is not: %s', (report) => {
    expect(resolutionsOf([RED, agent('Looking into it.'), GREEN, agent(report)])).toEqual([]);
  });
});

describe('a cause and its change told in different messages while the failure is open', () => {
  it('joins the cause the user tells with the change the assistant reports', () => {
    const found = resolutionsOf([RED, user('so the JSON middleware had already consumed the body before the signature check ran.'), agent('Mounted `express.raw()` on the webhook route ahead of `express.json()`.'), GREEN, agent('All passing.')]);
    expect(found.some((value) => value.includes('consumed the body') && value.includes('express.raw()'))).toBe(true);
  });

  it('adds the later change to a cause that is a fact of its own', () => {
    const found = resolutionsOf([RED, agent('Turned out the seed data used a fixed date two days in the past.'), agent('Pinned `FAKE_NOW` to the seed date in `setup.ts`.'), GREEN, agent('All passing.')]);
    expect(found.some((value) => value.includes('fixed date') && value.includes('FAKE_NOW'))).toBe(true);
  });

  it.each([
    ['a guess', 'Maybe the seed data was stale overnight.'],
    ['a remark on the sentence before', 'That keeps the check close to where the body is parsed.'],
    ["the speaker's own step", 'I looked at the middleware order first.'],
  ])('does not take %s for the cause', (_label, cause) => {
    const found = resolutionsOf([RED, agent(cause), agent('Renamed `parseHook` to `parseWebhook` in `hooks.ts`.'), GREEN, agent('All passing.')]);
    expect(found.some((value) => value.includes('parseWebhook'))).toBe(false);
  });

  it.each([
    ['a state seen, not a change made', 'I see `handleHook` swallowing the error and replying 502 instead of 400.'],
    ['a new test', 'Updated `test/hooks.test.ts`: I wrote a spec covering the empty body.'],
  ])('does not take %s for the change', (_label, change) => {
    const found = resolutionsOf([RED, user('the JSON middleware had already consumed the body.'), agent(change), GREEN, agent('All passing.')]);
    expect(found.some((value) => value.includes('consumed the body') && value.includes('handleHook'))).toBe(false);
    expect(found.some((value) => value.includes('covering the empty body'))).toBe(false);
  });

  it('does not take a present passive for a past cause', () => {
    const found = resolutionsOf([RED, agent('The seed rows are generated per worker, so the counts stay apart.'), agent('Renamed `parseHook` to `parseWebhook` in `hooks.ts`.'), GREEN, agent('All passing.')]);
    expect(found.some((value) => value.includes('parseWebhook'))).toBe(false);
  });

  it('does not join a cause to a change made after the run passed', () => {
    const found = resolutionsOf([RED, user('the JSON middleware had already consumed the body.'), GREEN, agent('All passing.'), agent('Renamed `parseHook` to `parseWebhook` in `hooks.ts`.')]);
    expect(found.some((value) => value.includes('parseWebhook'))).toBe(false);
  });
});

describe('a choice settled on how a comparison came out', () => {
  it.each([
    'We timed both bundlers and esbuild finished in a third of the time, so esbuild it is.',
    'Tried Playwright and Cypress on the checkout flow: Playwright came out ahead, we are adopting it.',
    'The SQLite prototype was fast enough for the demo, so no Postgres.',
    'Pino beat Winston on throughput - switching the logger to pino.',
    'ran both linters over the api package: oxlint gave the fewest false positives, so it is the linter now.',
    "we diffed both generators and openapi-ts produced the cleaner client, so it's the generator.",
    'Timed the image builds: buildkit was roughly three times as fast, so we are switching CI to buildkit.',
    'if the p95 stays below 200 ms we keep the read replica; it did, so the replica stays.',
  ])('is settled: %s', (sentence) => {
    expect(isSettledChoice(sentence)).toBe(true);
  });

  it.each([
    "If esbuild wins the benchmark we'll switch.",
    'esbuild is faster than webpack.',
    'The CI run was quicker today, so I merged the branch.',
    'Did Playwright come out ahead? Should we switch?',
    'Nobody won the argument, so no decision yet.',
    'The new query produced fewer rows, so I checked the join again.',
    "The old parser won't handle that, so I'm switching branches to check.",
  ])('is not: %s', (sentence) => {
    expect(isSettledChoice(sentence)).toBe(false);
  });

  it.each([agent, user])('becomes a decision from either speaker (%#)', (speaker) => {
    const facts = factsOf([speaker('Compared the two loggers on the ingest path: pino won, we are adopting it.')]);
    expect(facts.some((fact) => fact.category === 'decisions' && fact.value.includes('pino'))).toBe(true);
  });

  it('leaves an observation with no choice after it to the notes', () => {
    const facts = factsOf([agent('pino was faster than winston on the ingest path in that run.')]);
    expect(facts.some((fact) => fact.value.includes('pino'))).toBe(false);
  });
});

describe('a statement marked as replacing an earlier one by the next sentence', () => {
  it.each([agent, user])('becomes the updated fact (%#)', (speaker) => {
    const facts = factsOf([speaker('Webhook retries go to seven attempts. That replaces my earlier one.')]);
    const updated = facts.find((fact) => fact.value.includes('seven attempts'));
    expect(updated?.isUpdate).toBe(true);
  });

  it('does not make small talk a fact', () => {
    const facts = factsOf([user('Thanks for the help. That replaces my earlier one.')]);
    expect(facts).toEqual([]);
  });
});

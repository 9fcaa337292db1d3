import { describe, expect, it } from 'vitest';
import { createTokenCounter } from '../../src/index.js';
import { classifySentence, FACT_RETENTION_CLASSES } from '../../src/graduation/retention.js';
import { isValueRevision } from '../../src/graduation/value-revision.js';
import { defaultPatterns } from '../../src/boundaries/patterns/default.js';
import { isRecurringProcess, isRescheduling, recurrencesOf } from '../../src/language/recurrence.js';
import { createFactStore } from '../../src/tiers/facts.js';
import type { FactCategory } from '../../src/types.js';

const counter = createTokenCounter();
const isDurable = (sentence: string, role: 'user' | 'assistant'): boolean =>
  FACT_RETENTION_CLASSES.includes(classifySentence(sentence, { role, patterns: defaultPatterns }));

/** Applies each statement as a keyless fact update, in order, and returns the values held. */
function valuesAfter(statements: readonly (readonly [FactCategory, string])[]): string[] {
  const store = createFactStore({ counter });
  statements.forEach(([category, value], index) => {
    store.apply({ updates: [{ category, value }], source: { from: index * 10, to: index * 10 + 5 }, seq: index * 10 + 6 });
  });
  return store.facts().map((fact) => fact.value);
}

describe('recurring processes are durable, whoever mentions them', () => {
  it.each([
    ['user', 'the warehouse sync runs twice a week'],
    ['user', 'the sitemap job: `*/20 * * * *`'],
    ['assistant', 'The contract tests run on every merge request, so a stale stub holds up the pipeline.'],
    ['user', 'the vendor report goes out on the second Monday of the month'],
    ['assistant', 'The mirror refresh happens at 05:20 starting tomorrow.'],
    ['assistant', 'The quarterly billing reconciliation happens on the 10th starting next quarter.'],
    ['assistant', 'The dependency bot opens its batch once every fortnight.'],
    ['assistant', 'Translation exports are refreshed every morning.'],
  ] as const)('%s: %s', (role, sentence) => {
    expect(isRecurringProcess(sentence)).toBe(true);
    expect(isDurable(sentence, role)).toBe(true);
  });

  it.each([
    ['user', "I'll check again in a minute"],
    ['assistant', 'I ran the suite twice and both runs were green.'],
    ['assistant', 'Every test in the parser module passes.'],
    ['assistant', 'The loop runs every row through the mapper.'],
    ['user', 'give me five minutes, back soon'],
    ['assistant', 'The nightly build failed on the lint step.'],
    ['assistant', 'The weekly report numbers depend on this column.'],
    ['assistant', "I'll poll the job once more in a minute."],
    ['user', 'does the backup run every night?'],
  ] as const)('look-alike stays chatter (%s): %s', (role, sentence) => {
    expect(isRecurringProcess(sentence)).toBe(false);
    expect(isDurable(sentence, role)).toBe(false);
  });

  it("gives the speaker's own habit no schedule", () => {
    expect(isRecurringProcess('I reload the status page every ten minutes anyway')).toBe(false);
    expect(isRecurringProcess("I'll rerun the backup job every hour until it passes")).toBe(false);
  });

  it('reads the schedule and the process of each clause', () => {
    const [reading] = recurrencesOf('Heads-up: the ledger snapshot is taken nightly, around 02:40 CET.');
    expect(reading?.processes.has('snapshot')).toBe(true);
    expect(reading?.modifiers.get('snapshot')).toBe('ledger');
    expect(reading?.schedule).toContain('02:40 cet');
    // A label names the process its value schedules.
    expect(recurrencesOf('purge: `0 3 * * 6`')[0]?.processes.has('purge')).toBe(true);
  });
});

describe('a new schedule for the same process replaces the old one, and only that', () => {
  it.each([
    ['the ledger snapshot is taken every night at 02:40 CET', 'from Monday the ledger snapshot is at 23:50 UTC'],
    ['Webhook secrets rotate quarterly.', 'after the pen test the webhook secrets rotate monthly'],
    ['the billing export is sent on Fridays', 'the billing export is sent every weekday'],
    ['the sitemap job: `*/20 * * * *`', 'the sitemap job runs on `0 * * * *` since the CDN change'],
    ['The vendor report goes out on the second Monday of the month.', 'the vendor report goes out on the first Monday of the month from June'],
    ['the warehouse sync runs twice a week', 'The warehouse sync runs daily after the contract renewal.'],
  ])('%s → %s', (older, newer) => {
    expect(isRescheduling(older, newer)).toBe(true);
    expect(isValueRevision(older, newer)).toBe(true);
    // Both directions: whichever comes last is the one held.
    for (const [first, second] of [[older, newer], [newer, older]] as const) {
      const values = valuesAfter([['conventions', first], ['conventions', second]]);
      expect(values).toEqual([second]);
    }
  });

  it.each([
    ['the nightly backup starts at 02:00', 'the nightly report starts at 06:00'],
    ['the staging snapshot is taken at 01:00', 'the production snapshot is taken at 04:30'],
    ['the invoice export goes out every 2 hours', 'the payroll export goes out every 6 hours'],
    ['webhook secrets rotate every 30 days', 'session tokens expire after 12 hours'],
  ])('distinct processes stay distinct: %s / %s', (first, second) => {
    expect(isRescheduling(first, second)).toBe(false);
    expect(isValueRevision(first, second)).toBe(false);
    expect(valuesAfter([['conventions', first], ['conventions', second]])).toHaveLength(2);
    expect(valuesAfter([['conventions', second], ['conventions', first]])).toHaveLength(2);
  });

  it('keeps a restatement of the same schedule as no rescheduling', () => {
    expect(isRescheduling('the ledger snapshot is taken at 02:40', 'reminder: the ledger snapshot is at 02:40')).toBe(false);
  });
});

describe('a rate counts things per span of time; it schedules nothing', () => {
  it.each([
    'throttle the export webhook at 25 calls per hour per tenant.',
    'Upload quota: 400 files per day for each workspace token.',
  ])('no recurrence in: %s', (sentence) => {
    expect(recurrencesOf(sentence)).toEqual([]);
  });

  it.each([
    'The token refresh runs once per day.',
    'the audit job runs per week, on Fridays.',
  ])('still a recurrence: %s', (sentence) => {
    expect(recurrencesOf(sentence).length).toBeGreaterThan(0);
  });

  it('a rate limit keyed per token does not replace a rule about the token in commit messages', () => {
    expect(
      valuesAfter([
        ['conventions', 'Every commit message carries the Linear issue key, for example ENG-88.'],
        ['requirements', 'Actually, cap the search endpoint at 90 queries per minute per key.'],
      ]),
    ).toHaveLength(2);
  });

  it('a new schedule for the same key rotation still replaces the old one', () => {
    const held = valuesAfter([
      ['conventions', 'The signing key rotation runs every month.'],
      ['conventions', 'Update: the signing key rotation runs every week now.'],
    ]);
    expect(held).toEqual(['Update: the signing key rotation runs every week now.']);
  });
});

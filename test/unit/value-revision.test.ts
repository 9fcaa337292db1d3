import { describe, expect, it } from 'vitest';
import { createTokenCounter } from '../../src/index.js';
import { isValueRevision } from '../../src/graduation/value-revision.js';
import { createFactStore } from '../../src/tiers/facts.js';
import type { FactCategory } from '../../src/types.js';

const counter = createTokenCounter();

/** Applies each statement as a keyless fact update, in order, and returns the store. */
function storeOf(statements: readonly (readonly [FactCategory, string])[]): ReturnType<typeof createFactStore> {
  const store = createFactStore({ counter });
  statements.forEach(([category, value], index) => {
    store.apply({ updates: [{ category, value }], source: { from: index * 10, to: index * 10 + 5 }, seq: index * 10 + 6 });
  });
  return store;
}

describe('isValueRevision', () => {
  it.each([
    ['the nightly export keeps 14 days of snapshots', 'give the nightly export 30 days of snapshots, legal asked for a month'],
    ['Branch coverage has to stay at 65 percent or higher', 'from the retro: 75 percent branch coverage is the bar'],
    ['the thumbnail worker runs with 3 concurrent jobs', 'the thumbnail worker can take 8 concurrent jobs since the resize'],
    ['I used two-space indentation in the YAML files', "we'd rather have four-space indentation in the YAML files"],
    ['The upload limit is 20 MB per attachment', 'the upload limit is 50 MB per attachment, marketing needs bigger PDFs'],
    ['the billing cron job runs every Sunday night', 'the billing cron job runs every Wednesday night, finance closes earlier'],
  ])('reads a new value for the same subject as a revision, with or without update wording: %s → %s', (older, newer) => {
    expect(isValueRevision(older, newer)).toBe(true);
  });

  it.each([
    ['staging keeps 5 open database connections', 'production keeps 60 open database connections'],
    ['the invoice client gives up after 6 seconds', 'the geocoder client gives up after 2 seconds'],
    ['cache entries for avatars expire after 10 minutes', 'cache entries for invoices expire after 90 minutes'],
    ['the CSV export stops at 5000 rows', 'the CSV export stops at 40 MB'],
    ['mark task 7 as done in the tracker', 'mark task 9 as done in the tracker'],
    ['The importer extracted 1,204 rows and kept 998 after dedup', 'The importer kept 1,100 rows after dedup'],
    ['The queue holds 200 jobs', 'Reports were generated for 200 users'],
    ['the billing cron job runs every Sunday night', 'the payroll cron job runs every Wednesday night'],
    ['In `Cart.ts`, the `addLine` method has a subtle bug', 'In `Cart.ts`, the `dropLine` method has a subtle bug'],
    ['Looking again at the Makefile, it is fine', 'Looking again at the Dockerfile, it is fine'],
  ])('keeps distinct subjects and narration apart: %s / %s', (older, newer) => {
    expect(isValueRevision(older, newer)).toBe(false);
  });

  it.each([
    ['The search endpoint must answer within 300ms.', 'The search endpoint must answer within 250ms from today.'],
    ['The invoice PDF render stays under 900 ms at p99.', 'new target: the invoice PDF render at p99 is 600ms'],
    ['Reads from the replica stay below 40 ms p95, so we keep it.', "the replica's reads are now allowed 60 ms p95"],
    ['give the avatar worker a 512mb memory cap', 'the avatar worker gets a 768mb memory cap since the resize job'],
  ])('reads a number with its unit glued on, beside a measure named with a number (p95), as a value: %s → %s', (older, newer) => {
    expect(isValueRevision(older, newer)).toBe(true);
  });

  it.each([
    ['Give svc3 4 retries before paging.', 'Give svc13 9 retries before paging.'],
    ['The retry budget is 4 for svc3.', 'The retry budget is 9 for svc13.'],
    ['The logs for tenant7 are kept 30 days.', 'The logs for tenant9 are kept 14 days.'],
    ['The invoice PDF render stays under 900ms at p99.', 'The invoice PDF render stays under 300ms at p50.'],
    ['The search endpoint must answer within 300ms.', 'The billing endpoint must answer within 250ms.'],
  ])('keeps things numbered differently, or other measures, apart: %s / %s', (older, newer) => {
    expect(isValueRevision(older, newer)).toBe(false);
  });
});

describe('FactStore: plainly worded new values', () => {
  it('replaces a value restated in other words, keeping the old one in history', () => {
    const store = storeOf([
      ['constraints', 'the thumbnail worker runs with 3 concurrent jobs'],
      ['constraints', 'the thumbnail worker can take 8 concurrent jobs since the resize'],
    ]);
    expect(store.facts()).toHaveLength(1);
    expect(store.facts()[0]?.value).toContain('8 concurrent jobs');
    expect(store.facts()[0]?.history.map((entry) => entry.value)).toEqual(['the thumbnail worker runs with 3 concurrent jobs']);
  });

  it('lets the newest of several revisions win, across categories that state values', () => {
    const store = storeOf([
      ['requirements', 'Branch coverage has to stay at 65 percent or higher'],
      ['constraints', 'from the retro: 75 percent branch coverage is the bar'],
      ['preferences', '70 percent branch coverage is fine by me'],
    ]);
    expect(store.facts()).toHaveLength(1);
    expect(store.facts()[0]?.value).toContain('70 percent');
  });

  it('keeps per-environment and per-client values as separate facts', () => {
    const store = storeOf([
      ['constraints', 'staging keeps 5 open database connections'],
      ['constraints', 'production keeps 60 open database connections'],
      ['requirements', 'the invoice client gives up after 6 seconds'],
      ['requirements', 'the geocoder client gives up after 2 seconds'],
      ['constraints', 'staging keeps 9 open database connections after the load test'],
    ]);
    const values = store.facts().map((fact) => fact.value);
    expect(values).toHaveLength(4);
    expect(values).toContain('production keeps 60 open database connections');
    expect(values).toContain('the invoice client gives up after 6 seconds');
    expect(values).toContain('the geocoder client gives up after 2 seconds');
    expect(values).toContain('staging keeps 9 open database connections after the load test');
  });

  it('does not let an error resolution revise a setting', () => {
    const store = storeOf([
      ['constraints', 'the thumbnail worker runs with 3 concurrent jobs'],
      ['error-resolutions', 'the thumbnail worker crashed with 12 concurrent jobs; a semaphore fixed it'],
    ]);
    expect(store.facts()).toHaveLength(2);
  });

  it('gives a revised fact a key without the old value when its key named it', () => {
    const store = storeOf([
      ['preferences', 'two-space indentation in the YAML files please'],
      ['preferences', "we'd rather have four-space indentation in the YAML files"],
    ]);
    expect(store.facts()).toHaveLength(1);
    const [fact] = store.facts();
    expect(fact?.key).not.toContain('two-space');
    expect(fact?.value).toContain('four-space');
    expect(store.render({ maxTokens: 500 }).text).not.toContain('two-space');
  });

  it('makes the key again when it names a word the new value no longer says, not when the caller gave it', () => {
    const store = createFactStore({ counter });
    store.apply({ updates: [{ category: 'decisions', value: 'Date parsing relies on moment across the app.' }], source: { from: 1, to: 2 }, seq: 3 });
    store.apply({ updates: [{ category: 'decisions', value: 'Update: date parsing across the app moves to Luxon.', isUpdate: true }], source: { from: 4, to: 5 }, seq: 6 });
    expect(store.facts()).toHaveLength(1);
    expect(store.facts()[0]?.key).not.toContain('moment');
    expect(store.facts()[0]?.history.map((entry) => entry.value)).toEqual(['Date parsing relies on moment across the app.']);
    const keyed = createFactStore({ counter });
    keyed.apply({ updates: [{ key: 'date-lib', category: 'decisions', value: 'Date parsing relies on moment.' }], source: { from: 1, to: 2 }, seq: 3 });
    keyed.apply({ updates: [{ key: 'date-lib', category: 'decisions', value: 'Date parsing uses Luxon.' }], source: { from: 4, to: 5 }, seq: 6 });
    expect(keyed.facts().map((fact) => fact.key)).toEqual(['date-lib']);
  });

  it('keeps a limit per service apart for eight services, and revises each one only by its own', () => {
    const services = ['ledger', 'avatar', 'mailer', 'geocoder', 'search', 'billing', 'exporter', 'scheduler'];
    const store = createFactStore({ counter });
    const days = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday', 'Monday'];
    services.forEach((service, index) => {
      store.apply({ updates: [{ category: 'constraints', value: `Never deploy the ${service} service on ${days[index]}.`, isUpdate: index % 2 === 0 }], source: { from: index, to: index }, seq: index + 1 });
    });
    expect(store.facts()).toHaveLength(8);
    store.apply({ updates: [{ category: 'constraints', value: 'Update: never deploy the mailer service on Friday.', isUpdate: true }], source: { from: 20, to: 21 }, seq: 22 });
    expect(store.facts()).toHaveLength(8);
    const mailer = store.facts().filter((fact) => fact.value.includes('mailer'));
    expect(mailer.map((fact) => fact.value)).toEqual(['Update: never deploy the mailer service on Friday.']);
  });
});

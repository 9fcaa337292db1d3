import { describe, expect, it } from 'vitest';
import { afterPassClause, isPassReport, passResolutionOf, tellsCause, tellsChange } from '../../src/language/pass-report.js';
import type { EntryInput } from '../helpers.js';
import { summarizeChunk } from '../helpers.js';

// Sentences written fresh for this test: a message that opens with a report that the run passes
// and then tells, in the same message, what was wrong and what changed (loose wording, a notes
// section, a setting as the whole fix), by either speaker; and look-alikes (a pass report with
// the next step, a commit, a remark on timing, a plan, a question, work done with no failure
// behind it) that must not become error resolutions.
const RED = { kind: 'tool-result', text: 'FAIL  test/billing.test.ts\n  ✕ renews the plan (38 ms)\nTests: 1 failed, 20 passed, 21 total' } as const;
const GREEN = { kind: 'tool-result', text: 'PASS  test/billing.test.ts\nTests: 21 passed, 21 total' } as const;
const say = (text: string): EntryInput => ({ kind: 'assistant', text });

function resolutionsOf(inputs: readonly EntryInput[]): string[] {
  const result = summarizeChunk(inputs, 400);
  return (result.facts ?? []).filter((fact) => fact.category === 'error-resolutions').map((fact) => fact.value);
}

describe('a pass report followed by the cause and the change, in one message', () => {
  it.each([
    ['All green.\n\nTurned out the seed script inserted users before their organisations existed. It creates the orgs first now and `db:seed` runs clean.', 'organisations', 'db:seed'],
    ['Good, green. Turned out two workers claimed the same `job_id` row. Each claim takes the row with `SKIP LOCKED`.', 'two workers', 'SKIP LOCKED'],
    ['Good, green. Two workers were grabbing the same `job_id` row, so both charged the card. Claims go through `SKIP LOCKED` now.', 'charged the card', 'SKIP LOCKED'],
    ['ok that passes - the staging bucket had no CORS rule for PUT, and a new one in `infra/s3.tf` allows it.', 'CORS', 'infra/s3.tf'],
    ['Green.\n\n### Notes\n- The cron spec had six fields, so the scheduler read seconds as minutes.\n- `schedule.ts` passes the five-field form now.', 'six fields', 'schedule.ts'],
    ['Seeds run through now. Cause: the fixture loader read files in directory order. `loadFixtures` sorts the names first.', 'directory order', 'loadFixtures'],
    ['Green now. The invoices were rounded per line before the tax step; `roundTotals` runs once on the sum.', 'per line', 'roundTotals'],
    ['Build passes. The runner had no write access to the store path. Fixed with `PNPM_HOME=/opt/pnpm` in the job env.', 'write access', 'PNPM_HOME'],
  ])('is one error resolution with both halves: %s', (report, cause, change) => {
    const found = resolutionsOf([say('Running the billing tests.'), RED, say('Looking at the renewal path.'), GREEN, say(report)]);
    expect(found.some((value) => value.includes(cause) && value.includes(change))).toBe(true);
  });

  it('reads a message that opens with the cause right after a green run', () => {
    const found = resolutionsOf([RED, say('Checking the image.'), GREEN, say('The container lacked the `tzdata` package. Installing it in the base image put the renewal dates right.')]);
    expect(found.some((value) => value.includes('tzdata') && value.includes('Installing it'))).toBe(true);
  });

  it('reads a message led by its cause that ends on the suite passing, with no run before it', () => {
    const found = resolutionsOf([say('Reading the test setup.'), say('So that was the fake clock leaking between files. With `vi.useRealTimers()` in `afterEach` the whole suite passes.')]);
    expect(found.some((value) => value.includes('fake clock') && value.includes('vi.useRealTimers()'))).toBe(true);
  });

  it.each([
    'yep passing here. so it was the proxy dropping idle sockets; `keepAliveMsecs: 1000` in the agent options keeps them open',
    'works on my side now. it was `.nvmrc` still pinning node 18, not the code; bumped it to 20.11',
  ])('counts when the user tells it: %s', (text) => {
    const found = resolutionsOf([RED, say('Patched the renewal date. Can you rerun it on your machine?'), { kind: 'user', text }]);
    expect(found.length).toBe(1);
    expect(found[0]).toMatch(/proxy|nvmrc/u);
  });

  it.each([
    'All green, on to the export ticket.',
    'Tests pass; committing and pushing.',
    'Green. The run took 48s, about the same as yesterday.',
    'Passing now. Next I will rename `fmtDate` to `formatDate` across the module.',
    'Green. Should I also bump `ws` to 8.17 while I am here?',
    'Still red. Digging further into the renewal parser.',
    "That's finished, tests pass. Summary:\n\n- Left `src/api/plans.ts` untouched\n- The README needs no update",
  ])('a look-alike is not: %s', (report) => {
    expect(resolutionsOf([RED, say('Looking into it.'), GREEN, say(report)])).toEqual([]);
  });

  it('does not count work reported after a run that was green all along', () => {
    expect(resolutionsOf([say('Running the billing tests.'), GREEN, say('All passing. Added a `--dry-run` flag to the import command.')])).toEqual([]);
  });

  it("does not count the user's thanks after a pass", () => {
    expect(resolutionsOf([RED, say('Patched it, can you rerun?'), { kind: 'user', text: 'green on my side, thanks! merging `billing-renewal` after lunch' }])).toEqual([]);
  });
});

describe('the pass report readers', () => {
  it.each([
    ['Passing now.', true],
    ["Suite's clean.", true],
    ['All 31 specs pass.', true],
    ['works on my machine now', true],
    ['Still red.', false],
    ['This should pass now.', false],
    ['The retry logic works like a queue with a cap on attempts.', false],
  ])('isPassReport(%s) is %s', (sentence, expected) => {
    expect(isPassReport(sentence)).toBe(expected);
  });

  it('splits a leading pass clause from what follows it', () => {
    expect(afterPassClause('ok, green now - the lint step ran out of memory')).toBe('The lint step ran out of memory');
    expect(afterPassClause('the lint step ran out of memory - green now')).toBeUndefined();
  });

  it.each([
    ['Turned out the fixture used local time.', true],
    ['Not a logic error but float rounding.', true],
    ['The base image had no `git` binary.', true],
    ['The run took a little longer than before.', false],
    ['Was the fixture stale?', false],
  ])('tellsCause(%s) is %s', (sentence, expected) => {
    expect(tellsCause(sentence)).toBe(expected);
  });

  it.each([
    ['Setting `TZ=UTC` in the setup sorted it.', 1, true],
    ['I call `flushPromises()` before each assertion.', 1, true],
    ['The assertion uses a tolerance now.', 0, true],
    ['I will look at the parser next.', 0, false],
  ])('tellsChange(%s) is %s', (sentence, specifics, expected) => {
    expect(tellsChange(sentence, specifics)).toBe(expected);
  });

  it('keeps the cause and the change of a resolution together, in order', () => {
    const read = (text: string, specifics = 0) => ({ text, specifics, isAside: false });
    const resolution = passResolutionOf([read('Green.'), read('Turned out the queue name had a typo.'), read('It reads `QUEUE_NAME` from the env now.', 1), read('Moving on.')], { known: false, afterGreen: false });
    expect(resolution?.value).toBe('Turned out the queue name had a typo. It reads `QUEUE_NAME` from the env now.');
    expect(resolution?.positions).toEqual([1, 2]);
  });
});

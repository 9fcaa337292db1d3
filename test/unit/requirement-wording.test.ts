import { describe, expect, it } from 'vitest';
import { englishPatterns } from '../../src/boundaries/patterns/en.js';
import { analyzeSentence, factCategoryFor, splitSentences } from '../../src/graduation/retention.js';

// Sentences written fresh for this test: requirements (what the software must do or satisfy)
// stated by either speaker in varied wording, and chatter that must not be kept.
const patterns = englishPatterns;
type Role = 'user' | 'assistant';
const kind = (text: string, role: Role): string => analyzeSentence(text, { role, patterns }).retention;
const isKept = (text: string, role: Role): boolean =>
  factCategoryFor(analyzeSentence(text, { role, patterns }).retention) !== undefined;

describe('requirements in any wording are kept as facts', () => {
  it.each([
    ['It has to survive a restart of the worker without losing queued jobs.', 'user'],
    ['Responses need to come back under 200 ms for the search endpoint.', 'user'],
    ['The export should open in Excel without a warning.', 'user'],
    ["We can't drop support for Node 18 yet.", 'user'],
    ['Whatever we build must work offline.', 'user'],
    ['Uploads larger than 50 MB are rejected with a clear message.', 'user'],
    ['If the token is expired, the client should refresh it silently.', 'user'],
    ['Can we make sure the report renders on mobile screens too?', 'user'],
    ['Acceptance criteria: the invoice PDF lists every line item and the tax total.', 'user'],
    ['The CLI needs to exit with a non-zero code when any check fails.', 'user'],
    ['Dates in the CSV have to be ISO 8601.', 'user'],
    ['The dashboard is expected to load in under two seconds on a cold cache.', 'user'],
    ["The bundle can't grow past 300 KB gzipped.", 'user'],
    ['Search results ought to be sorted by relevance, then by date.', 'user'],
    ['The importer must tolerate blank rows in the spreadsheet.', 'user'],
    ['Passwords are to be hashed with a per-user salt.', 'user'],
    ['When the network drops, the app should queue edits and sync later.', 'user'],
    ['Make sure the migration can be rolled back.', 'user'],
    ['Every page needs to pass the axe accessibility checks.', 'user'],
    ['The API shall return 429 when a client exceeds its quota.', 'user'],
    ['Older browsers like Safari 14 still have to be supported.', 'user'],
    ["It's important that the sync never duplicates a record.", 'user'],
    ['Each request must complete within 5 seconds or be retried once.', 'user'],
    ['Reports have to be downloadable as both CSV and JSON.', 'user'],
    ['The widget should be usable with the keyboard alone.', 'user'],
    ['Customers on the free plan are limited to three projects.', 'user'],
    ['The webhook handler has to be idempotent.', 'user'],
    ['Logs must not contain email addresses.', 'user'],
    ['Is there a way to guarantee ordering of the events per account?', 'user'],
    ['We need the nightly job to finish before 6 am UTC.', 'user'],
    ['Ideally the cold start stays below one second.', 'user'],
    ['Memory use should not go above 512 MB per pod.', 'user'],
    ['The setting must be preserved across upgrades.', 'user'],
    ['It must be possible to undo an archive action for 30 days.', 'user'],
    ['The checkout flow should take no more than three clicks.', 'user'],
    ['Response times above 800 ms count as a failure.', 'user'],
    ['Emails shall go out within a minute of signup.', 'user'],
    ['1 response is sufficient.', 'user'],
    ['Backwards compatibility with the old export matters.', 'user'],
    ['The endpoint has to respond within 300 ms at p95 per your target.', 'assistant'],
    ['Per the spec, the response must include a Retry-After header.', 'assistant'],
    ['This needs to run on ARM as well as x86.', 'assistant'],
    ['Any new endpoint has to be backwards compatible with the v2 clients.', 'assistant'],
    ['The queue must survive a broker restart, so messages are persisted to disk.', 'assistant'],
    ['If a payment fails, the order should stay in the pending state.', 'assistant'],
    ['Translations are required for every user-facing string.', 'assistant'],
    ['Understood: nothing may be written to disk outside the temp folder.', 'assistant'],
    ['The service should degrade gracefully when Redis is unavailable.', 'assistant'],
    ['Notifications are expected to arrive within a minute of the event.', 'assistant'],
    ['Backups are to be kept for 90 days.', 'assistant'],
    ['Two retries are enough for the sync client.', 'assistant'],
    ['The deployment must be revertable within five minutes.', 'assistant'],
  ] as const)('keeps %j (%s)', (text, role) => {
    expect(isKept(text, role), kind(text, role)).toBe(true);
  });

  it.each([
    ['Acceptance criteria: the invoice PDF lists every line item and the tax total.', 'user'],
    ['Search results ought to be sorted by relevance, then by date.', 'user'],
    ['The API shall return 429 when a client exceeds its quota.', 'user'],
    ['Make sure the migration can be rolled back.', 'user'],
    ['Loads in under 2 s on a slow connection.', 'user'],
    ['Response times above 800 ms count as a failure.', 'user'],
    ['Backups are to be kept for 90 days.', 'assistant'],
    ['Two retries are enough for the sync client.', 'assistant'],
  ] as const)('files %j (%s) as a requirement', (text, role) => {
    expect(kind(text, role)).toBe('requirement');
  });

  it('keeps every item of a list of acceptance criteria', () => {
    const message = [
      'Acceptance criteria for the export:',
      '- loads in under 2 s on a slow connection',
      '- works in Firefox and Chrome, latest two versions',
      '- no data loss if the tab is closed mid-upload',
      '- the file opens in Excel without a repair prompt',
    ].join('\n');
    const items = splitSentences(message).slice(1);
    expect(items).toHaveLength(4);
    for (const item of items) expect(isKept(item, 'user'), item).toBe(true);
  });

  it('does not take "make sure" for an acknowledgement or "can be rolled back" for a dead end', () => {
    expect(kind('Make sure the migration can be rolled back.', 'user')).not.toBe('chit-chat');
    expect(kind('sure, sounds good', 'user')).toBe('chit-chat');
    expect(isKept('We rolled back the migration, it did not help.', 'user')).toBe(false);
  });
});

describe('chatter that sounds like an obligation is not kept', () => {
  it.each([
    ['ok', 'user'],
    ['thanks, looks good', 'user'],
    ['what do you think?', 'user'],
    ['any update?', 'user'],
    ['did that work?', 'user'],
    ['hmm, it should be fine', 'user'],
    ['I have to step out for a few minutes.', 'user'],
    ['not sure, what do you think?', 'user'],
    ['Let me check the test output.', 'assistant'],
    ['Running the linter now.', 'assistant'],
    ['Tests are passing now.', 'assistant'],
    ['I updated the README.', 'assistant'],
    ['Now I need to check whether the build passes.', 'assistant'],
    ['That should be it.', 'assistant'],
    ['This should work now.', 'assistant'],
    ['The CI run needs a few more minutes to finish.', 'assistant'],
    ['I need to read the rest of the file first.', 'assistant'],
    ['Let me make sure the tests pass.', 'assistant'],
    ["I'll make sure to run the full suite.", 'assistant'],
    ['One more look is enough.', 'assistant'],
  ] as const)('does not keep %j (%s)', (text, role) => {
    expect(isKept(text, role), kind(text, role)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { judgeFact } from '../../src/language/fact-worth.js';
import type { FactRejection } from '../../src/language/fact-worth.js';

type Role = 'user' | 'assistant';

// Sentences written for this test: shapes that do not last, and durable statements with similar words.
const REJECTED: readonly [FactRejection, Role, string][] = [
  ['failure', 'user', 'The build failed.'],
  ['failure', 'user', 'Tests are failing again on my machine.'],
  ['failure', 'assistant', 'The dev server still is not starting.'],
  ['failure', 'user', 'Still unable to log in to the admin page.'],
  ['failure', 'user', 'Nothing shows up in the sidebar anymore.'],
  ['hedge', 'assistant', "Maybe it's the cache."],
  ['hedge', 'assistant', 'It might be worth trying a clean reinstall of the dependencies.'],
  ['hedge', 'user', 'Perhaps the scheduler is picking up stale jobs.'],
  ['hedge', 'assistant', 'The slowdown is probably related to the image resizing step.'],
  ['completion', 'assistant', 'Done, the component is updated.'],
  ['completion', 'assistant', 'Fixed several small issues in the settings screen.'],
  ['completion', 'assistant', 'All set, the navigation menu is now working again.'],
  ['pasted', 'user', 'Symptom\tLikely cause\tWhat to try'],
  ['pasted', 'user', 'Keep the changelog in sync with each release to help reviewers keepachangelog.com'],
  ['pasted', 'assistant', 'Option | Speed | Memory use'],
  ['plan-step', 'assistant', 'Main features of the new dashboard: live charts and saved filters'],
  ['plan-step', 'assistant', '**Smarter Caching**: Add a layer that remembers recent lookups'],
  ['plan-step', 'assistant', 'To speed this up: Review the slow queries one at a time.'],
  ['failure', 'user', 'It keeps giving the same answer over and over.'],
  ['failure', 'user', 'No output from the worker at all.'],
  ['failure', 'user', 'I press the export button and it does not do anything.'],
  ['hedge', 'assistant', 'Potentially the index needs to be rebuilt from scratch.'],
  ['pasted', 'user', 'Gradient boosting: A family of methods that combine weak learners into a strong one.'],
];

const KEPT: readonly [Role, string][] = [
  ['assistant', 'The build failed because node 18 lacks fetch; we pin node 20.'],
  ['user', 'Tests fail whenever they run in parallel, so keep vitest on a single thread.'],
  ['assistant', 'The import crashed due to a missing `DATABASE_URL` in CI.'],
  ['assistant', 'Login failed with `ERR_INVALID_TOKEN` after the key rotation.'],
  ['assistant', 'Maybe later, but for now the API must stay on REST.'],
  ['user', 'Never run migrations from a laptop, even if it seems faster.'],
  ['assistant', 'The timeout is now 30s for every outbound call.'],
  ['assistant', 'Updated `retry.ts` so uploads retry 3 times with a 500ms backoff.'],
  ['assistant', 'The 502s came from nginx buffering (probably the default size), fixed by raising proxy_buffer_size to 16k.'],
  ['user', 'The invoices table uses UUID primary keys.'],
  ['assistant', 'Never edit the generated client by hand; rerun the codegen script instead.'],
  ['user', 'Run the seed script before the e2e tests.'],
  ['user', 'No response body is returned for 204s, so the client must not parse it.'],
  ['assistant', 'Queue: a Redis list per tenant, drained by the billing worker.'],
  ['assistant', 'We settled on Postgres 16 for the reporting database.'],
];

describe('judgeFact() on shapes that do not last', () => {
  it.each(REJECTED)('rejects as %s (%s): %s', (reason, role, sentence) => {
    expect(judgeFact({ sentence, role })).toBe(reason);
  });

  it.each(KEPT)('keeps a durable statement with similar words (%s): %s', (role, sentence) => {
    expect(judgeFact({ sentence, role })).toBeUndefined();
  });
});

describe('judgeFact() on a request to keep what follows', () => {
  it.each([
    ['user', 'Keep in mind: the reporting database is read-only for the app user.'],
    ['user', 'please note: refunds go back to the original card only'],
    ['assistant', 'Worth remembering: the staging tenant sends mail to a sandbox inbox.'],
  ] as const)('lets %s say %j as a fact', (role, sentence) => {
    expect(judgeFact({ sentence, role })).toBeUndefined();
  });

  it('still reads an announcement of work as a lead-in', () => {
    expect(judgeFact({ sentence: 'Here is what I will do next: check the logs, then rerun the suite.', role: 'assistant' })).toBe('lead-in');
  });
});

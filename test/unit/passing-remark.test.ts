import { describe, expect, it } from 'vitest';
import { judgeFact } from '../../src/language/fact-worth.js';
import { announcedTaskOf, namesTaskOnly, passingRemarkOf } from '../../src/language/passing-remark.js';
import type { Entry } from '../../src/types.js';
import { summarizeChunk } from '../helpers.js';

type Role = Entry['role'];

describe('passingRemarkOf()', () => {
  it.each<[string, Role, string]>([
    // Courtesies that are the whole sentence.
    ['pleasantry', 'assistant', 'Glad to help with the billing service.'],
    ['pleasantry', 'assistant', "Sure, I'm always happy to dig in!"],
    ['pleasantry', 'user', 'Thanks so much for the quick turnaround!'],
    ['pleasantry', 'assistant', 'Good catch.'],
    // Tasks named or announced, and needs with nothing specific in them.
    ['task-title', 'user', 'Up next: the webhook retry helpers, they could use a proper cleanup.'],
    ['task-title', 'assistant', 'On deck: the export pipeline.'],
    ['task-title', 'user', 'Next thing is the date utilities.'],
    ['task-title', 'user', 'The auth middleware deserves some attention.'],
    ['task-title', 'assistant', 'Recap of the date helpers, they need a bit of care: parsing now lives in one module.'],
    ['task-title', 'assistant', '🔄 Import pipeline - NEXT: wire the retry queue'],
    ['task-title', 'user', "Alright, let's dig into the slow invoice search."],
    ['task-title', 'assistant', 'The linter flagged two files in `src/api`; looking into it now.'],
    ['task-title', 'user', 'Customers hit this every day, so it is worth fixing properly.'],
    ['task-title', 'assistant', 'Wrapped up; progress update on migrating the cron jobs:'],
    // Guesses and epistemic modals.
    ['hedge', 'assistant', 'My working theory is that the fixture loads after the clock starts.'],
    ['hedge', 'user', 'One hunch: the CDN still serves the old bundle.'],
    ['hedge', 'assistant', 'The bug has to be somewhere in the serializer.'],
    ['hedge', 'assistant', 'The culprit must be in the retry wrapper, not the client.'],
    ['hedge', 'user', 'It must have been cached by the service worker.'],
    ['hedge', 'assistant', 'Expected: should still work, since the header is only read for logging.'],
    // The code as it is now.
    ['observation', 'assistant', 'The retry wrapper feels bloated; half of its options go unused.'],
    ['observation', 'assistant', 'Nothing in `billing/invoice.py` seems obviously off, but `render_pdf` is doing too much.'],
    ['observation', 'assistant', 'I went through the call sites: `syncOrders` is the only caller that sets a custom clock.'],
    ['observation', 'assistant', 'I can spot `tenantId` arriving as null in the worker output.'],
    ['observation', 'assistant', '`renderInvoice` is rather convoluted because it formats and stores in one pass.'],
    ['observation', 'assistant', '`mergeCarts` reads the price before the discount is applied, so a coupon may end up ignored.'],
    ['observation', 'assistant', 'The session lookup skips the region, which means two shops could see each other’s baskets.'],
    // What the assistant's edit does or costs.
    ['narration', 'assistant', 'That way the existing webhooks keep working with no change on their side.'],
    ['narration', 'assistant', 'Without that guard, an empty currency would quietly become USD.'],
    ['narration', 'assistant', 'It is a tiny change, but it removes a confusing branch from the parser.'],
    ['narration', 'assistant', 'The other option would have been a decorator on every handler, which seemed heavier.'],
    ['narration', 'assistant', 'Memory-wise it is one extra map per request, so nothing to worry about.'],
    ['narration', 'assistant', 'I moved the check into `parseOrder`: this keeps validation next to where the data arrives.'],
    ['narration', 'assistant', 'Edited `config/app.yml`: I bumped the default on line 42 from 3 to 5.'],
    ['narration', 'assistant', 'In `jobs/cleanup.py` we tweaked the literal near line 88 (30 → 45).'],
    ['narration', 'assistant', "Finished: in `spec/cart.spec.ts` I wrote a regression test 'keeps the coupon after a reload'."],
    ['narration', 'assistant', 'Okay, committed as "chore: tidy the cart helpers".'],
  ])('%s (%s): %s', (expected, role, sentence) => {
    expect(passingRemarkOf(sentence, { role })).toBe(expected);
    // judgeFact turns them away for the same reason.
    expect(judgeFact({ sentence, role })).toBe(expected);
  });

  it.each<[Role, string]>([
    // Rules, limits and choices that share words with the remarks above.
    ['user', 'Happy paths must be covered by an integration test, no exceptions.'],
    ['user', 'Thanks, and never push straight to the release branch.'],
    ['user', 'Next release must ship with the audit log enabled.'],
    ['assistant', 'The importer needs to handle 50k rows per file.'],
    ['user', 'The export job needs some work to support 20 MB files.'],
    ['user', 'Webhook payloads must be signed with HMAC-SHA256.'],
    ['assistant', 'Errors must be returned as problem+json with a `type` URI.'],
    ['user', 'The cache key must include the tenant id.'],
    ['assistant', 'The fix must be backwards compatible with the v2 clients.'],
    ['user', 'Looks fine, but please keep `renderInvoice` under 40 lines.'],
    ['assistant', 'This service never retries a payment more than 3 times.'],
    ['assistant', 'We went with pino for the structured logs, since it is the fastest option.'],
    ['assistant', 'I checked the callers: the crash happened because `syncOrders` passed a null clock, fixed by defaulting it.'],
    ['assistant', 'The importer was too slow because it parsed every row twice; caching the header fixed it.'],
    ['assistant', 'The deadlock came from two jobs locking rows in different orders; sorting the ids fixed it.'],
    ['user', 'Always use named exports, no default exports anywhere.'],
    ['assistant', 'I set the connection pool to 20 in `db/pool.ts`, as the load test needs it.'],
    ['user', 'The request timeout on line 3 of the spec must stay at 30 seconds.'],
    ['user', "Let's use Redis for the rate limiter."],
    ['user', 'Every bug fix must come with a regression test.'],
    ['assistant', 'This means session files are the only source of truth for the importer.'],
    ['user', 'Expected behaviour: the export should include archived rows.'],
    ['assistant', 'We always add a contract test for each new endpoint.'],
    ['assistant', 'Tests for the billing module live in `tests/billing/` and use a fake clock.'],
    // A rule drawn from what the code does is a constraint, not a remark on the code.
    ['assistant', 'The ledger service holds a row lock for the whole import, which means two imports can\'t run at the same time.'],
    ['assistant', '`syncStock` writes through the shared cache, so it can\'t be called from a request handler.'],
  ])('keeps (%s): %s', (role, sentence) => {
    expect(passingRemarkOf(sentence, { role })).toBeUndefined();
  });

  it('judges a lead-in by the sentence after it', () => {
    // The lead-in narrates an edit; what follows is a rule of the project, which stays.
    expect(passingRemarkOf('I renamed `cfg` to `settings` in `app.ts`: config keys are always kebab-case in this repo.', { role: 'assistant' })).toBeUndefined();
    expect(passingRemarkOf('I renamed `cfg` to `settings` in `app.ts`: that way the name matches the file.', { role: 'assistant' })).toBe('narration');
  });

  it('leaves the user’s remarks about the code to the other rules', () => {
    // A user's verdict may carry a request; only guesses, tasks and courtesies are theirs to judge here.
    expect(passingRemarkOf('The logging in `worker.ts` is inconsistent, some lines lack the job id.', { role: 'user' })).toBeUndefined();
    expect(passingRemarkOf('The logging in `worker.ts` is inconsistent, some lines lack the job id.', { role: 'assistant' })).toBe('observation');
  });
});

describe('namesTaskOnly()', () => {
  it.each([
    'Recap of the retry helpers, they want a bit of tidying:',
    'Finished; status update on adding the CSV export:',
    'Summary of refactoring the invoice queries:',
    'Up next: the config loader',
    'To kick things off: the flaky upload test',
  ])('names a task: %s', (line) => {
    expect(namesTaskOnly(line)).toBe(true);
  });

  it.each([
    'Two rules for the webhooks:',
    "Recap of what's settled:",
    'Summary of the decisions so far:',
    'Acceptance criteria for the importer:',
    'Next release must ship with the audit log on',
    'The importer needs some work to support 50k rows:',
  ])('binds or states something: %s', (line) => {
    expect(namesTaskOnly(line)).toBe(false);
  });
});

describe('announcedTaskOf()', () => {
  it('gives the task a label or an opening announces', () => {
    expect(announcedTaskOf('Up next: the retry helpers, they need a cleanup.')).toBe('the retry helpers, they need a cleanup.');
    expect(announcedTaskOf('Next thing is the invoice export')).toBe('the invoice export');
    expect(announcedTaskOf('On deck: pagination for `/orders`')).toBe('pagination for `/orders`');
  });

  it('gives nothing for other sentences', () => {
    expect(announcedTaskOf('Next release ships on Monday.')).toBeUndefined();
    expect(announcedTaskOf('The next page loads lazily: only 20 rows at a time.')).toBeUndefined();
  });
});

describe('task titles in a chunk summary', () => {
  it('opens the announced task instead of keeping the announcement as a fact', () => {
    const result = summarizeChunk([
      { kind: 'user', text: 'Up next: the webhook retry helpers, they could use a proper cleanup. Most of it is in `src/webhooks/retry.ts`.' },
      { kind: 'assistant', text: 'Glad to help with the webhooks.' },
    ]);
    expect(result.facts ?? []).toEqual([]);
    expect((result.tasks ?? []).map((task) => task.title)).toContain('the webhook retry helpers');
  });
});

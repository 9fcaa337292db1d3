import { describe, expect, it } from 'vitest';
import { matcherFor } from '../../src/boundaries/pattern-pack.js';
import { englishPatterns } from '../../src/boundaries/patterns/en.js';
import { analyzeSentence, factCategoryFor } from '../../src/graduation/retention.js';
import { isStandingRule } from '../../src/language/behaviour-statement.js';
import { scoreSalience } from '../../src/language/salience.js';

const matcher = matcherFor(englishPatterns);
const withoutToolWords = matcherFor({ ...englishPatterns, toolVerb: [], toolOutput: [] });
type Role = 'user' | 'assistant';
const kept = (text: string, role: Role): boolean =>
  factCategoryFor(analyzeSentence(text, { role, patterns: englishPatterns }).retention) !== undefined;
const specifics = (text: string, role: Role): number => scoreSalience(text, { role, matcher }).specifics;

describe('names read from where they stand, not from their spelling', () => {
  it.each([
    ['inngest schedules the reminder emails', 'user'],
    ['Fastly serves every static asset from the edge.', 'assistant'],
    ['Kestrel hosts the admin API behind the proxy.', 'assistant'],
    ['typesense indexes the whole product catalogue', 'user'],
    ['Sidekiq is what processes all the webhooks in the Ruby app.', 'assistant'],
    ['bunny renders the thumbnails on upload', 'user'],
  ] as const)('keeps %j (%s): a name leads the work of a tool', (text, role) => {
    expect(kept(text, role)).toBe(true);
  });

  it('counts the leading name only through the pack’s tool verbs', () => {
    const text = 'inngest schedules the reminder emails';
    expect(scoreSalience(text, { role: 'user', matcher }).specifics).toBeGreaterThan(
      scoreSalience(text, { role: 'user', matcher: withoutToolWords }).specifics,
    );
  });

  it.each([
    ['the cron entries are supercronic jobs now', 'user'],
    ['The email layouts are mjml templates, one per message.', 'assistant'],
    ['the reports are evidence queries checked into the repo', 'user'],
    ['Release notes are written as changie files, one per change.', 'assistant'],
    ['feature copy comes from crowdin, never from the code', 'user'],
    ['The nightly export is a prefect flow now.', 'assistant'],
    ['Releases go out through fastlane on both stores.', 'assistant'],
    ['The API docs are rendered by scalar from the spec file.', 'assistant'],
    ['invoices get sent by lettermint, not our smtp box', 'user'],
  ] as const)('keeps %j (%s): a name before what a tool makes', (text, role) => {
    expect(kept(text, role)).toBe(true);
  });

  it.each([
    ['the status page polls through ably', 'user'],
    ['We plot the latency histogram with plotly, like the other panels.', 'assistant'],
    ['The persistence layer is kysely now.', 'assistant'],
  ] as const)('keeps %j (%s): a name ending in -ly after a preposition or a tool kind', (text, role) => {
    expect(specifics(text, role)).toBeGreaterThanOrEqual(1);
    expect(kept(text, role)).toBe(true);
  });

  it.each([
    ['Several processes write the same lock file at once.', 'assistant'],
    ['Nightly builds fail now and then.', 'assistant'],
    ['The fixtures are plain files under the data folder.', 'assistant'],
    ['Those jobs are background tasks that nobody watches.', 'user'],
    ['use it sparingly', 'user'],
    ['Logging handles the rest of the request.', 'assistant'],
    ['The bad value comes from upstream.', 'assistant'],
    ['The warning comes from outside the module.', 'assistant'],
  ] as const)('reads no name in %j (%s)', (text, role) => {
    expect(specifics(text, role)).toBe(0);
  });
});

describe('names kept for a role, and names before a new clause', () => {
  it.each([
    ['tbh the image pipeline stays on sharp, jimp is too slow', 'user'],
    ['I kept the scheduler on croner since it already handles time zones.', 'assistant'],
  ] as const)('keeps %j (%s)', (text, role) => {
    expect(specifics(text, role)).toBeGreaterThanOrEqual(1);
    expect(kept(text, role)).toBe(true);
  });

  it.each([
    ['we stay on track if the review lands today', 'user'],
    ['Keep the focus on the export for now.', 'user'],
    ['The rows are sorted by date before the export.', 'assistant'],
  ] as const)('reads no name in %j (%s)', (text, role) => {
    expect(specifics(text, role)).toBe(0);
  });
});

describe('standing rules of the product with no name or value', () => {
  it.each([
    'A posted journal entry is never changed; corrections go in as a reversing entry.',
    'Private notes are visible to whoever wrote them and nobody else.',
    'Salary figures stay hidden from team leads.',
    'Only the account owner may close the account.',
    'Nobody but a moderator can unlock a thread.',
    'A paused campaign keeps its audience until someone deletes it.',
    'The public profile page shows no email address.',
    'The partner portal is invoice-only; ordering happens elsewhere.',
    'A credit note never exceeds the invoice it corrects.',
    'A booking that was paid is never deleted, only cancelled.',
    'Only the person who opened a dispute can withdraw it.',
    'A cancelled booking returns to the pool only after the host confirms.',
  ])('keeps %j from the assistant', (text) => {
    expect(isStandingRule(text)).toBe(true);
    expect(kept(text, 'assistant')).toBe(true);
  });

  it.each([
    'The test is never called with an empty list.',
    'It is only shown to admins because of the flag I added.',
    'The export still fails until the cache is warm.',
    'I kept the old value until the migration ran.',
    'Only the first assertion fails now.',
    'Only implements the placeholder screens so far.',
    'Only then does the retry kick in.',
    'Only a handful of files matter here.',
    'Only some of them change in this pass.',
    'The callback never fires on the second run.',
  ])('does not read %j as a rule', (text) => {
    expect(isStandingRule(text)).toBe(false);
  });
});

describe('conventions of the work that name a task, a commit or a branch', () => {
  it.each([
    ['Every release tag is cut from main after the smoke run.', 'assistant'],
    ['Each task branch is squashed into one commit before it lands.', 'assistant'],
    ['hotfix branches are merged into main and back into develop', 'user'],
    ['every commit subject starts with the ticket key', 'user'],
    ['Every schema change ships with a rollback script.', 'assistant'],
    ['PRs get merged by their author after one approval', 'user'],
    ['Only maintainers push tags.', 'assistant'],
    ['Tags are signed with the release key before they are published.', 'assistant'],
    ['Every fix is back-ported into the previous minor the same week.', 'assistant'],
    ['feature branches get squashed once approved', 'user'],
  ] as const)('keeps %j (%s)', (text, role) => {
    expect(kept(text, role)).toBe(true);
  });
});

describe('routine talk stays routine', () => {
  it.each([
    ['I added a null check to the parser and reran the suite.', 'assistant'],
    ['Let me look at the failing spec first.', 'assistant'],
    ['brb, grabbing some food', 'user'],
    ['$ npm run lint -- --fix', 'user'],
    ['user@box:~/shop$ git status', 'user'],
    ['Running the migrations again now.', 'assistant'],
    ['thanks, that looks right', 'user'],
    ['Next task: the avatar cropper.', 'user'],
  ] as const)('%j (%s)', (text, role) => {
    expect(kept(text, role)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { englishPatterns } from '../../src/boundaries/patterns/en.js';
import { analyzeSentence, factCategoryFor } from '../../src/graduation/retention.js';
import { turnShapeOf } from '../../src/language/behaviour-statement.js';
import { isStatedConvention } from '../../src/language/convention-statement.js';
import { judgeFact } from '../../src/language/fact-worth.js';
import { isStatedPreference } from '../../src/language/preference-statement.js';

// Sentences written fresh for this test, by both speakers: how a project does things told as its
// habit, scoped to the project or observed by the assistant and followed, likings told as a
// leaning or a taste, and look-alikes that must not be kept (one-off edits, states, reactions).
type Role = 'user' | 'assistant';
const analysisOf = (text: string, role: Role) => analyzeSentence(text, { role, patterns: englishPatterns, turn: turnShapeOf(text) });
const isKept = (text: string, role: Role): boolean =>
  factCategoryFor(analysisOf(text, role).retention) !== undefined && judgeFact({ sentence: text, role }) === undefined;

describe('a practice told as the habit of the project or the team', () => {
  it.each([
    'we keep the seed data in db/seeds',
    'we store every price as a decimal string',
    'the team tags releases with a v prefix',
    'this repo puts the storybook files beside each widget',
    'our backend serializes durations as ISO 8601 strings',
    'We generally split controllers by resource.',
    'we rebase feature branches onto develop before review',
  ])('is a convention from the user: %s', (sentence) => {
    expect(isStatedConvention(sentence, { role: 'user' })).toBe(true);
    expect(analysisOf(sentence, 'user').retention).toBe('convention');
    expect(isKept(sentence, 'user')).toBe(true);
  });

  it.each([
    'The codebase stores feature toggles in a single flags.json at the root.',
    'This project names its queue workers after the event they consume.',
    'The team seems to suffix every React context with Ctx, so I named the new one ThemeCtx.',
  ])('is a convention from the assistant: %s', (sentence) => {
    expect(isStatedConvention(sentence, { role: 'assistant' })).toBe(true);
    expect(isKept(sentence, 'assistant')).toBe(true);
  });

  it.each([
    // The assistant's "we" narrates the code.
    'We return an empty array when nothing matches.',
    'We log the failure and carry on with the next batch.',
    // One thing, not things of a kind; going on doing something.
    'we use the shared staging bucket for that',
    'we keep hitting the same timeout',
    'we put the hotfix in last night',
    'we run the seed script once more',
  ])('is not a convention: %s', (sentence) => {
    const role: Role = sentence.startsWith('We ') ? 'assistant' : 'user';
    expect(isStatedConvention(sentence, { role })).toBe(false);
  });
});

describe('a statement about things of a kind, scoped to the project', () => {
  it.each([
    'enum members are PascalCase in this repo',
    'around here, API clients live in src/clients',
    'cache keys are colon-delimited across the codebase',
    'helper modules stay framework-free here',
    'commit subjects here stay under 72 characters',
  ])('is a convention: %s', (sentence) => {
    expect(isKept(sentence, 'user')).toBe(true);
  });

  it.each([
    'integration tests are failing in this repo',
    'the logs are all here',
    'the build is broken across the codebase',
    'the tests here are flaky',
  ])('is not a convention: %s', (sentence) => {
    expect(isStatedConvention(sentence, { role: 'user' })).toBe(false);
  });
});

describe('the assistant observing the project’s way and following it', () => {
  it.each([
    'I noticed every worker registers its queue name in workers/registry.ts, so I registered the new one there.',
    'It looks like the repo keeps DTO mappers next to their controllers, so I added the mapper beside orders.controller.ts.',
    'From what I can see, config values are validated with envalid at startup.',
    'Like the other commands, the new one prints JSON when --json is passed.',
    'Following the project’s naming convention, the new table is called shipment_events.',
    'I matched the existing layout: each page has a loader.ts and a view.tsx.',
    'The older services all expose metrics on /metrics, so the new service does the same.',
    'The convention here appears to be one migration per ticket, so I kept it to one file.',
    'I kept to the established practice of registering routes in one table.',
    'I copied the way the existing reporters are wired: a factory plus a small options type.',
  ])('is kept as a convention: %s', (sentence) => {
    expect(isStatedConvention(sentence, { role: 'assistant' })).toBe(true);
    expect(isKept(sentence, 'assistant')).toBe(true);
  });

  it.each([
    // One-off edits and plans.
    'I put the new query under db/queries.',
    'I moved the mapper next to the controller.',
    'I added the fixture beside the spec file.',
    "I'll follow the same layout as the billing module.",
    // Findings about the state of things, not how they are done.
    'I noticed the deploy job failed twice overnight.',
    'It looks like the e2e tests are flaky again.',
    'The other specs still pass.',
    'The other endpoint returns 404 as well.',
    'I followed your steps one by one.',
    'I mirrored the fix in the second handler.',
  ])('is not kept: %s', (sentence) => {
    expect(isStatedConvention(sentence, { role: 'assistant' })).toBe(false);
    expect(isKept(sentence, 'assistant')).toBe(false);
  });
});

describe('a liking told as a leaning, a taste or the speaker’s say', () => {
  it.each([
    'I lean towards fewer, larger modules',
    "I'm leaning toward CSS modules for the dashboard",
    "I'm partial to table-driven tests",
    "I'm allergic to global mutable state",
    "I'm more of a REST person than a GraphQL one",
    "I'm team spaces",
    "we're a yarn shop",
    "I've come around to tagged template SQL",
    "if it were up to me, we'd drop the ORM",
    'given the choice, plain CSS over styled-components',
    'give me explicit loops over clever reducers',
  ])('is a preference from the user: %s', (sentence) => {
    expect(isStatedPreference(sentence, { role: 'user' })).toBe(true);
    expect(isKept(sentence, 'user')).toBe(true);
  });

  it('is followed by the assistant when attributed to what the user said', () => {
    const sentence = 'I kept the handler synchronous since you told me you would rather avoid async there.';
    expect(isStatedPreference(sentence, { role: 'assistant' })).toBe(true);
    expect(isKept(sentence, 'assistant')).toBe(true);
  });

  it.each([
    'I like it, thanks!',
    'I love that idea',
    "I'd rather not touch the migration today",
    'I lean on the wall while the build runs?',
    'If it were up to me?',
  ])('is not a preference: %s', (sentence) => {
    expect(isKept(sentence, 'user')).toBe(false);
  });
});

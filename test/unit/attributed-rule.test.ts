import { describe, expect, it } from 'vitest';
import { attributedRuleOf, isOneOffAttributedAction, statementUnderTag, withoutAttributionTag } from '../../src/language/attributed-rule.js';
import type { EntryInput } from '../helpers.js';
import { summarizeChunk } from '../helpers.js';

// Sentences written fresh for this test: rules, wishes, owners and agreements of the listener or
// the team, stated or applied by either speaker, tools given a role and choices made for good;
// next to steps done once because they were asked for, which must stay out of the facts.
const factsOf = (role: 'user' | 'assistant', text: string): string[] =>
  (summarizeChunk([{ kind: 'user', text: 'Morning, back at it.' }, { kind: role, text } satisfies EntryInput]).facts ?? []).map((fact) => fact.category);

describe('a rule attributed to the listener, the team or an agreement', () => {
  it.each([
    ['I skipped adding a new package for the retry logic, per your rule.', 'constraint'],
    ['I stayed out of the `ledger` crate, since you said the finance folks own it.', 'constraint'],
    ['The payment adapter is untouched; you mentioned it is maintained by the vendor.', 'constraint'],
    ['I made the export stream its rows, which you said is required for files over a gigabyte.', 'requirement'],
    ['Since your reviewers insist on one concern per commit, I split the change in two.', 'convention'],
    ['You told me the team wants kebab-case file names, so the new file is `order-list.tsx`.', 'convention'],
    ['I remembered you always want a test with every bug fix, so there is one for the off-by-one.', 'convention'],
    ['Knowing you like small pure functions, I pulled the tax math out of the handler.', 'preference'],
    ['Sticking with pnpm workspaces from here on, as you asked.', 'convention'],
    ['Like we agreed, I moved the uploads off the local disk and onto S3.', 'decision'],
    ['I swapped `request` out for undici in the crawler, as we decided last week.', 'decision'],
    ['The handlers still log no request bodies, under the policy you set for PII.', 'constraint'],
  ] as const)('assistant: %s → %s', (sentence, kind) => {
    expect(attributedRuleOf(sentence, { role: 'assistant' })).toBe(kind);
    expect(factsOf('assistant', sentence)).toHaveLength(1);
  });

  it.each([
    ['As I said yesterday, every public route needs an auth check.', 'requirement'],
    ['Like I mentioned, the `infra/` folder is off limits for this repo.', 'constraint'],
    ['As we agreed, Postgres is the queue backend for now and for the batch jobs.', 'decision'],
    ['Per our agreement, feature branches are squashed before they land.', 'convention'],
    ['Remember I told you we never store tokens in local storage.', 'constraint'],
  ] as const)('user: %s → %s', (sentence, kind) => {
    expect(attributedRuleOf(sentence, { role: 'user' })).toBe(kind);
    expect(factsOf('user', sentence)).toHaveLength(1);
  });
});

describe('a tool given a role, a choice made for good', () => {
  it.each([
    'I went ahead and made Biome the formatter for the whole repo.',
    'I set Vite as the bundler for the admin app.',
    'I made `tsx` our script runner and dropped ts-node.',
    'From now on I will name the fixtures after the scenario they cover.',
  ])('assistant: %s', (sentence) => {
    expect(attributedRuleOf(sentence, { role: 'assistant' })).toBeDefined();
    expect(factsOf('assistant', sentence)).toHaveLength(1);
  });

  it('user: a role given as an instruction', () => {
    const sentence = 'As we discussed, make Caddy the reverse proxy for the staging boxes.';
    expect(attributedRuleOf(sentence, { role: 'user' })).toBe('decision');
    expect(factsOf('user', sentence)).toEqual(['decisions']);
  });

  it.each([
    'I made a backup of the lockfile before the upgrade.',
    'I set up the dev container and started the services.',
    'I made it the default just for this one request.',
    'I went ahead and made the edit to the router.',
    'I made sure the migration runs.',
    'Let me set up the fixtures first.',
  ])('not a role: %s', (sentence) => {
    expect(attributedRuleOf(sentence, { role: 'assistant' })).toBeUndefined();
  });
});

describe('a step done once because it was asked for, or talk about the conversation', () => {
  it.each([
    'I reran the flaky suite, as you asked.',
    'Like you requested, I bumped the log level on the worker.',
    'As you suggested, I started with the stack trace.',
    'Per your message, I rebased the branch onto main.',
    'I cleared the build cache, as you wanted.',
    'I added the extra assertion you asked for.',
    "I'll regenerate the client now, as you asked.",
    'You pasted the failing query a few messages ago.',
    'You showed me the nginx config earlier.',
  ])('assistant: %s', (sentence) => {
    expect(attributedRuleOf(sentence, { role: 'assistant' })).toBeUndefined();
    expect(isOneOffAttributedAction(sentence, { role: 'assistant' })).toBe(true);
    expect(factsOf('assistant', sentence)).toEqual([]);
  });

  it.each([
    'You mentioned the deploy was slow this morning, so I looked at the runner.',
    'Like you said, the second run passed.',
    'I opened the policy you mentioned in the wiki.',
  ])('assistant, a past event: %s', (sentence) => {
    expect(attributedRuleOf(sentence, { role: 'assistant' })).toBeUndefined();
    expect(factsOf('assistant', sentence)).toEqual([]);
  });

  it.each([
    'As I said, I have to leave at four today.',
    'Like I mentioned, I already restarted the VM.',
    'As we discussed, could you take another look at the flaky spec?',
  ])('user: %s', (sentence) => {
    expect(attributedRuleOf(sentence, { role: 'user' })).toBeUndefined();
    expect(factsOf('user', sentence)).toEqual([]);
  });
});

describe('a step asked for that sets a value or picks a tool', () => {
  it.each([
    'I lowered the worker concurrency to 4, as you asked.',
    'Like you requested, I switched the HTTP client to ky.',
    'As you asked, the session lifetime is now 12 hours.',
  ])('is not demoted: %s', (sentence) => {
    expect(isOneOffAttributedAction(sentence, { role: 'assistant' })).toBe(false);
  });

  it.each([
    'I set the request timeout to 45s, as you asked.',
    'Like you requested, I switched the HTTP client to ky.',
    'As you asked, the session lifetime is now 12 hours.',
  ])('is still a fact: %s', (sentence) => {
    expect(factsOf('assistant', sentence)).toHaveLength(1);
  });

  it.each([
    'I changed the value on line 88 from 12 to 40 in `src/cart.ts`, like you requested.',
    'Following your request, I renamed `tmp` to `rows` in `load_orders`.',
    'As you asked, I edited `api/routes.py` first: I bumped the constant on line 9 (3 → 4).',
  ])('an edit of the code done on request is no rule: %s', (sentence) => {
    expect(attributedRuleOf(sentence, { role: 'assistant' })).toBeUndefined();
    expect(statementUnderTag(sentence)).toBeUndefined();
    expect(factsOf('assistant', sentence)).toEqual([]);
  });

  it('loses only the tag when read for talk about the conversation', () => {
    expect(withoutAttributionTag('I lowered the worker concurrency to 4, as you asked.')).toBe('I lowered the worker concurrency to 4.');
    expect(withoutAttributionTag('Like we discussed: the cron job moves to 02:00 UTC.')).toBe('The cron job moves to 02:00 UTC.'.replace(/^T/u, 't'));
    expect(withoutAttributionTag('You asked me to check the logs.')).toBe('You asked me to check the logs.');
  });
});

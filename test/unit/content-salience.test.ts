import { describe, expect, it } from 'vitest';
import { englishPatterns } from '../../src/boundaries/patterns/en.js';
import { analyzeSentence, factCategoryFor } from '../../src/graduation/retention.js';
import { isRefusalOrScope, turnShapeOf } from '../../src/language/behaviour-statement.js';

// Sentences written fresh for this test, by both speakers: durable statements that carry their
// weight in what they name (a tool, a path, a licence, a rule of the product) rather than in a
// carrier phrase, and look-alikes that must stay routine.
type Role = 'user' | 'assistant';
const classOf = (text: string, role: Role): string =>
  analyzeSentence(text, { role, patterns: englishPatterns, turn: turnShapeOf(text) }).retention;
const isKept = (text: string, role: Role): boolean =>
  factCategoryFor(analyzeSentence(text, { role, patterns: englishPatterns, turn: turnShapeOf(text) }).retention) !== undefined;

describe('a tool proposed in a question', () => {
  it.each([
    'how about sqlc for the query layer?',
    'what about Meilisearch for the product search?',
    'why not ruff?',
    'could we use tsup for the library build?',
  ])('is kept as a choice: %s', (sentence) => {
    expect(isKept(sentence, 'user')).toBe(true);
  });

  it.each([
    'what about the failing snapshot?',
    'how about we look at the logs first?',
    'did you use pnpm for that?',
    'what about the timeout on the second call?',
  ])('a question without a proposed tool stays routine: %s', (sentence) => {
    expect(isKept(sentence, 'user')).toBe(false);
  });

  it('reads a proposal as a decision', () => {
    expect(classOf('what about drizzle for the reporting queries?', 'user')).toBe('decision');
  });
});

describe('a tool named as what something is built on or done with', () => {
  it.each<[string, Role]>([
    ['The notification service is built on fastify with one plugin per channel.', 'assistant'],
    ['oh and generate the changelog with changesets', 'user'],
  ])('is kept: %s', (sentence, role) => {
    expect(isKept(sentence, role)).toBe(true);
  });

  it.each<[string, Role]>([
    ['I ran the suite with vitest.', 'assistant'],
    ['run it with sudo', 'user'],
    ['Handle the empty list with care.', 'user'],
  ])('narration, a one-off command or an ordinary word is not: %s', (sentence, role) => {
    expect(isKept(sentence, role)).toBe(false);
  });
});

describe('a licence or a reason given for the speaker\'s work', () => {
  it.each<[string, Role]>([
    ['That charting package ships under the GPL, so I drew the bars with plain SVG.', 'assistant'],
    ['nothing SSPL in the dependency tree please', 'user'],
    ['I kept the card number out of the audit line, since full card numbers can\'t be stored.', 'assistant'],
  ])('is kept: %s', (sentence, role) => {
    expect(isKept(sentence, role)).toBe(true);
  });

  it('a reason that is only about the work is not', () => {
    expect(isKept('I reran the suite, since the first run timed out.', 'assistant')).toBe(false);
  });
});

describe('terse and restated statements', () => {
  it.each<[string, Role]>([
    ['(small pure functions over classes)', 'user'],
    ['plain objects over classes', 'user'],
    ['As you asked, the audit export lists deleted rows as well.', 'assistant'],
    ['The archive endpoint is cursor-based now, as agreed.', 'assistant'],
    ['Noted that the billing console is internal only and sits behind the VPN.', 'assistant'],
    ['a workspace belongs to exactly one billing account', 'user'],
    ['Understood, owners are the only ones who can transfer a workspace.', 'assistant'],
  ])('is kept: %s', (sentence, role) => {
    expect(isKept(sentence, role)).toBe(true);
  });

  it.each<[string, Role]>([
    ['rolled over to the next day', 'user'],
    ['(see the screenshot above)', 'user'],
    ['As requested, I had a look.', 'assistant'],
    ['sounds good, thanks', 'user'],
  ])('stays routine: %s', (sentence, role) => {
    expect(isKept(sentence, role)).toBe(false);
  });
});

describe('where code lives, given from memory', () => {
  it.each([
    'I believe the webhook signing is in lib/hooks/sign.ts',
    'the bulk of it is probably in services/ledger',
    "I think it's mostly in src/cart/totals.ts",
  ])('is a convention: %s', (sentence) => {
    expect(classOf(sentence, 'user')).toBe('convention');
  });

  it('a bug located in a file is not', () => {
    expect(classOf('The crash is in src/cart/totals.ts.', 'assistant')).not.toBe('convention');
  });
});

describe('rules of the product said plainly', () => {
  it.each([
    'The signup form refuses a birth date in the future.',
    'Search results are limited to the caller\'s own organisation.',
    'Digest emails are batched into one message per day.',
    'Each outgoing invoice carries the seller\'s tax number.',
  ])('refusal, scope or what each one carries: %s', (sentence) => {
    expect(isRefusalOrScope(sentence)).toBe(true);
  });

  it.each([
    'The test rejects a malformed payload.',
    'The linter refuses any unused import.',
    'It rejects the input.',
    'Every test file has its own fixture folder.',
  ])('the tests, the tools and pronouns are not the product: %s', (sentence) => {
    expect(isRefusalOrScope(sentence)).toBe(false);
  });

  it.each<[string, Role]>([
    ['The signup form refuses a birth date in the future.', 'assistant'],
    ['per the contract, refunds are paid back in the original currency', 'user'],
    ['invoices are numbered per tenant', 'user'],
    ['Reports are generated in the viewer\'s time zone.', 'assistant'],
    ['balances stored in minor units', 'user'],
  ])('is kept: %s', (sentence, role) => {
    expect(isKept(sentence, role)).toBe(true);
  });

  it.each<[string, Role]>([
    ['All the steps are checked off in the plan.', 'assistant'],
    ['The fixes are pushed to the branch.', 'assistant'],
  ])('progress on the work is not: %s', (sentence, role) => {
    expect(isKept(sentence, role)).toBe(false);
  });
});

describe('how a single thing is handled', () => {
  it.each([
    'sales tax is included in the shown price',
    'the shipping fee is waived above the free-delivery threshold',
  ])('is kept from the user: %s', (sentence) => {
    expect(isKept(sentence, 'user')).toBe(true);
  });

  it.each([
    'The patch is applied in both branches.',
    'Everything is wrapped in a transaction.',
  ])('work on the code and pronoun-like subjects are not: %s', (sentence) => {
    expect(isKept(sentence, 'assistant')).toBe(false);
  });
});

describe('a response of the product to a counted condition', () => {
  it('reads "when two …" as a condition', () => {
    expect(isKept('The booking API answers 423 when two holds overlap on the same seat.', 'assistant')).toBe(true);
    expect(isKept('The booking API answers 423 when two holds overlap on the same seat.', 'user')).toBe(true);
  });
});

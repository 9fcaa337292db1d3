import { describe, expect, it } from 'vitest';
import { englishPatterns } from '../../src/boundaries/patterns/en.js';
import { analyzeSentence, factCategoryFor, splitSentences } from '../../src/graduation/retention.js';
import { turnShapeOf } from '../../src/language/behaviour-statement.js';
import { judgeFact, readMessageLayout } from '../../src/language/fact-worth.js';

// Rules of the product and of the team that carry no name, path or value, written fresh for this
// test by both speakers: team practices, rule adjectives, a party-exclusive passive, conditions,
// assumptions, deference to someone else's say, rules given as the reason for the work. Each
// look-alike next to them uses the same words without stating a rule.
type Role = 'user' | 'assistant';
const isKept = (text: string, role: Role): boolean =>
  factCategoryFor(analyzeSentence(text, { role, patterns: englishPatterns, turn: turnShapeOf(text) }).retention) !== undefined;

describe('rules without names or values become facts, whoever states them', () => {
  it.each<[string, Role]>([
    ["We always tag the release commit, so I'll add the tag after the merge.", 'assistant'],
    ['Published reviews are immutable.', 'user'],
    ['A paid order is immutable, so the edit form only opens for drafts.', 'assistant'],
    ['voucher codes are single-use', 'user'],
    ['A shared album can be edited by its creator and nobody else.', 'user'],
    ['With no seats left, the booking form stays closed.', 'assistant'],
    ["I'm assuming a suspended user keeps read access until the end of the month.", 'assistant'],
    ['I left the billing cron untouched since the finance team owns it.', 'assistant'],
    ['I kept the logo out of the footer, since changes there need your sign-off.', 'assistant'],
    ['Every shipment now records the courier and the tracking link.', 'assistant'],
    ['I kept the ledger table insert-only, as ledger rows must never be updated.', 'assistant'],
    ['we vendor everything', 'user'],
    ['Rejected payouts are quietly returned to the sender.', 'assistant'],
    ['Refund decisions are written to the ledger, always.', 'assistant'],
    ['That means an expired voucher cannot be redeemed.', 'assistant'],
    ['Keeping in mind that payouts need a second approval, I added a review step.', 'assistant'],
  ])('%s (%s)', (sentence, role) => {
    expect(isKept(sentence, role)).toBe(true);
  });

  it.each<[string, Role]>([
    ['we always end up rewriting this part', 'user'],
    ['I never remember the staging password', 'user'],
    ['the retro got moved to 16:45 tomorrow', 'user'],
  ])('not the speakers\' own habits or one-off news: %s (%s)', (sentence, role) => {
    expect(isKept(sentence, role)).toBe(false);
  });

  it.each<[string, Role]>([
    ["We only touched the parser in this change, so I'll run its tests.", 'assistant'],
    ['With a bigger font the screenshot reads better.', 'assistant'],
    ['If the install takes a while, just grab a coffee.', 'assistant'],
    ['I left the flaky test alone since it keeps failing on main.', 'assistant'],
    ['I skipped the snapshot since it needs the approval fixture.', 'assistant'],
    ['I formatted the output like the other times.', 'assistant'],
    ["I'm assuming you ran the migration already.", 'assistant'],
  ])('not a look-alike of the new shapes: %s (%s)', (sentence, role) => {
    expect(isKept(sentence, role)).toBe(false);
  });
});

describe('a rule in prose after a closing fence with a label', () => {
  it('is split out and kept', () => {
    const text = "Here is the guard:\n```ts\nif (!seat) return;\n``` Note: a released seat is offered to the waitlist for 2 hours.";
    const sentence = 'Note: a released seat is offered to the waitlist for 2 hours.';
    expect(splitSentences(text)).toContain(sentence);
    expect(isKept(sentence, 'assistant')).toBe(true);
  });
});

describe('a rule listed after a paragraph that mentions a plan', () => {
  const text = [
    "The mapper converts the dates twice, so I'll drop the second pass. The list endpoint sorts by id, which is fine.",
    '',
    '- vouchers expire 90 days after they are issued, which the help page now says',
  ].join('\n');

  it('is a fact, not a step of the plan', () => {
    const sentence = 'vouchers expire 90 days after they are issued, which the help page now says';
    expect(judgeFact({ sentence, role: 'assistant', layout: readMessageLayout(text) })).toBeUndefined();
  });

  it('is a fact under a plan when it says in the present how the product behaves', () => {
    const planned = "The totals are summed twice, so I'll drop the second sum.\n\n- gift cards stay valid for 24 months after purchase";
    expect(judgeFact({ sentence: 'gift cards stay valid for 24 months after purchase', role: 'assistant', layout: readMessageLayout(planned) })).toBeUndefined();
    expect(judgeFact({ sentence: 'the export should skip gift cards', role: 'assistant', layout: readMessageLayout("I'll change the export next.\n\n- the export should skip gift cards") })).toBe('plan-step');
  });

  it('is a step when the plan introduces the list', () => {
    const planned = "The dates are converted twice. Next I'll do this:\n\n- drop the second conversion in the mapper";
    expect(judgeFact({ sentence: 'drop the second conversion in the mapper', role: 'assistant', layout: readMessageLayout(planned) })).toBe('plan-step');
  });
});

import { describe, expect, it } from 'vitest';
import { judgeFact } from '../../src/language/fact-worth.js';
import { ContextManager, createMemoryStorage } from '../../src/index.js';
import type { EntryInput } from '../helpers.js';
import { summarizeChunk } from '../helpers.js';

// Sentences written fresh for this test: an assistant thinking aloud about its task or the
// conversation (what it sees, assumes or should do; what the user or the instructions said) is no
// durable fact; a finding, a rule or a choice in a similar shape is, and the user's own words in
// that shape stay the user's.
describe('judgeFact: the assistant deliberating', () => {
  it.each([
    'Looking at `billing.ts` again, I see the retry wrapper is already there.',
    'Wait, I should double-check whether `refundOrder` is exported.',
    'But wait - the ticket says 4.2 is done, yet `exportCsv` still has the old signature.',
    'You mentioned the staging config earlier in the chat.',
    'Since you haven\'t shared `webhooks.ts`, I\'ll assume it matches the spec.',
    'Given that the handler already validates the payload, I should leave `parseEvent` alone.',
    'I believe I should: rerun the migration check on `orders` first.',
    'After the install finishes, you should run `npm run db:seed` to load the fixtures.',
    'Yes, I\'m ready to move on to the export screen in `ExportPage.tsx`.',
    'I could add a note about `RATE_LIMIT` to the README.',
    'The instructions say to only touch files under `src/payments`.',
    'I notice `InvoiceRow` still imports the old `Money` type.',
  ])('rejects: %s', (sentence) => {
    expect(judgeFact({ sentence, role: 'assistant' })).toBe('deliberation');
  });

  it.each([
    'Ah, now I understand: `applyCoupon` reads the cart total before tax is applied.',
    'One thing I noticed: `applyCoupon` rounds before the discount.',
    'Looking at `billing.ts`, the retry wrapper was missing because the import was removed.',
    'We keep the webhook secrets in Vault, never in `.env`.',
    'Since the sandbox rejects amounts over 10,000, payouts are split into batches of 9,999.',
    'I\'ve switched the scheduler to Postgres advisory locks.',
    '`CartTotal` is the amount after discounts, not the list price.',
  ])('keeps: %s', (sentence) => {
    expect(judgeFact({ sentence, role: 'assistant' })).toBeUndefined();
  });

  it.each([
    'Looking at the dashboard, the worker dies whenever Redis restarts.',
    'I think we should cap payout retries at 3.',
    'Since the sandbox is flaky, I\'ll want every payout test to use the `FakeStripe` client.',
  ])("keeps the user's words in that shape: %s", (sentence) => {
    expect(judgeFact({ sentence, role: 'user' })).toBeUndefined();
  });
});

describe("the assistant's answer handed on as the next user turn", () => {
  const answer = [
    'Looking at `ledger.ts` again, I see the rounding helper is already imported.',
    'Since you haven\'t shared `payouts.ts`, I\'ll assume it still calls `roundHalfEven` directly.',
    'Wait, I should check whether `settleBatch` is covered by the ledger tests before touching it.',
    'The ledger stores amounts as integer cents in `ledger_entries.amount_cents`.',
  ].join(' ');
  const factsOf = (inputs: readonly (EntryInput & { isRelayedAnswer?: boolean })[]): string[] =>
    (summarizeChunk(inputs, 400).facts ?? []).map((fact) => fact.value);

  it('is marked when recorded, also after a save and a load', async () => {
    const storage = createMemoryStorage();
    const manager = new ContextManager({ storage, sessionId: 'relay', autoSave: false });
    manager.addMessage({ role: 'user', content: 'Please look at the ledger rounding.' });
    manager.addMessage({ role: 'assistant', content: answer });
    expect(manager.addMessage({ role: 'user', content: answer.replace(/ /gu, '\n') }).isRelayedAnswer).toBe(true);
    await manager.save();
    const loaded = await ContextManager.load({ storage, sessionId: 'relay', autoSave: false });
    expect(loaded.state().entries.at(-1)?.isRelayedAnswer).toBe(true);
  });

  it('is not marked when the user only quotes part of it, adds to it, or repeats something short', () => {
    const manager = new ContextManager();
    manager.addMessage({ role: 'assistant', content: answer });
    expect(manager.addMessage({ role: 'user', content: `${answer} Also, I'll assume payouts never exceed 10,000 EUR per batch.` }).isRelayedAnswer).toBeUndefined();
    manager.addMessage({ role: 'assistant', content: 'ok' });
    expect(manager.addMessage({ role: 'user', content: 'ok' }).isRelayedAnswer).toBeUndefined();
  });

  it("is judged as the assistant speaking, so its thinking aloud is no fact; the user's own words stay facts", () => {
    const relayed = factsOf([{ kind: 'user', text: answer, isRelayedAnswer: true }, { kind: 'assistant', text: 'Applying the change now.' }]);
    expect(relayed.some((value) => value.includes('I see the rounding helper'))).toBe(false);
    expect(relayed.some((value) => value.includes("I'll assume"))).toBe(false);
    const own = factsOf([{ kind: 'user', text: `${answer} Also, I'll assume payouts never exceed 10,000 EUR per batch.` }]);
    expect(own.some((value) => value.includes("I'll assume"))).toBe(true);
  });
});

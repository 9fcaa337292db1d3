import { describe, expect, it } from 'vitest';
import { summarizeChunk } from '../helpers.js';
import type { EntryInput } from '../helpers.js';

// Question and reply pairs written fresh for this test, in both directions: the reply alone names
// no subject, so it is kept together with the question it answers. Look-alikes (offers answered
// with "sure", small talk, refusals, replies that ask back) must yield no fact.
const user = (text: string): EntryInput => ({ kind: 'user', text });
const assistant = (text: string): EntryInput => ({ kind: 'assistant', text });

function factsOf(inputs: readonly EntryInput[]): string[] {
  const result = summarizeChunk(inputs);
  return (result.facts ?? []).map((fact) => fact.value);
}

describe('a short reply to the question the other party asked', () => {
  it.each([
    ['Which message broker should the order events go through?', 'Kafka.', 'Kafka'],
    ['How long may an upload session stay open before we expire it?', '20 minutes', '20 minutes'],
    ['What should the staging database be called?', 'orders-stage, lower-case', 'orders-stage'],
    ['I can build the charts with plotly or echarts. Which one?', 'the second one', 'echarts'],
    ['Should I cap the worker pool at 12 threads?', 'yes, cap it', '12 threads'],
    ['For the linter, biome or eslint?', 'biome', 'biome'],
    ['Which font should the invoice PDFs use?', 'inter please', 'inter'],
  ])('from the user is kept with the question: %s → %s', (question, reply, kept) => {
    const facts = factsOf([user('Next up: the order export.'), assistant(question), user(reply)]);
    const fact = facts.find((value) => value.includes(reply));
    expect(fact).toBeDefined();
    expect(fact).toContain(kept);
  });

  it.each([
    ['what port does the metrics endpoint listen on?', 'Port 9464.', '9464'],
    ['which region is the bucket in again?', 'ap-southeast-2.', 'ap-southeast-2'],
    ['how many retries does the mailer do now?', 'Three, then it parks the message.', 'Three'],
  ])('from the assistant is kept with the question: %s → %s', (question, reply, kept) => {
    const facts = factsOf([assistant('The export runs green now.'), user(question), assistant(reply)]);
    const fact = facts.find((value) => value.includes(reply));
    expect(fact).toBeDefined();
    expect(fact).toContain(kept);
    expect(fact).toContain(question.slice(0, 12));
  });

  it.each([
    ['assistant', 'Shall I run the whole suite now?', 'sure'],
    ['assistant', 'Ready for the next part?', 'go ahead'],
    ['assistant', 'Should I carry on?', 'continue'],
    ['assistant', 'Do you want a recap of the changes?', 'no thanks'],
    ['assistant', 'Okay to commit this?', 'yes please'],
    ['assistant', 'Can we move on to the import step?', "let's move on"],
    ['assistant', 'Would you like me to add tests for the parser?', 'can we look at the logs first'],
    ['user', "how's it going?", 'Fine, almost there.'],
    ['user', 'still with me?', 'Yes, here.'],
    ['user', 'any luck with the flaky spec?', 'Not yet, still digging.'],
    ['user', 'how do we start the dev server?', 'Let me check the scripts first:'],
    ['user', 'Could you clean up the billing export before the demo?', 'The same mapper also lives in `src/export/legacy.ts`.'],
    ['user', 'can you rerun the smoke tests on staging?', 'They pass, apart from `checkout.spec`.'],
  ] as const)('stays routine when %s asks "%s" and the reply is "%s"', (asker, question, reply) => {
    const inputs = asker === 'assistant' ? [assistant(question), user(reply)] : [user(question), assistant(reply)];
    expect(factsOf(inputs)).toEqual([]);
  });

  it('keeps the pair only when the question comes from the other party', () => {
    expect(factsOf([user('Which cache should the sessions use?'), user('Redis')])).toEqual([]);
  });
});

describe('a go-ahead for the asker’s own next step', () => {
  it.each([
    ['Given the plan above, should I proceed with the `db:migrate` dry run on staging-2?', 'Yes, run it.'],
    ['Do you want me to continue with the remaining handlers in `src/routes/orders.ts`?', 'sure, go ahead'],
    ['Ready to start on the CSV importer for v2.3 now?', 'yep'],
  ])('is no decision: %s → %s', (question, reply) => {
    expect(factsOf([assistant(question), user(reply)]).filter((fact) => fact.includes('→'))).toEqual([]);
  });

  it('keeps an answer that names what was chosen', () => {
    const facts = factsOf([assistant('Should I proceed with Postgres 16 or stay on Postgres 15 for the upgrade?'), user('yes, Postgres 16')]);
    expect(facts.some((fact) => fact.includes('→') && fact.includes('Postgres 16'))).toBe(true);
  });
});

import { describe, expect, it } from 'vitest';
import { createTokenCounter } from '../../src/index.js';
import { classifySentence, FACT_RETENTION_CLASSES } from '../../src/graduation/retention.js';
import { defaultPatterns } from '../../src/boundaries/patterns/default.js';
import { heldChoiceOf } from '../../src/language/held-choice.js';
import { isMarkedChoice } from '../../src/language/marked-choice.js';
import { isRescheduling, isRecurringProcess } from '../../src/language/recurrence.js';
import { relayedDecisionOf } from '../../src/language/relayed-decision.js';
import { createFactStore } from '../../src/tiers/facts.js';
import type { EntryInput } from '../helpers.js';
import { summarizeChunk } from '../helpers.js';

// Sentences written fresh for this test: choices written as marked options or table rows, choices
// to keep something or put it off, calls relayed from a review, and schedules given in a table
// row or for a process named by a hyphenated word; each with look-alikes that must not count (an
// option listed with no mark, a question, chatter that keeps going, a one-off run).
const agent = (text: string): EntryInput => ({ kind: 'assistant', text });
const user = (text: string): EntryInput => ({ kind: 'user', text });
const decisionsOf = (inputs: readonly EntryInput[]): string[] =>
  (summarizeChunk(inputs, 400).facts ?? []).filter((fact) => fact.category === 'decisions').map((fact) => fact.value);
const isDurable = (sentence: string, role: 'user' | 'assistant'): boolean =>
  FACT_RETENTION_CLASSES.includes(classifySentence(sentence, { role, patterns: defaultPatterns }));

describe('a choice written as marked options', () => {
  it.each([
    'Brokers we looked at: Kafka (rejected, ops cost), NATS (chosen).',
    'HTTP clients, compared: axios — no; got — no; undici — picked.',
    'Among the queues we benchmarked, BullMQ was selected.',
    'The `/exports` endpoint pages by cursor; offset paging was ruled out.',
    '| Valkey | picked |',
  ])('is marked: %s', (sentence) => {
    expect(isMarkedChoice(sentence)).toBe(true);
  });

  it.each([
    'Brokers we could use: Kafka, NATS, RabbitMQ.',
    'Which of the two clients should be picked?',
    'Option B is not chosen yet; we still compare Kafka vs NATS.',
    'Four rows were selected by the query.',
    'The checkbox is selected when the dialog opens.',
    '| lint | ✅ | typecheck | ❌ |',
  ])('is not marked: %s', (sentence) => {
    expect(isMarkedChoice(sentence)).toBe(false);
  });

  it('becomes a decision from the assistant, in a list and in a table row', () => {
    const facts = decisionsOf([
      agent('I compared the PDF renderers.\n\n- pdfkit (rejected, no tables)\n- Puppeteer (rejected, too heavy)\n- pdfmake (chosen)\n\nMoving on to the export route.'),
      agent('Summary of the review:\n\n| renderer | verdict |\n|---|---|\n| pdfmake | picked |'),
    ]);
    expect(facts.some((fact) => fact.toLowerCase().includes('pdfmake (chosen)'))).toBe(true);
    expect(facts.some((fact) => fact.includes('| pdfmake | picked |'))).toBe(true);
  });

  it('does not make an unmarked list of options a decision', () => {
    expect(decisionsOf([agent('Renderers we could use:\n\n- pdfkit\n- Puppeteer\n- pdfmake\n\nWhich one do you prefer?')])).toEqual([]);
  });
});

describe('a choice to keep something or put it off', () => {
  it.each([
    ["we'll stay on Express for now, Fastify can wait", 'Express'],
    ["let's not touch the billing schema in this PR", 'the billing schema'],
    ['shelve the GraphQL gateway until we have real traffic numbers', 'the GraphQL gateway'],
    ['the plan we agreed on is to keep SQLite for the desktop build', 'keep SQLite for the desktop build'],
    ['the search rewrite stays out of this release', 'search rewrite'],
    ["we're staying on the hand-written SQL for now", 'the hand-written SQL'],
  ])('holds: %s', (sentence, held) => {
    expect(heldChoiceOf(sentence)).toBe(held);
  });

  it.each(["let's not worry about that for now", 'keep going for now', "let's see", 'should we keep Express for now?', "I'll keep looking for now"])(
    'holds nothing: %s',
    (sentence) => {
      expect(heldChoiceOf(sentence)).toBeUndefined();
    },
  );

  it.each([
    ["we'll stay on Express for now, Fastify can wait", 'user'],
    ['We keep the event bus in-process for now; Kafka comes later.', 'assistant'],
    ["Let's not migrate the invoices table in this PR.", 'user'],
    ['Park the read-replica idea until we have load numbers.', 'user'],
  ] as const)('is durable: %s (%s)', (sentence, role) => {
    expect(isDurable(sentence, role)).toBe(true);
  });

  it.each([
    ["let's not worry about that for now", 'user'],
    ['keep going for now', 'user'],
    ["let's see", 'user'],
  ] as const)('is not durable: %s (%s)', (sentence, role) => {
    expect(isDurable(sentence, role)).toBe(false);
  });
});

describe('a call relayed from a review or a group', () => {
  it('reads the verdict of a review after its label', () => {
    expect(relayedDecisionOf('outcome of the API review: JSON:API for public endpoints')).toBe('JSON:API for public endpoints');
  });

  it('reads a group reversing an earlier call', () => {
    expect(relayedDecisionOf('the platform board reversed it: Terraform stays, no Pulumi')).toBe('Terraform stays, no Pulumi');
  });

  it('reads no call in a report of how a review went', () => {
    expect(relayedDecisionOf('the design review ran long')).toBeUndefined();
  });
});

describe('a name agreed with "it is" and the role after it', () => {
  it('is a decision from the user', () => {
    expect(isDurable('fine, Meilisearch it is for product search', 'user')).toBe(true);
  });

  it('is not one as a question', () => {
    expect(isDurable('Meilisearch it is for product search?', 'user')).toBe(false);
  });
});

describe('schedules in a table row or for a hyphenated name', () => {
  it.each([
    '| db-vacuum | Sundays 04:00 UTC | runs on the replica |',
    'the nightly-rollup kicks off at 01:30',
    'we cut the release on the second Wednesday of each month',
    'the `events_raw` prune runs at 22:15 and keeps 60 days',
  ])('is a routine: %s', (sentence) => {
    expect(isRecurringProcess(sentence)).toBe(true);
  });

  it.each(['I ran the tests at 3pm', 'should we run the prune nightly?', 'the prune removed 40 rows'])('is no routine: %s', (sentence) => {
    expect(isRecurringProcess(sentence)).toBe(false);
  });

  it('keeps a schedule table row as a fact', () => {
    const facts = summarizeChunk([user('Current schedule:\n\n| job | when |\n|---|---|\n| db-vacuum | Sundays 04:00 UTC |')], 400).facts ?? [];
    expect(facts.some((fact) => fact.value.includes('Sundays 04:00 UTC'))).toBe(true);
  });
});

describe('two jobs told apart by what they do', () => {
  it('does not let one named job reschedule another', () => {
    expect(isRescheduling('a nightly job at 03:40 UTC compacts the audit log', 'the export job writes the CSV bundle each night at 22:00')).toBe(false);
  });

  it('still reschedules the same job', () => {
    expect(isRescheduling('the export job writes the CSV bundle each night at 22:00', 'the export job now runs at 23:15')).toBe(true);
    expect(isRescheduling('the nightly job runs at 02:10', 'the nightly job moved to 03:20')).toBe(true);
  });

  it('keeps both jobs in the fact store, and only the newest time of a moved one', () => {
    const store = createFactStore({ counter: createTokenCounter() });
    const statements = [
      'A nightly job at 03:40 UTC compacts the audit log.',
      'The export job writes the CSV bundle each night at 22:00.',
      'The export job now runs at 23:15.',
    ];
    statements.forEach((value, index) => {
      store.apply({ updates: [{ category: 'conventions', value }], source: { from: index * 10, to: index * 10 + 5 }, seq: index * 10 + 6 });
    });
    const values = store.facts().map((fact) => fact.value);
    expect(values).toContain('A nightly job at 03:40 UTC compacts the audit log.');
    expect(values).toContain('The export job now runs at 23:15.');
    expect(values).not.toContain('The export job writes the CSV bundle each night at 22:00.');
  });
});

describe('a schedule framed by what the speaker believes or saw', () => {
  it.each([
    ['I believe the invoice export kicks off around 1am', 'user'],
    ['If I read `ops/cron.yaml` right, I see the audit sweep runs every 4 hours', 'assistant'],
    ['Scanning the workflow file, I noticed the docs rebuild happens on Saturdays', 'assistant'],
    ['AFAIK the pager rota changes hands on Thursdays', 'user'],
  ] as const)('is durable: %s (%s)', (sentence, role) => {
    expect(isDurable(sentence, role)).toBe(true);
  });

  it.each([
    ['I think I ran the sweep at 4pm', 'user'],
    ['Checking whether the sweep runs nightly', 'assistant'],
    ['I noticed the export failed at 01:00', 'assistant'],
  ] as const)('is not durable: %s (%s)', (sentence, role) => {
    expect(isDurable(sentence, role)).toBe(false);
  });
});

describe('a choice against something and a call the assistant passes on', () => {
  it('reads what the team decided against', () => {
    expect(heldChoiceOf('the team decided against server-side rendering')).toBe('server-side rendering');
    expect(isDurable('we decided against a second database', 'user')).toBe(true);
  });

  it('keeps a call the assistant relays, not a wish to know', () => {
    expect(isDurable('The platform group agreed to standardise on OpenTelemetry for tracing.', 'assistant')).toBe(true);
    expect(isDurable('Your lead wants to know when the migration lands.', 'assistant')).toBe(false);
  });
});

describe('team rituals, short process names and one-off runs', () => {
  it.each([
    ['the demo env is torn down and rebuilt every weekend', 'user'],
    ['planning happens every second Wednesday at 11:00', 'user'],
    ['| contract suite | every merge |', 'assistant'],
    ['The mirror sync runs at 04:10 starting tomorrow.', 'assistant'],
  ] as const)('is a routine: %s (%s)', (sentence, role) => {
    expect(isDurable(sentence.trim(), role)).toBe(true);
  });

  it.each([
    ['kicked off the reindex at 11am today', 'user'],
    ['the retro is at 15:00 tomorrow', 'user'],
    ['should the vacuum run nightly?', 'user'],
    ['should we rotate the keys every 30 days?', 'user'],
  ] as const)('is no fact: %s (%s)', (sentence, role) => {
    expect((summarizeChunk([{ kind: role, text: sentence }], 400).facts ?? []).map((fact) => fact.value)).toEqual([]);
  });
});

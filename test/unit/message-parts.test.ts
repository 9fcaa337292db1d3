import { describe, expect, it } from 'vitest';
import { splitSentences } from '../../src/graduation/retention.js';
import { isNoteLine, quotedReplies, setApartAsides, withoutAnsweredQuestions } from '../../src/language/message-parts.js';
import { relayedDecisionOf } from '../../src/language/relayed-decision.js';
import { summarizeChunk } from '../helpers.js';
import type { EntryInput } from '../helpers.js';

// Statements that sit where a reader has to look for them: in parentheses, on a shorthand note
// line, under a quoted question, in the premise of another sentence, or passed on from someone
// else. Every sentence is written fresh for this test, for both speakers, with look-alikes that
// must not become facts.
const user = (text: string): EntryInput => ({ kind: 'user', text });
const assistant = (text: string): EntryInput => ({ kind: 'assistant', text });

function factsOf(inputs: readonly EntryInput[]): string[] {
  const result = summarizeChunk([user('Morning, next task please.'), ...inputs]);
  return (result.facts ?? []).map((fact) => fact.value);
}

const said = (speaker: 'user' | 'assistant', text: string): EntryInput => (speaker === 'user' ? user(text) : assistant(text));

describe('setApartAsides', () => {
  it('sets apart a remark of a few words and keeps the sentence around it', () => {
    expect(setApartAsides('Port the invoice list to the new grid (the old one is frozen since `v3.2`) and keep the filters.')).toEqual([
      'Port the invoice list to the new grid and keep the filters.',
      'the old one is frozen since `v3.2`',
    ]);
  });

  it.each([
    'Route it through the pooler (pgbouncer) first.',
    'Add the flag (optional) to the CLI.',
    '(and keep the ids stable across reruns)',
    'The call `render(opts, (x) => x + 1)` stays as it is.',
    'It logs via logger.warn("falling back to the cached rates now") and carries on.',
    'Check the retry count(s) in every worker pool config.',
  ])('leaves names, qualifiers, whole-sentence asides and code alone: %s', (sentence) => {
    expect(setApartAsides(sentence)).toEqual([sentence]);
  });
});

describe('isNoteLine', () => {
  it.each(['Upload limit: 40 MB per file', 'cache → Valkey', 'search backend -> typesense', '- retries => 4'])('reads %s as a note line', (line) => {
    expect(isNoteLine(line)).toBe(true);
  });

  it.each(['Summary:', 'So here is what I think about the pool sizing: it is too small', 'Use the fast path.'])('does not read %s as one', (line) => {
    expect(isNoteLine(line)).toBe(false);
  });

  it('keeps note lines apart when they would read as a wrapped sentence', () => {
    expect(splitSentences('takeaways from the capacity review:\nworker memory: 512 MB hard cap\nburst traffic: handled by the queue')).toEqual([
      'takeaways from the capacity review:',
      'worker memory: 512 MB hard cap',
      'burst traffic: handled by the queue',
    ]);
    // A hard-wrapped sentence still reads as one.
    expect(splitSentences('we moved the sessions table to its own database because the\nmain one kept hitting its connection limit')).toHaveLength(1);
  });
});

describe('quotedReplies', () => {
  it('ends the quoted block where the reply begins and pairs each quote with its reply', () => {
    const text = '> which bucket do the exports land in?\n> asking for the docs\nexports-eu-1, versioned.\n\n> and the retention?\n30 days';
    expect(quotedReplies(text)).toEqual([
      { quoted: 'which bucket do the exports land in?\nasking for the docs', reply: 'exports-eu-1, versioned.' },
      { quoted: 'and the retention?', reply: '30 days' },
    ]);
  });

  it('never joins a quoted line with the reply under it', () => {
    expect(splitSentences('> the nightly import keeps stalling\nthat was the lock on `imports`, released now')).toEqual([
      'the nightly import keeps stalling',
      'that was the lock on `imports`, released now',
    ]);
  });

  it('ignores quotes with nothing under them and quote markers inside code', () => {
    expect(quotedReplies('> just pasting the old note here')).toEqual([]);
    expect(quotedReplies('```sh\n> out.txt\necho done\n```')).toEqual([]);
  });
});

describe('a quoted question answered under the quote', () => {
  it.each([
    ['user', '> Should the audit log go to ClickHouse or to a plain Postgres table?\nClickHouse, we already run it for metrics.', 'ClickHouse'],
    ['user', '> what should the session cookie be called?\n\n`sid_v2` - keep it short', 'sid_v2'],
    ['assistant', '> which node version are we targeting in CI?\nNode 22 — the matrix drops 18 as of this week.', 'Node 22'],
    ['assistant', '> name for the staging database?\n`orders_stage`; creating it now.', 'orders_stage'],
  ] as const)('from the %s is one decision with the question: %s', (speaker, text, value) => {
    const fact = factsOf([said(speaker, text)]).find((found) => found.includes(value));
    expect(fact).toBeDefined();
    expect(fact).toContain('?');
    expect(fact).toContain('→');
  });

  it.each([
    ['user', '> Want me to run the full suite now?\nsure'],
    ['user', '> how was the long weekend?\nfine, thanks'],
    ['assistant', '> can you also look at the flaky login test?\nLet me check the logs first.'],
    ['assistant', '> which of these is the slow query?\nNot sure yet, still profiling.'],
  ] as const)('is no fact when the reply answers nothing to keep (%s): %s', (speaker, text) => {
    expect(factsOf([said(speaker, text)]).filter((fact) => fact.includes('→'))).toEqual([]);
  });
});

describe('a quoted statement with a reply under it', () => {
  it.each([
    ['assistant', 'Finished the export job, suite passes.\n> CI runners have no outbound network, so every HTTP call in tests goes through msw.\nThat is from the platform ticket, so I am treating it as settled.', 'msw'],
    ['user', '> Audit rows are kept for 400 days, legal asked for it.\nPasting this from the compliance doc so you have it.', '400 days'],
  ] as const)('keeps the quoted words as a statement (%s): %s', (speaker, text, value) => {
    expect(factsOf([said(speaker, text)]).some((fact) => fact.includes(value))).toBe(true);
  });

  it('drops only a quoted question that is answered, and keeps a quote with nothing under it', () => {
    expect(withoutAnsweredQuestions('> Redis or Memcached for the session store?\nRedis.')).toBe('Redis.');
    expect(withoutAnsweredQuestions('> Sessions live in Redis now.\nGood, noted.')).toBe('> Sessions live in Redis now.\nGood, noted.');
    expect(withoutAnsweredQuestions('Here is the question from the ticket:\n> Do we still support IE11?')).toBe('Here is the question from the ticket:\n> Do we still support IE11?');
  });
});

describe('a remark set apart in parentheses', () => {
  it.each([
    ['user', 'can you redo the export page next (the archive is kept in `cold-archive-2` now, not in the main bucket)', 'cold-archive-2'],
    ['assistant', 'I wired the reminder emails into the scheduler (the templates live in `mail/templates`, rendered with MJML) and ran the suite.', 'MJML'],
    ['user', 'look at the onboarding flow after lunch (we gate it behind the `onboarding_v3` flag)', 'onboarding_v3'],
  ] as const)('is kept as a statement of its own (%s): %s', (speaker, text, value) => {
    expect(factsOf([said(speaker, text)]).some((fact) => fact.includes(value))).toBe(true);
  });

  it.each([
    ['user', 'let me know when the build is done (the numbers on the dashboard looked odd yesterday)'],
    ['assistant', 'I read the whole importer (it is fairly long, mostly parsing helpers) and will start with the mapper.'],
    ['assistant', 'The retry loop calls `backoff.next()` (see the helper right below it) on every attempt.'],
  ] as const)('is no fact when it names nothing or narrates (%s): %s', (speaker, text) => {
    expect(factsOf([said(speaker, text)])).toEqual([]);
  });
});

describe('shorthand note lines', () => {
  it.each([
    ['user', 'quick notes from the call:\nuploads: 40 MB max per file\nthumbnails → imgproxy', ['40 MB', 'imgproxy']],
    ['assistant', 'Where we ended up:\n- search → Typesense\n- cache → Valkey\nI will start with the indexer.', ['Typesense', 'Valkey']],
    ['assistant', 'Agreed so far:\n- object storage: MinIO\n- sessions: cookie-based.', ['MinIO']],
  ] as const)('are each a statement of their own (%s)', (speaker, text, values) => {
    const facts = factsOf([said(speaker, text)]);
    for (const value of values) expect(facts.filter((fact) => fact.includes(value))).toHaveLength(1);
  });

  it('are no facts when they only label the work in hand', () => {
    expect(factsOf([assistant('Status:\n- step 1 → done\n- step 2 → in progress')])).toEqual([]);
  });
});

describe('a choice given as the reason for something else', () => {
  it.each([
    ['assistant', 'Now that the audit events go through Kinesis, the cron that polled the table can go.', 'Kinesis'],
    ['user', 'since we are going with Temporal for the billing workflows, the retry helper can be deleted', 'Temporal'],
    ['assistant', 'Because I went with valibot for the form schemas, every field error is typed now.', 'valibot'],
    ['assistant', 'Since I moved the webhooks onto Hookdeck, the local retry table is unused.', 'Hookdeck'],
  ] as const)('is kept as a decision (%s): %s', (speaker, text, value) => {
    expect(factsOf([said(speaker, text)]).some((fact) => fact.includes(value))).toBe(true);
  });

  it.each([
    'Now that I have the file open, I can see where the loop starts.',
    'Since I renamed them in step 3, the imports should resolve.',
  ])('is no decision when the premise chooses nothing: %s', (text) => {
    expect(factsOf([assistant(text)])).toEqual([]);
  });
});

describe('a decision relayed from someone else', () => {
  it.each([
    ['the team agreed to standardise on ky for HTTP calls', 'standardise on ky for HTTP calls'],
    ['Priya from platform says the base images come from our own registry now', 'the base images come from our own registry now'],
    ['we went through it in the retro and everyone agreed: squash merges only', 'squash merges only'],
    ['per the architecture review, we keep the monolith for the admin side', 'we keep the monolith for the admin side'],
  ])('finds what was decided: %s', (text, decided) => {
    expect(relayedDecisionOf(text)).toBe(decided);
  });

  it.each([
    'my lead wants to know when the export ships',
    'I agreed to pair with Sam tomorrow',
    'the team agreed the demo went well',
    'the parser says nothing about dates',
  ])('finds none in %s', (text) => {
    const decided = relayedDecisionOf(text);
    if (decided !== undefined) expect(factsOf([user(text)])).toEqual([]);
  });

  it.each([
    ['The team agreed to standardise on ky for HTTP calls.', 'ky'],
    ['We went through it in the retro and everyone agreed: squash merges only.', 'squash merges'],
    ['my manager wants the p95 for search under 300 ms', '300 ms'],
    ['our CTO signed off on GKE for the data jobs', 'GKE'],
  ])('keeps the user passing it on as a fact: %s', (text, value) => {
    expect(factsOf([user(text)]).some((fact) => fact.includes(value))).toBe(true);
  });

  it.each([
    'my lead wants to know when the export ships',
    'the team agreed the demo went well, drinks on Friday',
    'everyone agreed the standup ran long today',
  ])('keeps no small talk or question passed on: %s', (text) => {
    expect(factsOf([user(text)])).toEqual([]);
  });
});

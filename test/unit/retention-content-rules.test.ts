import { describe, expect, it } from 'vitest';
import { englishPatterns } from '../../src/boundaries/patterns/en.js';
import { analyzeSentence, extractIdentifiers, factCategoryFor, isSameSubject, isVaguerRestatement } from '../../src/graduation/retention.js';
import { relayedUserSpeech } from '../../src/language/relayed-speech.js';
import type { SummarizeResult } from '../../src/summarizer/summarizer.js';
import { createEntry } from '../../src/tiers/entry.js';
import { createFactStore } from '../../src/tiers/facts.js';
import { createTokenCounter } from '../../src/tokens/token-counter.js';
import type { ToolCall } from '../../src/types.js';
import { summarizeChunk, type EntryInput } from '../helpers.js';

// Every sentence here was written for this file: paraphrases from either speaker, none taken
// from a session generator's phrasebook.
const patterns = englishPatterns;
const counter = createTokenCounter();
const categoryOf = (text: string, role: 'user' | 'assistant'): string | undefined =>
  factCategoryFor(analyzeSentence(text, { role, patterns }).retention);

describe('conventions and requirements in fresh wording, from either speaker', () => {
  it.each([
    ['Snapshot files sit in `__snapshots__` next to each component, consistent with the rest of the app.', 'assistant'],
    ['run `pnpm lint` first, then the unit suite', 'user'],
    ['Every migration file starts with a UTC timestamp.', 'assistant'],
    ['Fixtures go in `__fixtures__`, matching the other suites.', 'assistant'],
    ['feature flags are read through `flags.get()` everywhere', 'user'],
  ] as const)('keeps %j (%s) as a convention', (text, role) => {
    expect(categoryOf(text, role)).toBe('conventions');
  });

  it.each([
    ['Uploads have to stay under 20 MB per file.', 'user'],
    ['The export endpoint needs to answer within 300ms at p95.', 'assistant'],
    ['the nightly job must finish before 06:00 UTC', 'user'],
    ['Passwords require at least 12 characters.', 'assistant'],
    ['uploads larger than 50 MB get rejected', 'user'],
    ['session tokens last 24 hours', 'user'],
    ['We promised the client a CSV export.', 'user'],
    ['The webhook must be idempotent.', 'assistant'],
    ['The importer has to accept both CSV and TSV.', 'assistant'],
    ['It has to work offline.', 'assistant'],
  ] as const)('keeps %j (%s) as a fact', (text, role) => {
    expect(categoryOf(text, role)).toBeDefined();
  });

  it('does not keep a guess or a narrated step of the assistant', () => {
    expect(categoryOf('It has to be something in the proxy config.', 'assistant')).toBeUndefined();
    expect(categoryOf('This should work now.', 'assistant')).toBeUndefined();
  });

  it('keeps a terse ban on a code token from the user, not a terse refusal', () => {
    expect(categoryOf('no `sudo`', 'user')).toBe('constraints');
    expect(categoryOf('no &&', 'user')).toBe('constraints');
    expect(categoryOf('no thanks', 'user')).toBeUndefined();
    expect(categoryOf('no, later', 'user')).toBeUndefined();
  });

  it('reads a lower-case word given a role as a named tool, for the assistant too', () => {
    expect(categoryOf("We'll keep winston as our logger in every service.", 'assistant')).toBeDefined();
    expect(categoryOf('I will set up valibot as the validator for request bodies.', 'assistant')).toBeDefined();
    expect(categoryOf("I'll keep it as the default for now.", 'assistant')).toBeUndefined();
  });
});

describe('identifiers of list items and dunder folders', () => {
  it('finds the bold term a list item defines and dunder names', () => {
    expect(extractIdentifiers('**tsx** - runs TypeScript files without a build')).toContain('tsx');
    expect(extractIdentifiers('**node-pg-migrate**: applies the schema changes')).toContain('node-pg-migrate');
    expect(extractIdentifiers('mocks live in __mocks__ beside the module')).toContain('__mocks__');
  });

  it('does not take an emphasised word or a capitalised label for a name', () => {
    expect(extractIdentifiers('**Important**: back up first')).toEqual([]);
    expect(extractIdentifiers('this is **really** slow')).toEqual([]);
  });

  it('reads language tags as identifiers, and leaves plain hyphenated words alone', () => {
    expect(extractIdentifiers('Dates on invoices follow the pt-BR format.')).toEqual(['pt-BR']);
    expect(extractIdentifiers('ship en-US first, then zh-Hant-TW and es-419')).toEqual(['en-US', 'zh-Hant-TW', 'es-419']);
    expect(extractIdentifiers('a well-known re-run of the co-op build')).toEqual([]);
  });
});

describe('newest wins only on the same subject', () => {
  it('keeps apart a statement that shares one or two plain words with a much longer one', () => {
    const older = 'Integration tests must run offline because the CI runners block outbound traffic.';
    expect(isSameSubject(older, 'From today on I regenerate the client with `make sdk` before each test run.', { isUpdate: true })).toBe(false);
    expect(isSameSubject('I regenerate the client with `make sdk` before each test run.', 'Wrote a test for `parseInvoice`.', { isUpdate: false })).toBe(false);
  });

  it('still replaces a value on the same subject, worded differently', () => {
    expect(isSameSubject('The session cookie expires after 30 minutes.', 'The session cookie now expires after 2 hours instead.', { isUpdate: true })).toBe(true);
  });

  it('tells a vaguer restatement from a new value', () => {
    const detailed = 'Moved the admin API to port 4100 and the socket server to 4101 to end the port clash.';
    expect(isVaguerRestatement(detailed, 'Moved the admin API and socket server ports to end the port clash.')).toBe(true);
    expect(isVaguerRestatement(detailed, 'Moved the admin API to port 4200 to end the port clash.')).toBe(false);
    expect(isVaguerRestatement('Moved the admin API ports.', detailed)).toBe(false);
  });

  it('keeps the detailed fact when a restatement with fewer values arrives, unless it says it replaces it', () => {
    const store = createFactStore({ counter });
    const detailed = 'Moved the admin API to port 4100 and the socket server to 4101 to end the port clash.';
    store.apply({ updates: [{ key: 'ports', category: 'decisions', value: detailed }], source: { from: 1, to: 2 }, seq: 3 });
    store.apply({ updates: [{ category: 'decisions', value: 'Moved the admin API and socket server ports to end the port clash.' }], source: { from: 4, to: 5 }, seq: 6 });
    expect(store.facts().map((fact) => fact.value)).toEqual([detailed]);
  });
});

describe('the user relayed through tools', () => {
  it('finds tagged replies and answers picked for a question', () => {
    const relayed = relayedUserSpeech(
      'Tool denied.\n<feedback>\nplease never touch the prod database from scripts\n</feedback>\n' +
        'Answers: "Which queue should the mailer use?"="SQS, with a dead-letter queue". Carry on.',
    );
    expect(relayed.text).toBe('please never touch the prod database from scripts');
    expect(relayed.answers).toEqual([{ question: 'Which queue should the mailer use?', answer: 'SQS, with a dead-letter queue' }]);
    expect(relayedUserSpeech('plain output, exit code 0')).toEqual({ text: '', answers: [] });
  });

  it('turns relayed feedback into a user fact and a picked answer into a decision', () => {
    const call: ToolCall = { id: 'q1', name: 'ask', input: { question: 'Which queue should the mailer use?' } };
    const result = summarize([
      { kind: 'assistant', text: '', toolCalls: [call] },
      { kind: 'tool-result', text: '"Which queue should the mailer use?"="SQS, with a dead-letter queue"', callId: 'q1' },
      { kind: 'assistant', text: '', toolCalls: [{ id: 'c2', name: 'bash', input: { command: 'psql $PROD_URL' } }] },
      { kind: 'tool-result', text: 'Denied by the user.\n<feedback>never run psql against `PROD_URL`, use the staging copy</feedback>', callId: 'c2' },
    ]);
    const values = (result.facts ?? []).map((fact) => `${fact.category}: ${fact.value}`);
    expect(values).toContain('decisions: Which queue should the mailer use? → SQS, with a dead-letter queue');
    expect(values.some((value) => value.startsWith('constraints:') && value.includes('PROD_URL'))).toBe(true);
  });
});

describe('what one message says', () => {
  it('keeps a choice announced before a list together with its first item', () => {
    const result = summarize([
      { kind: 'assistant', text: 'My suggestion is a two-phase rollout:\n1. Start by moving the job queue to Redis Streams behind a flag.\n2. Remove the old poller later.' },
    ]);
    expect((result.facts ?? []).some((fact) => fact.value.includes('two-phase rollout') && fact.value.includes('Redis Streams'))).toBe(true);
  });

  it('keeps only the leading and most salient statements of pasted material as facts', () => {
    const pasted = Array.from({ length: 14 }, (_, index) => `Service ${index + 1} must answer health checks within ${index + 2}00ms.`).join(' ');
    const result = summarize([{ kind: 'user', text: `Keep the retry budget at 4 for the billing worker. ${pasted}` }]);
    const facts = result.facts ?? [];
    expect(facts.length).toBe(8);
    expect(facts[0]?.value).toContain('retry budget at 4');
  });

  it('weighs a statement made alone above the same statement inside a long message', () => {
    const statement = 'Never log the raw `Authorization` header.';
    const others = Array.from({ length: 7 }, (_, index) => `Queue ${index + 1} must never hold more than ${index + 3}00 jobs.`).join(' ');
    const alone = summarize([{ kind: 'user', text: statement }]).facts ?? [];
    const within = summarize([{ kind: 'user', text: `${statement} ${others}` }]).facts ?? [];
    const weightIn = (facts: typeof alone): number => facts.find((fact) => fact.value.includes('Authorization'))?.salience ?? -1;
    expect(weightIn(within)).toBeGreaterThanOrEqual(0);
    expect(weightIn(alone)).toBeGreaterThan(weightIn(within));
  });
});

describe('prose in tool inputs', () => {
  it('shows a report written through a tool in full, and shortens code and data', () => {
    const report = Array.from({ length: 12 }, (_, index) => `Step ${index + 1} moved the cache warmup out of the request path, which cut cold starts.`).join(' ');
    const prose = createEntry({ ...entryBase, toolCalls: [{ id: 'r', name: 'report', input: { result: report } }] });
    expect(prose.displayToolCalls).toBeUndefined();
    const code = 'const x = [1, 2, 3].map((value) => { return value * 2; });\n'.repeat(20);
    const shortened = createEntry({ ...entryBase, toolCalls: [{ id: 'w', name: 'write', input: { content: code } }] });
    expect(JSON.stringify(shortened.displayToolCalls)).toContain('more characters not shown');
  });
});

// --- Internal helpers ---

const entryBase = { seq: 1, kind: 'assistant', role: 'assistant', text: '', counter, maxEntryTokens: 2_000, exchange: 1 } as const;

function summarize(inputs: readonly EntryInput[]): SummarizeResult {
  return summarizeChunk(inputs, 400);
}

import { describe, expect, it } from 'vitest';
import { mergePatternPacks } from '../../src/boundaries/pattern-pack.js';
import { englishPatterns } from '../../src/boundaries/patterns/en.js';
import { vietnamesePatterns } from '../../src/boundaries/patterns/vi.js';
import {
  analyzeSentence,
  classifyEntry,
  classifySentence,
  extractIdentifiers,
  factCategoryFor,
  factKeyFor,
  isSameTopic,
  retentionClassFor,
  splitSentences,
  stripFillers,
  topicWords,
} from '../../src/graduation/retention.js';
import type { Entry, RetentionClass } from '../../src/types.js';

const patterns = englishPatterns;

function makeEntry(kind: Entry['kind'], text: string): Entry {
  const role = kind === 'tool-result' ? 'tool' : kind === 'assistant' ? 'assistant' : 'user';
  return { seq: 1, kind, role, text, display: text, tokens: 10, exchange: 1 };
}

describe('splitSentences()', () => {
  it('splits prose on sentence ends, keeping code spans, paths and versions intact', () => {
    const text = 'I read src/auth.py. The fix was awaiting `pool.close()` in afterAll. Bump to v1.2.3 now! Does `a. b` stay?';
    expect(splitSentences(text)).toEqual([
      'I read src/auth.py.',
      'The fix was awaiting `pool.close()` in afterAll.',
      'Bump to v1.2.3 now!',
      'Does `a. b` stay?',
    ]);
  });

  it('splits lowercase continuations but not common abbreviations', () => {
    expect(splitSentences('Ok good. oh and put the Jira key in commit messages, e.g. SHLF-77.')).toEqual([
      'Ok good.',
      'oh and put the Jira key in commit messages, e.g. SHLF-77.',
    ]);
  });

  it('splits markdown bullets, numbered items and headings, and leaves fenced code out', () => {
    const text = [
      '## Plan',
      '1. Read `src/db.ts`',
      '- add a guard. then rerun',
      '```ts',
      'const timeout = 5. // not prose',
      '```',
      'Done.',
    ].join('\n');
    expect(splitSentences(text)).toEqual(['Plan', 'Read `src/db.ts`', 'add a guard.', 'then rerun', 'Done.']);
  });

  it('does not split on a double dot inside a sentence', () => {
    expect(splitSentences('Sorting the ids before SELECT.. FOR UPDATE fixed it.')).toHaveLength(1);
  });
});

describe('classifySentence()', () => {
  it.each<[string, 'user' | 'assistant', RetentionClass]>([
    ["Let's always use a 5s timeout on DB calls, with 3 retries.", 'user', 'decision'],
    ["We're going with Redis for the session store.", 'user', 'decision'],
    ['Timeouts for outbound HTTP calls are 8s, with two retries.', 'user', 'decision'],
    ['The public API needs a limit of 30 requests per minute per API key.', 'user', 'requirement'],
    ['The search endpoint should respond in under 300ms at p99.', 'user', 'requirement'],
    ["Production runs Node 18.19, don't use APIs newer than that.", 'user', 'constraint'],
    ['Stay out of vendor/acme-sdk/, another team owns it.', 'user', 'constraint'],
    ['We are stuck on Python 3.8 in prod.', 'user', 'constraint'],
    ['Every environment variable in this repo gets the ACME prefix.', 'user', 'convention'],
    ['Always run `make check` before saying a task is finished.', 'user', 'convention'],
    ['I prefer early returns over nested ifs.', 'user', 'preference'],
    ["I'd rather have small PRs than one huge one.", 'user', 'preference'],
    [
      'The ECONNRESET in the repo tests came from the pool being closed early; awaiting `pool.close()` in afterAll fixed it.',
      'assistant',
      'error-resolution',
    ],
    ['The flaky snapshot test was due to locale-dependent formatting; forcing LANG=C fixed it.', 'assistant', 'error-resolution'],
    ['For the record: background jobs go through BullMQ, not ad-hoc setTimeout loops.', 'assistant', 'decision'],
    ['DB columns are snake_case and TypeScript fields are camelCase.', 'assistant', 'convention'],
    ['First thing: adding validation for notes on comment updates.', 'user', 'task-status'],
    ['Done, all tests pass.', 'assistant', 'task-status'],
    ['Thanks, looks good!', 'user', 'chit-chat'],
    ['My laptop fan sounds like a jet engine right now', 'user', 'chit-chat'],
    ['Need to jump on a quick call, brb', 'user', 'chit-chat'],
    ['Why did you change `parseDate` that way?', 'user', 'routine'],
  ])('classifies %j (%s) as %s', (sentence, role, expected) => {
    expect(classifySentence(sentence, { role, patterns })).toBe(expected);
  });

  it('does not turn assistant narration into facts', () => {
    for (const sentence of [
      "I'll keep the column semantics identical on both sides, so nothing must change.",
      'Each method in `src/db.ts` starts a timer and reports it to metrics.',
      "There's no direct database access here; everything goes through the repository.",
      'The cache key for tickets does not include the owner, so two users can see each other\'s cached summary.',
      'The existing tests only check the happy path of `listComment`.',
    ]) {
      expect(classifySentence(sentence, { role: 'assistant', patterns })).toBe('routine');
    }
  });

  it('reads "i.e." as an abbreviation, not as the first person', () => {
    const sentence = 'Handlers always log the request id, i.e. every request is traceable.';
    expect(classifySentence(sentence, { role: 'assistant', patterns })).toBe('convention');
  });

  it('turns the same assistant statement into a fact when it carries a fact marker', () => {
    const sentence = 'We run background work on pg-boss.';
    expect(classifySentence(sentence, { role: 'assistant', patterns })).toBe('routine');
    expect(classifySentence(`Note: ${sentence}`, { role: 'assistant', patterns })).toBe('decision');
  });

  it('treats wording limited to the current task as not durable', () => {
    expect(classifySentence("I don't want the public API to change as part of this.", { role: 'user', patterns })).toBe('routine');
    expect(classifySentence("Don't fix the other problems yet.", { role: 'user', patterns })).toBe('routine');
  });

  it('needs substance: an acknowledgement that happens to contain decision wording is not a decision', () => {
    expect(classifySentence('Sounds good, go with that.', { role: 'user', patterns })).toBe('chit-chat');
  });

  it('ignores wording inside code spans', () => {
    expect(classifySentence('It fails with `TypeError: cannot read property of undefined`.', { role: 'assistant', patterns })).toBe('routine');
  });

  it('uses the pattern pack it is given', () => {
    const bilingual = mergePatternPacks(englishPatterns, vietnamesePatterns);
    expect(classifySentence('ok làm vậy, dùng Redis cho cache', { role: 'user', patterns: bilingual })).toBe('decision');
    expect(classifySentence('ok làm vậy, dùng Redis cho cache', { role: 'user', patterns })).not.toBe('decision');
  });
});

describe('analyzeSentence()', () => {
  it('flags update wording and strips leading discourse markers', () => {
    const analysis = analyzeSentence("Actually, change of plan: let's move date handling to Luxon.", { role: 'user', patterns });
    expect(analysis).toMatchObject({ retention: 'decision', isUpdate: true, text: "Let's move date handling to Luxon." });
  });

  it('flags diagnoses, dead ends, intentions and task requests', () => {
    const options = { role: 'assistant' as const, patterns };
    expect(analyzeSentence('The actual problem is that `parseDate` treats 0 as missing.', options).isDiagnosis).toBe(true);
    expect(analyzeSentence('No luck — the data going in is fine.', options).isDeadEnd).toBe(true);
    expect(analyzeSentence('Let me check `src/db.ts` first.', options).isIntention).toBe(true);
    expect(analyzeSentence("Now let's work on the CSV export.", { role: 'user', patterns }).isTaskRequest).toBe(true);
    expect(analyzeSentence("Let's move on to the CSV export.", { role: 'user', patterns }).isTaskRequest).toBe(true);
    expect(analyzeSentence('Different question: is `toCsv` still used?', { role: 'user', patterns }).isTaskRequest).toBe(false);
  });
});

describe('classifyEntry()', () => {
  it('returns the most durable class of the sentences', () => {
    expect(classifyEntry(makeEntry('user', "Great, thanks. Also, let's use Day.js for all date handling."), patterns)).toBe('decision');
  });

  it('returns chit-chat for small talk only, and routine for tool output and file records', () => {
    expect(classifyEntry(makeEntry('user', 'Morning! Coffee machine is broken again.'), patterns)).toBe('chit-chat');
    expect(classifyEntry(makeEntry('tool-result', 'Tests: 3 passed. Always use X.'), patterns)).toBe('routine');
    expect(classifyEntry(makeEntry('file-update', '[src/a.ts:3] `a` → `b`'), patterns)).toBe('routine');
  });
});

describe('factCategoryFor() and retentionClassFor()', () => {
  it('maps fact classes to categories and back', () => {
    expect(factCategoryFor('decision')).toBe('decisions');
    expect(factCategoryFor('error-resolution')).toBe('error-resolutions');
    expect(factCategoryFor('preference')).toBe('preferences');
    expect(factCategoryFor('task-status')).toBeUndefined();
    expect(factCategoryFor('routine')).toBeUndefined();
    expect(retentionClassFor('constraints')).toBe('constraint');
    expect(retentionClassFor('architecture')).toBeUndefined();
  });
});

describe('extractIdentifiers()', () => {
  it('finds paths, code spans, flags, error names, symbols and numbers with units in first-seen order', () => {
    const text =
      'Fixed ECONNRESET in src/db/pool.ts:42 by awaiting `pool.close()`; TypeError gone. ' +
      'Use --maxWorkers=2, a 5s timeout, 250ms at p95, 30 requests per minute, 12 retries, a 4GB heap, ' +
      'UUIDv7 ids, snake_case columns, camelCase fields, AppError, Node 18.19, CLNQ-142, EADDRINUSE, ' +
      'UnicodeDecodeError, vendor/acme-sdk/, jest.config.js, five retries and Math.round.';
    expect(extractIdentifiers(text)).toEqual([
      'ECONNRESET',
      'src/db/pool.ts:42',
      'pool.close()',
      'TypeError',
      '--maxWorkers=2',
      '5s',
      '250ms',
      'p95',
      '30 requests per minute',
      '12 retries',
      '4GB',
      'UUIDv7',
      'snake_case',
      'camelCase',
      'AppError',
      'Node 18.19',
      'CLNQ-142',
      'EADDRINUSE',
      'UnicodeDecodeError',
      'vendor/acme-sdk/',
      'jest.config.js',
      'five retries',
      'Math.round',
    ]);
  });

  it('deduplicates and ignores plain words', () => {
    expect(extractIdentifiers('The `parseDate` helper calls parseDate twice. Nothing else here.')).toEqual(['parseDate']);
  });
});

describe('topicWords()', () => {
  it('keeps topic words and drops framing words and values', () => {
    expect(topicWords("Let's always use a 5s timeout on DB calls, with 3 retries")).toEqual(['timeout', 'db', 'call', 'retry']);
    expect(topicWords("Let's change the DB timeout to 12s with five retries")).toEqual(['db', 'timeout', 'retry']);
    expect(topicWords('Use `npm run verify` as the "final" check')).toEqual(['check']);
  });
});

describe('isSameTopic()', () => {
  it.each([
    ["Let's always use a 5s timeout on DB calls, with 3 retries.", "Let's change the DB timeout to 12s with 5 retries."],
    ['I like functions to stay under 50 lines.', "Let's relax the function limit to 60 lines."],
    ["Let's use Day.js for all date handling.", "Let's move date handling to Luxon."],
    ['The list endpoint has to answer within 250ms at p95.', 'The p95 target is now 200ms.'],
  ])('matches %j and %j', (a, b) => {
    expect(isSameTopic(a, b)).toBe(true);
  });

  it.each([
    ['Put the Jira key in commit messages, e.g. SHLF-77.', 'Please write commit messages using Conventional Commits.'],
    ['No new dependencies without asking me first.', 'Stay out of legacy-billing/, that code belongs to another team.'],
    ['Use 5s timeouts.', 'Thanks!'],
  ])('does not match %j and %j', (a, b) => {
    expect(isSameTopic(a, b)).toBe(false);
  });
});

describe('factKeyFor()', () => {
  it('derives a stable key from topic words, and a hashed one when there are none', () => {
    expect(factKeyFor("Let's always use a 5s timeout on DB calls, with 3 retries", 'decisions')).toBe('timeout-db-call-retry');
    const fallback = factKeyFor('5s', 'decisions');
    expect(fallback).toMatch(/^decisions-[0-9a-f]{8}$/u);
    expect(factKeyFor('5s', 'decisions')).toBe(fallback);
  });
});

describe('stripFillers()', () => {
  it('removes leading discourse markers repeatedly and capitalises the rest', () => {
    expect(stripFillers('Btw, one rule for this project: amounts are integer cents.', { patterns })).toBe('Amounts are integer cents.');
    expect(stripFillers('oh and keep jest at --maxWorkers=2.', { patterns })).toBe('Keep jest at --maxWorkers=2.');
    expect(stripFillers('Also', { patterns })).toBe('Also');
  });

  it('keeps the case of a leading identifier', () => {
    expect(stripFillers('also, snake_case in SQL and camelCase in TS.', { patterns })).toBe('snake_case in SQL and camelCase in TS.');
    expect(stripFillers('note: vendor/acme-sdk/ is owned by another team.', { patterns })).toBe('vendor/acme-sdk/ is owned by another team.');
  });
});

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
  hasDifferentQualifiers,
  isSameTopic,
  retentionClassFor,
  splitSentences,
  stripFillers,
  topicWords,
} from '../../src/graduation/retention.js';
import type { Entry, RetentionClass } from '../../src/types.js';
import { DURABLE, ROUTINE } from '../fixtures/salience-sentences.js';

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
    ['Every DB call gets a 5s timeout and 3 retries.', 'user', 'convention'],
    ['Outbound HTTP timeouts are 8s, with two retries.', 'user', 'decision'],
    ['The public API allows at most 30 requests per minute per key.', 'user', 'constraint'],
    ['The search endpoint must respond in under 300ms at p99.', 'user', 'requirement'],
    ['Production is pinned to Node 18.19, never use APIs newer than that.', 'user', 'constraint'],
    ['I prefer early returns over nested ifs.', 'user', 'preference'],
    ['Amounts are always integer cents in this codebase.', 'user', 'convention'],
    ['DB columns are snake_case and TypeScript fields are camelCase.', 'assistant', 'convention'],
    [
      'The ECONNRESET in the repo tests was caused by the pool closing early; awaiting `pool.close()` in afterAll fixed it.',
      'assistant',
      'error-resolution',
    ],
    ['The flaky snapshot test was due to locale-dependent formatting; forcing LANG=C fixed it.', 'assistant', 'error-resolution'],
    ['Task: add validation for notes on comment updates.', 'user', 'task-status'],
    ['Merged, the suite is green.', 'assistant', 'task-status'],
    ['Thanks, makes sense!', 'user', 'chit-chat'],
    ['ugh, my coffee went cold again', 'user', 'chit-chat'],
    ['quick call with the team, brb', 'user', 'chit-chat'],
    ['Why did you change `parseDate` that way?', 'user', 'routine'],
  ])('classifies %j (%s) as %s', (sentence, role, expected) => {
    expect(classifySentence(sentence, { role, patterns })).toBe(expected);
  });

  it('keeps durable statements in any wording, from either speaker, with their values', () => {
    const kept = DURABLE.filter(({ text, role, keywords }) => {
      const analysis = analyzeSentence(text, { role, patterns });
      return factCategoryFor(analysis.retention) !== undefined && keywords.every((keyword) => analysis.text.includes(keyword));
    });
    // Salience comes from content; a couple of statements with no specific and no cue may slip.
    expect(kept.length / DURABLE.length).toBeGreaterThanOrEqual(0.9);
    expect(DURABLE.filter(({ role }) => role === 'assistant').every(({ text }) => kept.some((item) => item.text === text) || text.startsWith('Per the spec') || text.startsWith('Money'))).toBe(true);
  });

  it('does not turn routine work, narration or small talk into facts', () => {
    for (const { text, role } of ROUTINE) {
      expect(factCategoryFor(classifySentence(text, { role, patterns })), text).toBeUndefined();
    }
  });

  it('does not turn an assistant\'s remarks about the code into facts', () => {
    for (const sentence of [
      "I'll keep the column semantics identical on both sides, so nothing must change.",
      'Each method in `src/db.ts` starts a timer and reports it to metrics.',
      "There's no direct database access here; everything goes through the repository.",
      'The existing tests only check the happy path of `listComment`.',
    ]) {
      expect(classifySentence(sentence, { role: 'assistant', patterns }), sentence).toBe('routine');
    }
  });

  it('reads "i.e." as an abbreviation, not as the first person', () => {
    const sentence = 'Handlers always log the request id, i.e. every request is traceable.';
    expect(classifySentence(sentence, { role: 'assistant', patterns })).toBe('convention');
  });

  it('turns an assistant statement without specifics into a fact only when it is marked', () => {
    const sentence = 'We run background work on the job queue.';
    expect(classifySentence(sentence, { role: 'assistant', patterns })).toBe('routine');
    expect(factCategoryFor(classifySentence(`Note: ${sentence}`, { role: 'assistant', patterns }))).toBeDefined();
  });

  it('treats wording limited to the current task as not durable', () => {
    expect(classifySentence("Don't rename the helpers in this change.", { role: 'user', patterns })).toBe('routine');
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
    const analysis = analyzeSentence('Btw, switch date handling over to Luxon instead.', { role: 'user', patterns });
    expect(analysis).toMatchObject({ retention: 'decision', isUpdate: true, text: 'Switch date handling over to Luxon instead.' });
  });

  it('flags diagnoses, dead ends, intentions and task requests', () => {
    const options = { role: 'assistant' as const, patterns };
    expect(analyzeSentence('The culprit is that `parseDate` treats 0 as missing.', options).isDiagnosis).toBe(true);
    expect(analyzeSentence('Ruled that out — the data going in is fine.', options).isDeadEnd).toBe(true);
    expect(analyzeSentence('Let me check `src/db.ts` first.', options).isIntention).toBe(true);
    expect(analyzeSentence("Next, let's work on the CSV export.", { role: 'user', patterns }).isTaskRequest).toBe(true);
    expect(analyzeSentence('Moving on to the CSV export.', { role: 'user', patterns }).isTaskRequest).toBe(true);
    expect(analyzeSentence('Different question: is `toCsv` still used?', { role: 'user', patterns }).isTaskRequest).toBe(false);
  });
});

describe('classifyEntry()', () => {
  it('returns the most durable class of the sentences', () => {
    expect(classifyEntry(makeEntry('user', 'Cool, thanks. Also, we picked Temporal for date calculations.'), patterns)).toBe('decision');
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
    expect(stripFillers('Btw, fyi: amounts are integer cents.', { patterns })).toBe('Amounts are integer cents.');
    expect(stripFillers('oh and keep jest at --maxWorkers=2.', { patterns })).toBe('Keep jest at --maxWorkers=2.');
    expect(stripFillers('Also', { patterns })).toBe('Also');
  });

  it('keeps the case of a leading identifier', () => {
    expect(stripFillers('also, snake_case in SQL and camelCase in TS.', { patterns })).toBe('snake_case in SQL and camelCase in TS.');
    expect(stripFillers('note: vendor/acme-sdk/ is owned by another team.', { patterns })).toBe('vendor/acme-sdk/ is owned by another team.');
  });
});

describe('word lists from the pattern pack', () => {
  it('compares topics with the stopwords of the pack it is given', () => {
    const a = 'the ingest worker retries twice';
    const b = 'the ingest worker logs to stderr';
    expect(topicWords(a)).toContain('worker');
    const pack = mergePatternPacks(englishPatterns, { stopword: ['worker', 'ingest'] });
    expect(topicWords(a, { patterns: pack })).not.toContain('worker');
    expect(isSameTopic(a, b)).toBe(true);
    expect(isSameTopic(a, b, { patterns: pack })).toBe(false);
  });

  it('reads qualifiers from the pack, so another language can keep distinct subjects apart', () => {
    const a = 'thời gian chờ cho payments là 5 giây';
    const b = 'thời gian chờ cho search là 9 giây';
    const withQualifiers = mergePatternPacks(englishPatterns, vietnamesePatterns);
    const withoutQualifiers = mergePatternPacks(withQualifiers, {});
    expect(hasDifferentQualifiers(a, b, { patterns: withQualifiers })).toBe(true);
    const bare = { ...withoutQualifiers, qualifier: [] };
    expect(hasDifferentQualifiers(a, b, { patterns: bare })).toBe(false);
  });

  it('treats a pack written before word lists existed as having none', () => {
    const { stopword: _stopword, qualifier: _qualifier, ...legacy } = englishPatterns;
    const pack = legacy as unknown as typeof englishPatterns;
    expect(topicWords('the cache uses Redis', { patterns: pack })).toContain('the');
    expect(splitSentences('Use e.g. Redis. Then stop.', { patterns: pack })).toHaveLength(2);
  });
});

describe('splitSentences() on hard-wrapped text', () => {
  it('joins a sentence wrapped over lines, but not a heading, a bullet or a finished line', () => {
    const text = [
      '## Why it broke',
      'the writer keeps the old file open while renaming,',
      'so Windows refuses the rename.',
      'Use os.replace for the swap.',
      'it is atomic on NTFS.',
      '- first item wraps onto',
      '  a second line',
      '- second item',
    ].join('\n');
    expect(splitSentences(text)).toEqual([
      'Why it broke',
      'the writer keeps the old file open while renaming, so Windows refuses the rename.',
      'Use os.replace for the swap.',
      'it is atomic on NTFS.',
      'first item wraps onto a second line',
      'second item',
    ]);
  });
});

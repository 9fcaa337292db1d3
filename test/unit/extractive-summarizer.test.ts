import { describe, expect, it } from 'vitest';
import { mergePatternPacks } from '../../src/boundaries/pattern-pack.js';
import { englishPatterns } from '../../src/boundaries/patterns/en.js';
import { vietnamesePatterns } from '../../src/boundaries/patterns/vi.js';
import { createExtractiveSummarizer } from '../../src/summarizer/extractive.js';
import { renderSections } from '../../src/summarizer/summary-sections.js';
import type { SummarizeRequest, SummarizeResult } from '../../src/summarizer/summarizer.js';
import { createTokenCounter } from '../../src/tokens/token-counter.js';
import type { Entry, Summary, ToolCall } from '../../src/types.js';
import { makeEntries } from '../helpers.js';
import type { EntryInput } from '../helpers.js';

const counter = createTokenCounter();
const countTokens = (text: string): number => counter.count(text);

const user = (text: string): EntryInput => ({ kind: 'user', text });
const assistant = (text: string): EntryInput => ({ kind: 'assistant', text });
const run = (id: string, command: string): EntryInput => ({
  kind: 'assistant',
  text: '',
  toolCalls: [{ id, name: 'bash', input: { command } } satisfies ToolCall],
});
const output = (callId: string, text: string, isError = false): EntryInput => ({ kind: 'tool-result', text, callId, toolName: 'bash', isError });
const opened = (path: string, lines: number): EntryInput => ({ kind: 'file-open', path, text: `[opened ${path}, ${lines} lines]` });
const edited = (path: string, line: number, before: string, after: string): EntryInput => ({
  kind: 'file-update',
  path,
  text: `[${path}:${line}] \`${before}\` → \`${after}\``,
});

const JEST_RED = [
  ' FAIL  test/repo.test.ts',
  '  CommentRepository',
  '    ✓ lists comments (12 ms)',
  '    ✕ archives stale rows (33 ms)',
  '',
  '  ● CommentRepository › archives stale rows',
  '',
  '    Error: read ECONNRESET',
  '',
  '      at archiveRows (src/repositories/commentRepository.ts:88:13)',
  '',
  'Test Suites: 1 failed, 1 total',
  'Tests:       1 failed, 11 passed, 12 total',
].join('\n');

const JEST_GREEN = [
  ' PASS  test/repo.test.ts',
  '  CommentRepository',
  '    ✓ lists comments (12 ms)',
  '    ✓ archives stale rows (9 ms)',
  '',
  'Test Suites: 1 passed, 1 total',
  'Tests:       12 passed, 12 total',
].join('\n');

/** A realistic chunk: a task with a failing test, a dead end, the fix and a done summary. */
const SESSION: readonly EntryInput[] = [
  user('Hey, morning! Ready when you are.'),
  assistant('Morning! What should we start with?'),
  user(
    'Task: adding an archive endpoint for stale comments. It breaks when `archivedAt` is empty, the service throws a 500. ' +
      'Also, production is pinned to Node 18.19, never use APIs newer than that.',
  ),
  assistant('Okay, let me open `src/repositories/commentRepository.ts` first.'),
  opened('src/repositories/commentRepository.ts', 312),
  assistant('`archiveRows` loads every row before filtering by `archivedAt`, which is why the endpoint is slow.'),
  edited('src/repositories/commentRepository.ts', 88, 'const rows = await all();', 'const rows = await stale(cutoff);'),
  assistant('Here is the change:\n```ts\nconst rows = await stale(cutoff);\nconst SECRET_CODE_LINE = 1;\n```'),
  run('c1', 'npx jest test/repo.test.ts'),
  output('c1', JEST_RED, true),
  assistant("Let me add a temporary debug print in `archiveRows` to see what it receives."),
  edited('src/repositories/commentRepository.ts', 90, 'return rows;', 'console.log(rows); return rows;'),
  assistant('Ruled that out — the data going in is fine. Rolled back the temporary logging.'),
  edited('src/repositories/commentRepository.ts', 90, 'console.log(rows); return rows;', 'return rows;'),
  assistant(
    'The ECONNRESET in the repository tests was caused by the pool closing while queries were still in flight; awaiting `pool.end()` in afterAll fixed it.',
  ),
  opened('test/setup.ts', 40),
  edited('test/setup.ts', 12, 'pool.end();', 'await pool.end();'),
  run('c2', 'npx jest test/repo.test.ts'),
  output('c2', JEST_GREEN),
  assistant(
    'Finished, the suite is green. Summary of adding an archive endpoint for stale comments:\n\n- Filtered stale rows in `archiveRows`\n- Awaited `pool.end()` in the test setup',
  ),
  user('Nice work. The coffee machine is broken again, ugh'),
  user('Btw, switch all date handling over to Luxon instead.'),
  user("Next, let's work on the CSV export for archived comments."),
];

function summarize(entries: readonly Entry[], targetTokens = 200): SummarizeResult {
  const result = createExtractiveSummarizer().summarize({
    mode: 'chunk',
    entries,
    summaries: [],
    targetTokens,
    countTokens,
    signal: new AbortController().signal,
  } satisfies SummarizeRequest);
  if (result instanceof Promise) throw new Error('expected a synchronous result');
  return result as SummarizeResult;
}

function consolidate(summaries: readonly Summary[], targetTokens: number): SummarizeResult {
  return createExtractiveSummarizer().summarize({
    mode: 'consolidate',
    entries: [],
    summaries,
    targetTokens,
    countTokens,
    signal: new AbortController().signal,
  }) as SummarizeResult;
}

const summaryOf = (id: string, text: string, from: number, to: number): Summary => ({
  id,
  source: { from, to },
  text,
  tokens: counter.count(text),
  level: 1,
});

describe('createExtractiveSummarizer()', () => {
  it('is a plain object named "extractive"', () => {
    const summarizer = createExtractiveSummarizer();
    expect(summarizer.name).toBe('extractive');
    const { summarize: detached } = summarizer;
    expect(() => detached({ mode: 'chunk', entries: makeEntries([user('hi')]), summaries: [], targetTokens: 50, countTokens, signal: new AbortController().signal })).not.toThrow();
  });

  describe('summarize() a chunk', () => {
    const entries = makeEntries(SESSION);
    const result = summarize(entries);
    const facts = result.facts ?? [];

    it('extracts decisions, constraints and error resolutions as facts', () => {
      expect(facts).toContainEqual(expect.objectContaining({ category: 'constraints', value: 'Production is pinned to Node 18.19, never use APIs newer than that.' }));
      expect(facts).toContainEqual(expect.objectContaining({ value: 'Switch all date handling over to Luxon instead.', isUpdate: true }));
      const resolution = facts.find((fact) => fact.category === 'error-resolutions');
      expect(resolution?.value).toContain('ECONNRESET');
      expect(resolution?.value).toContain('`pool.end()`');
    });

    it('does not repeat facts in the summary text', () => {
      expect(result.summary).not.toContain('Node 18.19');
      expect(result.summary).not.toContain('Luxon');
    });

    it('opens the requested tasks and closes the finished one by its title', () => {
      expect(result.tasks).toEqual([
        { title: 'adding an archive endpoint for stale comments', status: 'open' },
        { title: 'adding an archive endpoint for stale comments', status: 'done' },
        { title: 'the CSV export for archived comments', status: 'open' },
      ]);
    });

    it('writes the completed work, files with edit counts, compressed commands and open work', () => {
      expect(result.summary).toMatch(/^Completed: adding an archive endpoint for stale comments \(tests green\): filtered stale rows/mu);
      expect(result.summary).toContain('src/repositories/commentRepository.ts (1 edit)');
      expect(result.summary).toContain('test/setup.ts (1 edit)');
      expect(result.summary).toMatch(/npx jest test\/repo\.test\.ts: 2 runs, 1 failed \(Error: read ECONNRESET at src\/repositories\/commentRepository\.ts:88:13\); last passed \(12 passed\)/u);
      expect(result.summary).toMatch(/^Open: the CSV export for archived comments$/mu);
    });

    it('keeps user details that carry identifiers as notes', () => {
      expect(result.summary).toContain('`archivedAt` is empty');
    });

    it('drops greetings, small talk, dead-end debugging and code blocks', () => {
      for (const dropped of ['morning', 'coffee', 'debug print', 'Ruled that out', 'console.log', 'SECRET_CODE_LINE', '```']) {
        expect(result.summary.toLowerCase()).not.toContain(dropped.toLowerCase());
      }
    });

    it('stays within twice the target and is deterministic', () => {
      expect(countTokens(result.summary)).toBeLessThanOrEqual(400);
      expect(summarize(makeEntries(SESSION))).toEqual(result);
    });

    it('compresses harder when the target is smaller, keeping the essentials first', () => {
      const small = summarize(entries, 40);
      expect(countTokens(small.summary)).toBeLessThanOrEqual(80);
      expect(small.summary).toContain('Completed:');
      expect(small.summary).not.toContain('Notes:');
      expect(small.facts).toEqual(facts);
    });
  });

  describe('summarize() failures and fixes', () => {
    it('explains a solved problem as symptom → cause when no fact covers it', () => {
      const entries = makeEntries([
        run('c1', 'npx jest'),
        output('c1', JEST_RED.replace('Error: read ECONNRESET', 'Expected: 777\n    Received: 773'), true),
        assistant('The culprit is the stale object being read.'),
        edited('src/repositories/commentRepository.ts', 40, 'stale.archivedAt', 'fresh.archivedAt'),
        run('c2', 'npx jest'),
        output('c2', JEST_GREEN),
      ]);
      const { summary } = summarize(entries);
      expect(summary).toMatch(/Problems solved: 'archives stale rows': Expected: 777 → The culprit is the stale object being read/u);
    });

    it('lists a failure that is still open at the end of the chunk', () => {
      const entries = makeEntries([run('c1', 'npx jest'), output('c1', JEST_RED, true), assistant('The stack trace points into the repository.')]);
      expect(summarize(entries).summary).toMatch(/^Open: still failing: 'archives stale rows': Error: read ECONNRESET/mu);
    });

    it('recognises pytest and tsc output', () => {
      const entries = makeEntries([
        run('c1', 'python -m pytest tests/test_report.py -q'),
        output('c1', 'FAILED tests/test_report.py::test_totals - AssertionError: assert 380 == 444\n==== 1 failed, 26 passed in 0.79s ====', true),
        run('c2', 'npx tsc --noEmit'),
        output('c2', "src/a.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.\nFound 1 error in src/a.ts", true),
      ]);
      const { summary } = summarize(entries, 300);
      expect(summary).toContain('python -m pytest tests/test_report.py -q: failed (1 failed, 26 passed): AssertionError: assert 380 == 444');
      expect(summary).toContain('npx tsc --noEmit: failed (1 error): error TS2322');
    });

    it('records a commit as completed work', () => {
      const entries = makeEntries([run('c1', 'git commit -m "fix: await pool.end() in tests"'), output('c1', '[main 5d10bc2] fix: await pool.end() in tests')]);
      expect(summarize(entries).summary).toContain('Completed: Committed "fix: await pool.end() in tests"');
    });
  });

  describe('summarize() never returns an empty summary', () => {
    it('falls back to a routine line for small talk', () => {
      const entries = makeEntries([user('hey, morning!'), assistant('Morning! Ready when you are.')], 41);
      const text = 'Routine exchange (2 entries, seq 41–42).';
      expect(summarize(entries)).toEqual({
        summary: text,
        sections: [{ name: 'Text', items: [{ text, source: { from: 41, to: 42 } }] }],
        facts: [],
        tasks: [],
      });
    });

    it('falls back when nothing fits the target', () => {
      const entries = makeEntries([user("First thing: a very long task title that goes on and on about the archive endpoint and its many filters")]);
      const { summary } = summarize(entries, 3);
      expect(summary.length).toBeGreaterThan(0);
    });
  });

  describe('summarize() with another pattern pack', () => {
    it('recognises Vietnamese decisions', () => {
      const patterns = mergePatternPacks(englishPatterns, vietnamesePatterns);
      const entries = makeEntries([user('ok làm vậy, dùng Redis cho cache phiên đăng nhập'), user('cảm ơn')]);
      const result = createExtractiveSummarizer({ patterns }).summarize({
        mode: 'chunk',
        entries,
        summaries: [],
        targetTokens: 100,
        countTokens,
        signal: new AbortController().signal,
      }) as SummarizeResult;
      expect(result.facts).toEqual([expect.objectContaining({ category: 'decisions', value: 'Làm vậy, dùng Redis cho cache phiên đăng nhập' })]);
    });
  });

  describe('summarize() consolidation', () => {
    const first = summaryOf(
      's1',
      [
        'Files: src/a.ts (2 edits), test/a.test.ts (read)',
        'Commands: npx jest: 2 runs, 1 failed (TypeError at src/a.ts:3); last passed (4 passed)',
        'Notes:',
        '- `parseDate` is only called from the routes.',
        '- The logger drops the request id.',
        'Open:',
        '- the CSV export',
        '- still failing: TypeError in src/a.ts',
      ].join('\n'),
      1,
      40,
    );
    const second = summaryOf(
      's2',
      ['Completed: the CSV export (tests green): added `toCsv`', 'Files: src/a.ts (1 edit), src/csv.ts (3 edits)', 'Notes: The logger drops the request id.'].join(
        '\n',
      ),
      41,
      90,
    );

    it('merges sections, adds edit counts and removes open items completed later', () => {
      const { summary } = consolidate([first, second], 200);
      expect(summary).toContain('src/a.ts (3 edits)');
      expect(summary).toContain('src/csv.ts (3 edits)');
      expect(summary).toContain('Completed: the CSV export (tests green)');
      expect(summary).not.toContain('Open:');
      expect(summary.match(/The logger drops the request id/gu)).toHaveLength(1);
    });

    it('drops the list of edited files before notes in words of their own when the target is tight', () => {
      const { summary } = consolidate([first, second], 40);
      expect(summary).toContain('Completed:');
      expect(summary).toContain('The logger drops the request id.');
      expect(summary).not.toContain('Files:');
      expect(countTokens(summary)).toBeLessThanOrEqual(80);
    });

    it('keeps a statement said once over lines of the user that repeat one shape with other names', () => {
      const note = (text: string, from: number, isUserSpeech: boolean): Summary => {
        const source = { from, to: from + 9 };
        const sections = [
          { name: 'Completed' as const, items: [{ text: `task ${from / 10} of the billing backlog (tests green)`, source }] },
          { name: 'Notes' as const, items: [{ text, source, salience: 1, ...(isUserSpeech ? { isUserSpeech } : {}) }] },
        ];
        const rendered = `Completed: task ${from / 10} of the billing backlog (tests green)\nNotes: ${text}`;
        return { ...summaryOf(`s${from}`, rendered, from, from + 9), sections };
      };
      const summaries = [
        note('Probably worth peeking at `loadInvoices` first, I guess.', 10, true),
        note('Refunds above two hundred euros need a second approver from finance.', 20, false),
        note('Probably worth peeking at `sendReminder` first, I guess.', 30, true),
        note('Probably worth peeking at `mergeLedgers` first, I guess.', 40, true),
        note('Probably worth peeking at `closeQuarter` first, I guess.', 50, true),
      ];
      const roomy = consolidate(summaries, 400).summary;
      expect(roomy).toContain('`closeQuarter`');
      const { summary } = consolidate(summaries, 90);
      expect(summary).toContain('second approver from finance');
      expect(summary).not.toContain('`loadInvoices`');
    });

    it('ranks a salient narrated statement before commands even when part of its words are said elsewhere', () => {
      const withNote = (salience: number): Summary[] => {
        const source = { from: 1, to: 30 };
        const sections = [
          { name: 'Completed' as const, items: [{ text: 'moved the nightly export into the cold bucket (tests green)', source }] },
          {
            name: 'Commands' as const,
            items: [
              { text: 'pnpm vitest run test/export.test.ts: 3 runs; last passed (41 passed)', source, command: 'pnpm vitest run test/export.test.ts', isTestRun: true },
              { text: 'pnpm tsc --noEmit: passed', source, command: 'pnpm tsc --noEmit', isTestRun: true },
              { text: 'aws s3 ls s3://archive-cold/exports/2024/', source, command: 'aws s3 ls s3://archive-cold/exports/2024/' },
            ],
          },
          { name: 'Notes' as const, items: [{ text: 'The nightly export now writes Parquet files into the cold bucket.', source, salience }] },
        ];
        return [{ ...summaryOf('s1', renderSections(sections), 1, 30), sections }, summaryOf('s2', 'Completed: renamed the staging queue', 31, 40)];
      };
      const target = 45;
      expect(consolidate(withNote(4), target).summary).toContain('Parquet');
      expect(consolidate(withNote(0), target).summary).not.toContain('Parquet');
    });

    it('keeps the text of summaries it cannot parse', () => {
      const { summary } = consolidate([summaryOf('s1', 'The user and the assistant discussed caching.', 1, 5)], 100);
      expect(summary).toContain('discussed caching');
    });
  });
});

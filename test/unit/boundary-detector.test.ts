import { describe, expect, it } from 'vitest';
import {
  BOUNDARY_STRENGTHS,
  compareStrength,
  createBoundaryDetector,
  type BoundaryStrength,
} from '../../src/boundaries/boundary-detector.js';
import { mergePatternPacks } from '../../src/boundaries/pattern-pack.js';
import { englishPatterns } from '../../src/boundaries/patterns/en.js';
import { vietnamesePatterns } from '../../src/boundaries/patterns/vi.js';
import type { ToolCall } from '../../src/types.js';
import { makeEntries } from '../helpers.js';
import type { EntryInput } from '../helpers.js';

const user = (text: string): EntryInput => ({ kind: 'user', text });
const assistant = (text: string, toolCalls?: readonly ToolCall[]): EntryInput =>
  toolCalls === undefined ? { kind: 'assistant', text } : { kind: 'assistant', text, toolCalls };
const result = (callId: string, text: string, isError = false): EntryInput => ({ kind: 'tool-result', text, callId, isError });
const bash = (id: string, command: string): ToolCall => ({ id, name: 'bash', input: { command } });

const JEST_GREEN = [
  ' PASS  test/auth.test.ts (2.1 s)',
  '  Auth',
  '    ✓ logs in (12 ms)',
  '',
  'Test Suites: 1 passed, 1 total',
  'Tests:       12 passed, 12 total',
].join('\n');

const JEST_RED = [
  ' FAIL  test/auth.test.ts',
  '  ● Auth › rejects inactive users',
  '',
  '    TypeError: Cannot read properties of undefined (reading \'active\')',
  '',
  '      at login (src/auth.ts:50:14)',
  '',
  'Tests:       1 failed, 11 passed, 12 total',
].join('\n');

const strengths = (inputs: readonly EntryInput[], detector = createBoundaryDetector()): BoundaryStrength[] =>
  detector.scoreGaps(makeEntries(inputs)).map((score) => score.strength);

describe('createBoundaryDetector()', () => {
  describe('scoreGaps()', () => {
    it('returns one score per entry, including the gap after the newest entry', () => {
      const scores = createBoundaryDetector().scoreGaps(makeEntries([user('Hi'), assistant('Hello!'), user('Look at the login bug')]));
      expect(scores).toHaveLength(3);
      expect(scores.every((score) => score.reason.length > 0)).toBe(true);
    });

    it('forbids every gap between a tool call and its result', () => {
      const inputs = [
        assistant('Running the tests.', [bash('c1', 'npx jest')]),
        assistant('While that runs, I will read the config.'),
        result('c1', JEST_GREEN),
        user('Thanks'),
      ];
      const scores = createBoundaryDetector().scoreGaps(makeEntries(inputs));
      expect(scores[0]).toEqual({ strength: 'forbidden', reason: 'tool call c1 awaits its result' });
      expect(scores[1]?.strength).toBe('forbidden');
      expect(scores[2]?.strength).not.toBe('forbidden');
    });

    it('keeps parallel tool calls together until the last result arrives', () => {
      const inputs = [
        assistant('', [bash('a', 'ls'), bash('b', 'git status')]),
        result('a', 'src\ntest'),
        result('b', 'nothing to commit'),
        assistant('The tree is clean.'),
      ];
      expect(strengths(inputs).slice(0, 3)).toEqual(['forbidden', 'forbidden', 'weak']);
    });

    it('forbids the gaps after a call whose result has not been recorded yet', () => {
      const inputs = [user('Run the suite'), assistant('', [bash('c9', 'npm test')])];
      expect(strengths(inputs)).toEqual(['weak', 'forbidden']);
    });

    it('accepts a file record that carries the call id as the result', () => {
      const inputs: EntryInput[] = [
        assistant('', [{ id: 'r1', name: 'read_file', input: { path: 'src/auth.ts' } }]),
        { kind: 'file-open', text: '[opened src/auth.ts, 245 lines]', path: 'src/auth.ts', callId: 'r1' },
        assistant('The null check is missing.'),
      ];
      expect(strengths(inputs)[0]).toBe('forbidden');
      expect(strengths(inputs)[1]).not.toBe('forbidden');
    });

    it('forbids gaps inside a fenced code block that spans entries', () => {
      const inputs = [
        assistant('Here is the patch:\n```ts\nif (user) {'),
        assistant('  return user.active;\n}'),
        assistant('```\nDone, the guard is in.'),
        user('Great'),
      ];
      const scores = createBoundaryDetector().scoreGaps(makeEntries(inputs));
      expect(scores[0]).toEqual({ strength: 'forbidden', reason: 'inside a fenced code block' });
      expect(scores[1]?.strength).toBe('forbidden');
      expect(scores[2]?.strength).toBe('strong');
    });

    it('does not let an unbalanced fence forbid gaps after the role changes', () => {
      const inputs = [assistant('Truncated output:\n```\nline 1'), user('Ok, next question'), assistant('Sure.'), user('Thanks')];
      expect(strengths(inputs).slice(1)).not.toContain('forbidden');
    });

    it('forbids a gap inside an error trace that the next entry continues', () => {
      const inputs: EntryInput[] = [
        { kind: 'tool-result', text: 'Traceback (most recent call last):\n  File "app.py", line 3, in <module>', callId: undefined },
        { kind: 'tool-result', text: '  File "db.py", line 10, in connect\nConnectionError: refused' },
        { kind: 'tool-result', text: 'TypeError: x is undefined' },
        { kind: 'tool-result', text: '    at parse (src/parse.ts:4:2)' },
        assistant('The parser gets undefined.'),
      ];
      const scores = createBoundaryDetector().scoreGaps(makeEntries(inputs));
      expect(scores[0]).toEqual({ strength: 'forbidden', reason: 'inside an error trace' });
      expect(scores[1]?.strength).not.toBe('forbidden');
      expect(scores[2]?.strength).toBe('forbidden');
      expect(scores[3]?.strength).not.toBe('forbidden');
    });

    it('rates the gap after a completion message as strong', () => {
      const inputs = [assistant('Done, all tests pass. Summary of the null check fix:\n\n- guarded `user.active`'), assistant('Anything else?')];
      expect(createBoundaryDetector().scoreGaps(makeEntries(inputs))[0]).toEqual({ strength: 'strong', reason: 'completion' });
    });

    it('ignores completion wording that is conditional, a question or a task request', () => {
      const inputs = [
        assistant("Let's see whether the tests pass."),
        assistant('Is it fixed?'),
        assistant("Okay, let's tackle getting the suite green again."),
        assistant('Reading the config.'),
      ];
      expect(strengths(inputs).slice(0, 3)).toEqual(['weak', 'weak', 'weak']);
    });

    it('rates the gap after a green test run as strong and after a red one as not', () => {
      const inputs = [
        assistant('', [bash('c1', 'npx jest')]),
        result('c1', JEST_RED, true),
        assistant('', [bash('c2', 'npx jest')]),
        result('c2', JEST_GREEN),
        assistant('Fixed.'),
      ];
      const scores = createBoundaryDetector().scoreGaps(makeEntries([...inputs, user('Thanks, next thing.')]));
      expect(scores[1]?.strength).toBe('weak');
      // The agent's report right after the green run stays with it; the cut comes after the report.
      expect(scores[3]).toEqual({ strength: 'weak', reason: 'green run the agent reports on next' });
      const withoutReport = createBoundaryDetector().scoreGaps(makeEntries([...inputs.slice(0, 4), user('Thanks, next thing.')]));
      expect(withoutReport[3]).toEqual({ strength: 'strong', reason: 'green test run' });
    });

    it.each([
      ['pytest', '============ 12 passed in 0.50s ============', true],
      ['pytest', '====== 1 failed, 11 passed in 0.61s ======', false],
      ['vitest', ' Test Files  3 passed (3)\n      Tests  12 passed (12)', true],
      ['vitest', ' Test Files  1 failed | 2 passed (3)', false],
      ['go test', 'ok  \tgithub.com/acme/api/auth\t0.012s', true],
      ['go test', '--- FAIL: TestLogin (0.00s)\nFAIL\tgithub.com/acme/api/auth\t0.013s', false],
      ['tsc', 'Found 0 errors. Watching for file changes.', true],
      ['tsc', "src/a.ts(3,5): error TS2322: Type 'string' is not assignable to type 'number'.", false],
      ['mocha', '  14 passing (120ms)', true],
      ['mocha', '  13 passing (120ms)\n  1 failing', false],
    ])('recognises %s output: %j (green: %s)', (_runner, output, isGreen) => {
      const scores = strengths([assistant('', [bash('c1', 'run')]), result('c1', output), user('ok')]);
      expect(scores[1] === 'strong').toBe(isGreen);
    });

    it('rates the gap before a user topic change as strong and before other user turns as moderate', () => {
      const inputs = [assistant('Renamed the helper.'), user("Now let's work on the CSV export."), assistant('Sure.'), user('Why that name?')];
      const scores = createBoundaryDetector().scoreGaps(makeEntries(inputs));
      expect(scores[0]).toEqual({ strength: 'strong', reason: 'topic change' });
      expect(scores[2]).toEqual({ strength: 'moderate', reason: 'user turn' });
    });

    it('rates mid-turn gaps as weak and the end of an assistant turn as moderate', () => {
      const inputs = [user('Check the logs'), assistant('Reading them now.'), assistant('Nothing unusual in there.')];
      expect(strengths(inputs)).toEqual(['weak', 'weak', 'moderate']);
    });

    it('rates the gap after a user leaving as strong', () => {
      const inputs = [user('Need to jump on a call, brb'), user('Back. Where were we?')];
      expect(createBoundaryDetector().scoreGaps(makeEntries(inputs))[0]).toEqual({ strength: 'strong', reason: 'user leaving' });
    });

    it('is deterministic', () => {
      const inputs = [user('Fix the bug'), assistant('', [bash('c1', 'npx jest')]), result('c1', JEST_GREEN), assistant('Done.')];
      const detector = createBoundaryDetector();
      expect(detector.scoreGaps(makeEntries(inputs))).toEqual(detector.scoreGaps(makeEntries(inputs)));
    });

    describe('with the Vietnamese pack', () => {
      const bilingual = createBoundaryDetector({ patterns: mergePatternPacks(englishPatterns, vietnamesePatterns) });

      it.each([
        ['xong rồi, test chạy ổn'],
        ['Hoàn thành phần đăng nhập'],
        ['hoan thanh phan dang nhap'],
        ['ok, pass test het roi'],
      ])('rates the gap after "%s" as strong', (text) => {
        expect(strengths([assistant(text), user('cảm ơn')], bilingual)[0]).toBe('strong');
      });

      it.each([['tạm nghỉ nhé'], ['het gio roi, toi di day'], ['Hết giờ rồi']])('treats "%s" as the user leaving', (text) => {
        expect(bilingual.scoreGaps(makeEntries([user(text), user('quay lại rồi')]))[0]?.reason).toBe('user leaving');
      });

      it('matches whole words only, also for accented letters', () => {
        // "đi" inside "đinh" is not "tôi đi".
        expect(bilingual.scoreGaps(makeEntries([user('tôi đinh ninh là lỗi ở đây'), user('ừ')]))[0]?.strength).toBe('moderate');
        expect(strengths([assistant('xongxuôi chưa biết'), user('?')], bilingual)[0]).toBe('moderate');
      });

      it('is not recognised by the English pack alone', () => {
        expect(strengths([assistant('xong rồi'), user('ok')], createBoundaryDetector({ patterns: englishPatterns }))[0]).toBe('moderate');
      });

      it('is recognised by the default patterns', () => {
        expect(strengths([assistant('xong rồi'), user('ok')])[0]).toBe('strong');
      });
    });
  });
});

describe('compareStrength()', () => {
  it('orders strengths from forbidden to strong', () => {
    const sorted = (['strong', 'forbidden', 'moderate', 'weak'] as const).slice().sort(compareStrength);
    expect(sorted).toEqual(BOUNDARY_STRENGTHS);
    expect(compareStrength('strong', 'moderate')).toBeGreaterThan(0);
    expect(compareStrength('weak', 'weak')).toBe(0);
  });
});

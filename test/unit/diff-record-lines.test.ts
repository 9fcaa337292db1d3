import { structuredPatch } from 'diff';
import { describe, expect, it, vi } from 'vitest';
import { computeDiffRecord } from '../../src/scratchpad/diff-record.js';
import { splitLinesKeepingBreaks } from '../../src/scratchpad/line-diff.js';

// The line splitter, wrapped so that a test can see which texts were cut into lines.
vi.mock('../../src/scratchpad/line-diff.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/scratchpad/line-diff.js')>();
  return { ...actual, splitLinesKeepingBreaks: vi.fn(actual.splitLinesKeepingBreaks) };
});

const cutTexts = (): string[] => vi.mocked(splitLinesKeepingBreaks).mock.calls.map((call) => call[0]);

describe('computeDiffRecord() of a small file', () => {
  const head = Array.from({ length: 30 }, (_, index) => `const setting${index} = loadSetting('s${index}');\n`).join('');
  const tail = Array.from({ length: 200 }, (_, index) => `export function step${index}() { return run(${index}); }\n`).join('');

  it('cuts the trailing lines both versions share once, not once per version', () => {
    const before = `${head}const retries = 3;\n${tail}`;
    const after = `${head}const retries = 5;\nconst backoffMs = 200;\n${tail}`;
    vi.mocked(splitLinesKeepingBreaks).mockClear();
    const record = computeDiffRecord({ path: 'src/jobs.ts', before, after });
    const cut = cutTexts().reduce((sum, text) => sum + text.length, 0);
    expect(cut).toBeLessThan(tail.length + 200);
    expect(record.hunks).toEqual([{ oldStart: 31, newStart: 31, removed: ['const retries = 3;'], added: ['const retries = 5;', 'const backoffMs = 200;'] }]);
  });

  it('gives the patch of `diff` when the change sits against the shared tail, or at either end', () => {
    const cases: [string, string][] = [
      [`${head}${tail}`, `${head}// a note\n${tail}`],
      [`${head}x\n${tail}`, `${head}${tail}`],
      [`${tail}`, `// header\n${tail}`],
      [`${head}${tail}`, `${head}${tail}export const done = true;\n`],
      [`${head}${tail}last`, `${head}${tail}last\n`],
      [`${head}}\n}\n${tail}`, `${head}}\n${tail}`],
    ];
    for (const [before, after] of cases) {
      const record = computeDiffRecord({ path: 'src/steps.ts', before, after });
      const expected = structuredPatch('', '', before, after, undefined, undefined, { context: 0 });
      expect(record.hunks.map((hunk) => [hunk.oldStart, hunk.removed.length, hunk.newStart, hunk.added.length])).toEqual(
        expected.hunks.map((hunk) => [hunk.oldStart, hunk.oldLines, hunk.newStart, hunk.newLines]),
      );
    }
  });
});

import { formatPatch, OMIT_HEADERS, structuredPatch } from 'diff';
import type { StructuredPatch } from 'diff';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { anchoredPatch, commonLines, computeDiffRecord, countLines, utf8ByteLength } from '../../src/scratchpad/diff-record.js';
import { PROPERTY_RUNS } from '../helpers.js';

// Few distinct lines, so that changes are ambiguous and the alignment the diff picks matters.
const line = fc.constantFrom('a', 'b', 'c', '}', '', '  x = 1;', 'é😀');
const content = fc
  .tuple(fc.array(line, { maxLength: 14 }), fc.constantFrom('\n', '\r\n'), fc.boolean())
  .map(([lines, separator, isTerminated]) => lines.join(separator) + (isTerminated && lines.length > 0 ? separator : ''));

describe('computeDiffRecord()', () => {
  it('gives a small file the patch and line totals of a diff of the whole texts, shared leading lines set aside or not', () => {
    fc.assert(
      fc.property(content, content, fc.boolean(), (before, after, isKnown) => {
        const record = computeDiffRecord({
          path: 'f.ts',
          before,
          after,
          ...(isKnown ? { beforeBytes: utf8ByteLength(before), beforeLineCount: countLines(before) } : {}),
        });
        const whole = structuredPatch('', '', before, after, undefined, undefined, { context: 0, maxEditLength: 1_000 });
        if (whole === undefined) throw new Error('a diff of 14 lines cannot exceed 1,000 edits');
        expect(record.patch).toBe(before === after ? '' : formatPatch(whole, OMIT_HEADERS));
        // Each hunk's lines, cut once for the patch and the record, are those the patch shows.
        expect(record.hunks).toEqual(
          (before === after ? [] : whole.hunks).map((hunk) => ({
            newStart: hunk.newStart,
            oldStart: hunk.oldStart,
            removed: hunk.lines.filter((text) => text.startsWith('-')).map((text) => text.slice(1)),
            added: hunk.lines.filter((text) => text.startsWith('+')).map((text) => text.slice(1)),
          })),
        );
        expect(record.newBytes).toBe(utf8ByteLength(after));
        expect(record.newLineCount).toBe(countLines(after));
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });
});

describe('computeDiffRecord() beyond maxEditLength', () => {
  // Shared leading lines that may repeat changed lines, old and new lines drawn from their own
  // words (many rewrites share no changed line), a shared tail that may repeat either side's.
  const linesOf = (words: readonly string[], maxLength: number): fc.Arbitrary<string[]> =>
    fc.array(fc.tuple(fc.constantFrom(...words), fc.constantFrom('\n', '\r\n')), { maxLength }).map((lines) => lines.map(([text, separator]) => text + separator));
  const oldWords = ['if (a)', 'b();', '', '}'];
  const newWords = ['if (a) {', 'c();', ' ', '};'];
  const edit = fc.record({
    head: fc.oneof(linesOf(['x', 'y'], 4), linesOf([...oldWords, ...newWords], 4)),
    before: linesOf(oldWords, 30),
    after: linesOf(newWords, 30),
    tail: fc.oneof(linesOf(['x', 'y', '  '], 4), linesOf([...oldWords, ...newWords], 4)),
    end: fc.constantFrom('', 'z'),
    maxEditLength: fc.nat({ max: 6 }),
    isTrimmed: fc.boolean(),
  });

  it('patches as the alignment on unique lines does, rewrites of lines found nowhere on the other side included', () => {
    fc.assert(
      fc.property(edit, ({ head, before, after, tail, end, maxEditLength, isTrimmed }) => {
        const oldText = head.join('') + before.join('') + tail.join('') + end;
        const newText = head.join('') + after.join('') + tail.join('') + end;
        const record = computeDiffRecord({ path: 'f.ts', before: oldText, after: newText, maxEditLength, trimCommonLinesAbove: isTrimmed ? 0 : Infinity });
        if (!record.isApproximate) return;
        // The shared lines set aside when trimmed, as computeDiffRecord finds them.
        const shared = commonLines(oldText, newText);
        const reference = isTrimmed
          ? shifted(anchoredPatch(oldText.slice(shared.prefixChars, oldText.length - shared.suffixChars), newText.slice(shared.prefixChars, newText.length - shared.suffixChars)), shared.prefixLines)
          : anchoredPatch(oldText, newText);
        expect(record.patch).toBe(formatPatch(reference, OMIT_HEADERS));
        expect(record.hunks.map((hunk) => [hunk.oldStart, hunk.newStart, hunk.removed.length, hunk.added.length])).toEqual(reference.hunks.map((hunk) => [hunk.oldStart, hunk.newStart, hunk.oldLines, hunk.newLines]));
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });
});

function shifted(patch: StructuredPatch, lines: number): StructuredPatch {
  return { ...patch, hunks: patch.hunks.map((hunk) => ({ ...hunk, oldStart: hunk.oldStart + lines, newStart: hunk.newStart + lines })) };
}

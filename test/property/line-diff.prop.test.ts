import { structuredPatch } from 'diff';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitLinesKeepingBreaks, structuredLinePatch, structuredLinePatchOfEdit } from '../../src/scratchpad/line-diff.js';
import { PROPERTY_RUNS } from '../helpers.js';

// Few distinct lines (some with `\r`, some empty), both line breaks, with or without a final one:
// many equally short edits, so that the diff's tie-breaking decides the hunks.
const line = fc.constantFrom('a', 'b', 'c', '', '}', 'x\r', 'é😀');
const text = fc
  .tuple(fc.array(fc.tuple(line, fc.constantFrom('\n', '\n', '\r\n')), { maxLength: 24 }), fc.constantFrom('', 'z', '\n'))
  .map(([lines, end]) => lines.map(([content, separator]) => content + separator).join('') + end);

describe('structuredLinePatch()', () => {
  it("gives exactly diff's structuredPatch hunks with no context, or undefined where it gives up", () => {
    fc.assert(
      fc.property(text, text, fc.oneof(fc.integer({ min: 0, max: 12 }), fc.constant(1_000)), (before, after, maxEditLength) => {
        const expected = structuredPatch('', '', before, after, undefined, undefined, { context: 0, maxEditLength });
        expect(structuredLinePatch(before, after, maxEditLength)).toEqual(expected);
      }),
      { numRuns: PROPERTY_RUNS * 3 },
    );
  });

  it('aligns a repeated line the way diff does', () => {
    const patch = structuredLinePatch('a\nb\nb\nc\n', 'a\nb\nb\nb\nc\n', 1_000);
    expect(patch).toEqual(structuredPatch('', '', 'a\nb\nb\nc\n', 'a\nb\nb\nb\nc\n', undefined, undefined, { context: 0, maxEditLength: 1_000 }));
    expect(patch?.hunks).toEqual([{ oldStart: 4, oldLines: 0, newStart: 4, newLines: 1, lines: ['+b'] }]);
  });
});

describe('structuredLinePatchOfEdit()', () => {
  // Longer texts too, so that some edits outgrow the short search on strings and are searched again,
  // and some change too many lines for it to be tried.
  const longer = fc.array(fc.tuple(line, fc.constantFrom('\n', '\r\n')), { maxLength: 80 }).map((lines) => lines.map(([content, separator]) => content + separator).join(''));

  it("gives diff's hunks for versions with a shared tail it does not compare, or undefined where diff gives up", () => {
    fc.assert(
      fc.property(fc.oneof(text, longer), fc.oneof(text, longer), text, fc.oneof(fc.integer({ min: 0, max: 40 }), fc.constant(1_000)), (before, after, tail, maxEditLength) => {
        // The tail starts at a line start on both sides.
        const isCut = (value: string): boolean => value === '' || value.endsWith('\n');
        const shared = isCut(before) && isCut(after) ? tail : '';
        const oldLines = splitLinesKeepingBreaks(before + shared);
        const newLines = splitLinesKeepingBreaks(after + shared);
        const expected = structuredPatch('', '', before + shared, after + shared, undefined, undefined, { context: 0, maxEditLength });
        const patch = structuredLinePatchOfEdit({ oldLines, newLines, maxEditLength, sharedTail: splitLinesKeepingBreaks(shared).length });
        expect(patch).toEqual(expected);
      }),
      { numRuns: PROPERTY_RUNS * 3 },
    );
  });
});

describe('structuredLinePatchOfEdit() on rewrites', () => {
  // Old and new lines drawn from their own words (so that many rewrites share no line), a tail
  // that may repeat lines of either side, and edits long enough to pass the short search.
  const linesOf = (words: readonly string[], maxLength: number): fc.Arbitrary<string[]> =>
    fc
      .integer({ min: 0, max: maxLength })
      .chain((length) => fc.array(fc.tuple(fc.constantFrom(...words), fc.constantFrom('\n', '\r\n')), { minLength: length, maxLength: length }))
      .map((lines) => lines.map(([content, separator]) => content + separator));
  const oldWords = ['let a', 'b()', '', '}'];
  const newWords = ['let a ', 'c()', ' ', '};'];
  const rewrite = fc.record({
    before: linesOf(oldWords, 160),
    after: linesOf(newWords, 160),
    tail: fc.oneof(linesOf(['x', 'y', '  '], 6), linesOf([...oldWords, ...newWords, 'x'], 6)),
    end: fc.constantFrom('', 'z'),
    maxEditLength: fc.constantFrom(20, 150, 1_000),
  });

  it("gives diff's hunks when the changed lines of one side occur nowhere on the other, and when some do", () => {
    fc.assert(
      fc.property(rewrite, ({ before, after, tail, end, maxEditLength }) => {
        const oldText = before.join('') + tail.join('') + end;
        const newText = after.join('') + tail.join('') + end;
        const sharedTail = tail.length + (end === '' ? 0 : 1);
        const expected = structuredPatch('', '', oldText, newText, undefined, undefined, { context: 0, maxEditLength });
        const patch = structuredLinePatchOfEdit({ oldLines: splitLinesKeepingBreaks(oldText), newLines: splitLinesKeepingBreaks(newText), maxEditLength, sharedTail });
        expect(patch).toEqual(expected);
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });

  it('diffs a conversion to CRLF line endings as one hunk that removes every line and adds it back', () => {
    const lines = Array.from({ length: 300 }, (_, index) => `line ${index % 7}`);
    const before = `${lines.join('\n')}\nend`;
    const after = `${lines.join('\r\n')}\r\nend`;
    const patch = structuredLinePatchOfEdit({ oldLines: splitLinesKeepingBreaks(before), newLines: splitLinesKeepingBreaks(after), maxEditLength: 1_000, sharedTail: 1 });
    expect(patch).toEqual(structuredPatch('', '', before, after, undefined, undefined, { context: 0, maxEditLength: 1_000 }));
    expect(patch?.hunks).toHaveLength(1);
    expect(patch?.hunks[0]?.lines).toHaveLength(600);
  });
});

describe('splitLinesKeepingBreaks()', () => {
  // The reference: how `diff` cuts lines (a split on the line breaks, each glued to its line).
  const byRegExp = (value: string): string[] => {
    const lines: string[] = [];
    const parts = value.split(/(\n|\r\n)/);
    if (!parts[parts.length - 1]) parts.pop();
    parts.forEach((part, index) => {
      if (index % 2 === 1) lines[lines.length - 1] += part;
      else lines.push(part);
    });
    return lines;
  };

  it('cuts every text into the lines diff cuts it into', () => {
    fc.assert(
      fc.property(fc.oneof(text, fc.string({ unit: fc.constantFrom('a', '\n', '\r', ' ', 'é') })), (value) => {
        expect(splitLinesKeepingBreaks(value)).toEqual(byRegExp(value));
      }),
      { numRuns: PROPERTY_RUNS * 3 },
    );
  });
});

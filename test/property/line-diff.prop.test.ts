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

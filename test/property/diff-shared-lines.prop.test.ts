import { formatPatch, OMIT_HEADERS, structuredPatch } from 'diff';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeDiffRecord, countLines, utf8ByteLength } from '../../src/scratchpad/diff-record.js';
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
        expect(record.newBytes).toBe(utf8ByteLength(after));
        expect(record.newLineCount).toBe(countLines(after));
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { commonPrefixLength, commonSuffixLength } from '../../src/common-runs.js';
import { computeDiffRecord, countLines, utf8ByteLength, utf8ByteLengthByLoop } from '../../src/scratchpad/diff-record.js';
import { PROPERTY_RUNS } from '../helpers.js';

const piece = fc.constantFrom('a', 'b', '\n', '\r\n', ' ', 'é', '😀', '\ud800', '`', 'xyz');
const text = fc.array(piece, { maxLength: 300 }).map((pieces) => pieces.join(''));

describe('commonPrefixLength() / commonSuffixLength()', () => {
  it('equal a character-by-character comparison', () => {
    fc.assert(
      fc.property(text, text, fc.nat({ max: 50 }), fc.nat({ max: 50 }), (left, right, leftStart, rightStart) => {
        const limit = Math.max(0, Math.min(left.length - leftStart, right.length - rightStart));
        let prefix = 0;
        while (prefix < limit && left.charCodeAt(leftStart + prefix) === right.charCodeAt(rightStart + prefix)) prefix += 1;
        expect(commonPrefixLength({ left, leftStart, right, rightStart, limit: 10_000 })).toBe(prefix);
        const room = Math.min(left.length, right.length);
        let suffix = 0;
        while (suffix < room && left.charCodeAt(left.length - 1 - suffix) === right.charCodeAt(right.length - 1 - suffix)) suffix += 1;
        expect(commonSuffixLength({ left, right, limit: 10_000 })).toBe(suffix);
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });

  it('finds a difference deep inside long equal runs', () => {
    const left = `${'x'.repeat(100_000)}a${'y'.repeat(70_000)}`;
    const right = `${'x'.repeat(100_000)}b${'y'.repeat(70_000)}`;
    expect(commonPrefixLength({ left, leftStart: 0, right, rightStart: 0, limit: Infinity })).toBe(100_000);
    expect(commonSuffixLength({ left, right, limit: Infinity })).toBe(70_000);
  });
});

describe('utf8ByteLength()', () => {
  it('equals the loop over UTF-16 units and Buffer.byteLength, with surrogate pairs and lone halves on every piece boundary', () => {
    // Long texts cross the 16,384-unit pieces the encoder is handed; `shift` moves a pair onto a boundary.
    fc.assert(
      fc.property(text, fc.nat({ max: 40_000 }), fc.nat({ max: 3 }), (sample, repeat, shift) => {
        const content = 'x'.repeat(shift) + sample.repeat(Math.ceil(repeat / Math.max(1, sample.length))) + '😀'.repeat(3);
        expect(utf8ByteLength(content)).toBe(utf8ByteLengthByLoop(content));
        expect(utf8ByteLength(content)).toBe(Buffer.byteLength(content, 'utf8'));
      }),
      { numRuns: PROPERTY_RUNS / 10 },
    );
    for (const edge of ['\ud83d', '\ude00', '😀']) {
      for (const at of [16_383, 16_384, 16_385]) {
        const content = `${'a'.repeat(at - 1)}${edge}${'b'.repeat(300)}\ud800`;
        expect(utf8ByteLength(content)).toBe(utf8ByteLengthByLoop(content));
        expect(utf8ByteLength(content)).toBe(Buffer.byteLength(content, 'utf8'));
      }
    }
  });
});

describe('computeDiffRecord() with known sizes', () => {
  it('gives the same new size and line count from the changed region as from a full count', () => {
    fc.assert(
      fc.property(text, text, (before, after) => {
        const known = computeDiffRecord({
          path: 'a.txt',
          before,
          after,
          trimCommonLinesAbove: 0,
          beforeBytes: utf8ByteLength(before),
          beforeLineCount: countLines(before),
        });
        expect(known.newBytes).toBe(utf8ByteLength(after));
        expect(known.newLineCount).toBe(countLines(after));
        expect(known.oldLineCount).toBe(countLines(before));
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });
});

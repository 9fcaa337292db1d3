import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatCount } from '../../src/format.js';
import { PROPERTY_RUNS } from '../helpers.js';

// The whole formatting, with no shortcut for short numbers.
function formatBySeparating(value: number): string {
  const sign = value < 0 ? '-' : '';
  return sign + String(Math.trunc(Math.abs(value))).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

describe('formatCount()', () => {
  it('formats every number as the full thousands-separating rule does, short ones included', () => {
    const value = fc.oneof(
      fc.integer({ min: -1_000_000, max: 1_000_000 }),
      fc.integer({ min: -1_100, max: 1_100 }),
      fc.double({ min: -5_000, max: 5_000, noNaN: true }),
      fc.constantFrom(0, -0, 999, 1_000, -999, -1_000, 999.9, -0.5, Number.MAX_SAFE_INTEGER),
    );
    fc.assert(
      fc.property(value, (number) => {
        expect(formatCount(number)).toBe(formatBySeparating(number));
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });

  it('separates thousands', () => {
    expect(formatCount(1_234_567)).toBe('1,234,567');
    expect(formatCount(-4_321)).toBe('-4,321');
    expect(formatCount(512)).toBe('512');
  });
});

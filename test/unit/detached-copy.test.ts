import { describe, expect, it } from 'vitest';
import { detachedCopy } from '../../src/detached-copy.js';

describe('detachedCopy()', () => {
  // Strings are values in JavaScript: that the same copy is handed out again cannot be observed,
  // only that every answer equals its text.
  it('returns a text equal to the one given, for short, long, repeated and new texts', () => {
    const long = 'The retry helper gives up after three attempts and logs the last error.';
    const copy = detachedCopy(long.slice(4));
    expect(copy).toBe(long.slice(4));
    expect(detachedCopy(long.slice(4))).toBe(copy);
    expect(detachedCopy('short')).toBe('short');
    const other = detachedCopy(`${long} Then it stops.`);
    expect(other).toBe(`${long} Then it stops.`);
    expect(detachedCopy(long.slice(4))).toBe(long.slice(4));
  });
});

import { describe, expect, it } from 'vitest';
import { ContextManager, createBoundaryDetector, defaultPatterns, mergePatternPacks } from '../../src/index.js';
import type { PatternPack } from '../../src/index.js';

// A pack whose `completion` group counts how often it is read: validation reads every group of
// the pack, and so does compiling it into a matcher.
function countingPack(): { pack: PatternPack; reads: () => number } {
  const base = mergePatternPacks(defaultPatterns, { completion: ['signed off on it'] });
  let reads = 0;
  const pack = { ...base } as Record<string, unknown>;
  Object.defineProperty(pack, 'completion', {
    enumerable: true,
    get: () => {
      reads += 1;
      return base.completion;
    },
  });
  return { pack: pack as unknown as PatternPack, reads: () => reads };
}

describe('pattern packs', () => {
  it('are validated and compiled once per pack object: a second manager with the same pack reads none of its groups', () => {
    const { pack, reads } = countingPack();
    new ContextManager({ patterns: pack });
    const afterFirst = reads();
    expect(afterFirst).toBeGreaterThan(0);
    new ContextManager({ patterns: pack });
    createBoundaryDetector({ patterns: pack });
    expect(reads()).toBe(afterFirst);
  });

  it('are validated anew when they are another object, even with equal content', () => {
    const first = countingPack();
    const second = countingPack();
    new ContextManager({ patterns: first.pack });
    new ContextManager({ patterns: second.pack });
    expect(second.reads()).toBeGreaterThan(0);
  });

  it('still reject an invalid pack, however often it is given', () => {
    const invalid = { ...defaultPatterns, completion: [''] } as PatternPack;
    expect(() => createBoundaryDetector({ patterns: invalid })).toThrow(/PatternPack/);
    expect(() => createBoundaryDetector({ patterns: invalid })).toThrow(/PatternPack/);
    expect(() => new ContextManager({ patterns: invalid })).toThrow(/PatternPack/);
  });

  it('still reject unknown options next to a valid pack', () => {
    createBoundaryDetector({ patterns: defaultPatterns });
    expect(() => createBoundaryDetector({ patterns: defaultPatterns, extra: true } as never)).toThrow(/extra|unrecognized/i);
  });
});

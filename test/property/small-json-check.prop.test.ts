import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findJsonProblem, isSmallJson, walkForJsonProblem } from '../../src/json-value.js';
import { PROPERTY_RUNS } from '../helpers.js';

// Values of every kind JavaScript has, JSON or nearly, sparse arrays and null-prototype objects
// included, and some that share or nest objects deeply.
const anything = fc.anything({
  maxDepth: 4,
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withSparseArray: true,
  withTypedArray: true,
  withUnicodeString: true,
});
const nested = fc.tuple(fc.integer({ min: 1, max: 140 }), fc.jsonValue({ maxDepth: 1 })).map(([depth, leaf]) => {
  let value: unknown = leaf;
  for (let level = 0; level < depth; level += 1) value = level % 2 === 0 ? [value] : { inner: value };
  return value;
});
const shared = fc.tuple(fc.integer({ min: 1, max: 40 }), fc.jsonValue({ maxDepth: 1 })).map(([depth, leaf]) => {
  let value: unknown = leaf;
  for (let level = 0; level < depth; level += 1) value = { left: value, right: value };
  return value;
});
const cyclic = fc.jsonValue({ maxDepth: 2 }).map((value) => {
  const root: Record<string, unknown> = { value, list: [] };
  (root['list'] as unknown[]).push({ back: root });
  return root;
});

describe('isSmallJson()', () => {
  it('says a value is JSON only when the full walk finds no problem in it, so findJsonProblem answers as the walk does', () => {
    fc.assert(
      fc.property(fc.oneof(anything, nested, shared, cyclic, fc.jsonValue()), (value) => {
        if (isSmallJson(value)) expect(walkForJsonProblem(value)).toBeUndefined();
        expect(findJsonProblem(value)).toEqual(walkForJsonProblem(value));
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });

  it('takes the small plain inputs of tool calls, and leaves deep, large and cyclic ones to findJsonProblem', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        expect(isSmallJson(value)).toBe(true);
      }),
      { numRuns: PROPERTY_RUNS },
    );
    expect(isSmallJson({ command: 'npm test -- --run', timeout: 120, flags: ['-q', null, true] })).toBe(true);
    expect(isSmallJson(Object.assign(Object.create(null) as object, { path: 'src/a.ts' }))).toBe(true);
    let deep: unknown = 'leaf';
    for (let level = 0; level < 40; level += 1) deep = [deep];
    expect(isSmallJson(deep)).toBe(false);
    expect(findJsonProblem(deep)).toBeUndefined();
    expect(isSmallJson(Array.from({ length: 2_000 }, (_, index) => index))).toBe(false);
    const loop: Record<string, unknown> = {};
    loop['self'] = loop;
    expect(isSmallJson(loop)).toBe(false);
    expect(isSmallJson({ when: new Date(0) })).toBe(false);
    expect(isSmallJson([1, , 3])).toBe(false);
    expect(isSmallJson({ ratio: Number.NaN })).toBe(false);
    expect(isSmallJson({ missing: undefined })).toBe(false);
  });
});

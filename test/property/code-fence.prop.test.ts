import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fenceAfterEdit, fenceFor } from '../../src/scratchpad/code-fence.js';
import { PROPERTY_RUNS, sharedEnds } from '../helpers.js';

// Texts dense in backtick runs of every length around the fence's minimum, with line breaks.
const part = fc.constantFrom('`', '``', '```', '````', '`````', 'x', 'code', ' ', '\n', '\n```ts\n', 'a`b');
const text = fc.array(part, { maxLength: 40 }).map((parts) => parts.join(''));
// Longer contents with short edits, so that most edits look at the changed part only.
const content = fc.oneof(text, fc.array(part, { minLength: 40, maxLength: 160 }).map((parts) => parts.join('')));
const insertion = fc.oneof(text, fc.array(part, { maxLength: 4 }).map((parts) => parts.join('')));

describe('fenceAfterEdit()', () => {
  it('gives an edited content the fence a scan of the whole content gives, for any part of the shared ends', () => {
    fc.assert(
      fc.property(content, fc.nat(), fc.nat({ max: 12 }), insertion, fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), (before, at, removed, inserted, keepPrefix, keepSuffix) => {
        const start = before.length === 0 ? 0 : at % (before.length + 1);
        const content = before.slice(0, start) + inserted + before.slice(start + removed);
        const longest = sharedEnds(before, content);
        const shared = { prefix: Math.floor(longest.prefix * keepPrefix), suffix: Math.floor(longest.suffix * keepSuffix) };
        expect(fenceAfterEdit({ before, previous: fenceFor(before), content, shared })).toBe(fenceFor(content));
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });

  it('is longer than every backtick run of the content, and at least three backticks', () => {
    fc.assert(
      fc.property(text, (content) => {
        const fence = fenceFor(content);
        expect(fence.length).toBeGreaterThanOrEqual(3);
        expect(content.includes(fence)).toBe(false);
        expect(/^`+$/.test(fence)).toBe(true);
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });
});

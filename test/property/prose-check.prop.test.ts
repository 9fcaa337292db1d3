import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isProse } from '../../src/language/prose.js';
import { PROPERTY_RUNS } from '../helpers.js';

// Sentences, code, fences (closed and not), inline code, punctuation and letters of other scripts.
const piece = fc.oneof(
  fc.constantFrom(
    'I moved the retry loop into its own helper', 'and the tests pass now.', 'Next I will look at the cache', 'Done!', 'Why?', 'Plan:',
    '```ts\nconst a = f(b);\n```\n', '```\nx\n', '~~~\ny = 2;\n~~~', '   ```py\nprint(1)\n   ```', '`npm test`', '`a`b', 'x = { a: [1, 2] };',
    'fn(a, b) => c;', '<div>', ' ', '\n', '. ', ': ', '!', 'é', 'Ωμέγα λέξη', '日本語の文', 'a', 'ok',
  ),
  fc.string({ maxLength: 30 }),
);
const text = fc.array(piece, { maxLength: 30 }).map((pieces) => pieces.join(' '));

describe('isProse()', () => {
  it('judges every text as its RegExp-based rules do', () => {
    fc.assert(
      fc.property(text, (value) => {
        expect(isProse(value)).toBe(referenceIsProse(value));
      }),
      { numRuns: PROPERTY_RUNS * 2 },
    );
  });

  it('tells a report from code', () => {
    expect(isProse('I moved the retry loop into its own helper, and every test of the module passes now. Next: the cache.')).toBe(true);
    expect(isProse('export function retry(attempts: number): void { for (let i = 0; i < attempts; i++) { run(); } }')).toBe(false);
  });
});

// --- Internal helpers ---

// isProse as written with matches of whole texts.
function referenceIsProse(fullText: string): boolean {
  const value = fullText.replace(/^\s{0,3}(```|~~~)[^\n]*\n[\s\S]*?^\s{0,3}\1[^\n]*$/gmu, ' ').replace(/`[^`\n]*`/gu, 'code');
  if (value.length < 40) return false;
  const words = value.match(/\p{L}{2,}/gu)?.length ?? 0;
  const code = value.match(/[{};=<>()[\]]/gu)?.length ?? 0;
  return words >= 8 && code / value.length < 0.02 && /[.!?:](?:\s|$)/u.test(value);
}

import fc from 'fast-check';
import { countTokens as countCl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { createTokenCounter } from '../../src/index.js';
import type { EncodingName } from '../../src/index.js';
import { createScratchpad } from '../../src/scratchpad/scratchpad.js';
import { countBlocks } from '../../src/tokens/block-counts.js';
import { PROPERTY_RUNS, sharedEnds } from '../helpers.js';

const NO_SPECIAL = { disallowedSpecial: new Set<string>() };
const RAW: Record<EncodingName, (text: string) => number> = {
  o200k_base: (text) => countO200k(text, NO_SPECIAL),
  cl100k_base: (text) => countCl100k(text, NO_SPECIAL),
};

// Lines that move block ends around: indentation, `/` at a line start, blank and space-only
// lines, `\r`, backtick runs (which change a section's fence), words and punctuation.
const piece = fc.constantFrom('  ', '\t', '/', '// note', 'x', 'total', '= 1;', '}', ')', 'é', '`', '````', '\r', 'const item', '42');
const line = fc.array(piece, { maxLength: 6 }).map((pieces) => pieces.join(''));
const lines = (minLength: number, maxLength: number): fc.Arbitrary<string> => fc.array(line, { minLength, maxLength }).map((parts) => parts.join('\n'));
// Around the size where counting goes block by block (2,048 characters), above and below.
const text = fc.oneof(lines(0, 60), lines(150, 600));
const encoding = fc.constantFrom<EncodingName>('o200k_base', 'cl100k_base');

describe('countBlocks()', () => {
  it('gives an edited text the blocks and counts of a fresh count, taking the shared ends from the earlier counts', () => {
    fc.assert(
      fc.property(
        encoding,
        text,
        fc.nat(),
        fc.nat({ max: 400 }),
        lines(0, 8),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (name, before, at, removed, inserted, shrink) => {
          const start = before.length === 0 ? 0 : at % before.length;
          const after = before.slice(0, start) + inserted + before.slice(start + removed);
          const previous = countBlocks(createTokenCounter({ encoding: name }), before);
          if (previous === undefined) throw new Error('the default counter counts by blocks');
          // Any part of the shared ends will do: the longest, or less.
          const longest = sharedEnds(before, after);
          const shared = { previous, prefix: Math.floor(longest.prefix * shrink), suffix: Math.floor(longest.suffix * (1 - shrink)) };
          const edited = countBlocks(createTokenCounter({ encoding: name }), after, shared);
          const fresh = countBlocks(createTokenCounter({ encoding: name }), after);
          expect(edited?.ends).toEqual(fresh?.ends);
          expect(edited?.tokens).toEqual(fresh?.tokens);
          expect(edited?.total).toBe(RAW[name](after));
        },
      ),
      { numRuns: Math.max(30, Math.floor(PROPERTY_RUNS / 4)) },
    );
  });
});

describe('countBlocks() on an edit inside one block', () => {
  // Lines of a long text, some with runs the counter counts in slices (no whitespace for 300
  // characters), so that a block holding one is not derived from its earlier count.
  const codeLine = fc.oneof(
    { weight: 12, arbitrary: line },
    { weight: 1, arbitrary: fc.constantFrom('x'.repeat(300), `  ${'ab'.repeat(160)};`, ' '.repeat(290)) },
  );
  const longLines = fc.array(codeLine, { minLength: 150, maxLength: 400 });
  // A change of a few characters inside one line, or a line replaced, inserted or removed.
  const change = fc.record({
    at: fc.nat(),
    column: fc.nat(),
    removed: fc.nat({ max: 6 }),
    inserted: fc.oneof(fc.constantFrom('', 'y', ' = 2', '//', '\t', '`', 'é'), line),
    kind: fc.constantFrom('chars' as const, 'replace' as const, 'insert' as const, 'remove' as const),
  });

  it('counts the edited block from its earlier count as a fresh count does, the same blocks and counts', () => {
    fc.assert(
      fc.property(encoding, longLines, fc.array(change, { minLength: 1, maxLength: 4 }), (name, parts, changes) => {
        const counter = createTokenCounter({ encoding: name });
        let current = parts.join('\n');
        let previous = countBlocks(counter, current);
        for (const step of changes) {
          const lines = current.split('\n');
          const at = step.at % lines.length;
          const text = lines[at] ?? '';
          const column = step.column % (text.length + 1);
          if (step.kind === 'chars') lines[at] = text.slice(0, column) + step.inserted + text.slice(column + step.removed);
          else if (step.kind === 'replace') lines[at] = step.inserted;
          else if (step.kind === 'insert') lines.splice(at, 0, step.inserted);
          else if (lines.length > 1) lines.splice(at, 1);
          const next = lines.join('\n');
          if (previous === undefined) throw new Error('the default counter counts by blocks');
          const shared = { previous, ...sharedEnds(current, next) };
          const edited = countBlocks(counter, next, shared);
          const fresh = countBlocks(createTokenCounter({ encoding: name }), next);
          expect(edited?.ends).toEqual(fresh?.ends);
          expect(edited?.tokens).toEqual(fresh?.tokens);
          // Slices of a long run count a little more than the tokenizer does.
          if (!/\S{256}|\s{256}/.test(next)) expect(edited?.total).toBe(RAW[name](next));
          current = next;
          previous = edited;
        }
      }),
      { numRuns: Math.max(30, Math.floor(PROPERTY_RUNS / 4)) },
    );
  });
});

describe('Scratchpad sections counted block by block', () => {
  it('keep a count equal to a whole count of the rendered section through edits, rewrites, touches, fence changes and final line breaks', () => {
    const edit = fc.record({
      at: fc.nat(),
      removed: fc.nat({ max: 300 }),
      inserted: lines(0, 6),
      exchangeStep: fc.nat({ max: 2 }),
      isFinalBreakToggled: fc.boolean(),
      isReopen: fc.boolean(),
      // A rewrite: line endings converted (every line changes), or a text of its own.
      rewrite: fc.oneof(fc.constant(undefined), fc.constant(undefined), fc.constant('crlf' as const), text),
    });
    fc.assert(
      fc.property(encoding, text, fc.array(edit, { minLength: 1, maxLength: 8 }), (name, content, edits) => {
        const counter = createTokenCounter({ encoding: name });
        const scratchpad = createScratchpad({ counter, budget: 1_000_000, autoCloseAfter: 100 });
        scratchpad.open({ path: 'src/a.ts', content, seq: 1, exchange: 1 });
        let current = content;
        let seq = 1;
        let exchange = 1;
        for (const step of edits) {
          const start = current.length === 0 ? 0 : step.at % current.length;
          let next = current.slice(0, start) + step.inserted + current.slice(start + step.removed);
          if (step.isFinalBreakToggled) next = next.endsWith('\n') ? next.slice(0, -1) : `${next}\n`;
          // Sometimes the same content again: a touch, which reuses the counted code block.
          if (step.removed === 0 && step.inserted === '' && !step.isFinalBreakToggled) next = current;
          if (step.rewrite === 'crlf') next = current.replace(/\r?\n/g, '\r\n');
          else if (step.rewrite !== undefined) next = step.rewrite;
          seq += 1;
          exchange += step.exchangeStep;
          const input = { path: 'src/a.ts', content: next, seq, exchange };
          const file = step.isReopen ? scratchpad.open(input).file : scratchpad.update(input).file;
          expect(file.tokens).toBe(RAW[name](scratchpad.renderSection('src/a.ts')));
          current = next;
        }
      }),
      { numRuns: Math.max(20, Math.floor(PROPERTY_RUNS / 10)) },
    );
  });
});

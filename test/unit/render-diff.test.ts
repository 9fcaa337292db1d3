import { applyPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { computeDiffRecord, countLines, replayPatches } from '../../src/scratchpad/diff-record.js';
import { formatCount } from '../../src/format.js';
import {
  renderCloseLine,
  renderDiffLines,
  renderOpenLine,
  renderReReadLine,
} from '../../src/scratchpad/render-diff.js';

const PATH = 'src/auth.py';

function numbered(count: number, prefix = 'line'): string[] {
  return Array.from({ length: count }, (_, index) => `${prefix} ${index + 1}`);
}

function text(lines: readonly string[]): string {
  return `${lines.join('\n')}\n`;
}

function linesFor(before: string, after: string, reason?: string): string[] {
  return renderDiffLines(computeDiffRecord({ path: PATH, before, after, reason }));
}

describe('renderDiffLines()', () => {
  it('renders a single changed line as old → new with the reason', () => {
    const before = text(['import os', '', 'if user:', '    login(user)']);
    const after = text(['import os', '', 'if user and user.active:', '    login(user)']);
    expect(linesFor(before, after, 'null check')).toEqual([
      '[src/auth.py:3] `if user:` → `if user and user.active:` (null check)',
    ]);
  });

  it('renders one added line with its 1-based line number in the new file', () => {
    const before = text(['import os', 'import sys', 'x = 1']);
    const after = text(['import os', 'import sys', 'import logging', 'x = 1']);
    expect(linesFor(before, after)).toEqual(['[src/auth.py:3] added `import logging`']);
  });

  it('renders two or three added lines as a range with the first line', () => {
    const before = text(['a', 'b']);
    const after = text(['a', 'first line', 'second', 'third', 'b']);
    expect(linesFor(before, after)).toEqual(['[src/auth.py:2-4] added 3 lines: `first line`']);
  });

  it('renders a removed line at its position in the new file', () => {
    const before = text(['a', 'b', 'import os', 'c']);
    const after = text(['a', 'b', 'c']);
    expect(linesFor(before, after)).toEqual(['[src/auth.py:3] removed `import os`']);
  });

  it('renders a few removed lines with their count and first line', () => {
    const before = text(['a', 'gone 1', 'gone 2', 'b']);
    const after = text(['a', 'b']);
    expect(linesFor(before, after)).toEqual(['[src/auth.py:2] removed 2 lines: `gone 1`']);
  });

  it('renders a larger hunk as +A/-R lines over its range in the new file', () => {
    const old = numbered(60);
    const next = [...old.slice(0, 45), ...numbered(7, 'new'), ...old.slice(46)];
    expect(linesFor(text(old), text(next))).toEqual(['[src/auth.py:46-52] +7/-1 lines: `new 1`']);
  });

  it('renders one line per hunk in file order', () => {
    const old = numbered(30);
    const next = old.map((line, index) => (index === 4 || index === 20 ? `${line} changed` : line));
    expect(linesFor(text(old), text(next))).toEqual([
      '[src/auth.py:5] `line 5` → `line 5 changed`',
      '[src/auth.py:21] `line 21` → `line 21 changed`',
    ]);
  });

  it('puts the reason on the first line only', () => {
    const old = numbered(30);
    const next = old.map((line, index) => (index === 4 || index === 20 ? `${line}!` : line));
    const lines = linesFor(text(old), text(next), 'shout');
    expect(lines[0]).toMatch(/ \(shout\)$/);
    expect(lines[1]).not.toContain('shout');
  });

  it('renders a near-total rewrite as one line', () => {
    const lines = linesFor(text(numbered(10)), text(numbered(12, 'other')));
    expect(lines).toEqual(['[src/auth.py] rewritten: +12/-10 lines, now 12 lines']);
  });

  it('does not call a change to a file of five lines a rewrite', () => {
    const lines = linesFor(text(numbered(5)), text(numbered(5, 'other')));
    expect(lines[0]).toMatch(/^\[src\/auth\.py:1-5\] \+5\/-5 lines/);
  });

  it('caps the hunk lines and summarises the rest', () => {
    const old = numbered(100);
    const next = old.map((line, index) => (index % 8 === 0 ? `${line}!` : line)); // 13 hunks
    const lines = linesFor(text(old), text(next));
    expect(lines).toHaveLength(9);
    expect(lines[8]).toBe('[src/auth.py] … and 5 more hunks (+5/-5 lines)');
  });

  it('cuts long excerpts with an ellipsis', () => {
    const long = `x = "${'a'.repeat(300)}"`;
    const [line] = linesFor(text(['a', 'b']), text(['a', long, 'b']));
    expect(line).toMatch(/…`$/);
    expect(line?.length).toBeLessThan(130);
  });

  it('keeps the difference visible when two long lines share a long prefix', () => {
    const prefix = `value = compute(${'argument, '.repeat(20)}`;
    const [line] = linesFor(text([`${prefix}old)`]), text([`${prefix}new)`]));
    expect(line).toContain('old)');
    expect(line).toContain('new)');
  });

  it('uses a longer delimiter for code that contains backticks', () => {
    const [line] = linesFor(text(['a']), text(['a', 'const s = `x`;']));
    expect(line).toBe('[src/auth.py:2] added ``const s = `x`;``');
  });

  it('says when only the newline at the end of the file changed', () => {
    expect(linesFor('a\nb', 'a\nb\n')).toEqual(['[src/auth.py:2] added newline at end of file']);
    expect(linesFor('a\nb\n', 'a\nb')).toEqual(['[src/auth.py:2] removed newline at end of file']);
  });

  it('says when only whitespace changed on a line', () => {
    expect(linesFor('if x:\n  y()\n', 'if x:\n    y()\n')).toEqual([
      '[src/auth.py:2] whitespace changed: `y()`',
    ]);
  });

  it('renders a binary change as one line with sizes', () => {
    expect(linesFor('GIF\u0000ab', 'GIF\u0000abcd')).toEqual([
      '[src/auth.py] binary content changed: 6 → 8 bytes',
    ]);
  });

  it('returns no lines when nothing changed', () => {
    expect(linesFor('same\n', 'same\n', 'why')).toEqual([]);
  });

  it('quotes paths that contain control characters so a record stays on one line', () => {
    const record = computeDiffRecord({ path: 'a\nb.py', before: 'x\n', after: 'y\n' });
    expect(renderDiffLines(record)).toEqual(['["a\\nb.py":1] `x` → `y`']);
  });
});

describe('computeDiffRecord()', () => {
  it('reports totals, line counts and the rewrite flag', () => {
    const record = computeDiffRecord({ path: PATH, before: 'a\nb\nc\n', after: 'a\nB\nc\nd\n' });
    expect(record).toMatchObject({
      addedLines: 2,
      removedLines: 1,
      oldLineCount: 3,
      newLineCount: 4,
      isRewrite: false,
      isApproximate: false,
    });
    expect(record.hunks.map((hunk) => hunk.newStart)).toEqual([2, 4]);
  });

  it('produces a patch that turns the old content into the new', () => {
    const before = 'a\r\nb\r\nc';
    const after = 'a\r\nB\r\nc\r\nd';
    const { patch } = computeDiffRecord({ path: PATH, before, after });
    expect(applyPatch(before, patch, { autoConvertLineEndings: false })).toBe(after);
  });

  it('falls back to one exact replacement hunk beyond maxEditLength', () => {
    const before = text(['keep', ...numbered(20), 'tail']);
    const after = text(['keep', ...numbered(20, 'other'), 'tail']);
    const record = computeDiffRecord({ path: PATH, before, after, maxEditLength: 5 });
    expect(record.isApproximate).toBe(true);
    expect(record.hunks).toHaveLength(1);
    expect(record.hunks[0]).toMatchObject({ newStart: 2, oldStart: 2 });
    expect(replayPatches(before, [record.patch])).toBe(after);
  });

  it('aligns on unique lines beyond maxEditLength, so scattered edits stay separate hunks', () => {
    const old = numbered(300);
    const next = old.map((line, index) => (index % 3 === 0 ? `${line} edited` : line));
    const record = computeDiffRecord({ path: PATH, before: text(old), after: text(next), maxEditLength: 10 });
    expect(record.isApproximate).toBe(true);
    expect(record.hunks).toHaveLength(100);
    expect(record.isRewrite).toBe(false);
    expect(record.hunks[1]).toMatchObject({ newStart: 4, removed: ['line 4'], added: ['line 4 edited'] });
  });

  it('produces exact patches on the fallback path for random edits with repeated lines', () => {
    let state = 7;
    const next = (): number => {
      state = (state * 1103515245 + 12345) % 2147483648;
      return state / 2147483648;
    };
    const vocabulary = ['}', '', 'return x;', 'x++;', 'if (x) {', 'a', 'b'];
    for (let run = 0; run < 200; run += 1) {
      const make = (): string => {
        const lines = Array.from({ length: Math.floor(next() * 25) }, () =>
          next() < 0.5 ? (vocabulary[Math.floor(next() * vocabulary.length)] ?? '') : `u${Math.floor(next() * 40)}`,
        );
        return lines.join(run % 2 === 0 ? '\n' : '\r\n') + (next() < 0.5 ? '\n' : '');
      };
      const before = make();
      const after = next() < 0.3 ? before.replace(/a/g, 'A') : make();
      for (const maxEditLength of [0, 1000]) {
        const record = computeDiffRecord({ path: PATH, before, after, maxEditLength });
        expect(replayPatches(before, [record.patch])).toBe(after);
      }
    }
  });

  it('has no hunks and an empty patch when nothing changed', () => {
    const record = computeDiffRecord({ path: PATH, before: 'x', after: 'x' });
    expect(record.hunks).toEqual([]);
    expect(record.patch).toBe('');
  });
});

describe('replayPatches()', () => {
  it('throws INVALID_ARGUMENT when a patch does not apply', () => {
    const { patch } = computeDiffRecord({ path: PATH, before: 'a\nb\n', after: 'a\nc\n' });
    expect(() => replayPatches('x\ny\n', [patch])).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', parameter: 'patches[0]' }),
    );
  });
});

describe('countLines()', () => {
  it('does not count a final newline as a line', () => {
    expect([countLines(''), countLines('a'), countLines('a\n'), countLines('a\nb'), countLines('\n\n')]).toEqual([
      0, 1, 1, 2, 2,
    ]);
  });
});

describe('renderOpenLine()', () => {
  it('renders the path and line count', () => {
    const line = renderOpenLine({ path: PATH, lineCount: 1245, bytes: 1, isBinary: false, isWindowed: false });
    expect(line).toBe('[opened src/auth.py, 1,245 lines]');
  });

  it('says when a file is binary or shown as a window', () => {
    expect(renderOpenLine({ path: 'a.png', lineCount: 3, bytes: 2048, isBinary: true, isWindowed: false })).toBe(
      '[opened a.png, binary, 2,048 bytes, not shown]',
    );
    expect(renderOpenLine({ path: 'big.log', lineCount: 9, bytes: 1, isBinary: false, isWindowed: true })).toContain(
      'head/tail window',
    );
  });
});

describe('renderReReadLine()', () => {
  it('says whether the content changed', () => {
    expect(renderReReadLine({ path: PATH, lineCount: 245, isChanged: false })).toBe(
      '[re-read src/auth.py, unchanged, 245 lines]',
    );
    expect(renderReReadLine({ path: PATH, lineCount: 1, isChanged: true })).toBe('[re-read src/auth.py, changed, 1 line]');
  });
});

describe('renderCloseLine()', () => {
  it('renders each cause', () => {
    expect(renderCloseLine({ path: PATH, edits: 6, cause: 'explicit' })).toBe('[closed src/auth.py, 6 edits]');
    expect(renderCloseLine({ path: PATH, edits: 1, cause: 'auto', untouchedExchanges: 10 })).toBe(
      '[closed src/auth.py, 1 edit, untouched for 10 turns]',
    );
    expect(renderCloseLine({ path: PATH, edits: 2, cause: 'evicted' })).toBe(
      '[closed src/auth.py, 2 edits, evicted: scratchpad over budget]',
    );
  });
});

describe('formatCount()', () => {
  it('groups thousands with commas regardless of locale', () => {
    expect([formatCount(0), formatCount(999), formatCount(4210), formatCount(1234567)]).toEqual([
      '0',
      '999',
      '4,210',
      '1,234,567',
    ]);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContextManager, InvalidArgumentError, createTokenCounter, replayPatches } from '../../src/index.js';
import { computeDiffRecord } from '../../src/scratchpad/diff-record.js';
import { createScratchpad, hashContent } from '../../src/scratchpad/scratchpad.js';
import { PROPERTY_RUNS } from '../helpers.js';

const counter = createTokenCounter();

describe('huge inputs', () => {
  describe('token counting', () => {
    it('counts a 5.6 million character run without whitespace without recursing', () => {
      const count = counter.count('QUJD'.repeat(1_400_000));
      expect(count).toBeGreaterThanOrEqual(5_600_000 / 16);
      expect(count).toBeLessThanOrEqual(5_600_000);
    });

    it('counts millions of whitespace characters in slices too', () => {
      const count = counter.count(' '.repeat(3_000_000) + 'end');
      expect(count).toBeGreaterThan(0);
      expect(count).toBeLessThanOrEqual(3_000_003);
    });

    it('counts long ordinary text exactly as the tokenizer does on the whole text', () => {
      const line = 'The handler checks the token expiry before calling the repository.\n';
      // Over 64 KiB, so that the counter works in pieces cut at whitespace.
      expect(counter.count(line.repeat(2_000))).toBe(counter.count(line) * 2_000);
    });
  });

  describe('recording', () => {
    it('records a 5.6 million character tool result, message and file instead of throwing', () => {
      const manager = new ContextManager();
      const blob = 'QUJD'.repeat(1_400_000);
      manager.addMessage({ role: 'assistant', content: 'reading', toolCalls: [{ id: 'call-1', name: 'read', input: { path: 'blob.b64' } }] });
      expect(manager.addToolResult({ callId: 'call-1', output: blob }).kind).toBe('tool-result');
      expect(manager.addMessage({ role: 'user', content: blob }).tokens).toBeLessThanOrEqual(2_100);
      expect(manager.openFile({ path: 'blob.b64', content: blob }).isWindowed).toBe(true);
      expect(manager.build().tokens.total).toBeLessThanOrEqual(manager.budgets.total);
    });

    it.each([
      ['5,000 levels deep', (): unknown => {
        const root: Record<string, unknown> = {};
        let current = root;
        for (let level = 0; level < 5_000; level += 1) {
          const next: Record<string, unknown> = {};
          current['child'] = next;
          current = next;
        }
        return root;
      }],
      ['cyclic', (): unknown => {
        const root: Record<string, unknown> = { list: [] };
        (root['list'] as unknown[]).push({ back: root });
        return root;
      }],
    ])('refuses a tool input %s with an InvalidArgumentError naming the path', (_name, input) => {
      const manager = new ContextManager();
      let caught: unknown;
      try {
        manager.addMessage({ role: 'assistant', content: '', toolCalls: [{ id: 'call-1', name: 'x', input: input() as never }] });
      } catch (error) {
        caught = error;
      }
      expect(InvalidArgumentError.isInstance(caught)).toBe(true);
      expect((caught as InvalidArgumentError).parameter).toMatch(/^toolCalls\[0\]\.input\./);
      expect(manager.state().lastSeq).toBe(0);
    });
  });

  describe('large files', () => {
    it('shows a file far over the budget as a window with an estimated size, counted exactly', () => {
      const scratchpad = createScratchpad({ counter, budget: 2_000, autoCloseAfter: 10 });
      const content = Array.from({ length: 40_000 }, (_, index) => `export const value${index} = ${index};`).join('\n');
      const { file } = scratchpad.open({ path: 'big.ts', content, seq: 1, exchange: 1 });
      expect(file.isWindowed).toBe(true);
      expect(file.tokens).toBeLessThanOrEqual(2_000);
      expect(counter.count(scratchpad.renderSection('big.ts'))).toBe(file.tokens);
      expect(scratchpad.renderSection('big.ts')).toMatch(/file \(about [\d,.]+[KM]? tokens\) exceeds/);
    });

    it('diffs only the changed region of a large file and keeps the patch exact', () => {
      const lines = Array.from({ length: 30_000 }, (_, index) => `line ${index}`);
      const before = lines.join('\n');
      lines[12_345] = 'changed';
      lines.splice(20_000, 0, 'inserted');
      const after = lines.join('\n');
      const record = computeDiffRecord({ path: 'big.txt', before, after });
      expect(record.hunks.map((hunk) => hunk.newStart)).toEqual([12_346, 20_001]);
      expect(record.addedLines).toBe(2);
      expect(record.removedLines).toBe(1);
      expect(replayPatches(before, [record.patch])).toBe(after);
    });

    it('gives the same exact, minimal diff with the common lines set aside', () => {
      const line = fc.constantFrom('a', 'b', 'c', 'd', '', '  x');
      const text = fc.tuple(fc.array(line, { maxLength: 30 }), fc.boolean()).map(([items, isTerminated]) => items.join('\n') + (isTerminated && items.length > 0 ? '\n' : ''));
      fc.assert(
        fc.property(text, text, (before, after) => {
          const trimmed = computeDiffRecord({ path: 'f', before, after, trimCommonLinesAbove: 0 });
          const whole = computeDiffRecord({ path: 'f', before, after, trimCommonLinesAbove: Number.POSITIVE_INFINITY });
          expect(replayPatches(before, [trimmed.patch])).toBe(after);
          expect(trimmed.addedLines + trimmed.removedLines).toBe(whole.addedLines + whole.removedLines);
        }),
        { numRuns: Math.min(PROPERTY_RUNS, 2_000) },
      );
    });

    it('records a change larger than maxDiffBytes without a line diff, says so, and restarts the history', () => {
      const manager = new ContextManager({ maxDiffBytes: 1_000 });
      const skipped: boolean[] = [];
      manager.on('file-update', (event) => skipped.push(event.isDiffSkipped));
      const original = Array.from({ length: 200 }, (_, index) => `const a${index} = ${index};`);
      manager.openFile({ path: 'src/a.ts', content: original.join('\n') });
      const rewritten = original.map((line) => `${line} // reviewed`).join('\n');
      manager.updateFile({ path: 'src/a.ts', content: rewritten });
      const small = rewritten.replace('const a7 = 7;', 'const a7 = 8;');
      manager.updateFile({ path: 'src/a.ts', content: small });
      expect(skipped).toEqual([true, false]);
      const records = manager.state().entries.filter((entry) => entry.kind === 'file-update').map((entry) => entry.text);
      expect(records[0]).toContain('+200/-200 lines');
      expect(records[0]).toContain('maxDiffBytes');
      expect(records[1]).toContain('[src/a.ts:8]');
      const history = manager.fileHistory({ path: 'src/a.ts' });
      expect(history.openContent).toBe(rewritten);
      expect(history.patches).toHaveLength(1);
      expect(replayPatches(history.openContent, history.patches)).toBe(small);
    });

    it('still diffs a one-line edit of a file far larger than maxDiffBytes', () => {
      const lines = Array.from({ length: 50_000 }, (_, index) => `row ${index}`);
      const before = lines.join('\n');
      lines[25_000] = 'row changed';
      const record = computeDiffRecord({ path: 'big.txt', before, after: lines.join('\n'), maxDiffBytes: 1_000 });
      expect(record.isSkipped).toBe(false);
      expect(record.hunks).toHaveLength(1);
    });

    it('hashes with FNV-1a 64 over UTF-8 bytes, as a BigInt reference does', () => {
      fc.assert(
        fc.property(fc.string({ unit: 'binary', maxLength: 40 }), (text) => {
          expect(hashContent(text)).toBe(referenceHash(text));
        }),
        { numRuns: Math.min(PROPERTY_RUNS, 200) },
      );
    });
  });
});

function referenceHash(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(text)) {
    hash ^= BigInt(byte);
    hash = (hash * 0x100000001b3n) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, '0');
}

describe('maxFileBytes', () => {
  const secret = 'AKIA' + 'Q7XK2M9PLR4TW8ZB';
  const big = `const key = "${secret}";\n` + 'export const value = 42;\n'.repeat(200);

  it('holds a file over the limit as a digest line, says so in an event, and stores none of its text', () => {
    const manager = new ContextManager({ maxFileBytes: 1_000 });
    const events: unknown[] = [];
    manager.on('file-oversize', (event) => events.push(event));
    const file = manager.openFile({ path: 'src/big.ts', content: big });
    expect(file.content).toMatch(/^\[file held as a digest: \d+ bytes, 202 lines, fnv1a-64 [0-9a-f]{16}; larger than maxFileBytes \(1000\)\]$/u);
    expect(events).toEqual([{ path: 'src/big.ts', method: 'openFile', bytes: big.length, limit: 1_000, hash: hashContent(big) }]);
    const window = JSON.stringify(manager.build());
    expect(window).toContain('file held as a digest');
    expect(window).not.toContain(secret);
    expect(JSON.stringify(manager.state())).not.toContain('export const value');
  });

  it('tells a changed oversized file from an unchanged one, and holds it in full once it is small again', () => {
    const manager = new ContextManager({ maxFileBytes: 1_000 });
    manager.openFile({ path: 'src/big.ts', content: big });
    expect(manager.isStale({ path: 'src/big.ts', content: big })).toBe(false);
    expect(manager.isStale({ path: 'src/big.ts', content: `${big}// more\n` })).toBe(true);
    const small = manager.updateFile({ path: 'src/big.ts', content: 'export const value = 1;\n' });
    expect(small.content).toBe('export const value = 1;\n');
  });

  it('rejects a limit that is not a positive integer', () => {
    expect(() => new ContextManager({ maxFileBytes: 0 })).toThrow(InvalidArgumentError);
  });
});

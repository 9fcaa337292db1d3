import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../../src/errors.js';
import { replayPatches } from '../../src/scratchpad/diff-record.js';
import { createScratchpad, hashContent } from '../../src/scratchpad/scratchpad.js';
import type { Scratchpad } from '../../src/scratchpad/scratchpad.js';
import type { TokenCounter } from '../../src/tokens/token-counter.js';
import { createRandom } from '../random.js';

// A deterministic counter (4 characters per token) that records every call.
function createCountingCounter(): TokenCounter & { calls: string[] } {
  const calls: string[] = [];
  return {
    name: 'counting',
    calls,
    count: (value: string): number => {
      calls.push(value);
      return Math.ceil(value.length / 4);
    },
  };
}

function setup(options: { budget?: number; autoCloseAfter?: number } = {}): {
  scratchpad: Scratchpad;
  counter: TokenCounter & { calls: string[] };
} {
  const counter = createCountingCounter();
  const scratchpad = createScratchpad({
    counter,
    budget: options.budget ?? 15_000,
    autoCloseAfter: options.autoCloseAfter ?? 10,
  });
  return { scratchpad, counter };
}

function numbered(count: number, prefix = 'line'): string {
  return Array.from({ length: count }, (_, index) => `${prefix} ${index + 1}\n`).join('');
}

const AUTH = 'import os\n\ndef login(user):\n    if user:\n        return True\n    return False\n';

describe('Scratchpad', () => {
  describe('open()', () => {
    it('records the path and line count and holds the content', () => {
      const { scratchpad } = setup();
      const result = scratchpad.open({ path: 'src/auth.py', content: AUTH, seq: 1, exchange: 1, at: 'T1' });
      expect(result.lines).toEqual(['[opened src/auth.py, 6 lines]']);
      expect(result.outcome).toBe('opened');
      expect(result.file).toMatchObject({
        path: 'src/auth.py',
        content: AUTH,
        lineCount: 6,
        edits: 0,
        openedAt: 1,
        touchedAt: 1,
        touchedExchange: 1,
        touchedTime: 'T1',
        isWindowed: false,
      });
      expect(scratchpad.get('src/auth.py')?.content).toBe(AUTH);
    });

    it('records a re-read and only touches the file when the content is unchanged', () => {
      const { scratchpad } = setup();
      scratchpad.open({ path: 'src/auth.py', content: AUTH, seq: 1, exchange: 1 });
      const result = scratchpad.open({ path: 'src/auth.py', content: AUTH, seq: 5, exchange: 3 });
      expect(result.lines).toEqual(['[re-read src/auth.py, unchanged, 6 lines]']);
      expect(result.outcome).toBe('unchanged');
      expect(result.file).toMatchObject({ edits: 0, openedAt: 1, touchedAt: 5, touchedExchange: 3 });
      expect(scratchpad.history('src/auth.py').patches).toEqual([]);
    });

    it('diffs against the held content when the file is re-read with other content', () => {
      const { scratchpad } = setup();
      scratchpad.open({ path: 'src/auth.py', content: AUTH, seq: 1, exchange: 1 });
      const edited = AUTH.replace('if user:', 'if user and user.active:');
      const result = scratchpad.open({ path: 'src/auth.py', content: edited, seq: 2, exchange: 1 });
      expect(result.outcome).toBe('changed');
      expect(result.lines).toEqual([
        '[re-read src/auth.py, changed, 6 lines]',
        '[src/auth.py:4] `if user:` → `if user and user.active:`',
      ]);
      expect(result.file.edits).toBe(1);
      expect(scratchpad.get('src/auth.py')?.content).toBe(edited);
    });

    it('treats paths as equal only when the strings are identical', () => {
      const { scratchpad } = setup();
      scratchpad.open({ path: 'src/a.ts', content: 'a\n', seq: 1, exchange: 1 });
      scratchpad.open({ path: ' src/a.ts', content: 'b\n', seq: 2, exchange: 1 });
      expect(scratchpad.files().map((file) => file.path)).toEqual(['src/a.ts', ' src/a.ts']);
    });
  });

  describe('update()', () => {
    it('records a single-line diff when one line changes', () => {
      const { scratchpad } = setup();
      scratchpad.open({ path: 'src/auth.py', content: AUTH, seq: 1, exchange: 1 });
      const result = scratchpad.update({
        path: 'src/auth.py',
        content: AUTH.replace('if user:', 'if user and user.active:'),
        reason: 'null check',
        seq: 2,
        exchange: 2,
      });
      expect(result.lines).toEqual(['[src/auth.py:4] `if user:` → `if user and user.active:` (null check)']);
      expect(result.diff.hunks).toHaveLength(1);
      expect(result.file).toMatchObject({ edits: 1, touchedAt: 2, touchedExchange: 2, openedAt: 1 });
    });

    it('records nothing but touches the file when the content is identical', () => {
      const { scratchpad } = setup();
      scratchpad.open({ path: 'src/auth.py', content: AUTH, seq: 1, exchange: 1 });
      const result = scratchpad.update({ path: 'src/auth.py', content: AUTH, seq: 7, exchange: 4 });
      expect(result.lines).toEqual([]);
      expect(result.file).toMatchObject({ edits: 0, touchedAt: 7, touchedExchange: 4 });
      expect(scratchpad.history('src/auth.py').patches).toEqual([]);
    });

    it('throws UNKNOWN_FILE for a path that is not open and changes nothing', () => {
      const { scratchpad } = setup();
      scratchpad.open({ path: 'src/auth.py', content: AUTH, seq: 1, exchange: 1 });
      const before = { files: scratchpad.files(), render: scratchpad.render(), tokens: scratchpad.totalTokens() };
      let caught: unknown;
      try {
        scratchpad.update({ path: 'src/other.py', content: 'x', seq: 2, exchange: 1 });
      } catch (error) {
        caught = error;
      }
      expect(InvalidArgumentError.isInstance(caught)).toBe(true);
      expect(caught).toMatchObject({ code: 'UNKNOWN_FILE', parameter: 'path', value: 'src/other.py' });
      expect((caught as Error).message).toContain('Open it first');
      expect(scratchpad.files()).toEqual(before.files);
      expect(scratchpad.render()).toBe(before.render);
      expect(scratchpad.totalTokens()).toBe(before.tokens);
      expect(scratchpad.has('src/other.py')).toBe(false);
    });

    it('says so when an update makes the file exceed the budget', () => {
      const { scratchpad } = setup({ budget: 200 });
      scratchpad.open({ path: 'log.txt', content: 'short\n', seq: 1, exchange: 1 });
      const result = scratchpad.update({ path: 'log.txt', content: numbered(400), seq: 2, exchange: 1 });
      expect(result.file.isWindowed).toBe(true);
      expect(result.lines.at(-1)).toContain('exceeds the scratchpad budget');
    });
  });

  describe('close()', () => {
    it('records the number of edits and removes the file', () => {
      const { scratchpad } = setup();
      scratchpad.open({ path: 'src/auth.py', content: AUTH, seq: 1, exchange: 1 });
      scratchpad.update({ path: 'src/auth.py', content: `${AUTH}# one\n`, seq: 2, exchange: 1 });
      scratchpad.update({ path: 'src/auth.py', content: `${AUTH}# two\n`, seq: 3, exchange: 1 });
      const result = scratchpad.close({ path: 'src/auth.py', cause: 'explicit' });
      expect(result.lines).toEqual(['[closed src/auth.py, 2 edits]']);
      expect(result.edits).toBe(2);
      expect(scratchpad.has('src/auth.py')).toBe(false);
      expect(scratchpad.totalTokens()).toBe(0);
      expect(scratchpad.render()).toBe('');
    });

    it('says how long an auto-closed file was untouched and why an evicted one closed', () => {
      const { scratchpad } = setup();
      scratchpad.open({ path: 'a.py', content: 'a\n', seq: 1, exchange: 2 });
      scratchpad.open({ path: 'b.py', content: 'b\n', seq: 2, exchange: 2 });
      expect(scratchpad.close({ path: 'a.py', cause: 'auto', exchange: 14 }).lines).toEqual([
        '[closed a.py, 0 edits, untouched for 12 turns]',
      ]);
      expect(scratchpad.close({ path: 'b.py', cause: 'evicted' }).lines).toEqual([
        '[closed b.py, 0 edits, evicted: scratchpad over budget]',
      ]);
    });

    it('throws UNKNOWN_FILE for a path that is not open', () => {
      const { scratchpad } = setup();
      expect(() => scratchpad.close({ path: 'nope', cause: 'explicit' })).toThrow(
        expect.objectContaining({ code: 'UNKNOWN_FILE' }),
      );
    });
  });

  describe('filesToAutoClose()', () => {
    it('returns files untouched for autoCloseAfter user turns', () => {
      const { scratchpad } = setup({ autoCloseAfter: 10 });
      scratchpad.open({ path: 'old.py', content: 'a\n', seq: 1, exchange: 2 });
      scratchpad.open({ path: 'new.py', content: 'b\n', seq: 2, exchange: 5 });
      expect(scratchpad.filesToAutoClose({ exchange: 11 })).toEqual([]);
      expect(scratchpad.filesToAutoClose({ exchange: 12 })).toEqual(['old.py']);
      expect(scratchpad.filesToAutoClose({ exchange: 15 })).toEqual(['old.py', 'new.py']);
    });

    it('restarts the count when a file is touched', () => {
      const { scratchpad } = setup({ autoCloseAfter: 10 });
      scratchpad.open({ path: 'a.py', content: 'a\n', seq: 1, exchange: 1 });
      scratchpad.update({ path: 'a.py', content: 'a\n', seq: 2, exchange: 9 });
      expect(scratchpad.filesToAutoClose({ exchange: 12 })).toEqual([]);
      expect(scratchpad.filesToAutoClose({ exchange: 19 })).toEqual(['a.py']);
    });
  });

  describe('filesToEvict()', () => {
    it('returns the least recently touched files until the rest fit, never the kept one', () => {
      const { scratchpad } = setup({ budget: 300 });
      const content = numbered(40); // 40 lines of ~7 characters: ~80 tokens per section
      scratchpad.open({ path: 'a.py', content, seq: 1, exchange: 1 });
      scratchpad.open({ path: 'b.py', content, seq: 2, exchange: 1 });
      scratchpad.open({ path: 'c.py', content, seq: 3, exchange: 1 });
      scratchpad.update({ path: 'a.py', content, seq: 4, exchange: 2 }); // a is now the most recent
      expect(scratchpad.filesToEvict()).toEqual([]);
      scratchpad.open({ path: 'd.py', content, seq: 5, exchange: 2 });
      scratchpad.open({ path: 'e.py', content, seq: 6, exchange: 2 });
      expect(scratchpad.totalTokens()).toBeGreaterThan(300);
      const evicted = scratchpad.filesToEvict({ keep: 'e.py' });
      expect(evicted).toEqual(['b.py', 'c.py']);
      const left = scratchpad.files().filter((file) => !evicted.includes(file.path));
      expect(left.reduce((sum, file) => sum + file.tokens, 0)).toBeLessThanOrEqual(300);
    });

    it('skips the kept file even when it is the least recently touched', () => {
      const { scratchpad } = setup({ budget: 100 });
      scratchpad.open({ path: 'a.py', content: numbered(40), seq: 1, exchange: 1 });
      scratchpad.open({ path: 'b.py', content: numbered(40), seq: 2, exchange: 1 });
      expect(scratchpad.filesToEvict({ keep: 'a.py' })).toEqual(['b.py']);
    });
  });

  describe('oversized files', () => {
    it('renders a head/tail window with a marker and keeps the complete content', () => {
      const { scratchpad } = setup({ budget: 500 });
      const content = numbered(4400);
      const { file, lines } = scratchpad.open({ path: 'big.log', content, seq: 1, exchange: 1 });
      expect(file.isWindowed).toBe(true);
      expect(file.content).toBe(content);
      expect(file.lineCount).toBe(4400);
      expect(file.tokens).toBeLessThanOrEqual(500);
      expect(lines[0]).toContain('head/tail window');
      const section = scratchpad.renderSection('big.log');
      expect(section).toMatch(/\[… [\d,]+ lines not shown: file \(about [\d,]+ tokens\) exceeds the scratchpad budget of 500 tokens; lines 1–\d+ and [\d,]+–4,400 shown …\]/);
      expect(section).toContain('line 1\n');
      expect(section).toContain('line 4400\n');
      expect(section).not.toContain('line 2200\n');
    });

    it('counts an oversized file only as far as it takes to learn that it does not fit', () => {
      const { scratchpad, counter } = setup({ budget: 500 });
      const content = numbered(40_000);
      const { file } = scratchpad.open({ path: 'huge.log', content, seq: 1, exchange: 1 });
      expect(file.isWindowed).toBe(true);
      expect(file.tokens).toBeLessThanOrEqual(500);
      expect(file.tokens).toBe(counter.count(scratchpad.renderSection('huge.log')));
      const counted = counter.calls.reduce((sum, call) => sum + call.length, 0);
      expect(counted).toBeLessThan(content.length / 20);
    });

    it('shows a file of exactly the budget whole and windows one a token over it', () => {
      const content = numbered(300);
      const probe = setup({ budget: 100_000 });
      probe.scratchpad.open({ path: 'a.txt', content, seq: 1, exchange: 1 });
      const exact = probe.counter.count(probe.scratchpad.renderSection('a.txt'));
      const fits = setup({ budget: exact }).scratchpad.open({ path: 'a.txt', content, seq: 1, exchange: 1 }).file;
      expect(fits.isWindowed).toBe(false);
      expect(fits.tokens).toBe(exact);
      const over = setup({ budget: exact - 1 }).scratchpad.open({ path: 'a.txt', content, seq: 1, exchange: 1 }).file;
      expect(over.isWindowed).toBe(true);
      expect(over.tokens).toBeLessThanOrEqual(exact - 1);
    });

    it('does not count a windowed file in full again when it is only touched', () => {
      const { scratchpad, counter } = setup({ budget: 500 });
      const content = numbered(4400);
      scratchpad.open({ path: 'big.log', content, seq: 1, exchange: 1 });
      counter.calls.length = 0;
      scratchpad.open({ path: 'big.log', content, seq: 2, exchange: 2 });
      expect(counter.calls.length).toBeGreaterThan(0);
      expect(Math.max(...counter.calls.map((call) => call.length))).toBeLessThan(content.length / 2);
      expect(scratchpad.renderSection('big.log')).toContain('last touched turn 2');
      expect(scratchpad.get('big.log')?.tokens).toBeLessThanOrEqual(500);
    });

    it('cuts a single enormous line instead of showing nothing', () => {
      const { scratchpad } = setup({ budget: 2000 });
      const content = `${'x'.repeat(100_000)}\n`;
      scratchpad.open({ path: 'bundle.min.js', content, seq: 1, exchange: 1 });
      const section = scratchpad.renderSection('bundle.min.js');
      expect(section).toContain('[line cut: 98,000 more characters]');
      expect(section).toContain('lines over 2,000 characters cut');
      expect(scratchpad.get('bundle.min.js')?.content).toBe(content);
    });
  });

  describe('binary files', () => {
    it('stores binary content but renders a marker', () => {
      const { scratchpad } = setup();
      const content = 'PNG\u0000\u0001\u0002abc';
      const { lines } = scratchpad.open({ path: 'logo.png', content, seq: 1, exchange: 1 });
      expect(lines).toEqual(['[opened logo.png, binary, 9 bytes, not shown]']);
      expect(scratchpad.get('logo.png')?.content).toBe(content);
      expect(scratchpad.renderSection('logo.png')).toContain('[binary file, 9 bytes, not shown]');
      expect(scratchpad.renderSection('logo.png')).not.toContain('abc');
    });
  });

  describe('hashContent()', () => {
    it('matches the published FNV-1a 64-bit test vectors', () => {
      expect(hashContent('')).toBe('cbf29ce484222325');
      expect(hashContent('a')).toBe('af63dc4c8601ec8c');
      expect(hashContent('foobar')).toBe('85944171f73967e8');
    });

    it('hashes the UTF-8 bytes like a BigInt reference implementation', () => {
      const reference = (value: string): string => {
        let hash = 0xcbf29ce484222325n;
        for (const byte of new TextEncoder().encode(value)) {
          hash = ((hash ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
        }
        return hash.toString(16).padStart(16, '0');
      };
      for (const value of ['héllo wörld', '日本語のテキスト', 'emoji 🎉 and \ud800 lone', AUTH]) {
        expect(hashContent(value)).toBe(reference(value));
      }
    });

    it('is stored on the open file', () => {
      const { scratchpad } = setup();
      const { file } = scratchpad.open({ path: 'a.py', content: AUTH, seq: 1, exchange: 1 });
      expect(file.hash).toBe(hashContent(AUTH));
    });
  });

  describe('isStale()', () => {
    it('tells whether the caller has other content, or undefined when the file is not open', () => {
      const { scratchpad } = setup();
      scratchpad.open({ path: 'a.py', content: AUTH, seq: 1, exchange: 1 });
      expect(scratchpad.isStale({ path: 'a.py', content: AUTH })).toBe(false);
      expect(scratchpad.isStale({ path: 'a.py', content: `${AUTH}x` })).toBe(true);
      expect(scratchpad.isStale({ path: 'b.py', content: AUTH })).toBeUndefined();
    });
  });

  describe('history()', () => {
    it('replays the patches from the opened content to the current content', () => {
      const next = createRandom(42);
      const pick = <T,>(values: readonly T[]): T => values[Math.floor(next() * values.length)] as T;
      for (let run = 0; run < 25; run += 1) {
        const { scratchpad } = setup({ budget: 1_000_000 });
        const newline = run % 3 === 0 ? '\r\n' : '\n';
        let lines = Array.from({ length: 1 + Math.floor(next() * 30) }, (_, index) => `line ${index}`);
        const join = (values: readonly string[]): string =>
          values.join(newline) + (next() < 0.7 ? newline : '');
        scratchpad.open({ path: 'f.txt', content: join(lines), seq: 1, exchange: 1 });
        for (let step = 0; step < 15; step += 1) {
          lines = lines.slice();
          for (let edit = 0; edit < 1 + Math.floor(next() * 4); edit += 1) {
            const at = Math.floor(next() * (lines.length + 1));
            const kind = pick(['insert', 'delete', 'change', 'blank', 'clear'] as const);
            if (kind === 'insert') lines.splice(at, 0, `new ${step}.${edit}`, pick(['', '-- x', '+++ y', '@@ z']));
            else if (kind === 'delete') lines.splice(at, 1 + Math.floor(next() * 3));
            else if (kind === 'change') lines[Math.min(at, lines.length - 1)] = `changed ${step}`;
            else if (kind === 'blank') lines.splice(at, 0, '');
            else if (next() < 0.1) lines = [];
          }
          scratchpad.update({ path: 'f.txt', content: join(lines), seq: step + 2, exchange: 1 });
        }
        const { openContent, patches } = scratchpad.history('f.txt');
        expect(replayPatches(openContent, patches)).toBe(scratchpad.get('f.txt')?.content);
      }
    });

    it('throws UNKNOWN_FILE for a path that is not open', () => {
      const { scratchpad } = setup();
      expect(() => scratchpad.history('nope')).toThrow(expect.objectContaining({ code: 'UNKNOWN_FILE' }));
    });
  });

  describe('token counts', () => {
    it('counts each section once per change and never while rendering', () => {
      const { scratchpad, counter } = setup();
      scratchpad.open({ path: 'a.py', content: AUTH, seq: 1, exchange: 1 });
      scratchpad.update({ path: 'a.py', content: `${AUTH}# x\n`, seq: 2, exchange: 1 });
      scratchpad.open({ path: 'b.ts', content: 'let b = 1;\n', seq: 3, exchange: 1 });
      expect(counter.calls).toHaveLength(3);
      counter.calls.length = 0;
      const rendered = scratchpad.render();
      scratchpad.renderSection('a.py');
      scratchpad.totalTokens();
      scratchpad.files();
      scratchpad.filesToEvict();
      expect(counter.calls).toEqual([]);
      expect(rendered).toBe(`${scratchpad.renderSection('a.py')}\n\n${scratchpad.renderSection('b.ts')}`);
    });

    it('caches the count of the exact section text that is rendered', () => {
      const { scratchpad, counter } = setup();
      scratchpad.open({ path: 'a.py', content: AUTH, seq: 1, exchange: 1 });
      expect(counter.calls).toEqual([scratchpad.renderSection('a.py')]);
      expect(scratchpad.get('a.py')?.tokens).toBe(counter.count(scratchpad.renderSection('a.py')));
      expect(scratchpad.totalTokens()).toBe(scratchpad.get('a.py')?.tokens);
    });

    it('does not recount a re-read in the same turn', () => {
      const { scratchpad, counter } = setup();
      scratchpad.open({ path: 'a.py', content: AUTH, seq: 1, exchange: 1 });
      scratchpad.open({ path: 'a.py', content: AUTH, seq: 2, exchange: 1 });
      expect(counter.calls).toHaveLength(1);
    });
  });

  describe('render()', () => {
    it('orders sections by openedAt so that editing a recent file changes only the tail', () => {
      const { scratchpad } = setup();
      scratchpad.open({ path: 'first.py', content: 'a = 1\n', seq: 1, exchange: 1 });
      scratchpad.open({ path: 'second.py', content: 'b = 1\n', seq: 2, exchange: 1 });
      const before = scratchpad.render();
      scratchpad.update({ path: 'second.py', content: 'b = 2\n', seq: 3, exchange: 2 });
      const after = scratchpad.render();
      const firstSection = scratchpad.renderSection('first.py');
      expect(before.startsWith(firstSection)).toBe(true);
      expect(after.startsWith(firstSection)).toBe(true);
      expect(scratchpad.files().map((file) => file.path)).toEqual(['first.py', 'second.py']);
    });

    it('renders a header with lines, edits and last touched turn and a language hint', () => {
      const { scratchpad } = setup();
      scratchpad.open({ path: 'src/auth.py', content: AUTH, seq: 1, exchange: 3 });
      scratchpad.update({ path: 'src/auth.py', content: `${AUTH}x = 1\n`, seq: 2, exchange: 12 });
      expect(scratchpad.renderSection('src/auth.py')).toBe(
        `### src/auth.py (7 lines, 1 edit, last touched turn 12)\n\`\`\`python\n${AUTH}x = 1\n\`\`\``,
      );
    });

    it('uses a fence longer than any backtick run in the content', () => {
      const { scratchpad } = setup();
      const content = 'Example:\n````ts\ncode\n````\nend';
      scratchpad.open({ path: 'README.md', content, seq: 1, exchange: 1 });
      const section = scratchpad.renderSection('README.md');
      expect(section.split('\n')[1]).toBe('`````markdown');
      expect(section.endsWith('\nend\n`````')).toBe(true);
    });

    it('throws UNKNOWN_FILE from renderSection() for a path that is not open', () => {
      const { scratchpad } = setup();
      expect(() => scratchpad.renderSection('nope')).toThrow(expect.objectContaining({ code: 'UNKNOWN_FILE' }));
    });
  });

  describe('toJSON()', () => {
    it('restores the same state without tokenizing', () => {
      const { scratchpad } = setup();
      scratchpad.open({ path: 'a.py', content: AUTH, seq: 1, exchange: 1 });
      scratchpad.update({ path: 'a.py', content: `${AUTH}# x\n`, seq: 2, exchange: 1 });
      scratchpad.open({ path: 'b.py', content: 'b\n', seq: 3, exchange: 2, at: 'T3' });
      const data = JSON.parse(JSON.stringify(scratchpad.toJSON())) as ReturnType<Scratchpad['toJSON']>;
      const counter = createCountingCounter();
      const restored = createScratchpad({ counter, budget: 15_000, autoCloseAfter: 10, initial: data });
      expect(counter.calls).toEqual([]);
      expect(restored.files()).toEqual(scratchpad.files());
      expect(restored.render()).toBe(scratchpad.render());
      expect(restored.totalTokens()).toBe(scratchpad.totalTokens());
      expect(restored.history('a.py')).toEqual(scratchpad.history('a.py'));
    });

    it('re-renders the sections when the budget changed', () => {
      const { scratchpad } = setup({ budget: 100_000 });
      scratchpad.open({ path: 'big.log', content: numbered(2000), seq: 1, exchange: 1 });
      const restored = createScratchpad({
        counter: createCountingCounter(),
        budget: 500,
        autoCloseAfter: 10,
        initial: scratchpad.toJSON(),
      });
      expect(restored.get('big.log')?.isWindowed).toBe(true);
      expect(restored.totalTokens()).toBeLessThanOrEqual(500);
    });
  });
});

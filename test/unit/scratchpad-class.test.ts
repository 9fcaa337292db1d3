import { describe, expect, it } from 'vitest';
import { InvalidArgumentError, Scratchpad, replayPatches } from '../../src/index.js';

const source = ['def login(user):', '    if user:', '        return session_for(user)', ''].join('\n');

describe('Scratchpad', () => {
  describe('open() / update() / close()', () => {
    it('keeps its own sequence and exchange counters when the caller gives none', () => {
      const scratchpad = new Scratchpad();
      const opened = scratchpad.open({ path: 'src/auth.py', content: source });
      const updated = scratchpad.update({ path: 'src/auth.py', content: source.replace('if user:', 'if user and user.active:'), reason: 'null check' });
      expect(opened.file.openedAt).toBe(1);
      expect(updated.file.touchedAt).toBe(2);
      expect(updated.lines).toEqual(['[src/auth.py:2] `if user:` → `if user and user.active:` (null check)']);
      expect(scratchpad.close({ path: 'src/auth.py' }).edits).toBe(1);
      expect(scratchpad.has('src/auth.py')).toBe(false);
    });

    it('follows a sequence number the caller gives and continues after it', () => {
      const scratchpad = new Scratchpad();
      scratchpad.open({ path: 'a.ts', content: 'a\n', seq: 40 });
      expect(scratchpad.update({ path: 'a.ts', content: 'b\n' }).file.touchedAt).toBe(41);
    });

    it('holds the last content given, and its history replays to it', () => {
      const scratchpad = new Scratchpad();
      scratchpad.open({ path: 'a.ts', content: 'one\ntwo\n' });
      scratchpad.update({ path: 'a.ts', content: 'one\n2\n' });
      scratchpad.update({ path: 'a.ts', content: 'zero\none\n2\n' });
      const history = scratchpad.history('a.ts');
      expect(scratchpad.get('a.ts')?.content).toBe('zero\none\n2\n');
      expect(replayPatches(history.openContent, history.patches)).toBe('zero\none\n2\n');
    });

    it('throws UNKNOWN_FILE when updating a file that is not open', () => {
      const scratchpad = new Scratchpad();
      expect(() => scratchpad.update({ path: 'missing.ts', content: '' })).toThrow(expect.objectContaining({ code: 'UNKNOWN_FILE' }));
    });
  });

  describe('autoClose() and evict()', () => {
    it('closes a file untouched for autoCloseAfter exchanges, counted by nextExchange()', () => {
      const scratchpad = new Scratchpad({ autoCloseAfter: 2 });
      scratchpad.open({ path: 'a.ts', content: 'a\n' });
      scratchpad.nextExchange();
      expect(scratchpad.autoClose()).toEqual([]);
      scratchpad.nextExchange();
      expect(scratchpad.autoClose().map((closed) => closed.file.path)).toEqual(['a.ts']);
    });

    it('evicts the least recently touched files until it fits its budget, never the kept one', () => {
      const scratchpad = new Scratchpad({ budget: 120 });
      scratchpad.open({ path: 'old.ts', content: 'x = 1;\n'.repeat(20) });
      scratchpad.open({ path: 'new.ts', content: 'y = 2;\n'.repeat(20) });
      const evicted = scratchpad.evict({ keep: 'new.ts' });
      expect(evicted.map((closed) => closed.file.path)).toEqual(['old.ts']);
      expect(scratchpad.totalTokens()).toBeLessThanOrEqual(120);
    });
  });

  describe('constructor', () => {
    it('round-trips through toJSON() and initial', () => {
      const first = new Scratchpad();
      first.open({ path: 'a.ts', content: 'a\n' });
      const second = new Scratchpad({ initial: first.toJSON() });
      expect(second.render()).toBe(first.render());
      expect(second.update({ path: 'a.ts', content: 'b\n' }).file.touchedAt).toBe(2);
    });

    it('rejects an invalid option with an InvalidArgumentError', () => {
      expect(() => new Scratchpad({ budget: -1 })).toThrow(InvalidArgumentError);
    });
  });
});

import { describe, expect, it } from 'vitest';
import { ContextManager, createMemoryStorage } from '../../src/index.js';
import { filePathKey, normalizeFilePath } from '../../src/scratchpad/file-path.js';

describe('normalizeFilePath()', () => {
  it.each([
    ['C:\\x\\a.ts', 'C:/x/a.ts'],
    ['./a.ts', 'a.ts'],
    ['src//lib///a.ts', 'src/lib/a.ts'],
    ['src/./a.ts', 'src/a.ts'],
    ['src/', 'src'],
    ['.\\src\\a.ts', 'src/a.ts'],
    ['/abs//a.ts', '/abs/a.ts'],
    ['\\\\server\\share\\a.ts', '//server/share/a.ts'],
    ['C:\\', 'C:/'],
    ['/', '/'],
    ['./', '.'],
    ['../a.ts', '../a.ts'],
    ['src/../a.ts', 'src/../a.ts'],
    [' a.ts', ' a.ts'],
  ])('normalises %j to %j', (input, expected) => {
    expect(normalizeFilePath(input)).toBe(expected);
  });

  it('folds letter case only when asked', () => {
    expect(filePathKey('Src/A.ts', { isCaseInsensitive: true })).toBe('src/a.ts');
    expect(filePathKey('Src/A.ts', { isCaseInsensitive: false })).toBe('Src/A.ts');
  });
});

describe('ContextManager file identity', () => {
  it.each([
    ['C:\\x\\a.ts', 'C:/x/a.ts'],
    ['./a.ts', 'a.ts'],
    ['src//a.ts', 'src/a.ts'],
  ])('holds %j and %j as one scratchpad entry', (first, second) => {
    const manager = new ContextManager();
    manager.openFile({ path: first, content: 'const a = 1;\n' });
    manager.updateFile({ path: second, content: 'const a = 2;\n' });
    const files = manager.state().files;
    expect(files).toHaveLength(1);
    expect(files[0]?.path).toBe(normalizeFilePath(second));
    expect(files[0]?.content).toBe('const a = 2;\n');
    expect(manager.isStale({ path: first, content: 'const a = 2;\n' })).toBe(false);
    expect(manager.build().system).not.toContain('const a = 1;');
    manager.closeFile({ path: first });
    expect(manager.state().files).toHaveLength(0);
  });

  it('keeps two spellings that differ in case apart by default', () => {
    const manager = new ContextManager();
    manager.openFile({ path: 'src/A.ts', content: 'a\n' });
    manager.openFile({ path: 'src/a.ts', content: 'b\n' });
    expect(manager.state().files.map((file) => file.path)).toEqual(['src/A.ts', 'src/a.ts']);
  });

  it("treats spellings that differ in case as one file with pathCase: 'insensitive', keeping the first", () => {
    const manager = new ContextManager({ pathCase: 'insensitive' });
    manager.openFile({ path: 'Src\\App.ts', content: 'a\n' });
    const file = manager.updateFile({ path: 'src/app.ts', content: 'b\n' });
    expect(file.path).toBe('Src/App.ts');
    expect(manager.state().files).toHaveLength(1);
    expect(manager.state().entries.map((entry) => entry.path)).toEqual(['Src/App.ts', 'Src/App.ts']);
    expect(manager.fileHistory({ path: 'SRC/APP.TS' }).openContent).toBe('a\n');
  });

  it('loads a session recorded with mixed spellings to the same state', async () => {
    const storage = createMemoryStorage();
    const manager = new ContextManager({ storage });
    manager.openFile({ path: '.\\src\\a.ts', content: 'one\n' });
    manager.updateFile({ path: 'src/a.ts', content: 'two\n' });
    await manager.settle();
    const loaded = await ContextManager.load({ storage });
    expect(loaded.state().files).toEqual(manager.state().files);
  });
});

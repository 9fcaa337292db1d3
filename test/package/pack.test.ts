import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
let project: string;

// Packs the library the way it is published and installs the tarball in a clean project, so that
// the exports map, the built `.d.ts` files and the runtime dependencies are tested as users get them.
describe('the packed tarball', () => {
  beforeAll(() => {
    project = mkdtempSync(join(tmpdir(), 'mobius-pack-'));
    execFileSync('npm', ['pack', '--pack-destination', project, '--silent'], { cwd: root, stdio: 'pipe' });
    const tarball = readdirSync(project).find((name) => name.endsWith('.tgz'));
    if (tarball === undefined) throw new Error('npm pack produced no tarball');
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    execFileSync('npm', ['install', `./${tarball}`, 'fast-check@^4', 'vitest@^4.1', '--no-audit', '--no-fund', '--prefer-offline', '--silent'], { cwd: project, stdio: 'pipe' });
  }, 300_000);

  afterAll(() => {
    if (project !== undefined) rmSync(project, { recursive: true, force: true });
  });

  it('imports every export subpath at runtime and builds a window', () => {
    writeFileSync(
      join(project, 'check.mjs'),
      [
        "import { ContextManager, createMemoryStorage, MobiusError } from 'mobius-context';",
        "import { arbitraries, assertInvariants, createMockSummarizer } from 'mobius-context/testing';",
        "import { createFileStorage } from 'mobius-context/storage-fs';",
        "import pkg from 'mobius-context/package.json' with { type: 'json' };",
        'const manager = new ContextManager({ storage: createMemoryStorage() });',
        "manager.addMessage({ role: 'user', content: 'hello' });",
        'const built = manager.build();',
        "console.log(JSON.stringify({ total: built.tokens.total, roles: built.messages.map((m) => m.role), hasArbitraries: typeof arbitraries.operations, mock: createMockSummarizer().name, assert: typeof assertInvariants, error: typeof MobiusError.isInstance, fs: createFileStorage({ directory: 'sessions' }).name, name: pkg.name }));",
      ].join('\n'),
    );
    const output = JSON.parse(execFileSync('node', ['check.mjs'], { cwd: project, encoding: 'utf8' })) as Record<string, unknown>;
    expect(output).toMatchObject({ roles: ['system', 'user'], hasArbitraries: 'function', mock: 'mock', assert: 'function', error: 'function', fs: 'fs', name: 'mobius-context' });
    expect(output['total']).toBeGreaterThan(0);
  });

  it('exports the components as classes a user can construct without ContextManager', () => {
    writeFileSync(
      join(project, 'classes.mjs'),
      [
        "import { BoundaryDetector, ContextManager, Graduator, Scratchpad, TierStore } from 'mobius-context';",
        'const isClass = (value) => typeof value === "function" && /^class\\b/.test(Function.prototype.toString.call(value));',
        'const names = { BoundaryDetector, ContextManager, Graduator, Scratchpad, TierStore };',
        'const classes = Object.fromEntries(Object.entries(names).map(([name, value]) => [name, isClass(value)]));',
        "const opened = new Scratchpad().open({ path: 'a.ts', content: 'x\\n' }).lines;",
        "const scores = new BoundaryDetector().scoreGaps([{ role: 'user', text: 'hi' }, { role: 'assistant', text: 'Done.' }]).length;",
        "const store = new TierStore(); store.addMessage({ role: 'user', content: 'hello' });",
        'console.log(JSON.stringify({ classes, opened, scores, entries: store.entries().length, graduator: typeof new Graduator().graduate }));',
      ].join('\n'),
    );
    const output = JSON.parse(execFileSync('node', ['classes.mjs'], { cwd: project, encoding: 'utf8' })) as Record<string, unknown>;
    expect(output).toEqual({
      classes: { BoundaryDetector: true, ContextManager: true, Graduator: true, Scratchpad: true, TierStore: true },
      opened: ['[opened a.ts, 1 line]'],
      scores: 2,
      entries: 1,
      graduator: 'function',
    });
  });

  it('typechecks a consumer against the published declarations', () => {
    writeFileSync(
      join(project, 'check.ts'),
      [
        "import { ContextManager } from 'mobius-context';",
        "import type { BuiltContext, GraduationReport, Summarizer } from 'mobius-context';",
        "import { createMockSummarizer } from 'mobius-context/testing';",
        'const summarizer: Summarizer = createMockSummarizer();',
        'const manager = new ContextManager({ summarizer, budget: 28_000 });',
        "manager.on('graduation-end', (report: GraduationReport) => report.removed.length);",
        'const built: BuiltContext = manager.build();',
        'export const total: number = built.tokens.total;',
        '// @ts-expect-error: build() takes an options object',
        'manager.build(28_000);',
        "import { BoundaryDetector, Graduator, Scratchpad, TierStore, wrapSummarizer, withTimeout } from 'mobius-context';",
        "import type { BoundaryScore, ScratchpadUpdateResult } from 'mobius-context';",
        "const pad: Scratchpad = new Scratchpad({ budget: 15_000 });",
        "pad.open({ path: 'a.ts', content: 'a' });",
        "export const update: ScratchpadUpdateResult = pad.update({ path: 'a.ts', content: 'b' });",
        "export const scores: BoundaryScore[] = new BoundaryDetector().scoreGaps([{ role: 'user', text: 'hi' }]);",
        'const store = new TierStore();',
        "export const done: Promise<void> = new Graduator({ summarizer: wrapSummarizer({ summarizer, middleware: [withTimeout({ timeoutMs: 1_000 })] }) }).graduate({ subject: store.graduationSubject({ limits: { working: 100, summaries: 100 } }) });",
      ].join('\n'),
    );
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, skipLibCheck: false, types: [] }, files: ['check.ts'] }),
    );
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    expect(() => execFileSync('node', [tsc, '-p', project], { cwd: project, encoding: 'utf8', stdio: 'pipe' })).not.toThrow();
  });
});

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { transformSync } from 'esbuild';
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

  it('exposes the provider formats and the AI SDK adapter (no `ai` installed: it is an optional peer)', () => {
    writeFileSync(
      join(project, 'check-providers.mjs'),
      [
        "import { ContextManager } from 'mobius-context';",
        "import { normalizeWindow, toAnthropic, toOpenAIChat, toOpenAIResponses, CONTINUATION_TEXT } from 'mobius-context/providers';",
        "import { createMobiusMiddleware, createMobiusPrepareStep } from 'mobius-context/ai-sdk';",
        "import { findAnthropicProblems, findOpenAIChatProblems, findOpenAIResponsesProblems } from 'mobius-context/testing';",
        "const manager = new ContextManager({ systemPrompt: 'You are careful.' });",
        "manager.addMessage({ role: 'assistant', content: 'Resuming.', toolCalls: [{ id: 'c1', name: 'read', input: { path: 'a.ts' } }] });",
        "manager.addToolResult({ callId: 'c1', output: 'export {}' });",
        'const built = manager.build();',
        'const anthropic = toAnthropic(built, { cacheBreakpoints: 2 });',
        'const mobius = createMobiusPrepareStep({ manager });',
        "const step = await mobius.prepareStep({ messages: [{ role: 'user', content: 'Go on.' }] });",
        'const middleware = createMobiusMiddleware({ manager });',
        "console.log(JSON.stringify({ first: normalizeWindow(built).messages[0].content === CONTINUATION_TEXT, problems: [...findAnthropicProblems(anthropic), ...findOpenAIChatProblems(toOpenAIChat(built)), ...findOpenAIResponsesProblems(toOpenAIResponses(built))], roles: anthropic.messages.map((m) => m.role), stepRoles: step.messages.map((m) => m.role), version: middleware.specificationVersion }));",
      ].join('\n'),
    );
    const output = JSON.parse(execFileSync('node', ['check-providers.mjs'], { cwd: project, encoding: 'utf8' })) as Record<string, unknown>;
    expect(output).toEqual({ first: true, problems: [], roles: ['user', 'assistant', 'user'], stepRoles: ['user', 'assistant', 'tool', 'user'], version: 'v3' });
  });

  it('runs an AI SDK tool loop through mobius-context/ai-sdk once `ai` is installed', () => {
    execFileSync('npm', ['install', 'ai@^6', '--no-audit', '--no-fund', '--prefer-offline', '--silent'], { cwd: project, stdio: 'pipe' });
    writeFileSync(
      join(project, 'check-ai-sdk.mjs'),
      [
        "import { generateText, jsonSchema, stepCountIs, tool } from 'ai';",
        "import { MockLanguageModelV3 } from 'ai/test';",
        "import { ContextManager } from 'mobius-context';",
        "import { createMobiusPrepareStep } from 'mobius-context/ai-sdk';",
        "const manager = new ContextManager({ systemPrompt: 'You are careful.' });",
        'const mobius = createMobiusPrepareStep({ manager });',
        "const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 1, text: 1, reasoning: undefined } };",
        'const model = new MockLanguageModelV3({ doGenerate: [',
        "  { content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read', input: '{\"path\":\"a.ts\"}' }], finishReason: { unified: 'tool-calls', raw: undefined }, usage, warnings: [] },",
        "  { content: [{ type: 'text', text: 'It exports nothing.' }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] },",
        '] });',
        "const tools = { read: tool({ inputSchema: jsonSchema({ type: 'object' }), execute: async () => 'export {}' }) };",
        "await generateText({ model, tools, prompt: 'What does a.ts export?', prepareStep: mobius.prepareStep, onStepFinish: mobius.onStepFinish, stopWhen: stepCountIs(5) });",
        'console.log(JSON.stringify({ prompts: model.doGenerateCalls.map((call) => call.prompt.map((m) => m.role)), recorded: manager.state().entries.map((entry) => entry.kind) }));',
      ].join('\n'),
    );
    const output = JSON.parse(execFileSync('node', ['check-ai-sdk.mjs'], { cwd: project, encoding: 'utf8' })) as Record<string, unknown>;
    expect(output).toEqual({ prompts: [['system', 'user'], ['system', 'user', 'assistant', 'tool']], recorded: ['user', 'assistant', 'tool-result', 'assistant'] });
    writeExample('ai-sdk');
    const example = execFileSync('node', ['example-ai-sdk.mjs'], { cwd: project, encoding: 'utf8' });
    expect(example).toContain('turn 6: Step 6 is done: tests pass.');
    expect(example).toContain('the decision from turn 1 is still in the window: true');
  }, 300_000);

  it('typechecks a consumer against the published declarations', () => {
    writeFileSync(
      join(project, 'check.ts'),
      [
        "import { ContextManager } from 'mobius-context';",
        "import type { BuiltContext, GraduationReport, Summarizer } from 'mobius-context';",
        "import { createMockSummarizer } from 'mobius-context/testing';",
        "import type { AnthropicRequest } from 'mobius-context/providers';",
        "import { toAnthropic } from 'mobius-context/providers';",
        "import type { MobiusPrepareStep } from 'mobius-context/ai-sdk';",
        "import { createMobiusPrepareStep } from 'mobius-context/ai-sdk';",
        'const summarizer: Summarizer = createMockSummarizer();',
        'const manager = new ContextManager({ summarizer, budget: 28_000 });',
        "manager.on('graduation-end', (report: GraduationReport) => report.removed.length);",
        'const built: BuiltContext = manager.build();',
        'export const total: number = built.tokens.total;',
        'export const request: AnthropicRequest = toAnthropic(built, { cacheBreakpoints: 4 });',
        'export const mobius: MobiusPrepareStep = createMobiusPrepareStep({ manager, budget: 28_000 });',
        "export const blocks: string[] = built.systemBlocks.map((block) => block.name);",
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

  it('runs the LangChain.js example against mobius-context/langchain once langchain is installed', () => {
    execFileSync('npm', ['install', 'langchain@^1', '@langchain/core@^1', '@langchain/langgraph@^1', '--no-audit', '--no-fund', '--prefer-offline', '--silent'], { cwd: project, stdio: 'pipe' });
    writeExample('langchain');
    const output = execFileSync('node', ['example-langchain.mjs'], { cwd: project, encoding: 'utf8' });
    expect(output).toMatch(/keeps all 48 messages; the last window held \d+ messages/);
    expect(output).toContain('The decision from the first turn is still in the window: true');
  }, 300_000);

  it('runs the Mastra example against mobius-context/mastra on Node 22 once @mastra/core is installed', () => {
    execFileSync('npm', ['install', '@mastra/core@^1', 'ai@^6', '--no-audit', '--no-fund', '--prefer-offline', '--silent'], { cwd: project, stdio: 'pipe' });
    writeExample('mastra');
    const output = execFileSync('npx', ['-y', '-p', 'node@22', 'node', 'example-mastra.mjs'], { cwd: project, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    expect(output).toContain('turn 6: Step 6 is done: tests pass.');
    expect(output).toContain('The decision from the first turn is still in the window: true');
  }, 300_000);

  it('resolves every subpath\'s declarations with moduleResolution node (typesVersions) and bundler too', () => {
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    writeFileSync(
      join(project, 'check-subpaths.ts'),
      ["import type { ContextManager } from 'mobius-context';", "import type { MobiusPrepareStep } from 'mobius-context/ai-sdk';", "import type { MobiusContextMiddlewareOptions } from 'mobius-context/langchain';", "import type { MobiusContextProcessorOptions } from 'mobius-context/mastra';", "import type { NormalizedWindow } from 'mobius-context/providers';", "import type { createFileStorage } from 'mobius-context/storage-fs';", "import type { assertInvariants } from 'mobius-context/testing';", 'export type All = [ContextManager, MobiusPrepareStep, MobiusContextMiddlewareOptions, MobiusContextProcessorOptions, NormalizedWindow, typeof createFileStorage, typeof assertInvariants];'].join('\n'),
    );
    for (const [name, module, moduleResolution] of [['node10', 'CommonJS', 'node'], ['bundler', 'ESNext', 'bundler']] as const) {
      writeFileSync(
        join(project, `tsconfig.${name}.json`),
        JSON.stringify({ compilerOptions: { module, moduleResolution, target: 'ES2022', strict: true, noEmit: true, skipLibCheck: true, types: [] }, files: ['check-subpaths.ts'] }),
      );
      expect(() => execFileSync('node', [tsc, '-p', join(project, `tsconfig.${name}.json`)], { cwd: project, encoding: 'utf8', stdio: 'pipe' }), name).not.toThrow();
    }
  });

  it('typechecks the LangChain.js and Mastra adapters where the frameworks take them', () => {
    writeFileSync(
      join(project, 'check-adapters.ts'),
      [
        "import { Agent } from '@mastra/core/agent';",
        "import { createAgent, fakeModel } from 'langchain';",
        "import { MockLanguageModelV3 } from 'ai/test';",
        "import { ContextManager } from 'mobius-context';",
        "import { mobiusContextMiddleware, toLangChainMessages } from 'mobius-context/langchain';",
        "import type { MobiusContextMiddlewareOptions } from 'mobius-context/langchain';",
        "import { MobiusContextProcessor, toMastraPrompt } from 'mobius-context/mastra';",
        "import type { MastraPrompt } from 'mobius-context/mastra';",
        'const manager = new ContextManager();',
        'const options: MobiusContextMiddlewareOptions = { manager, budget: 28_000 };',
        'export const agent = createAgent({ model: fakeModel(), tools: [], middleware: [mobiusContextMiddleware(options)] });',
        'const mobius = new MobiusContextProcessor({ manager });',
        "export const mastraAgent = new Agent({ id: 'a', name: 'a', instructions: '', model: new MockLanguageModelV3(), inputProcessors: [mobius], outputProcessors: [mobius] });",
        "export const prompt: MastraPrompt = toMastraPrompt({ system: 's', messages: [{ role: 'user', content: 'hi' }] });",
        "export const messages = toLangChainMessages({ messages: [{ role: 'user', content: 'hi' }] });",
        '// @ts-expect-error: the manager is required',
        'mobiusContextMiddleware({});',
      ].join('\n'),
    );
    writeFileSync(
      join(project, 'tsconfig.adapters.json'),
      JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022', strict: true, noEmit: true, skipLibCheck: true, types: [] }, files: ['check-adapters.ts'] }),
    );
    const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
    expect(() => execFileSync('node', [tsc, '-p', join(project, 'tsconfig.adapters.json')], { cwd: project, encoding: 'utf8', stdio: 'pipe' })).not.toThrow();
  }, 300_000);
});

// Writes examples/<name>.ts into the consumer project as plain ESM that imports the package, as a
// user who copied the example would run it.
function writeExample(name: 'ai-sdk' | 'langchain' | 'mastra'): void {
  const source = readFileSync(join(root, 'examples', `${name}.ts`), 'utf8')
    .replaceAll("'../src/index.js'", "'mobius-context'")
    .replaceAll(`'../src/adapters/${name}/index.js'`, `'mobius-context/${name}'`)
    .replaceAll("'../src/providers/index.js'", "'mobius-context/providers'");
  expect(source).not.toContain('../src/');
  writeFileSync(join(project, `example-${name}.mjs`), transformSync(source, { loader: 'ts', format: 'esm', target: 'node20' }).code);
}

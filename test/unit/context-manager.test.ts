import { describe, expect, it } from 'vitest';
import {
  ContextManager,
  InvalidArgumentError,
  MobiusError,
  countMessageTokens,
  createMemoryStorage,
  createTokenCounter,
} from '../../src/index.js';
import type { GraduationReport, Storage, SummarizerFallbackEvent } from '../../src/index.js';
import { createMockSummarizer } from '../../src/testing/index.js';
import { createSmallManager, prose } from '../helpers.js';

function fillWorkingMemory(manager: ContextManager, turns: number): void {
  for (let turn = 0; turn < turns; turn += 1) {
    manager.addMessage({ role: 'user', content: `Step ${turn}: please look at src/module${turn}.ts and fix the parser.` });
    manager.addMessage({ role: 'assistant', content: `${prose(60, turn)} Done, all tests pass.` });
  }
}

describe('ContextManager', () => {
  describe('constructor', () => {
    it('rejects a misspelt option with a typed error naming it', () => {
      let caught: unknown;
      try {
        new ContextManager({ budgett: 5 } as never);
      } catch (error) {
        caught = error;
      }
      expect(InvalidArgumentError.isInstance(caught)).toBe(true);
      expect((caught as MobiusError).code).toBe('INVALID_ARGUMENT');
      expect((caught as Error).message).toContain('budgett');
      expect((caught as Error).message).toContain('Example:');
    });

    it('resolves fractional budgets against a known model window', () => {
      const manager = new ContextManager({ model: 'gpt-4o', budget: { fraction: 0.25 } });
      expect(manager.budgets.total).toBe(32_000);
    });

    it('refuses a fractional budget when the context window is unknown, saying how to fix it', () => {
      expect(() => new ContextManager({ budget: { fraction: 0.5 } })).toThrow(/contextWindow/);
    });
  });

  describe('addMessage()', () => {
    it('records a T0 entry with a cached token count', () => {
      const manager = new ContextManager();
      const entry = manager.addMessage({ role: 'user', content: 'hello there' });
      expect(entry.seq).toBe(1);
      expect(entry.tokens).toBeGreaterThan(2);
      expect(manager.state().entries).toHaveLength(1);
    });

    it('counts special-token text as plain text', () => {
      const manager = new ContextManager();
      const entry = manager.addMessage({ role: 'user', content: 'a <|endoftext|> b' });
      expect(entry.tokens).toBeGreaterThan(4);
    });

    it('rejects invalid input without changing state', () => {
      const manager = new ContextManager();
      manager.addMessage({ role: 'user', content: 'first' });
      const before = manager.state();
      expect(() => manager.addMessage({ role: 'robot', content: 'x' } as never)).toThrow(InvalidArgumentError);
      expect(() => manager.addMessage({ role: 'user', content: 'x', toolCalls: [{ id: 'a', name: 'b', input: {} }] })).toThrow(/only assistant/);
      expect(manager.state()).toEqual(before);
    });

    it('refuses two calls with the same id in one message, naming the second', () => {
      const manager = new ContextManager();
      const calls = [{ id: 'c1', name: 'bash', input: { command: 'ls' } }, { id: 'c1', name: 'bash', input: {} }];
      expect(() => manager.addMessage({ role: 'assistant', content: '', toolCalls: calls })).toThrow(/toolCalls\[1\]\.id repeats the id/);
      expect(manager.state().lastSeq).toBe(0);
    });
  });

  describe('addToolResult()', () => {
    it('pairs a result with its call by id and renders it as a tool message', () => {
      const manager = new ContextManager();
      manager.addMessage({ role: 'assistant', content: 'Running tests.', toolCalls: [{ id: 'c1', name: 'run_tests', input: { filter: 'auth' } }] });
      manager.addToolResult({ callId: 'c1', output: '3 passed' });
      const { history } = manager.build();
      expect(history).toEqual([
        { role: 'assistant', content: 'Running tests.', toolCalls: [{ id: 'c1', name: 'run_tests', input: { filter: 'auth' } }] },
        { role: 'tool', toolCallId: 'c1', toolName: 'run_tests', content: '3 passed' },
      ]);
    });

    it('throws UNKNOWN_TOOL_CALL for a result without a pending call', () => {
      const manager = new ContextManager();
      let caught: unknown;
      try {
        manager.addToolResult({ callId: 'nope', output: 'x' });
      } catch (error) {
        caught = error;
      }
      expect((caught as MobiusError).code).toBe('UNKNOWN_TOOL_CALL');
      expect((caught as Error).message).toContain('Record the call first');
      expect(manager.state().lastSeq).toBe(0);
    });
  });

  describe('files', () => {
    it('keeps the content once in the scratchpad and only a record in history', () => {
      const manager = new ContextManager();
      const content = Array.from({ length: 40 }, (_, index) => `line ${index}`).join('\n');
      manager.openFile({ path: 'src/auth.py', content });
      manager.updateFile({ path: 'src/auth.py', content: content.replace('line 7', 'line seven'), reason: 'rename' });
      const built = manager.build();
      expect(built.system).toContain('line seven');
      const historyText = built.history.map((message) => message.content).join('\n');
      expect(historyText).toContain('[opened src/auth.py, 40 lines]');
      expect(historyText).toContain('(rename)');
      expect(historyText).not.toContain('line 20');
    });

    it('makes a file event the result of the tool call that read it', () => {
      const manager = new ContextManager();
      manager.addMessage({ role: 'assistant', content: '', toolCalls: [{ id: 'r1', name: 'read_file', input: { path: 'a.ts' } }] });
      manager.openFile({ path: 'a.ts', content: 'export const a = 1;\n', callId: 'r1' });
      const tool = manager.build().history[1];
      expect(tool).toMatchObject({ role: 'tool', toolCallId: 'r1', toolName: 'read_file' });
    });

    it('throws UNKNOWN_FILE when updating a file that is not open', () => {
      const manager = new ContextManager();
      expect(() => manager.updateFile({ path: 'x.ts', content: '' })).toThrow(expect.objectContaining({ code: 'UNKNOWN_FILE' }) as Error);
    });

    it('auto-closes a file after ten user turns without a touch', () => {
      const manager = new ContextManager();
      manager.openFile({ path: 'a.ts', content: 'a' });
      for (let turn = 0; turn < 10; turn += 1) manager.addMessage({ role: 'user', content: `turn ${turn}` });
      expect(manager.state().files).toHaveLength(0);
      const records = manager.state().entries.map((entry) => entry.text).join('\n');
      expect(records).toMatch(/\[closed a\.ts, 0 edits.*10/);
    });

    it('detects a file changed outside the agent', () => {
      const manager = new ContextManager();
      manager.openFile({ path: 'a.ts', content: 'one' });
      expect(manager.isStale({ path: 'a.ts', content: 'one' })).toBe(false);
      expect(manager.isStale({ path: 'a.ts', content: 'two' })).toBe(true);
    });
  });

  describe('build()', () => {
    it('orders blocks from most stable to most volatile', () => {
      const manager = new ContextManager({ systemPrompt: 'PREFIX' });
      manager.pin({ text: 'Never edit vendor/' });
      manager.openFile({ path: 'a.ts', content: 'const a = 1;' });
      manager.addMessage({ role: 'user', content: 'hi' });
      const { system } = manager.build();
      expect(system.indexOf('PREFIX')).toBe(0);
      expect(system.indexOf('## Pinned')).toBeLessThan(system.indexOf('## Open files'));
    });

    it('is byte-identical for the same state (prompt-cache friendly)', () => {
      const manager = new ContextManager({ systemPrompt: 'PREFIX' });
      manager.openFile({ path: 'a.ts', content: 'const a = 1;' });
      manager.addMessage({ role: 'user', content: 'hi' });
      expect(JSON.stringify(manager.build())).toBe(JSON.stringify(manager.build()));
    });

    it('never exceeds a tight budget and reports what it left out', () => {
      const manager = new ContextManager();
      fillWorkingMemory(manager, 30);
      const trims: unknown[] = [];
      manager.on('window-trim', (event) => trims.push(event));
      const built = manager.build({ budget: 400 });
      expect(built.tokens.total).toBeLessThanOrEqual(400);
      expect(countMessageTokens(built.messages, createTokenCounter())).toBeLessThanOrEqual(400);
      expect(built.omitted.entries).toBeGreaterThan(0);
      expect(trims).toHaveLength(1);
    });

    it('throws BUDGET_TOO_SMALL when the prefix does not fit', () => {
      const manager = new ContextManager({ systemPrompt: prose(200) });
      let caught: unknown;
      try {
        manager.build({ budget: 10 });
      } catch (error) {
        caught = error;
      }
      expect((caught as MobiusError).code).toBe('BUDGET_TOO_SMALL');
      expect((caught as Error).message).toContain('Pass a larger budget');
    });
  });

  describe('graduation', () => {
    it('moves the oldest chunk to a T1 summary and archives it when T0 exceeds its budget', async () => {
      const manager = createSmallManager();
      const reports: GraduationReport[] = [];
      manager.on('graduation-end', (report) => reports.push(report));
      fillWorkingMemory(manager, 12);
      await manager.settle();
      const state = manager.state();
      expect(reports.length).toBeGreaterThan(0);
      expect(state.tokens.working).toBeLessThanOrEqual(600);
      expect(state.summaries.length + state.archive.filter((item) => item.type === 'summary').length).toBeGreaterThan(0);
      const report = reports[0] as GraduationReport;
      expect(report.removed.length).toBeGreaterThan(0);
      expect(report.removed.every((item) => item.archivedAs === report.summary.id)).toBe(true);
      expect(manager.lastGraduation).toEqual(reports[reports.length - 1]);
    });

    it('keeps every event recorded while a graduation is in flight', async () => {
      let release: (() => void) | undefined;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const summarizer = createMockSummarizer(async () => {
        await gate;
        return { summary: 'Worked on the parser.' };
      });
      const manager = createSmallManager({ summarizer });
      fillWorkingMemory(manager, 8);
      await Promise.resolve();
      manager.addMessage({ role: 'user', content: 'recorded during graduation' });
      release?.();
      await manager.settle();
      const state = manager.state();
      const texts = state.entries.map((entry) => entry.text).concat(state.archive.flatMap((item) => (item.type === 'entry' ? [item.entry.text] : [])));
      expect(texts).toContain('recorded during graduation');
      expect(new Set(state.entrySeqs).size).toBe(state.entrySeqs.length);
    });

    it.each(['throw', 'hang', 'garbage'] as const)('falls back to the extractive summarizer when the summarizer %s', async (mode) => {
      const summarizer = createMockSummarizer(mode);
      const manager = createSmallManager({ summarizer, summarizerTimeoutMs: 5 });
      const fallbacks: SummarizerFallbackEvent[] = [];
      manager.on('summarizer-fallback', (event) => fallbacks.push(event));
      fillWorkingMemory(manager, 10);
      await manager.settle();
      expect(fallbacks.length).toBeGreaterThan(0);
      expect(fallbacks[0]?.reason).toBe(mode === 'throw' ? 'threw' : mode === 'hang' ? 'timeout' : 'invalid-output');
      expect(MobiusError.isInstance(fallbacks[0]?.error)).toBe(true);
      const state = manager.state();
      expect(state.summaries.every((summary) => summary.text.length > 0)).toBe(true);
      expect(manager.lastGraduation?.isFallback).toBe(true);
      expect(manager.lastGraduation?.summarizer).toBe('extractive');
      expect(state.entrySeqs.every((seq) => state.entries.some((entry) => entry.seq === seq) || state.archive.some((item) => item.type === 'entry' && item.entry.seq === seq))).toBe(true);
    });

    it('retries a summarizer that throws once before falling back', async () => {
      const summarizer = createMockSummarizer(['throw', { summary: 'Second attempt worked.' }]);
      const manager = createSmallManager({ summarizer });
      fillWorkingMemory(manager, 8);
      await manager.settle();
      expect(summarizer.calls.length).toBeGreaterThanOrEqual(2);
      expect(manager.state().summaries.some((summary) => summary.text.includes('Second attempt worked.'))).toBe(true);
    });

    it('keeps identifiers that a summarizer dropped', async () => {
      const summarizer = createMockSummarizer({ summary: 'Did some work.' });
      const manager = createSmallManager({ summarizer });
      manager.addMessage({ role: 'user', content: 'The ECONNRESET in `poolClient.ts` happens after 250ms in src/db/pool.ts' });
      fillWorkingMemory(manager, 8);
      await manager.settle();
      const text = manager.state().summaries.map((summary) => summary.text).join('\n');
      expect(text).toContain('src/db/pool.ts');
      expect(text).toContain('ECONNRESET');
    });

    it('merges facts newest-wins by key and keeps the superseded value in history and the archive', async () => {
      const summarizer = createMockSummarizer([
        { summary: 'Set the timeout.', facts: [{ key: 'db-timeout', category: 'decisions', value: 'DB calls use a 5s timeout' }] },
        { summary: 'Changed the timeout.', facts: [{ key: 'db-timeout', category: 'decisions', value: 'DB calls use a 12s timeout' }] },
      ]);
      const manager = createSmallManager({ summarizer });
      const superseded: string[] = [];
      manager.on('fact-supersede', (event) => superseded.push(event.previous ?? ''));
      for (let round = 0; round < 3; round += 1) {
        fillWorkingMemory(manager, 8);
        await manager.settle();
      }
      const facts = manager.state().facts.filter((fact) => fact.key === 'db-timeout');
      expect(facts).toHaveLength(1);
      expect(facts[0]?.value).toBe('DB calls use a 12s timeout');
      expect(facts[0]?.history.map((version) => version.value)).toEqual(['DB calls use a 5s timeout']);
      expect(superseded).toEqual(['DB calls use a 5s timeout']);
      expect(manager.state().archive.some((item) => item.type === 'fact' && item.value === 'DB calls use a 5s timeout')).toBe(true);
      expect(manager.build().system).not.toContain('5s timeout');
    });

    it('marks finished tasks done so they are not presented as pending', async () => {
      const summarizer = createMockSummarizer([
        { summary: 'Started.', tasks: [{ title: 'add rate limiting', status: 'open' }] },
        { summary: 'Finished.', tasks: [{ title: 'add rate limiting', status: 'done' }] },
      ]);
      const manager = createSmallManager({ summarizer });
      for (let round = 0; round < 3; round += 1) {
        fillWorkingMemory(manager, 8);
        await manager.settle();
      }
      const task = manager.state().tasks.find((candidate) => candidate.title === 'add rate limiting');
      expect(task?.status).toBe('done');
      const system = manager.build().system;
      expect(system).toMatch(/done:\n\s+- add rate limiting/);
      expect(system).not.toMatch(/open:\n\s+- add rate limiting/);
    });

    it('keeps pins through every graduation', async () => {
      const manager = createSmallManager();
      const pin = manager.pin({ text: 'Never touch vendor/' });
      fillWorkingMemory(manager, 20);
      await manager.settle();
      expect(manager.state().pins).toEqual([pin]);
      expect(manager.build().system).toContain('Never touch vendor/');
    });
  });

  describe('storage', () => {
    it('saves and loads a session to an equal state and the same window', async () => {
      const storage = createMemoryStorage();
      const manager = createSmallManager({ storage, sessionId: 'demo' });
      manager.openFile({ path: 'a.ts', content: 'const a = 1;\n' });
      fillWorkingMemory(manager, 10);
      manager.pin({ text: 'pinned' });
      await manager.save();
      manager.addMessage({ role: 'user', content: 'after the snapshot' });
      await manager.settle();
      const loaded = await ContextManager.load({ storage, sessionId: 'demo', budget: 3_000, budgets: { facts: 400, pins: 200, summaries: 250, scratchpad: 1_200, working: 600 }, maxEntryTokens: 200 });
      expect(loaded.state()).toEqual(manager.state());
      expect(loaded.build()).toEqual(manager.build());
    });

    it('keeps recording when storage fails, reports it, and retries on the next save', async () => {
      const memory = createMemoryStorage();
      let isFailing = true;
      const storage: Storage = {
        ...memory,
        name: 'flaky',
        append: (sessionId, events) => {
          if (isFailing) throw new Error('disk full');
          return memory.append(sessionId, events);
        },
      };
      const manager = new ContextManager({ storage });
      const errors: string[] = [];
      manager.on('storage-error', (event) => errors.push(event.error.code));
      manager.addMessage({ role: 'user', content: 'one' });
      await manager.settle();
      expect(errors.length).toBeGreaterThan(0);
      expect(errors.every((code) => code === 'STORAGE_FAILED')).toBe(true);
      await expect(manager.save()).rejects.toMatchObject({ code: 'STORAGE_FAILED' });
      isFailing = false;
      await manager.save();
      expect((await memory.read('default', { afterSeq: 0 })).map((event) => event.seq)).toEqual([1]);
    });

    it('refuses save() without storage with UNSUPPORTED', async () => {
      await expect(new ContextManager().save()).rejects.toMatchObject({ code: 'UNSUPPORTED' });
    });
  });
});

describe('ContextManager robustness', () => {
  it('finishes its work and then rethrows when a listener throws', () => {
    const manager = new ContextManager({ budgets: { scratchpad: 200 } });
    manager.on('file-open', () => {
      throw new Error('listener bug');
    });
    expect(() => manager.openFile({ path: 'a.ts', content: prose(100, 1) })).toThrow('listener bug');
    expect(() => manager.openFile({ path: 'b.ts', content: prose(100, 2) })).toThrow('listener bug');
    // The eviction that follows the open still ran.
    expect(manager.state().files.map((file) => file.path)).toEqual(['b.ts']);
  });

  it('freezes event payloads', () => {
    const manager = new ContextManager();
    let payload: { entry: unknown } | undefined;
    manager.on('entry-add', (event) => (payload = event));
    manager.addMessage({ role: 'user', content: 'x' });
    expect(Object.isFrozen(payload)).toBe(true);
    expect(Object.isFrozen(payload?.entry)).toBe(true);
  });

  it('refuses a pin that would exceed budgets.pins', () => {
    const manager = new ContextManager({ budgets: { pins: 20 } });
    manager.pin({ text: 'short rule' });
    expect(() => manager.pin({ text: prose(50) })).toThrow(expect.objectContaining({ code: 'BUDGET_TOO_SMALL' }) as Error);
    expect(manager.state().pins).toHaveLength(1);
  });

  it('keeps tool results right after their call when a note was recorded in between', () => {
    const manager = new ContextManager();
    manager.addMessage({ role: 'assistant', content: '', toolCalls: [{ id: 'a', name: 'x', input: {} }, { id: 'b', name: 'y', input: {} }] });
    manager.addToolResult({ callId: 'a', output: '1' });
    manager.addNote({ content: 'note in between' });
    manager.addToolResult({ callId: 'b', output: '2' });
    expect(manager.build().history.map((message) => message.role)).toEqual(['assistant', 'tool', 'tool', 'user']);
  });

  it('loads a log in which a retried append stored events twice', async () => {
    const storage = createMemoryStorage();
    const manager = new ContextManager({ storage });
    manager.addMessage({ role: 'user', content: 'one' });
    await manager.settle();
    await storage.append('default', await storage.read('default', { afterSeq: 0 }));
    const loaded = await ContextManager.load({ storage });
    expect(loaded.state().entries).toHaveLength(1);
  });
});

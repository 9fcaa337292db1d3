import { describe, expect, it } from 'vitest';
import { ContextManager, createBm25Retriever, createMemoryStorage } from '../../src/index.js';
import { createMockSummarizer } from '../../src/testing/index.js';
import { createSmallManager, prose } from '../helpers.js';

async function graduatedSession(): Promise<ContextManager> {
  const manager = createSmallManager();
  manager.addMessage({ role: 'user', content: 'The ECONNRESET in src/db/pool.ts comes from closing the pool too early.' });
  manager.addMessage({ role: 'assistant', content: 'Fixed it by awaiting pool.drain() in afterAll. Done, all tests pass.' });
  for (let turn = 0; turn < 12; turn += 1) {
    manager.addMessage({ role: 'user', content: `Step ${turn}: refactor the parser module ${turn}.` });
    manager.addMessage({ role: 'assistant', content: `${prose(60, turn)} Done.` });
  }
  await manager.settle();
  return manager;
}

describe('createBm25Retriever()', () => {
  it('ranks documents by the query terms, identifier parts included', async () => {
    const retriever = createBm25Retriever();
    await retriever.add([
      { id: 'a', text: 'the parser handles snake_case columns' },
      { id: 'b', text: 'ECONNRESET in src/db/pool.ts fixed with pool.drain()' },
      { id: 'c', text: 'coffee machine is broken' },
    ]);
    expect((await retriever.search({ query: 'pool econnreset', limit: 2 })).map((hit) => hit.id)).toEqual(['b']);
    expect((await retriever.search({ query: 'case', limit: 2 }))[0]?.id).toBe('a');
  });

  it('replaces a document added again under the same id, and ranks equal scores newest first', async () => {
    const retriever = createBm25Retriever();
    await retriever.add([
      { id: 'old', text: 'the cache key uses the tenant id' },
      { id: 'new', text: 'the cache key uses the tenant id' },
      { id: 'edited', text: 'retry budget of 3 attempts' },
    ]);
    await retriever.add([{ id: 'edited', text: 'retry budget of 5 attempts with jitter' }]);
    expect((await retriever.search({ query: 'tenant cache', limit: 5 })).map((hit) => hit.id)).toEqual(['new', 'old']);
    expect((await retriever.search({ query: 'jitter', limit: 5 })).map((hit) => hit.id)).toEqual(['edited']);
    expect(await retriever.search({ query: '3', limit: 5 })).toEqual([]);
  });
});

describe('ContextManager.recall()', () => {
  it('finds archived entries with their sequence range', async () => {
    const manager = await graduatedSession();
    expect(manager.state().entries.some((entry) => entry.text.includes('ECONNRESET'))).toBe(false);
    const hits = await manager.recall('ECONNRESET pool');
    expect(hits.length).toBeGreaterThan(0);
    expect(hits[0]?.text).toContain('ECONNRESET');
    expect(hits[0]?.source.from).toBeLessThanOrEqual(hits[0]?.source.to ?? 0);
  });

  it('places hits in a recalled block of the next build only, within budget', async () => {
    const manager = await graduatedSession();
    await manager.recall('ECONNRESET', { show: true, limit: 1 });
    const withRecall = manager.build();
    expect(withRecall.system).toContain('## Recalled from the archive');
    expect(withRecall.tokens.blocks.recalled).toBeGreaterThan(0);
    expect(withRecall.tokens.total).toBeLessThanOrEqual(withRecall.tokens.budget);
    expect(manager.build().system).not.toContain('## Recalled from the archive');
  });

  it('rejects an empty query', async () => {
    await expect(new ContextManager().recall('  ')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});

describe('ContextManager.expand()', () => {
  it('re-expands a summary into the entries it came from', async () => {
    const manager = await graduatedSession();
    const state = manager.state();
    const summary = state.summaries[0] ?? state.archive.find((item) => item.type === 'summary');
    const id = summary === undefined ? '' : 'id' in summary ? summary.id : summary.type === 'summary' ? summary.summary.id : '';
    const entries = manager.expand(id);
    expect(entries.length).toBeGreaterThan(0);
    expect(entries.every((entry, index) => index === 0 || (entries[index - 1]?.seq ?? 0) < entry.seq)).toBe(true);
  });

  it('expands a fact into the entries of its source range', async () => {
    const summarizer = createMockSummarizer({ summary: 'Set it.', facts: [{ key: 'db-timeout', category: 'decisions', value: 'DB calls use a 5s timeout' }] });
    const manager = createSmallManager({ summarizer });
    for (let turn = 0; turn < 30; turn += 1) manager.addMessage({ role: 'user', content: `${prose(40, turn)}` });
    await manager.settle();
    const fact = manager.state().facts[0];
    expect(manager.expand('db-timeout').map((entry) => entry.seq)).toContain(fact?.source.from);
  });

  it('throws for an unknown id, saying where ids come from', () => {
    expect(() => new ContextManager().expand('nope')).toThrow(/Use an id from state\(\)/);
  });
});

describe('ContextManager.recap()', () => {
  it('gives brief, full and topic recaps', async () => {
    const manager = await graduatedSession();
    expect(await manager.recap('brief')).toMatch(/^Recap \(brief\):/);
    const full = await manager.recap('full');
    expect(full).toMatch(/^Recap \(full\):/);
    expect(full).toContain('### #1–');
    expect(await manager.recap({ topic: 'ECONNRESET' })).toContain('ECONNRESET');
  });
});

describe('versions, snapshots, rollback and fork', () => {
  it('lists versions, rolls back to one and keeps recording after the undone events', async () => {
    const storage = createMemoryStorage();
    const manager = new ContextManager({ storage, sessionId: 'main' });
    manager.addMessage({ role: 'user', content: 'first' });
    const checkpoint = await manager.snapshot('before the experiment');
    manager.addMessage({ role: 'user', content: 'experiment' });
    await manager.save();
    expect((await manager.listVersions()).map((version) => version.version)).toEqual([2, 1]);
    await manager.rollback(checkpoint.version);
    expect(manager.state().entries.map((entry) => entry.text)).toEqual(['first']);
    const entry = manager.addMessage({ role: 'user', content: 'after rollback' });
    expect(entry.seq).toBe(3);
    await manager.save();
    const loaded = await ContextManager.load({ storage, sessionId: 'main' });
    expect(loaded.state().entries.map((item) => item.text)).toEqual(['first', 'after rollback']);
  });

  it('forks a new session from a version and leaves the original untouched', async () => {
    const storage = createMemoryStorage();
    const manager = new ContextManager({ storage, sessionId: 'main' });
    manager.addMessage({ role: 'user', content: 'shared start' });
    const { version } = await manager.snapshot('fork point');
    const fork = await manager.fork({ version, sessionId: 'branch' });
    fork.addMessage({ role: 'user', content: 'only in the fork' });
    await fork.save();
    expect(manager.state().entries.map((entry) => entry.text)).toEqual(['shared start']);
    const reloaded = await ContextManager.load({ storage, sessionId: 'branch' });
    expect(reloaded.state().entries.map((entry) => entry.text)).toEqual(['shared start', 'only in the fork']);
  });

  it('gives the losing writer a ConflictError and loses nothing it recorded', async () => {
    const storage = createMemoryStorage();
    const first = new ContextManager({ storage, sessionId: 's' });
    first.addMessage({ role: 'user', content: 'one' });
    await first.save();
    const second = await ContextManager.load({ storage, sessionId: 's' });
    second.addMessage({ role: 'user', content: 'from second' });
    await second.save();
    first.addMessage({ role: 'user', content: 'from first' });
    await expect(first.save()).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(first.state().entries.map((entry) => entry.text)).toEqual(['one', 'from first']);
  });

  it('refuses rollback without storage with UNSUPPORTED', async () => {
    await expect(new ContextManager().rollback(1)).rejects.toMatchObject({ code: 'UNSUPPORTED' });
  });
});

describe('automatic saves', () => {
  it('saves on a decision, on leaving and every N messages, without blocking recording', async () => {
    const storage = createMemoryStorage();
    const manager = new ContextManager({ storage, autoSave: { everyMessages: 3, pressureThreshold: 0 } });
    const reasons: string[] = [];
    const snapshots: boolean[] = [];
    manager.on('session-save', (event) => {
      reasons.push(event.reason);
      snapshots.push(event.isSnapshot);
    });
    manager.addMessage({ role: 'user', content: "Let's use PostgreSQL for the queue, we decided." });
    await manager.settle();
    manager.addMessage({ role: 'assistant', content: 'ok' });
    manager.addMessage({ role: 'assistant', content: 'sure' });
    manager.addMessage({ role: 'assistant', content: 'fine' });
    await manager.settle();
    manager.addMessage({ role: 'user', content: 'bye, signing off for today' });
    await manager.settle();
    expect(reasons).toEqual(['decision', 'every-messages', 'leaving']);
    // The log grew by less than the first snapshot: the second save only checked the appends.
    expect(snapshots).toEqual([true, false, true]);
    expect((await manager.listVersions()).length).toBe(2);
  });

  it('emits pressure once when the window passes the threshold, and saves', async () => {
    const storage = createMemoryStorage();
    const manager = new ContextManager({ storage, budget: 2_000, autoSave: { pressureThreshold: 0.5, everyMessages: 0, onDecision: false, onTaskDone: false } });
    const pressure: number[] = [];
    manager.on('pressure', (event) => pressure.push(event.ratio));
    manager.openFile({ path: 'a.ts', content: prose(900) });
    manager.openFile({ path: 'b.ts', content: prose(100, 3) });
    await manager.settle();
    expect(pressure).toHaveLength(1);
    expect(pressure[0]).toBeGreaterThan(0.5);
    expect((await manager.listVersions()).length).toBe(1);
  });

  it('does nothing without storage or with autoSave: false', async () => {
    const manager = new ContextManager({ storage: createMemoryStorage(), autoSave: false });
    manager.addMessage({ role: 'user', content: 'bye' });
    await manager.settle();
    expect(await manager.listVersions()).toEqual([]);
  });
});

describe('project memory', () => {
  it('carries facts (with history) and pins into a new session', async () => {
    const summarizer = createMockSummarizer([
      { summary: 'a', facts: [{ key: 'db-timeout', category: 'decisions', value: 'DB calls use a 5s timeout' }] },
      { summary: 'b', facts: [{ key: 'db-timeout', category: 'decisions', value: 'DB calls use a 12s timeout' }] },
    ]);
    const first = createSmallManager({ summarizer });
    first.pin({ text: 'Never touch vendor/' });
    for (let round = 0; round < 2; round += 1) {
      for (let turn = 0; turn < 20; turn += 1) first.addMessage({ role: 'user', content: prose(40, turn) });
      await first.settle();
    }
    const memory = first.projectMemory();
    const second = new ContextManager({ projectMemory: memory });
    const fact = second.state().facts.find((item) => item.key === 'db-timeout');
    expect(fact?.value).toBe('DB calls use a 12s timeout');
    expect(fact?.history.map((version) => version.value)).toEqual(['DB calls use a 5s timeout']);
    expect(second.state().pins.map((pin) => pin.text)).toEqual(['Never touch vendor/']);
    expect(second.build().system).toContain('DB calls use a 12s timeout');
  });
});

describe('recall index regressions', () => {
  // Found by the save/load property test: camelCase splitting over a 1 MB run was quadratic.
  it('indexes and searches a 1 MB string without whitespace', async () => {
    const retriever = createBm25Retriever();
    await retriever.add([{ id: 'huge', text: 'x'.repeat(1_000_000) }, { id: 'small', text: 'parseConfigFile in src/config.ts' }]);
    expect((await retriever.search({ query: 'config', limit: 5 })).map((hit) => hit.id)).toEqual(['small']);
  });
});

describe('saveProjectMemory() / loadProjectMemory()', () => {
  it('keeps a project memory in a storage and loads the newest into a new session', async () => {
    const { saveProjectMemory, loadProjectMemory } = await import('../../src/index.js');
    const storage = createMemoryStorage();
    expect(await loadProjectMemory({ storage, projectId: 'shop' })).toBeUndefined();
    const first = new ContextManager();
    first.pin({ text: 'Money is integer cents' });
    await saveProjectMemory({ storage, projectId: 'shop', memory: first.projectMemory() });
    const memory = await loadProjectMemory({ storage, projectId: 'shop' });
    const next = new ContextManager({ projectMemory: memory });
    expect(next.state().pins.map((pin) => pin.text)).toEqual(['Money is integer cents']);
    await expect(saveProjectMemory({ storage, projectId: '../x', memory: first.projectMemory() })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});

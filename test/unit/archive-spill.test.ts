import { describe, expect, it } from 'vitest';
import { ContextManager, InvalidArgumentError, MobiusError, createMemoryStorage } from '../../src/index.js';
import type { ArchiveSpillEvent, ContextManagerOptions, Storage } from '../../src/index.js';
import { capture, prose } from '../helpers.js';

const SMALL = { budget: 3_000, budgets: { facts: 400, pins: 200, summaries: 250, scratchpad: 1_200, working: 600 }, maxEntryTokens: 200, autoSave: false } as const;

/** Records a session long enough for several graduations (and so several archive groups). */
// Long enough that more than the two budgets of graduated entries a window may show again are archived.
const STEPS = 90;

function record(manager: ContextManager, steps: number, from = 0): void {
  for (let step = from; step < from + steps; step += 1) {
    manager.addMessage({ role: 'user', content: `Step ${step}: please fix parseConfig${step} in src/config-${step}.ts. ${prose(40, step)}` });
    manager.addMessage({ role: 'assistant', content: '', toolCalls: [{ id: `call-${step}`, name: 'run_tests', input: { step } }] });
    manager.addToolResult({ callId: `call-${step}`, output: `FAIL src/config-${step}.test.ts\nExpected widget${step} to equal ${step}\n${prose(30, step + 1)}` });
    manager.addMessage({ role: 'assistant', content: `Done: fixed parseConfig${step}, all tests pass. ${prose(30, step + 2)}` });
    if (step % 5 === 2) manager.pin({ text: `rule ${step}` });
    if (step % 5 === 4) manager.unpin({ id: (manager.state().pins[0] ?? { id: '' }).id });
  }
}

/** Records in rounds that each end with `settle()`, as an agent loop awaits between steps, so graduations stay small. */
async function recordSettled(manager: ContextManager, steps: number, from = 0): Promise<void> {
  for (let step = from; step < from + steps; step += ROUND) {
    record(manager, Math.min(ROUND, from + steps - step), step);
    await manager.settle();
  }
}

const ROUND = 5;

async function spilledPair(options: { memoryItems: number; steps?: number; storage?: Storage }): Promise<{ spilled: ContextManager; plain: ContextManager; storage: Storage }> {
  const storage = options.storage ?? createMemoryStorage();
  const spilled = new ContextManager({ ...SMALL, storage, sessionId: 'spilled', archive: { memoryItems: options.memoryItems } });
  const plain = new ContextManager({ ...SMALL });
  await recordSettled(spilled, options.steps ?? STEPS);
  await recordSettled(plain, options.steps ?? STEPS);
  await spilled.settle();
  await plain.settle();
  return { spilled, plain, storage };
}

describe('archive spilling', () => {
  describe('options', () => {
    it('refuses `archive` without a storage, with a hint', () => {
      const error = (() => {
        try {
          return new ContextManager({ archive: { memoryItems: 10 } });
        } catch (caught) {
          return caught;
        }
      })();
      expect(InvalidArgumentError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ parameter: 'archive' });
      expect(String((error as Error).message)).toContain('storage');
    });

    it('refuses a negative or fractional memoryItems', () => {
      expect(() => new ContextManager({ storage: createMemoryStorage(), archive: { memoryItems: -1 } })).toThrow(/memoryItems/);
      expect(() => new ContextManager({ storage: createMemoryStorage(), archive: { memoryItems: 1.5 } } as ContextManagerOptions)).toThrow(/memoryItems/);
    });
  });

  describe('spill', () => {
    it('keeps memoryItems plus what build() may show again in memory, and reports each spill', async () => {
      const storage = createMemoryStorage();
      const manager = new ContextManager({ ...SMALL, storage, sessionId: 's', archive: { memoryItems: 5 } });
      const spills: ArchiveSpillEvent[] = [];
      manager.on('archive-spill', (event) => spills.push(event));
      await recordSettled(manager, STEPS);
      await manager.settle();
      const state = manager.state();
      expect(state.spilledArchiveItems).toBeGreaterThan(0);
      expect(spills.length).toBeGreaterThan(0);
      expect(spills.every((event) => !event.isUnsupported)).toBe(true);
      expect(spills.at(-1)?.spilledItems).toBe(state.spilledArchiveItems);
      expect(state.archive.length).toBeGreaterThanOrEqual(5);
      // The oldest group in memory stays for one of two reasons: without it fewer than
      // memoryItems would stay, or the newer groups hold at most two budgets of graduated entries
      // (the window may show those again, so they stay for build()).
      const oldest = state.archive[0]?.archivedAt;
      const oldestCount = state.archive.filter((item) => item.archivedAt === oldest).length;
      const newerGraduated = state.archive
        .filter((item) => item.archivedAt !== oldest)
        .reduce((sum, item) => sum + (item.type === 'entry' && item.reason === 'graduated' ? item.entry.tokens : 0), 0);
      expect(state.archive.length - oldestCount < 5 || newerGraduated <= 2 * SMALL.budget).toBe(true);
      // And memory does not hold the whole archive.
      expect(state.archive.length).toBeLessThan(state.archive.length + state.spilledArchiveItems);
    });

    it('loses nothing: readArchive() equals the archive of a manager that does not spill', async () => {
      const { spilled, plain } = await spilledPair({ memoryItems: 2 });
      expect(spilled.state().spilledArchiveItems).toBeGreaterThan(0);
      expect(await spilled.readArchive()).toEqual(plain.state().archive);
      expect(spilled.state().entries).toEqual(plain.state().entries);
      expect(JSON.stringify(spilled.build())).toBe(JSON.stringify(plain.build()));
    });

    it('keeps everything in memory with a storage that cannot hold the archive, and says so once', async () => {
      const inner = createMemoryStorage();
      const storage: Storage = {
        name: 'plain',
        append: (sessionId, events) => inner.append(sessionId, events),
        read: (sessionId, options) => inner.read(sessionId, options),
        saveSnapshot: (sessionId, snapshot, options) => inner.saveSnapshot(sessionId, snapshot, options),
        loadSnapshot: (sessionId, options) => inner.loadSnapshot(sessionId, options),
      };
      const manager = new ContextManager({ ...SMALL, storage, sessionId: 's', archive: { memoryItems: 0 } });
      const spills: ArchiveSpillEvent[] = [];
      manager.on('archive-spill', (event) => spills.push(event));
      await recordSettled(manager, STEPS);
      await manager.settle();
      expect(spills).toHaveLength(1);
      expect(spills[0]).toMatchObject({ isUnsupported: true, items: 0 });
      expect(manager.state().spilledArchiveItems).toBe(0);
      expect(manager.state().archive.length).toBeGreaterThan(0);
    });
  });

  describe('read paths', () => {
    it('expand() throws ARCHIVE_SPILLED naming expandAsync() for a spilled item; expandAsync() returns what a plain manager expands', async () => {
      const { spilled, plain } = await spilledPair({ memoryItems: 0 });
      const archivedEntry = plain.state().archive.find((item) => item.type === 'entry');
      if (archivedEntry?.type !== 'entry') throw new Error('expected an archived entry');
      const id = `e${archivedEntry.entry.seq}`;
      const error = await capture(() => spilled.expand(id));
      expect(MobiusError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ code: 'ARCHIVE_SPILLED' });
      expect((error as Error).message).toContain('expandAsync');
      expect(await spilled.expandAsync(id)).toEqual(plain.expand(id));
      for (const summary of plain.state().summaries) expect(await spilled.expandAsync(summary.id)).toEqual(plain.expand(summary.id));
      for (const item of plain.state().archive) {
        if (item.type === 'summary') expect(await spilled.expandAsync(item.summary.id)).toEqual(plain.expand(item.summary.id));
        if (item.type === 'fact') {
          const factId = `fact:${item.key}@${item.archivedAt}`;
          expect(await spilled.expandAsync(factId)).toEqual(plain.expand(factId));
        }
      }
    });

    it('expand() still answers synchronously for what is in memory', async () => {
      const { spilled, plain } = await spilledPair({ memoryItems: 1_000 });
      const entry = plain.state().entries[0];
      if (entry === undefined) throw new Error('expected a T0 entry');
      expect(spilled.expand(`e${entry.seq}`)).toEqual(plain.expand(`e${entry.seq}`));
    });

    it('expand() answers T0 entries synchronously even when archived items were spilled', async () => {
      const { spilled, plain } = await spilledPair({ memoryItems: 0 });
      expect(spilled.state().spilledArchiveItems).toBeGreaterThan(0);
      for (const entry of plain.state().entries) expect(spilled.expand(`e${entry.seq}`)).toEqual(plain.expand(`e${entry.seq}`));
    });

    it('expandAsync() rejects an unknown id like expand()', async () => {
      const { spilled } = await spilledPair({ memoryItems: 0 });
      const error = await capture(() => spilled.expandAsync('nope'));
      expect(InvalidArgumentError.isInstance(error)).toBe(true);
    });

    it('recall() finds spilled items, before and after a load', async () => {
      const { spilled, plain, storage } = await spilledPair({ memoryItems: 0 });
      const query = 'parseConfig1 widget1';
      const expected = await plain.recall(query, { limit: 5 });
      expect(expected.length).toBeGreaterThan(0);
      expect(await spilled.recall(query, { limit: 5 })).toEqual(expected);
      await spilled.save();
      const loaded = await ContextManager.load({ ...SMALL, storage, sessionId: 'spilled', archive: { memoryItems: 0 } });
      expect((await loaded.recall(query, { limit: 5 })).map((hit) => hit.id)).toEqual(expected.map((hit) => hit.id));
    });

    it("recap('full') includes spilled summaries", async () => {
      const { spilled, plain } = await spilledPair({ memoryItems: 0 });
      expect(await spilled.recap('full')).toBe(await plain.recap('full'));
    });
  });

  describe('persistence', () => {
    it('does not embed spilled items in snapshots; load() gives everything back', async () => {
      const { spilled, plain, storage } = await spilledPair({ memoryItems: 0 });
      await spilled.save();
      const snapshot = await storage.loadSnapshot('spilled');
      const tiers = (snapshot?.state as { tiers: { archive: unknown[]; archiveSpilled?: unknown[] } }).tiers;
      expect(tiers.archive.length).toBe(spilled.state().archive.length);
      expect(tiers.archiveSpilled?.length).toBeGreaterThan(0);
      const plainStorage = createMemoryStorage();
      const saved = new ContextManager({ ...SMALL, storage: plainStorage, sessionId: 'plain' });
      await recordSettled(saved, STEPS);
      await saved.save();
      const spilledItems = (await spilled.readArchive()).slice(0, spilled.state().spilledArchiveItems);
      // The snapshot is smaller by (nearly) the spilled items: it keeps only their compact manifest.
      const saving = JSON.stringify(await plainStorage.loadSnapshot('plain')).length - JSON.stringify(snapshot).length;
      expect(saving).toBeGreaterThan(0.8 * JSON.stringify(spilledItems).length);
      const loaded = await ContextManager.load({ ...SMALL, storage, sessionId: 'spilled', archive: { memoryItems: 3 } });
      expect(loaded.state()).toEqual(spilled.state());
      expect(await loaded.readArchive()).toEqual(plain.state().archive);
      expect(JSON.stringify(loaded.build())).toBe(JSON.stringify(plain.build()));
      await recordSettled(loaded, 10, STEPS);
      await recordSettled(plain, 10, STEPS);
      await loaded.settle();
      await plain.settle();
      expect(await loaded.readArchive()).toEqual(plain.state().archive);
    });

    it('fork() copies the spilled groups, so the fork has everything after the original is gone', async () => {
      const { spilled, plain, storage } = await spilledPair({ memoryItems: 0 });
      await spilled.save();
      const forked = await spilled.fork({ sessionId: 'forked' });
      expect(await forked.readArchive()).toEqual(plain.state().archive);
      const reloaded = await ContextManager.load({ ...SMALL, storage, sessionId: 'forked' });
      expect(await reloaded.readArchive()).toEqual(plain.state().archive);
    });

    it('rollback() gives back the archive of the version, spilled part included', async () => {
      const storage = createMemoryStorage();
      const spilled = new ContextManager({ ...SMALL, storage, sessionId: 'r', archive: { memoryItems: 0 } });
      const plain = new ContextManager({ ...SMALL });
      await recordSettled(spilled, STEPS);
      await recordSettled(plain, STEPS);
      await spilled.settle();
      await plain.settle();
      const version = (await spilled.snapshot('before')).version;
      const expected = plain.state().archive;
      await recordSettled(spilled, 30, STEPS);
      await spilled.settle();
      expect((await spilled.readArchive()).length).toBeGreaterThan(expected.length);
      await spilled.rollback(version);
      expect(await spilled.readArchive()).toEqual(expected);
      await recordSettled(spilled, 5, STEPS + 30);
      await spilled.settle();
      const archive = await spilled.readArchive();
      expect(archive.slice(0, expected.length)).toEqual(expected);
      expect(new Set(archive.map((item) => item.archivedAt)).size).toBe(new Set(archive.map((item) => `${item.archivedAt}`)).size);
    });

    it('refuses to construct from a spilled state without a storage that can read it', async () => {
      const { spilled, storage } = await spilledPair({ memoryItems: 0 });
      await spilled.save();
      const snapshot = await storage.loadSnapshot('spilled');
      const plainStorage: Storage = { name: 'plain', append: () => undefined, read: () => [], saveSnapshot: () => 1, loadSnapshot: () => snapshot };
      const error = await capture(() => ContextManager.load({ ...SMALL, storage: plainStorage, sessionId: 'spilled' }));
      expect(error).toMatchObject({ code: 'UNSUPPORTED' });
    });
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContextManager, createMemoryStorage } from '../../src/index.js';
import { applyOperations, assertInvariants } from '../../src/testing/index.js';
import { PROPERTY_RUNS, createSmallManager } from '../helpers.js';
import { sessions } from './run-session.js';

const SMALL = { budget: 3_000, budgets: { facts: 400, pins: 200, summaries: 250, scratchpad: 1_200, working: 600 }, maxEntryTokens: 200, autoSave: false } as const;
// Each run replays a session twice, saves and loads: fewer runs than the in-memory properties.
const SPILL_RUNS = Math.max(25, Math.floor(PROPERTY_RUNS / 10));

describe('invariant 2 with the archive spilled to storage', () => {
  it('loses nothing with a tiny memoryItems: every entry is reachable through the async paths, and save → load gives everything back', async () => {
    await fc.assert(
      fc.asyncProperty(sessions, fc.nat({ max: 3 }), fc.nat(), async (operations, memoryItems, split) => {
        const storage = createMemoryStorage();
        const manager = createSmallManager({ storage, sessionId: 'spill', autoSave: false, archive: { memoryItems } });
        // The same session without spilling: the reference for what must be reachable.
        const plain = createSmallManager({ autoSave: false });
        const cut = operations.length === 0 ? 0 : split % (operations.length + 1);
        const model = applyOperations(manager, operations.slice(0, cut));
        applyOperations(plain, operations.slice(0, cut));
        await manager.save();
        await plain.settle();
        applyOperations(manager, operations.slice(cut));
        applyOperations(plain, operations.slice(cut));
        await manager.settle();
        await plain.settle();

        const state = manager.state();
        const archive = await manager.readArchive();
        expect(archive).toEqual(plain.state().archive);
        expect(state.archive.length + state.spilledArchiveItems).toBe(archive.length);
        expect(archive.slice(archive.length - state.archive.length)).toEqual(state.archive);
        expect(state.entries).toEqual(plain.state().entries);
        expect(JSON.stringify(manager.build())).toBe(JSON.stringify(plain.build()));
        assertInvariants(manager, { archive, ...(cut === operations.length ? { model } : {}) });

        // Every recorded entry: in T0, or archived and reachable by its id and from the T1 summaries.
        const archived = new Set(archive.flatMap((item) => (item.type === 'entry' ? [item.entry.seq] : [])));
        for (const seq of state.entrySeqs) {
          expect(state.entries.some((entry) => entry.seq === seq) !== archived.has(seq)).toBe(true);
          expect((await manager.expandAsync(`e${seq}`)).map((entry) => entry.seq)).toEqual([seq]);
        }
        const reachable: number[] = [];
        for (const summary of state.summaries) reachable.push(...(await manager.expandAsync(summary.id)).map((entry) => entry.seq));
        expect(reachable.sort((a, b) => a - b)).toEqual([...archived].sort((a, b) => a - b));
        // Sync expand() answers the same or refuses with the code that names expandAsync().
        for (const summary of state.summaries) {
          try {
            expect(manager.expand(summary.id)).toEqual(plain.expand(summary.id));
          } catch (error) {
            expect(error).toMatchObject({ code: 'ARCHIVE_SPILLED' });
          }
        }

        const loaded = await ContextManager.load({ ...SMALL, storage, sessionId: 'spill', archive: { memoryItems } });
        expect(await loaded.readArchive()).toEqual(archive);
        // Events replayed by load() archive their items in memory; they spill in the background.
        await loaded.settle();
        expect(loaded.state()).toEqual(state);
      }),
      { numRuns: SPILL_RUNS, timeout: 30_000, endOnFailure: true },
    );
  });
});

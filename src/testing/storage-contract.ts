import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ContextManager } from '../context-manager.js';
import { ConflictError, MobiusError } from '../errors.js';
import type { ContextManagerOptions } from '../options.js';
import type { SessionEvent } from '../session-event.js';
import type { ArchiveGroup, SessionSnapshot, Storage } from '../storage/storage.js';
import type { ArchivedItem } from '../types.js';
import { applyOperations, arbitraries } from './arbitraries.js';

/** Options of {@link describeStorageContract}. */
export interface StorageContractOptions {
  /** Shown in the suite's name, e.g. `'redis'`. */
  name: string;
  /** Creates a fresh, empty storage; called before every test. */
  create: () => Promise<Storage> | Storage;
  /**
   * Unlabelled versions the created storage keeps per session, to test pruning. Omit it when the
   * storage keeps every version; the pruning tests are then skipped (and say so in their names).
   * @default undefined
   */
  versions?: number | undefined;
  /** Runs of the generated save → load round-trip property. @default 10 */
  roundTripRuns?: number | undefined;
  /** Declares extra tests for this storage; `getStorage()` returns the current test's storage. */
  additionalTests?: ((getStorage: () => Storage) => void) | undefined;
}

/**
 * Declares the vitest suite that every {@link Storage} must pass: ordering and idempotence of
 * `append()`, conflicts between writers, exact snapshot round trips, versions, isolation of
 * sessions, and a full `ContextManager` save → load round trip. Call it at the top level of a
 * test file. Optional capabilities the storage lacks (`listVersions`) are skipped visibly: the
 * skipped tests' names say what is missing.
 *
 * @example
 * ```ts
 * // test/redis-storage.test.ts
 * import { describeStorageContract } from 'mobius-context/testing';
 *
 * describeStorageContract({
 *   name: 'redis',
 *   create: async () => createRedisStorage({ client: await connect(), prefix: crypto.randomUUID() }),
 * });
 * ```
 */
export function describeStorageContract(options: StorageContractOptions): void {
  const roundTripRuns = options.roundTripRuns ?? 10;
  describe(`Storage contract: ${options.name}`, async () => {
    // Capabilities are known only from an instance; vitest allows an async suite factory, so the
    // skip conditions (and the test names that show them) are fixed before the tests run.
    const probe = await options.create();
    const hasListVersions = typeof probe.listVersions === 'function';
    const hasArchive = typeof probe.appendArchive === 'function' && typeof probe.readArchive === 'function';
    await probe.dispose?.();
    const needsArchive = hasArchive ? '' : ' (skipped: the storage has no appendArchive/readArchive; the archive stays in memory)';
    const needsVersions = hasListVersions ? '' : ' (skipped: the storage has no listVersions)';
    const needsPruning =
      options.versions === undefined ? ' (skipped: no `versions` option given)' : needsVersions;

    let storage: Storage;
    const getStorage = (): Storage => storage;
    beforeEach(async () => {
      storage = await options.create();
    });
    afterEach(async () => {
      await storage.dispose?.();
    });

    describe('append() and read()', () => {
      it('returns the events after `afterSeq`, oldest first', async () => {
        await storage.append('s1', [message(1), message(2)]);
        await storage.append('s1', [message(3)]);
        expect(await storage.read('s1', { afterSeq: 0 })).toEqual([message(1), message(2), message(3)]);
        expect(seqs(await storage.read('s1', { afterSeq: 1 }))).toEqual([2, 3]);
        expect(await storage.read('s1', { afterSeq: 3 })).toEqual([]);
      });

      it('returns an empty list for a session that has no events', async () => {
        expect(await storage.read('unknown', { afterSeq: 0 })).toEqual([]);
      });

      it('skips events appended again with the same content', async () => {
        await storage.append('s1', [message(1), message(2)]);
        await storage.append('s1', [message(2), message(3)]);
        await storage.append('s1', [message(1)]);
        expect(seqs(await storage.read('s1', { afterSeq: 0 }))).toEqual([1, 2, 3]);
      });

      it('throws ConflictError for a stored seq with different content and stores nothing of that batch', async () => {
        await storage.append('s1', [message(1), message(2)]);
        const error = await capture(() => storage.append('s1', [message(2, 'another writer'), message(3)]));
        expect(ConflictError.isInstance(error)).toBe(true);
        expect((error as MobiusError).code).toBe('CONFLICT');
        expect(await storage.read('s1', { afterSeq: 0 })).toEqual([message(1), message(2)]);
      });

      it('keeps strings exact: unicode, NUL characters, lone surrogates and 1 MB', async () => {
        const events: SessionEvent[] = HOSTILE_STRINGS.map((content, index) => message(index + 1, content));
        await storage.append('s1', events);
        expect(await storage.read('s1', { afterSeq: 0 })).toEqual(events);
      });

      it('stores a copy: changing an event after append() changes nothing', async () => {
        const event = { ...message(1) };
        await storage.append('s1', [event]);
        (event as { content: string }).content = 'mutated';
        expect(await storage.read('s1', { afterSeq: 0 })).toEqual([message(1)]);
      });

      it('keeps the events after a snapshot readable, and appends after it', async () => {
        await storage.append('s1', [message(1), message(2), message(3), message(4)]);
        await storage.saveSnapshot('s1', snapshot(2));
        expect(seqs(await storage.read('s1', { afterSeq: 2 }))).toEqual([3, 4]);
        await storage.append('s1', [message(4), message(5)]);
        expect(seqs(await storage.read('s1', { afterSeq: 2 }))).toEqual([3, 4, 5]);
        const error = await capture(() => storage.append('s1', [message(5, 'changed')]));
        expect(ConflictError.isInstance(error)).toBe(true);
      });
    });

    describe('saveSnapshot() and loadSnapshot()', () => {
      it('returns null before any snapshot', async () => {
        expect(await storage.loadSnapshot('s1')).toBeNull();
      });

      it('round-trips a snapshot exactly: nested JSON, unicode, NUL characters and large strings', async () => {
        const state = { strings: HOSTILE_STRINGS, nested: { list: [1, -0.5, 1e21, null, true, false, [], {}], empty: '' } };
        const version = await storage.saveSnapshot('s1', { formatVersion: 1, seq: 7, state, label: 'ünïcödé ✓' });
        expect(version).toBe(1);
        const loaded = await storage.loadSnapshot('s1');
        expect(loaded).toEqual({ formatVersion: 1, seq: 7, state, label: 'ünïcödé ✓', version: 1 });
      });

      it('stores a copy: changing the snapshot after saveSnapshot() changes nothing', async () => {
        const state = { items: ['a'] };
        await storage.saveSnapshot('s1', { formatVersion: 1, seq: 1, state });
        state.items.push('b');
        expect((await storage.loadSnapshot('s1'))?.state).toEqual({ items: ['a'] });
      });

      it('numbers versions 1, 2, 3… and loads the newest', async () => {
        expect(await storage.saveSnapshot('s1', snapshot(1))).toBe(1);
        expect(await storage.saveSnapshot('s1', snapshot(5))).toBe(2);
        expect(await storage.saveSnapshot('s1', snapshot(9))).toBe(3);
        expect(await storage.loadSnapshot('s1')).toMatchObject({ seq: 9, version: 3, state: { at: 9 } });
      });

      it('loads a given version with { version }, and null for a version it does not have', async () => {
        await storage.saveSnapshot('s1', snapshot(1));
        await storage.saveSnapshot('s1', snapshot(5));
        expect(await storage.loadSnapshot('s1', { version: 1 })).toMatchObject({ seq: 1, version: 1, state: { at: 1 } });
        expect(await storage.loadSnapshot('s1', { version: 42 })).toBeNull();
      });

      it('saves when `expectedVersion` is the newest version (0 for a new session)', async () => {
        expect(await storage.saveSnapshot('s1', snapshot(1), { expectedVersion: 0 })).toBe(1);
        expect(await storage.saveSnapshot('s1', snapshot(2), { expectedVersion: 1 })).toBe(2);
      });

      it('throws ConflictError when `expectedVersion` is stale, and saves nothing', async () => {
        await storage.saveSnapshot('s1', snapshot(1), { expectedVersion: 0 });
        await storage.saveSnapshot('s1', snapshot(2), { expectedVersion: 1 });
        const error = await capture(() => storage.saveSnapshot('s1', snapshot(3), { expectedVersion: 1 }));
        expect(ConflictError.isInstance(error)).toBe(true);
        expect(error).toMatchObject({ code: 'CONFLICT', expected: 1, actual: 2 });
        expect(await storage.loadSnapshot('s1')).toMatchObject({ seq: 2, version: 2 });
        if (hasListVersions) expect((await storage.listVersions?.('s1'))?.map((info) => info.version)).toEqual([2, 1]);
        expect(await storage.saveSnapshot('s1', snapshot(3), { expectedVersion: 2 })).toBe(3);
      });

      it.skipIf(!hasListVersions)(`lists versions newest first, with seq and label${needsVersions}`, async () => {
        expect(await storage.listVersions?.('s1')).toEqual([]);
        await storage.saveSnapshot('s1', snapshot(1));
        await storage.saveSnapshot('s1', { ...snapshot(4), label: 'before refactor' });
        await storage.saveSnapshot('s1', snapshot(6));
        expect(await storage.listVersions?.('s1')).toEqual([
          { version: 3, seq: 6 },
          { version: 2, seq: 4, label: 'before refactor' },
          { version: 1, seq: 1 },
        ]);
      });

      it.skipIf(options.versions === undefined || !hasListVersions)(`keeps the newest ${options.versions ?? 'N'} unlabelled versions and every labelled one${needsPruning}`, async () => {
        const keep = options.versions ?? 0;
        await storage.saveSnapshot('s1', { ...snapshot(1), label: 'checkpoint' });
        for (let index = 2; index <= keep + 3; index += 1) await storage.saveSnapshot('s1', snapshot(index));
        const versions = (await storage.listVersions?.('s1'))?.map((info) => info.version);
        const newest = Array.from({ length: keep }, (_, index) => keep + 3 - index);
        expect(versions).toEqual([...newest, 1]);
        expect(await storage.loadSnapshot('s1', { version: 1 })).toMatchObject({ label: 'checkpoint', state: { at: 1 } });
        expect(await storage.loadSnapshot('s1', { version: 2 })).toBeNull();
      });
    });

    describe('appendArchive() and readArchive()', () => {
      it.skipIf(!hasArchive)(`returns the stored groups among the seqs asked for, in seq order${needsArchive}`, async () => {
        expect(await storage.readArchive?.('s1', { seqs: [3] })).toEqual([]);
        await storage.appendArchive?.('s1', [archiveGroup(3), archiveGroup(7)]);
        await storage.appendArchive?.('s1', [archiveGroup(12)]);
        expect(await storage.readArchive?.('s1', { seqs: [12, 3, 5] })).toEqual([archiveGroup(3), archiveGroup(12)]);
        expect(await storage.readArchive?.('s1', { seqs: [] })).toEqual([]);
      });

      it.skipIf(!hasArchive)(`keeps items exact and stores a copy${needsArchive}`, async () => {
        const group = { seq: 4, items: HOSTILE_STRINGS.slice(0, 7).map((text, index) => archivedEntry(4, index + 1, text)) };
        const sent = structuredClone(group);
        await storage.appendArchive?.('s1', [sent]);
        (sent.items as ArchivedItem[]).length = 0;
        expect(await storage.readArchive?.('s1', { seqs: [4] })).toEqual([group]);
      });

      it.skipIf(!hasArchive)(`skips a group sent again with the same content and throws ConflictError for other content${needsArchive}`, async () => {
        await storage.appendArchive?.('s1', [archiveGroup(3)]);
        await storage.appendArchive?.('s1', [archiveGroup(3), archiveGroup(5)]);
        expect(await storage.readArchive?.('s1', { seqs: [3, 5] })).toEqual([archiveGroup(3), archiveGroup(5)]);
        const error = await capture(() => storage.appendArchive?.('s1', [archiveGroup(5, 'other text'), archiveGroup(9)]));
        expect(ConflictError.isInstance(error)).toBe(true);
        expect(await storage.readArchive?.('s1', { seqs: [5, 9] })).toEqual([archiveGroup(5)]);
      });

      it.skipIf(!hasArchive)(`keeps the archives of sessions apart${needsArchive}`, async () => {
        await storage.appendArchive?.('s1', [archiveGroup(3, 'one')]);
        await storage.appendArchive?.('s2', [archiveGroup(3, 'two')]);
        expect(await storage.readArchive?.('s1', { seqs: [3] })).toEqual([archiveGroup(3, 'one')]);
        expect(await storage.readArchive?.('s2', { seqs: [3] })).toEqual([archiveGroup(3, 'two')]);
      });

      it.skipIf(!hasArchive)(`holds a spilled archive: a manager keeping no archived item in memory loads back everything${needsArchive}`, async () => {
        const manager = new ContextManager({ ...MANAGER_OPTIONS, storage, sessionId: 'spilled', archive: { memoryItems: 0 } });
        const plain = new ContextManager(MANAGER_OPTIONS);
        // In rounds that each end with settle(), as an agent loop awaits between steps: graduations
        // stay small, so groups older than what a window may show again can spill.
        for (let from = 0; from < 300; from += 5) {
          for (const each of [manager, plain]) {
            recordScript(each, from, from + 5);
            // The script pins now and then; pins leave again so that they stay within budgets.pins.
            for (const pin of each.state().pins) each.unpin({ id: pin.id });
          }
          await manager.settle();
          await plain.settle();
        }
        await manager.save();
        await plain.settle();
        expect(manager.state().spilledArchiveItems).toBeGreaterThan(0);
        const loaded = await ContextManager.load({ ...MANAGER_OPTIONS, storage, sessionId: 'spilled' });
        expect(await loaded.readArchive()).toEqual(plain.state().archive);
        expect(JSON.stringify(loaded.build())).toBe(JSON.stringify(plain.build()));
      });
    });

    describe('sessions', () => {
      it('keeps sessions apart', async () => {
        await storage.append('s1', [message(1, 'one')]);
        await storage.append('s2', [message(1, 'two'), message(2)]);
        await storage.saveSnapshot('s2', snapshot(2));
        expect(await storage.read('s1', { afterSeq: 0 })).toEqual([message(1, 'one')]);
        expect(await storage.loadSnapshot('s1')).toBeNull();
        expect(await storage.loadSnapshot('s2')).toMatchObject({ version: 1 });
        expect(await storage.saveSnapshot('s1', snapshot(1), { expectedVersion: 0 })).toBe(1);
      });
    });

    describe('with ContextManager', () => {
      it('save() then ContextManager.load() gives an equal state() and an identical build()', async () => {
        const manager = new ContextManager({ ...MANAGER_OPTIONS, storage, sessionId: 'agent' });
        recordScript(manager, 0, 24);
        await manager.save();
        recordScript(manager, 24, 30);
        await manager.settle();
        expect(manager.lastGraduation).toBeDefined();
        const loaded = await ContextManager.load({ ...MANAGER_OPTIONS, storage, sessionId: 'agent' });
        expect(loaded.state()).toEqual(manager.state());
        expect(JSON.stringify(loaded.build())).toBe(JSON.stringify(manager.build()));
        recordScript(loaded, 30, 34);
        await loaded.save();
        const again = await ContextManager.load({ ...MANAGER_OPTIONS, storage, sessionId: 'agent' });
        expect(again.state()).toEqual(loaded.state());
      });

      it('refuses the save of a manager whose session another manager saved since, with ConflictError', async () => {
        const first = new ContextManager({ ...MANAGER_OPTIONS, storage, sessionId: 'shared' });
        recordScript(first, 0, 4);
        await first.save();
        const left = await ContextManager.load({ ...MANAGER_OPTIONS, storage, sessionId: 'shared' });
        const right = await ContextManager.load({ ...MANAGER_OPTIONS, storage, sessionId: 'shared' });
        recordScript(left, 4, 6);
        await left.save();
        const error = await capture(() => right.save());
        expect(ConflictError.isInstance(error)).toBe(true);
        const reloaded = await ContextManager.load({ ...MANAGER_OPTIONS, storage, sessionId: 'shared' });
        expect(reloaded.state()).toEqual(left.state());
      });

      it('round-trips generated sessions saved at a random point', async () => {
        let run = 0;
        await fc.assert(
          fc.asyncProperty(arbitraries.operations({ maxLength: 30, hasHugeStrings: false }), fc.nat(), async (operations, split) => {
            run += 1;
            const sessionId = `generated-${run}`;
            const manager = new ContextManager({ ...MANAGER_OPTIONS, storage, sessionId });
            const cut = split % (operations.length + 1);
            applyOperations(manager, operations.slice(0, cut));
            await manager.save();
            applyOperations(manager, operations.slice(cut));
            await manager.settle();
            const loaded = await ContextManager.load({ ...MANAGER_OPTIONS, storage, sessionId });
            expect(loaded.state()).toEqual(manager.state());
            expect(JSON.stringify(loaded.build())).toBe(JSON.stringify(manager.build()));
          }),
          // Shrinking re-runs real I/O for minutes; the seed and path printed on failure replay it.
          { numRuns: roundTripRuns, endOnFailure: true },
        );
      });
    });

    if (options.additionalTests !== undefined) {
      describe('additional tests', () => options.additionalTests?.(getStorage));
    }
  });
}

// --- Internal helpers ---

const MANAGER_OPTIONS: ContextManagerOptions = {
  budget: 3_000,
  budgets: { facts: 400, pins: 200, summaries: 250, scratchpad: 1_200, working: 600 },
  maxEntryTokens: 200,
  autoSave: false,
};

const HOSTILE_STRINGS: readonly string[] = [
  '',
  'plain ASCII',
  'ünïcödé, 中文, emoji 🧪👩‍💻, right-to-left עברית',
  'NUL \u0000 inside, and \u0001\u001f control characters',
  'lone surrogates \ud800 and \udfff',
  'line\nbreaks\r\nand \u2028 separators \u2029',
  '"quotes", \\backslashes\\ and {"json": "inside"}',
  'x'.repeat(1_000_000),
];

function message(seq: number, content = `message ${seq}`): SessionEvent {
  return { type: 'message', seq, role: seq % 2 === 1 ? 'user' : 'assistant', content };
}

function snapshot(seq: number): SessionSnapshot {
  return { formatVersion: 1, seq, state: { at: seq } };
}

function archivedEntry(archivedAt: number, seq: number, text: string): ArchivedItem {
  return {
    type: 'entry',
    reason: 'graduated',
    entry: { seq, kind: 'user', role: 'user', text, display: text, tokens: 3, exchange: 1 },
    summaryId: `s${archivedAt}`,
    archivedAt,
  };
}

function archiveGroup(seq: number, text = `archived before ${seq}`): ArchiveGroup {
  return { seq, items: [archivedEntry(seq, seq - 2, text), archivedEntry(seq, seq - 1, `${text} (2)`)] };
}

function seqs(events: readonly SessionEvent[]): number[] {
  return events.map((event) => event.seq);
}

async function capture(call: () => unknown): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw, but it resolved');
}

const PROSE = 'the handler checks the token expiry before calling the repository and returns early when the user is inactive so we avoid a query';

/** Records steps `from` to `to` (exclusive) of a fixed agent session: messages, tools, files, pins. */
function recordScript(manager: ContextManager, from: number, to: number): void {
  for (let step = from; step < to; step += 1) {
    const path = `src/module-${step % 3}.ts`;
    switch (step % 6) {
      case 0:
        manager.addMessage({ role: 'user', content: `Step ${step}: ${PROSE}. Fix ${path}, please.` });
        break;
      case 1:
        manager.addMessage({ role: 'assistant', content: '', toolCalls: [{ id: `call-${step}`, name: 'read_file', input: { path } }] });
        manager.addToolResult({ callId: `call-${step}`, output: `export const value${step} = ${step};\n${PROSE}` });
        break;
      case 2:
        if (manager.state().files.some((file) => file.path === path)) manager.updateFile({ path, content: `export const value = ${step};\n// ${PROSE}\n`, reason: `step ${step}` });
        else manager.openFile({ path, content: `export const value = ${step};\n` });
        break;
      case 3:
        manager.addMessage({ role: 'assistant', content: `Done with step ${step}, all tests pass. ${PROSE}.` });
        break;
      case 4:
        if (step % 12 === 4) manager.pin({ text: `Rule ${step}: never edit vendor/ ✓` });
        manager.addNote({ content: `note ${step}: NUL \u0000 and ünïcödé` });
        break;
      default:
        manager.addMessage({ role: 'user', content: `now let's work on the next module ${step}. ${PROSE}` });
        break;
    }
  }
}

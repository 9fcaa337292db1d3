import { describe, expect, it } from 'vitest';
import { createVersionedStorage } from '../../src/index.js';
import type { StorageBackend, StoredRecord, StoredVersion } from '../../src/index.js';
import { describeStorageContract } from '../../src/testing/index.js';

/**
 * A backend written the way a user would write one for a key-value store: only the six required
 * methods of StorageBackend, strings under string keys, nothing else (no lock, no quarantine).
 * Duplicate appends, conflicts, expectedVersion, pruning and migration all come from the layer.
 */
function createKeyValueBackend(): StorageBackend & { keys: () => string[] } {
  const store = new Map<string, string>();
  const listOf = (key: string): string[] => JSON.parse(store.get(key) ?? '[]') as string[];
  return {
    name: 'key-value',
    keys: () => [...store.keys()],
    readRecords(sessionId, { afterSeq }) {
      return listOf(`log:${sessionId}`)
        .map((text) => JSON.parse(text) as StoredRecord)
        .filter((record) => record.seq > afterSeq);
    },
    appendRecords(sessionId, records) {
      store.set(`log:${sessionId}`, JSON.stringify([...listOf(`log:${sessionId}`), ...records.map((record) => JSON.stringify(record))]));
    },
    listVersions(sessionId) {
      return listOf(`versions:${sessionId}`).map((text) => JSON.parse(text) as StoredVersion);
    },
    readVersion(sessionId, version) {
      return store.get(`snapshot:${sessionId}:${version}`) ?? null;
    },
    writeVersion(sessionId, { version, seq, label, text }) {
      const key = `snapshot:${sessionId}:${version}`;
      if (store.has(key)) return false;
      store.set(key, text);
      store.set(`versions:${sessionId}`, JSON.stringify([...listOf(`versions:${sessionId}`), JSON.stringify({ version, seq, label })]));
      return true;
    },
    deleteVersion(sessionId, version) {
      store.delete(`snapshot:${sessionId}:${version}`);
      const kept = listOf(`versions:${sessionId}`).filter((text) => (JSON.parse(text) as StoredVersion).version !== version);
      store.set(`versions:${sessionId}`, JSON.stringify(kept));
    },
  };
}

describeStorageContract({
  name: 'a toy key-value backend under createVersionedStorage()',
  create: () => createVersionedStorage(createKeyValueBackend(), { versions: 2 }),
  versions: 2,
});

describe('createVersionedStorage() over a minimal backend', () => {
  it('deletes the snapshots it prunes from the backend', async () => {
    const backend = createKeyValueBackend();
    const storage = createVersionedStorage(backend, { versions: 2 });
    for (let seq = 1; seq <= 5; seq += 1) await storage.saveSnapshot('s1', { formatVersion: 1, seq, state: { at: seq } });
    expect(backend.keys().filter((key) => key.startsWith('snapshot:')).sort()).toEqual(['snapshot:s1:4', 'snapshot:s1:5']);
  });

  it('migrates a snapshot of an older format for any backend', async () => {
    const backend = createKeyValueBackend();
    await createVersionedStorage(backend).saveSnapshot('s1', { formatVersion: 1, seq: 3, state: { old: true } });
    const storage = createVersionedStorage(backend, {
      formatVersion: 2,
      migrate: (snapshot, formatVersion) => ({ ...(snapshot as object), formatVersion: formatVersion + 1, state: { upgraded: true } }),
    });
    expect(await storage.loadSnapshot('s1')).toEqual({ formatVersion: 2, seq: 3, state: { upgraded: true }, version: 1 });
    const strict = createVersionedStorage(backend, { formatVersion: 2 });
    await expect(strict.loadSnapshot('s1')).rejects.toMatchObject({ code: 'CORRUPT_STATE', version: 1 });
  });

  it('skips a damaged newest version, reports it and loads the previous one', async () => {
    const backend = createKeyValueBackend();
    const recoveries: unknown[] = [];
    const storage = createVersionedStorage(backend, { onRecover: (info) => recoveries.push(info) });
    await storage.saveSnapshot('s1', { formatVersion: 1, seq: 1, state: 'first' });
    await storage.saveSnapshot('s1', { formatVersion: 1, seq: 2, state: 'second' });
    const damaged: StorageBackend = { ...backend, readVersion: (sessionId, version) => (version === 2 ? '{"formatVersion":1,"se' : backend.readVersion(sessionId, version)) };
    const loaded = await createVersionedStorage(damaged, { onRecover: (info) => recoveries.push(info) }).loadSnapshot('s1');
    expect(loaded).toMatchObject({ version: 1, state: 'first' });
    expect(recoveries).toEqual([{ sessionId: 's1', version: 2, reason: expect.stringContaining('not valid JSON'), movedTo: undefined, loadedVersion: 1 }]);
  });

  it('refuses an object that is not a backend, saying what is missing', () => {
    expect(() => createVersionedStorage({ name: 'half' } as never)).toThrow(/readRecords, appendRecords, listVersions/);
  });
});

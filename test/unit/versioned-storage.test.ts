import { describe, expect, it } from 'vitest';
import { ConflictError, StorageError, createMemoryBackend, createVersionedStorage } from '../../src/index.js';
import type { SessionEvent, StorageBackend } from '../../src/index.js';
import { capture, messageEvent, snapshotAt } from '../helpers.js';

const event = (seq: number, content = `m${seq}`): SessionEvent => messageEvent(seq, content);
const snapshot = snapshotAt;

describe('createVersionedStorage()', () => {
  it('says which event another writer wrote, and what to do', async () => {
    const storage = createVersionedStorage(createMemoryBackend());
    await storage.append('s1', [event(1), event(2)]);
    const error = await capture(() => storage.append('s1', [event(2, 'other')]));
    expect(ConflictError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ expected: 1, actual: 2 });
    expect((error as Error).message).toContain('storage "memory": event #2 of session "s1" was already written by another writer. Load the session again and re-apply');
  });

  it('says which version a stale writer expected and which one is stored', async () => {
    const storage = createVersionedStorage(createMemoryBackend());
    await storage.saveSnapshot('s1', snapshot(1));
    const error = await capture(() => storage.saveSnapshot('s1', snapshot(2), { expectedVersion: 0 }));
    expect((error as Error).message).toContain('storage "memory": session "s1" is at version 1, but this writer expected 0. Another writer saved it first');
  });

  it('lets exactly one of two concurrent saves with the same expectedVersion win', async () => {
    const storage = createVersionedStorage(createMemoryBackend());
    const results = await Promise.allSettled([storage.saveSnapshot('s1', snapshot(1), { expectedVersion: 0 }), storage.saveSnapshot('s1', snapshot(2), { expectedVersion: 0 })]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected']);
  });

  it('turns a version another process created first (writeVersion → false) into ConflictError', async () => {
    const backend = createMemoryBackend();
    const racing: StorageBackend = {
      ...backend,
      writeVersion: async (sessionId, version) => {
        await backend.writeVersion(sessionId, { ...version, text: JSON.stringify({ ...snapshot(9), state: 'the other writer' }) });
        return backend.writeVersion(sessionId, version);
      },
    };
    const error = await capture(() => createVersionedStorage(racing).saveSnapshot('s1', snapshot(1), { expectedVersion: 0 }));
    expect(ConflictError.isInstance(error)).toBe(true);
    expect(await createVersionedStorage(backend).loadSnapshot('s1')).toMatchObject({ seq: 9, state: 'the other writer' });
  });

  it('wraps backend failures in StorageError with the operation, the cause and the backend hint', async () => {
    const failing: StorageBackend = {
      ...createMemoryBackend({ name: 'flaky' }),
      appendRecords: () => {
        throw new Error('connection reset');
      },
      describeFailure: () => 'Check the connection.',
    };
    const error = await capture(() => createVersionedStorage(failing).append('s1', [event(1)]));
    expect(StorageError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ storage: 'flaky', operation: 'append' });
    expect((error as Error).message).toContain('connection reset. Check the connection.');
  });

  it('checks session ids and events before the backend sees them', async () => {
    const calls: string[] = [];
    const backend = createMemoryBackend();
    const spying = new Proxy(backend, {
      get: (target, property) => {
        const value = Reflect.get(target, property) as unknown;
        return typeof value === 'function' ? (...args: unknown[]) => (calls.push(String(property)), (value as (...parameters: unknown[]) => unknown)(...args)) : value;
      },
    });
    const storage = createVersionedStorage(spying);
    expect(await capture(() => storage.append('../escape', [event(1)]))).toMatchObject({ code: 'INVALID_ARGUMENT', parameter: 'sessionId' });
    expect(await capture(() => storage.append('s1', [event(2), event(1)]))).toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(calls).toEqual([]);
  });
});

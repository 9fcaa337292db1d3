import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConflictError, ContextManager, StorageError, createMemoryStorage } from '../../src/index.js';
import type { SessionEvent, Storage, StorageErrorEvent } from '../../src/index.js';

/** A memory storage whose `append` fails while `isFailing()` says so, counting every attempt. */
function flakyStorage(isFailing: () => boolean): Storage & { readonly attempts: () => number; readonly stored: () => Promise<number[]> } {
  const memory = createMemoryStorage();
  let attempts = 0;
  return {
    ...memory,
    name: 'flaky',
    append: (sessionId: string, events: readonly SessionEvent[]) => {
      attempts += 1;
      if (isFailing()) throw new Error('disk full');
      return memory.append(sessionId, events);
    },
    attempts: () => attempts,
    stored: async () => (await memory.read('default', { afterSeq: 0 })).map((event) => event.seq),
  };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('ContextManager durability', () => {
  describe('settle()', () => {
    it('says every event is durable once all of them reached storage', async () => {
      const storage = createMemoryStorage();
      const manager = new ContextManager({ storage });
      manager.addMessage({ role: 'user', content: 'one' });
      manager.addMessage({ role: 'assistant', content: 'two' });
      const result = await manager.settle();
      expect(result).toEqual({ isDurable: true, pendingEvents: 0, error: undefined });
      expect((await storage.read('default', { afterSeq: 0 })).map((event) => event.seq)).toEqual([1, 2]);
    });

    it('never reports durable without storage', async () => {
      const manager = new ContextManager();
      manager.addMessage({ role: 'user', content: 'one' });
      expect(await manager.settle()).toEqual({ isDurable: false, pendingEvents: 0, error: undefined });
    });

    it('reports the events that did not reach storage, with the StorageError, and recovers', async () => {
      let isFailing = true;
      const storage = flakyStorage(() => isFailing);
      const manager = new ContextManager({ storage, storageRetry: false });
      manager.addMessage({ role: 'user', content: 'one' });
      manager.addMessage({ role: 'assistant', content: 'two' });
      const failed = await manager.settle();
      expect(failed.isDurable).toBe(false);
      expect(failed.pendingEvents).toBe(2);
      expect(StorageError.isInstance(failed.error)).toBe(true);
      expect(failed.error?.message).toContain('flaky');
      expect(manager.state().entries).toHaveLength(2);
      isFailing = false;
      expect(await manager.settle()).toEqual({ isDurable: true, pendingEvents: 0, error: undefined });
      expect(await storage.stored()).toEqual([1, 2]);
    });

    it('tells the losing one of two writers of a session that its events are not durable', async () => {
      const storage = createMemoryStorage();
      const first = new ContextManager({ storage, autoSave: false });
      const second = new ContextManager({ storage, autoSave: false });
      first.addMessage({ role: 'user', content: 'from the first writer' });
      expect((await first.settle()).isDurable).toBe(true);
      second.addMessage({ role: 'user', content: 'from the second writer' });
      const result = await second.settle();
      expect(result.isDurable).toBe(false);
      expect(result.pendingEvents).toBe(1);
      expect(ConflictError.isInstance(result.error)).toBe(true);
      await expect(second.save()).rejects.toMatchObject({ code: 'CONFLICT' });
    });
  });

  describe('save()', () => {
    it('rejects with StorageError while events are not durable and writes no snapshot', async () => {
      const storage = flakyStorage(() => true);
      const manager = new ContextManager({ storage, storageRetry: false });
      manager.addMessage({ role: 'user', content: 'one' });
      await expect(manager.save()).rejects.toSatisfy((error: unknown) => StorageError.isInstance(error) && error.operation === 'append');
      expect(await storage.loadSnapshot('default')).toBeNull();
    });
  });

  describe('storage-error', () => {
    it('carries the number of events not yet durable', async () => {
      const manager = new ContextManager({ storage: flakyStorage(() => true), storageRetry: false });
      const events: StorageErrorEvent[] = [];
      manager.on('storage-error', (event) => events.push(event));
      manager.addMessage({ role: 'user', content: 'one' });
      manager.addMessage({ role: 'user', content: 'two' });
      await manager.settle();
      expect(events.length).toBeGreaterThan(0);
      expect(events.every((event) => event.operation === 'append')).toBe(true);
      expect(events.at(-1)?.pendingEvents).toBe(2);
    });
  });

  describe('automatic saves', () => {
    function countingStorage(): Storage & { readonly appended: () => number; readonly snapshotted: () => number; readonly snapshots: () => number } {
      const memory = createMemoryStorage();
      let appended = 0;
      let snapshotted = 0;
      let snapshots = 0;
      return {
        ...memory,
        append: (sessionId, events) => {
          appended += JSON.stringify(events).length;
          return memory.append(sessionId, events);
        },
        saveSnapshot: (sessionId, snapshot, options) => {
          snapshotted += JSON.stringify(snapshot).length;
          snapshots += 1;
          return memory.saveSnapshot(sessionId, snapshot, options);
        },
        appended: () => appended,
        snapshotted: () => snapshotted,
        snapshots: () => snapshots,
      };
    }

    async function record(manager: ContextManager, exchanges: number): Promise<void> {
      for (let turn = 0; turn < exchanges; turn += 1) {
        manager.addMessage({ role: 'user', content: `Please rename handler${turn} in src/routes/r${turn}.ts and keep the 30s timeout.` });
        manager.addMessage({ role: 'assistant', content: `Renamed handler${turn}; the route tests pass.` });
        await manager.settle();
      }
    }

    it('writes snapshots on a schedule that grows with the session, so bytes stay linear', async () => {
      const storage = countingStorage();
      const manager = new ContextManager({ storage, autoSave: { everyMessages: 4 } });
      await record(manager, 300);
      // Each snapshot waits for the log to grow by its size: all of them together are at most the
      // log plus the last snapshot.
      expect(storage.snapshotted()).toBeLessThanOrEqual(storage.appended() + JSON.stringify((await storage.loadSnapshot('default')) ?? {}).length);
      expect(storage.snapshots()).toBeLessThan(20);
      const loaded = await ContextManager.load({ storage });
      expect(loaded.state()).toEqual(manager.state());
    });

    it('snapshots on every automatic save with snapshotGrowth: 0', async () => {
      const storage = countingStorage();
      const manager = new ContextManager({ storage, autoSave: { everyMessages: 4, snapshotGrowth: 0 } });
      await record(manager, 60);
      expect(storage.snapshots()).toBeGreaterThanOrEqual(25);
    });
  });

  describe('background retries', () => {
    it('retries a failed append with growing delays until it succeeds, without a settle()', async () => {
      vi.useFakeTimers();
      let failures = 3;
      const storage = flakyStorage(() => {
        if (failures === 0) return false;
        failures -= 1;
        return true;
      });
      const manager = new ContextManager({ storage, storageRetry: { retries: 5, delayMs: 100, maxDelayMs: 1_000 } });
      manager.addMessage({ role: 'user', content: 'one' });
      await vi.advanceTimersByTimeAsync(0);
      expect(storage.attempts()).toBe(1);
      // Delays 100, 200, 400: nothing is attempted before each one has passed.
      await vi.advanceTimersByTimeAsync(99);
      expect(storage.attempts()).toBe(1);
      await vi.advanceTimersByTimeAsync(1);
      expect(storage.attempts()).toBe(2);
      await vi.advanceTimersByTimeAsync(200);
      expect(storage.attempts()).toBe(3);
      await vi.advanceTimersByTimeAsync(400);
      expect(storage.attempts()).toBe(4);
      expect(await storage.stored()).toEqual([1]);
      expect(vi.getTimerCount()).toBe(0);
    });

    it('gives up a round after `retries` attempts and leaves no timer behind', async () => {
      vi.useFakeTimers();
      const storage = flakyStorage(() => true);
      const manager = new ContextManager({ storage, storageRetry: { retries: 3, delayMs: 10, maxDelayMs: 20 } });
      manager.addMessage({ role: 'user', content: 'one' });
      await vi.advanceTimersByTimeAsync(10_000);
      expect(storage.attempts()).toBe(4);
      expect(vi.getTimerCount()).toBe(0);
      const result = await manager.settle();
      expect(result).toMatchObject({ isDurable: false, pendingEvents: 1 });
    });

    it('does not send one append per record while a retry is scheduled', async () => {
      vi.useFakeTimers();
      let isFailing = true;
      const storage = flakyStorage(() => isFailing);
      const manager = new ContextManager({ storage, autoSave: false, storageRetry: { retries: 5, delayMs: 1_000, maxDelayMs: 1_000 } });
      manager.addMessage({ role: 'user', content: 'one' });
      await vi.advanceTimersByTimeAsync(0);
      for (let index = 0; index < 20; index += 1) manager.addMessage({ role: 'user', content: `more ${index}` });
      await vi.advanceTimersByTimeAsync(0);
      expect(storage.attempts()).toBe(1);
      isFailing = false;
      await vi.advanceTimersByTimeAsync(1_000);
      expect(storage.attempts()).toBe(2);
      expect(await storage.stored()).toHaveLength(21);
    });

    it('does not retry a ConflictError in the background: another writer owns the session', async () => {
      vi.useFakeTimers();
      const memory = createMemoryStorage();
      let attempts = 0;
      const storage: Storage = { ...memory, append: (sessionId, events) => (attempts += 1, memory.append(sessionId, events)) };
      const first = new ContextManager({ storage, autoSave: false });
      first.addMessage({ role: 'user', content: 'first' });
      await first.settle();
      const second = new ContextManager({ storage, autoSave: false });
      second.addMessage({ role: 'user', content: 'second' });
      await vi.advanceTimersByTimeAsync(60_000);
      expect(attempts).toBe(2);
      expect(vi.getTimerCount()).toBe(0);
    });
  });

  describe('storageTimeoutMs', () => {
    /** A memory storage whose `append` never settles while `isHanging()` says so. */
    function hangingStorage(isHanging: () => boolean): Storage & { readonly attempts: () => number; readonly stored: () => Promise<number[]> } {
      const memory = createMemoryStorage();
      let attempts = 0;
      return {
        ...memory,
        name: 'hanging',
        append: (sessionId: string, events: readonly SessionEvent[]) => {
          attempts += 1;
          return isHanging() ? new Promise<void>(() => undefined) : memory.append(sessionId, events);
        },
        attempts: () => attempts,
        stored: async () => (await memory.read('default', { afterSeq: 0 })).map((event) => event.seq),
      };
    }

    it('counts an append that never settles as failed after the timeout, so settle() tells instead of waiting forever', async () => {
      vi.useFakeTimers();
      const storage = hangingStorage(() => true);
      const errors: StorageErrorEvent[] = [];
      const manager = new ContextManager({ storage, autoSave: false, storageRetry: false, storageTimeoutMs: 5_000 });
      manager.on('storage-error', (event) => errors.push(event));
      manager.addMessage({ role: 'user', content: 'one' });
      let result: Awaited<ReturnType<ContextManager['settle']>> | undefined;
      const settled = manager.settle().then((value) => {
        result = value;
      });
      await vi.advanceTimersByTimeAsync(4_999);
      expect(result).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      await settled;
      expect(result).toMatchObject({ isDurable: false, pendingEvents: 1 });
      expect(StorageError.isInstance(result?.error)).toBe(true);
      expect(result?.error?.message).toContain('storageTimeoutMs');
      expect(errors.length).toBeGreaterThan(0);
      expect(errors.every((event) => event.operation === 'append' && event.pendingEvents === 1)).toBe(true);
      expect(manager.state().entries).toHaveLength(1);
      expect(vi.getTimerCount()).toBe(0);
    });

    it('waits 30 seconds by default', async () => {
      vi.useFakeTimers();
      const manager = new ContextManager({ storage: hangingStorage(() => true), autoSave: false, storageRetry: false });
      manager.addMessage({ role: 'user', content: 'one' });
      let isSettled = false;
      const settled = manager.settle().then(() => {
        isSettled = true;
      });
      await vi.advanceTimersByTimeAsync(29_999);
      expect(isSettled).toBe(false);
      await vi.advanceTimersByTimeAsync(1);
      await settled;
      expect(isSettled).toBe(true);
    });

    it('retries a timed-out append with the usual backoff and stores each event once when storage recovers', async () => {
      vi.useFakeTimers();
      let isHanging = true;
      const storage = hangingStorage(() => isHanging);
      const manager = new ContextManager({ storage, autoSave: false, storageTimeoutMs: 1_000, storageRetry: { retries: 5, delayMs: 100, maxDelayMs: 100 } });
      manager.addMessage({ role: 'user', content: 'one' });
      await vi.advanceTimersByTimeAsync(1_000);
      expect(storage.attempts()).toBe(1);
      isHanging = false;
      await vi.advanceTimersByTimeAsync(100);
      expect(storage.attempts()).toBe(2);
      manager.addMessage({ role: 'assistant', content: 'two' });
      expect(await manager.settle()).toEqual({ isDurable: true, pendingEvents: 0, error: undefined });
      expect(await storage.stored()).toEqual([1, 2]);
      expect(vi.getTimerCount()).toBe(0);
    });

    it('rejects a timeout that is not a positive integer, naming the option', () => {
      expect(() => new ContextManager({ storageTimeoutMs: 0 })).toThrow(/storageTimeoutMs/);
    });
  });
});

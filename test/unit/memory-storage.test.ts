import { describe, expect, it } from 'vitest';
import { createMemoryStorage, isStorage } from '../../src/index.js';
import type { SessionEvent } from '../../src/index.js';

const event = (seq: number): SessionEvent => ({ type: 'message', seq, role: 'user', content: `m${seq}` });

describe('createMemoryStorage()', () => {
  it('appends events and reads them back after a sequence number', async () => {
    const storage = createMemoryStorage();
    await storage.append('s', [event(1), event(2)]);
    await storage.append('s', [event(3)]);
    expect((await storage.read('s', { afterSeq: 1 })).map((item) => item.seq)).toEqual([2, 3]);
    expect(await storage.read('other', { afterSeq: 0 })).toEqual([]);
  });

  it('stores copies, so later mutation by the caller changes nothing', async () => {
    const storage = createMemoryStorage();
    const events = [event(1)];
    await storage.append('s', events);
    (events[0] as { content: string }).content = 'mutated';
    expect((await storage.read('s', { afterSeq: 0 }))[0]).toMatchObject({ content: 'm1' });
  });

  it('saves and loads the newest snapshot, or null when none exists', async () => {
    const storage = createMemoryStorage();
    expect(await storage.loadSnapshot('s')).toBeNull();
    await storage.saveSnapshot('s', { formatVersion: 1, seq: 4, state: { a: 1 } });
    await storage.saveSnapshot('s', { formatVersion: 1, seq: 9, state: { a: 2 } });
    expect(await storage.loadSnapshot('s')).toEqual({ formatVersion: 1, seq: 9, state: { a: 2 }, version: 2 });
    expect(isStorage(storage)).toBe(true);
    expect(storage.name).toBe('memory');
  });
});

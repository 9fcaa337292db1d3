import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConflictError, InvalidArgumentError, SNAPSHOT_FORMAT_VERSION, StorageError } from '../../src/index.js';
import type { Storage } from '../../src/index.js';
import { createFileStorage } from '../../src/storage/fs/index.js';
import { describeStorageContract } from '../../src/testing/index.js';
import { capture, messageEvent, snapshotAt } from '../helpers.js';

const directories: string[] = [];
let directory = '';

async function makeTempDirectory(): Promise<string> {
  const created = await mkdtemp(join(tmpdir(), 'mobius-fs-'));
  directories.push(created);
  return created;
}

afterAll(async () => {
  await Promise.all(directories.map((path) => rm(path, { recursive: true, force: true })));
});

const event = messageEvent;
const snapshot = snapshotAt;

describeStorageContract({
  name: 'fs',
  create: async () => {
    directory = join(await makeTempDirectory(), 'sessions');
    return createFileStorage({ directory, versions: 3 });
  },
  versions: 3,
  additionalTests: (getStorage: () => Storage) => {
    describe('session ids', () => {
      const BAD_IDS: unknown[] = ['../escape', '..', 'a/b', 'a\\b', '/etc', 'nul\u0000byte', 'control\u0001', 'line\nbreak', '.hidden', '', 'a..b', 'x'.repeat(129), 42, null];

      it('refuses malformed and path-traversal ids in every method before any I/O', async () => {
        const storage = getStorage();
        const parent = join(directory, '..');
        const before = await readdir(parent);
        for (const id of BAD_IDS) {
          const calls = [
            () => storage.append(id as string, [event(1)]),
            () => storage.read(id as string, { afterSeq: 0 }),
            () => storage.saveSnapshot(id as string, snapshot(1)),
            () => storage.loadSnapshot(id as string),
            () => storage.listVersions?.(id as string),
          ];
          for (const call of calls) {
            const error = await capture(call);
            expect(InvalidArgumentError.isInstance(error), `${JSON.stringify(id)}`).toBe(true);
            expect(error).toMatchObject({ code: 'INVALID_ARGUMENT', parameter: 'sessionId' });
          }
        }
        expect(await readdir(parent)).toEqual(before);
        expect(existsSync(directory)).toBe(false);
      });

      it('says how to fix a bad id', async () => {
        const error = await capture(() => getStorage().append('../escape', [event(1)]));
        expect((error as Error).message).toContain('e.g. "ticket-142"');
      });

      it('refuses an id whose folder belongs to another id (case-insensitive file systems)', async () => {
        await mkdir(join(directory, 'ticket'), { recursive: true });
        await writeFile(join(directory, 'ticket', 'session.json'), JSON.stringify({ sessionId: 'Ticket' }));
        const error = await capture(() => getStorage().append('ticket', [event(1)]));
        expect(InvalidArgumentError.isInstance(error)).toBe(true);
        expect((error as Error).message).toContain('differ in more than letter case');
      });
    });

    describe('layout', () => {
      it('does no I/O until a method writes, and reads of a missing session create nothing', async () => {
        const storage = getStorage();
        expect(existsSync(directory)).toBe(false);
        expect(await storage.loadSnapshot('s1')).toBeNull();
        expect(await storage.read('s1', { afterSeq: 0 })).toEqual([]);
        expect(await storage.listVersions?.('s1')).toEqual([]);
        expect(existsSync(directory)).toBe(false);
      });

      it('keeps one folder per session with state-<version>.json and journal-<version>.jsonl', async () => {
        const storage = getStorage();
        await storage.append('s1', [event(1), event(2), event(3), event(4), event(5)]);
        expect(await storage.saveSnapshot('s1', { ...snapshot(3), label: 'first' })).toBe(1);
        const folder = join(directory, 's1');
        expect((await readdir(folder)).sort()).toEqual(['journal-0.jsonl', 'journal-1.jsonl', 'session.json', 'state-1.json']);
        expect(JSON.parse(await readFile(join(folder, 'state-1.json'), 'utf8'))).toEqual({ formatVersion: 1, seq: 3, label: 'first', state: { at: 3 }, checksum: expect.stringMatching(/^[0-9a-f]{16}$/) });
        // The new version's journal starts with the events the snapshot does not fold in.
        const journal = async (): Promise<unknown[]> =>
          (await readFile(join(folder, 'journal-1.jsonl'), 'utf8')).split('\n').filter((line) => line !== '').map((line) => {
            const { checksum, ...rest } = JSON.parse(line) as { checksum: string };
            expect(checksum).toMatch(/^[0-9a-f]{16}$/);
            return rest;
          });
        expect(await journal()).toEqual([event(4), event(5)]);
        await storage.append('s1', [event(6)]);
        expect(await journal()).toEqual([event(4), event(5), event(6)]);
      });

      it('detects damage inside a string, or a file written by hand, through the checksum', async () => {
        const storage = getStorage();
        await storage.saveSnapshot('s1', { formatVersion: 1, seq: 1, state: { text: 'aaaa' } });
        await storage.saveSnapshot('s1', { formatVersion: 1, seq: 2, state: { text: 'bbbb' } });
        const file = join(directory, 's1', 'state-2.json');
        await writeFile(file, (await readFile(file, 'utf8')).replace('bbbb', 'bbcb'));
        expect(await storage.loadSnapshot('s1')).toMatchObject({ version: 1, state: { text: 'aaaa' } });
        await writeFile(join(directory, 's1', 'state-3.json'), JSON.stringify({ formatVersion: 1, seq: 3, state: { text: 'by hand' } }));
        expect(await storage.loadSnapshot('s1')).toMatchObject({ version: 1, state: { text: 'aaaa' } });
        expect((await readdir(join(directory, 's1'))).filter((name) => name.includes('.corrupt-')).sort()).toEqual(['state-2.json.corrupt-1', 'state-3.json.corrupt-1']);
      });

      it('prunes the journals of pruned versions but keeps every event after the kept ones', async () => {
        const storage = getStorage();
        for (let seq = 1; seq <= 8; seq += 1) {
          await storage.append('s1', [event(seq)]);
          await storage.saveSnapshot('s1', snapshot(seq - 1));
        }
        const names = (await readdir(join(directory, 's1'))).sort();
        expect(names.filter((name) => name.startsWith('state-'))).toEqual(['state-6.json', 'state-7.json', 'state-8.json']);
        expect(names.filter((name) => name.startsWith('journal-'))).toEqual(['journal-6.jsonl', 'journal-7.jsonl', 'journal-8.jsonl']);
        const oldest = await storage.loadSnapshot('s1', { version: 6 });
        expect((await storage.read('s1', { afterSeq: oldest?.seq ?? -1 })).map((item) => item.seq)).toEqual([6, 7, 8]);
      });

      it('removes temp files left by an interrupted write at the next save', async () => {
        const storage = getStorage();
        await storage.saveSnapshot('s1', snapshot(1));
        const folder = join(directory, 's1');
        await writeFile(join(folder, 'state-2.json.tmp-0123abcd'), '{"formatVersion":1,"se');
        expect(await storage.loadSnapshot('s1')).toMatchObject({ version: 1 });
        expect(await storage.saveSnapshot('s1', snapshot(2))).toBe(2);
        expect((await readdir(folder)).some((name) => name.includes('.tmp-'))).toBe(false);
      });
    });

    describe('locking', () => {
      it('lets exactly one of two storages on the same folder win a save, the other gets ConflictError', async () => {
        const other = createFileStorage({ directory });
        for (let round = 0; round < 10; round += 1) {
          const results = await Promise.allSettled([
            getStorage().saveSnapshot('s1', snapshot(round), { expectedVersion: round }),
            other.saveSnapshot('s1', snapshot(round), { expectedVersion: round }),
          ]);
          expect(results.filter((result) => result.status === 'fulfilled').map((result) => (result as PromiseFulfilledResult<unknown>).value)).toEqual([round + 1]);
          const rejected = results.find((result) => result.status === 'rejected') as PromiseRejectedResult;
          expect(ConflictError.isInstance(rejected.reason)).toBe(true);
        }
      });

      it('breaks the lock of a process that no longer exists', async () => {
        const storage = getStorage();
        await storage.saveSnapshot('s1', snapshot(1));
        const dead = spawnSync(process.execPath, ['-e', '0']).pid;
        const lock = join(directory, 's1', 'lock');
        await writeFile(lock, JSON.stringify({ pid: dead, hostname: hostname(), token: 'gone' }));
        expect(await storage.saveSnapshot('s1', snapshot(2))).toBe(2);
        expect(existsSync(lock)).toBe(false);
      });

      it('breaks a lock left by an earlier process that had the same pid', async () => {
        const storage = getStorage();
        await storage.append('s1', [event(1)]);
        await writeFile(join(directory, 's1', 'lock'), JSON.stringify({ pid: process.pid, hostname: hostname(), started: 1, token: 'earlier' }));
        await storage.append('s1', [event(2)]);
        expect((await storage.read('s1', { afterSeq: 0 })).length).toBe(2);
      });

      it('breaks an unreadable lock (debris of a crash)', async () => {
        const storage = getStorage();
        await storage.append('s1', [event(1)]);
        await writeFile(join(directory, 's1', 'lock'), '');
        await storage.append('s1', [event(2)]);
        expect((await storage.read('s1', { afterSeq: 0 })).length).toBe(2);
      });

      it('waits for a lock held by a live process, then gives up with StorageError naming the file', async () => {
        const storage = createFileStorage({ directory, lockRetries: 3 });
        await storage.append('s1', [event(1)]);
        const lock = join(directory, 's1', 'lock');
        // Process 1 always exists.
        await writeFile(lock, JSON.stringify({ pid: 1, hostname: hostname(), token: 'alive' }));
        const error = await capture(() => storage.append('s1', [event(2)]));
        expect(StorageError.isInstance(error)).toBe(true);
        expect((error as Error).message).toContain(lock);
        expect((error as Error).message).toContain('delete that file');
        expect(existsSync(lock)).toBe(true);
      });
    });

    describe('options and errors', () => {
      it('validates its options', () => {
        for (const options of [{}, { directory: '' }, { directory, versions: 0 }, { directory, colour: 'red' }, { directory, migrate: 'yes' }]) {
          expect(() => createFileStorage(options as never)).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
        }
      });

      it('reads snapshots of the format ContextManager writes by default', async () => {
        await getStorage().saveSnapshot('s1', { formatVersion: SNAPSHOT_FORMAT_VERSION, seq: 0, state: null });
        expect(await getStorage().loadSnapshot('s1')).toMatchObject({ formatVersion: SNAPSHOT_FORMAT_VERSION, state: null });
      });

      it('refuses events out of seq order and snapshots that are not JSON', async () => {
        expect(await capture(() => getStorage().append('s1', [event(2), event(1)]))).toMatchObject({ code: 'INVALID_ARGUMENT' });
        expect(await capture(() => getStorage().saveSnapshot('s1', { formatVersion: 1, seq: 1, state: { big: 1n } }))).toMatchObject({ code: 'INVALID_ARGUMENT' });
        expect(await capture(() => getStorage().saveSnapshot('s1', { formatVersion: 1, seq: -1, state: {} }))).toMatchObject({ code: 'INVALID_ARGUMENT' });
      });

      it('wraps file-system failures in StorageError with the cause', async () => {
        const file = join(await makeTempDirectory(), 'not-a-folder');
        await writeFile(file, 'x');
        const error = await capture(() => createFileStorage({ directory: file }).append('s1', [event(1)]));
        expect(StorageError.isInstance(error)).toBe(true);
        expect(error).toMatchObject({ storage: 'fs', operation: 'append' });
        expect((error as Error).cause).toBeInstanceOf(Error);
      });
    });
  },
});

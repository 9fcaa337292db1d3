import { mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StorageError } from '../../src/index.js';
import type { ArchiveGroup } from '../../src/index.js';
import { createFileStorage } from '../../src/storage/fs/index.js';
import { capture } from '../helpers.js';

const directories: string[] = [];

async function makeStorage(): Promise<{ storage: ReturnType<typeof createFileStorage>; directory: string }> {
  const created = await mkdtemp(join(tmpdir(), 'mobius-fs-archive-'));
  directories.push(created);
  const directory = join(created, 'sessions');
  return { storage: createFileStorage({ directory }), directory };
}

afterAll(async () => {
  await Promise.all(directories.map((path) => rm(path, { recursive: true, force: true })));
});

function group(seq: number, text = `archived at ${seq}`): ArchiveGroup {
  return { seq, items: [{ type: 'pin', reason: 'unpinned', pin: { id: `pin-${seq}`, text, seq: seq - 1, tokens: 3 }, archivedAt: seq }] };
}

describe('file storage archive', () => {
  it('keeps one checksummed, owner-only file per group in the session folder', async () => {
    const { storage, directory } = await makeStorage();
    await storage.appendArchive?.('s1', [group(3), group(8)]);
    const folder = join(directory, 's1', 'archive');
    expect((await readdir(folder)).sort()).toEqual(['group-3.json', 'group-8.json']);
    expect(await readFile(join(folder, 'group-3.json'), 'utf8')).toContain('"checksum"');
    if (process.platform !== 'win32') expect((await stat(join(folder, 'group-3.json'))).mode & 0o777).toBe(0o600);
  });

  it('fails readArchive() with a StorageError naming the file when a group file was damaged', async () => {
    const { storage, directory } = await makeStorage();
    await storage.appendArchive?.('s1', [group(3)]);
    const path = join(directory, 's1', 'archive', 'group-3.json');
    await writeFile(path, (await readFile(path, 'utf8')).replace('archived at 3', 'archived at 4'));
    const error = await capture(() => storage.readArchive?.('s1', { seqs: [3] }));
    expect(StorageError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain('group-3.json');
  });
});

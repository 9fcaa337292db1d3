import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ContextManager } from '../../src/index.js';
import type { ContextManagerOptions } from '../../src/index.js';
import { createFileStorage } from '../../src/storage/fs/index.js';
import { FIXTURE_SESSION, recordFixtureSteps } from '../fixtures/storage/fs-state-v1-script.js';

// test/fixtures/storage/fs-state-v1 was written by the file storage before the storage layering
// (one 1,050-line fs.ts): four versions (one labelled) and events after the newest one.
const FIXTURE = resolve(import.meta.dirname, '../fixtures/storage/fs-state-v1');
const OPTIONS: ContextManagerOptions = {
  sessionId: FIXTURE_SESSION,
  budget: 3_000,
  budgets: { facts: 400, pins: 200, summaries: 250, scratchpad: 1_200, working: 600 },
  maxEntryTokens: 200,
  autoSave: false,
};

interface Expected {
  lastSeq: number;
  versions: unknown[];
  files: { path: string; content: string }[];
  pins: string[];
  summaries: number;
  entries: number;
  journalSeqs: number[];
  version2: { seq: number; label: string; formatVersion: number };
}

const workspaces: string[] = [];
afterAll(async () => {
  await Promise.all(workspaces.map((path) => rm(path, { recursive: true, force: true })));
});

/** A copy of the fixture, so that the test may write to it. */
async function copyOfFixture(): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), 'mobius-fixture-'));
  workspaces.push(directory);
  await cp(FIXTURE, directory, { recursive: true });
  return directory;
}

describe('a session folder written by the file storage before the storage layering', async () => {
  const expected = JSON.parse(await readFile(resolve(import.meta.dirname, '../fixtures/storage/fs-state-v1.expected.json'), 'utf8')) as Expected;

  it('lists the same versions and reads the same journal', async () => {
    const storage = createFileStorage({ directory: await copyOfFixture() });
    expect(await storage.listVersions?.(FIXTURE_SESSION)).toEqual(expected.versions);
    expect((await storage.read(FIXTURE_SESSION, { afterSeq: 0 })).map((event) => event.seq)).toEqual(expected.journalSeqs);
    expect(await storage.loadSnapshot(FIXTURE_SESSION, { version: 2 })).toMatchObject({ ...expected.version2, version: 2 });
  });

  it('loads into ContextManager with the state the old code loaded: files, pins, summaries, every event', async () => {
    const manager = await ContextManager.load({ ...OPTIONS, storage: createFileStorage({ directory: await copyOfFixture() }) });
    const state = manager.state();
    expect(state.lastSeq).toBe(expected.lastSeq);
    expect(state.files.map((file) => ({ path: file.path, content: file.content }))).toEqual(expected.files);
    expect(state.pins.map((pin) => pin.text)).toEqual(expected.pins);
    expect(state.summaries).toHaveLength(expected.summaries);
    expect(state.entries).toHaveLength(expected.entries);
    const window = JSON.stringify(manager.build());
    for (const pin of expected.pins) expect(window).toContain(pin);
  });

  it('keeps working: records, saves a new version and prunes old ones as before', async () => {
    const directory = await copyOfFixture();
    const storage = createFileStorage({ directory, versions: 3 });
    const manager = await ContextManager.load({ ...OPTIONS, storage });
    recordFixtureSteps(manager, 40, 46);
    await manager.save();
    const versions = await storage.listVersions?.(FIXTURE_SESSION);
    expect(versions?.map((info) => info.version)).toEqual([7, 6, 5, 2]);
    expect(versions?.[3]).toMatchObject({ label: 'before the refactor' });
    const again = await ContextManager.load({ ...OPTIONS, storage: createFileStorage({ directory }) });
    expect(again.state()).toEqual(manager.state());
  });
});

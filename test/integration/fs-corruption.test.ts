import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { appendFile, mkdtemp, readFile, readdir, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ContextManager, CorruptStateError } from '../../src/index.js';
import type { ContextManagerOptions, SessionState, Storage } from '../../src/index.js';
import type { FileStorageOptions, FileStorageRecovery } from '../../src/storage/fs/index.js';
import { createFileStorage } from '../../src/storage/fs/index.js';
import { createRandom } from '../random.js';
import { capture } from '../helpers.js';

const SESSION = 'damaged';
// No graduation: every event is recorded synchronously, before the first background append.
const OPTIONS: ContextManagerOptions = { autoSave: false, sessionId: SESSION };
const directories: string[] = [];

afterAll(async () => {
  await Promise.all(directories.map((path) => rm(path, { recursive: true, force: true })));
});

interface Fixture {
  directory: string;
  folder: string;
  /** The state of the manager that wrote the session. */
  expected: SessionState;
  /** Its build(), serialised. */
  built: string;
  /** A new storage on the same folder, recording what it recovers. */
  open(options?: Partial<FileStorageOptions>): { storage: Storage; recoveries: FileStorageRecovery[] };
}

/** Writes a session with versions 1–3 (seq 4, 8, 12) and events 13–15 after the last one. */
async function createFixture(options: { versions?: number; saves?: number } = {}): Promise<Fixture> {
  const directory = await mkdtemp(join(tmpdir(), 'mobius-corrupt-'));
  directories.push(directory);
  const storage = createFileStorage({ directory, versions: options.versions ?? 5 });
  const manager = new ContextManager({ ...OPTIONS, storage });
  let step = 0;
  const record = (count: number): void => {
    for (let index = 0; index < count; index += 1, step += 1) {
      if (step % 4 === 2) manager.openFile({ path: `src/file-${step % 3}.ts`, content: `export const step = ${step}; // ✓ \u0000\n` });
      else manager.addMessage({ role: step % 2 === 0 ? 'user' : 'assistant', content: `step ${step}: ünïcödé and NUL \u0000` });
    }
  };
  for (let save = 0; save < (options.saves ?? 3); save += 1) {
    record(4);
    await manager.save();
  }
  record(3);
  await manager.settle();
  return {
    directory,
    folder: join(directory, SESSION),
    expected: manager.state(),
    built: JSON.stringify(manager.build()),
    open: (extra = {}) => {
      const recoveries: FileStorageRecovery[] = [];
      return { storage: createFileStorage({ directory, versions: options.versions ?? 5, onRecover: (info) => recoveries.push(info), ...extra }), recoveries };
    },
  };
}

/** ContextManager.load() wraps what loadSnapshot() throws; either way the cause must be typed. */
function isCorruptState(error: unknown): boolean {
  return CorruptStateError.isInstance(error) || CorruptStateError.isInstance((error as { cause?: unknown } | null)?.cause);
}

const DAMAGE: readonly { name: string; apply: (path: string) => Promise<void> }[] = [
  { name: 'emptied (truncated to 0 bytes)', apply: (path) => truncate(path, 0) },
  { name: 'truncated in the middle', apply: async (path) => truncate(path, Math.floor((await readFile(path)).length / 2)) },
  { name: 'truncated by one byte', apply: async (path) => truncate(path, (await readFile(path)).length - 1) },
  { name: 'overwritten with random bytes', apply: (path) => writeFile(path, randomBytes(1, 4_096)) },
  {
    name: 'damaged by random bytes in the middle',
    apply: async (path) => {
      const bytes = await readFile(path);
      randomBytes(2, 8).copy(bytes, Math.floor(bytes.length / 2));
      await writeFile(path, bytes);
    },
  },
  { name: 'valid JSON of the wrong shape: []', apply: (path) => writeFile(path, '[]') },
  { name: 'valid JSON of the wrong shape: null', apply: (path) => writeFile(path, 'null') },
  { name: 'valid JSON of the wrong shape: an object without formatVersion', apply: (path) => writeFile(path, '{"hello":"world"}') },
  { name: 'valid JSON of the wrong shape: a string seq', apply: (path) => writeFile(path, '{"formatVersion":1,"seq":"12","state":{}}') },
  { name: 'valid JSON of the wrong shape: no state', apply: (path) => writeFile(path, '{"formatVersion":1,"seq":12}') },
];

describe('file storage with damaged files', () => {
  describe('the newest state file', () => {
    it.each(DAMAGE)('$name: is moved aside, the previous version is loaded and the journal replayed on top', async ({ apply }) => {
      const fixture = await createFixture();
      const original = join(fixture.folder, 'state-3.json');
      await apply(original);
      const damaged = await readFile(original);
      const { storage, recoveries } = fixture.open();
      const loaded = await ContextManager.load({ ...OPTIONS, storage });
      expect(loaded.state()).toEqual(fixture.expected);
      expect(JSON.stringify(loaded.build())).toBe(fixture.built);
      expect(recoveries).toEqual([
        { sessionId: SESSION, file: original, movedTo: `${original}.corrupt-1`, reason: expect.any(String), loadedVersion: 2 },
      ]);
      // Moved, never deleted; the next save takes a new number.
      expect(existsSync(original)).toBe(false);
      expect(await readFile(`${original}.corrupt-1`)).toEqual(damaged);
      loaded.addMessage({ role: 'user', content: 'after the recovery' });
      await loaded.save();
      expect((await storage.listVersions?.(SESSION))?.[0]?.version).toBe(4);
      const again = await ContextManager.load({ ...OPTIONS, storage: fixture.open().storage });
      expect(again.state()).toEqual(loaded.state());
    });
  });

  it('falls back past several damaged versions', async () => {
    const fixture = await createFixture();
    await writeFile(join(fixture.folder, 'state-3.json'), 'garbage');
    await truncate(join(fixture.folder, 'state-2.json'), 10);
    const { storage, recoveries } = fixture.open();
    const loaded = await ContextManager.load({ ...OPTIONS, storage });
    expect(loaded.state()).toEqual(fixture.expected);
    expect(recoveries.map((item) => [item.file.slice(-12), item.loadedVersion])).toEqual([
      ['state-3.json', 1],
      ['state-2.json', 1],
    ]);
  });

  it('replays the whole journal when every state file is damaged but the journal still starts at the first event', async () => {
    const fixture = await createFixture();
    for (const version of [1, 2, 3]) await writeFile(join(fixture.folder, `state-${version}.json`), '{');
    const { storage, recoveries } = fixture.open();
    const loaded = await ContextManager.load({ ...OPTIONS, storage });
    expect(loaded.state()).toEqual(fixture.expected);
    expect(recoveries.map((item) => item.loadedVersion)).toEqual([null, null, null]);
  });

  it('throws CorruptStateError naming the files and the fix when no usable state is left, and keeps throwing', async () => {
    // Seven saves with three versions kept: journal-0 and the early journals are gone.
    const fixture = await createFixture({ versions: 3, saves: 7 });
    for (const version of [5, 6, 7]) await writeFile(join(fixture.folder, `state-${version}.json`), 'not json');
    const { storage, recoveries } = fixture.open();
    const error = await capture(() => storage.loadSnapshot(SESSION));
    expect(CorruptStateError.isInstance(error)).toBe(true);
    const message = (error as Error).message;
    for (const version of [5, 6, 7]) expect(message).toContain(`state-${version}.json.corrupt-1`);
    expect(message).toContain('Restore a good state file from a backup');
    expect(recoveries).toHaveLength(3);
    // Not an empty session the next time either: the journal alone would give a wrong state.
    expect(isCorruptState(await capture(() => ContextManager.load({ ...OPTIONS, storage: fixture.open().storage })))).toBe(true);
    const names = await readdir(fixture.folder);
    expect(names.filter((name) => name.includes('.corrupt-')).sort()).toEqual(['state-5.json.corrupt-1', 'state-6.json.corrupt-1', 'state-7.json.corrupt-1']);
  });

  describe('format versions', () => {
    // Rewrites the format version with a valid checksum, as an older or newer release would have.
    async function rewriteFormat(path: string, formatVersion: number): Promise<void> {
      const { checksum: _checksum, ...body } = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
      const text = JSON.stringify({ ...body, formatVersion });
      const checksum = createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16);
      await writeFile(path, `${text.slice(0, -1)},"checksum":"${checksum}"}`);
    }

    it('throws CorruptStateError for an older format without `migrate`, and leaves the file in place', async () => {
      const fixture = await createFixture();
      await rewriteFormat(join(fixture.folder, 'state-3.json'), 0);
      const { storage, recoveries } = fixture.open();
      const error = await capture(() => storage.loadSnapshot(SESSION));
      expect(CorruptStateError.isInstance(error)).toBe(true);
      expect(error).toMatchObject({ version: 0 });
      expect((error as Error).message).toContain('migrate');
      expect(existsSync(join(fixture.folder, 'state-3.json'))).toBe(true);
      expect(recoveries).toEqual([]);
    });

    it('loads an older format through `migrate`', async () => {
      const fixture = await createFixture();
      await rewriteFormat(join(fixture.folder, 'state-3.json'), 0);
      const calls: number[] = [];
      const { storage } = fixture.open({
        migrate: (snapshot, formatVersion) => {
          calls.push(formatVersion);
          return { ...(snapshot as object), formatVersion: 1 };
        },
      });
      const loaded = await ContextManager.load({ ...OPTIONS, storage });
      expect(loaded.state()).toEqual(fixture.expected);
      expect(calls).toEqual([0]);
    });

    it('throws CorruptStateError when `migrate` throws or returns something else', async () => {
      const fixture = await createFixture();
      await rewriteFormat(join(fixture.folder, 'state-3.json'), 0);
      const throwing = fixture.open({ migrate: () => { throw new Error('no upgrade path'); } }).storage;
      expect(CorruptStateError.isInstance(await capture(() => throwing.loadSnapshot(SESSION)))).toBe(true);
      const wrong = fixture.open({ migrate: () => ({ formatVersion: 0, seq: 1, state: {} }) }).storage;
      expect(CorruptStateError.isInstance(await capture(() => wrong.loadSnapshot(SESSION)))).toBe(true);
      expect(existsSync(join(fixture.folder, 'state-3.json'))).toBe(true);
    });

    it('throws CorruptStateError for a newer format, asking for an upgrade, and leaves the file in place', async () => {
      const fixture = await createFixture();
      await rewriteFormat(join(fixture.folder, 'state-3.json'), 2);
      const error = await capture(() => fixture.open().storage.loadSnapshot(SESSION));
      expect(CorruptStateError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain('upgrade mobius-context');
      expect(existsSync(join(fixture.folder, 'state-3.json'))).toBe(true);
    });
  });

  describe('the journal', () => {
    it('ignores a torn last line, and cuts it off before the next append', async () => {
      const fixture = await createFixture();
      const journal = join(fixture.folder, 'journal-3.jsonl');
      await appendFile(journal, '{"type":"message","seq":16,"role":"us');
      const { storage } = fixture.open();
      const loaded = await ContextManager.load({ ...OPTIONS, storage });
      expect(loaded.state()).toEqual(fixture.expected);
      loaded.addMessage({ role: 'user', content: 'after the torn line' });
      await loaded.settle();
      expect((await storage.read(SESSION, { afterSeq: 12 })).map((event) => event.seq)).toEqual([13, 14, 15, 16]);
      const text = await readFile(journal, 'utf8');
      expect(text.endsWith('\n')).toBe(true);
      expect(text).not.toContain('"role":"us{');
    });

    it('ignores damaged lines at the end (an unacknowledged append), not in the middle', async () => {
      const fixture = await createFixture();
      const journal = join(fixture.folder, 'journal-3.jsonl');
      const lines = (await readFile(journal, 'utf8')).split('\n');
      await writeFile(journal, [...lines.slice(0, -1), '\u0000\u0000\u0000\u0000', ''].join('\n'));
      expect((await fixture.open().storage.read(SESSION, { afterSeq: 12 })).map((event) => event.seq)).toEqual([13, 14, 15]);
      await writeFile(journal, [lines[0], 'garbage', ...lines.slice(1)].join('\n'));
      const error = await capture(() => fixture.open().storage.read(SESSION, { afterSeq: 12 }));
      expect(CorruptStateError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain('line 2 of');
      expect((error as Error).message).toContain('journal-3.jsonl');
    });
  });

  it('gives a recovery or a CorruptStateError, never another exception, for random damage (fuzz)', async () => {
    const random = createRandom(Number(process.env['MOBIUS_FUZZ_SEED'] ?? 4_242));
    const runs = Number(process.env['MOBIUS_FUZZ_RUNS'] ?? 40);
    const outcomes = { recovered: 0, corrupt: 0, loadedWithJournalDamage: 0 };
    for (let run = 0; run < runs; run += 1) {
      const fixture = await createFixture();
      const names = (await readdir(fixture.folder)).filter((name) => name.startsWith('state-') || name.startsWith('journal-'));
      const touched = new Set<string>();
      for (let damage = 0; damage < 1 + Math.floor(random() * 3); damage += 1) {
        const name = names[Math.floor(random() * names.length)] ?? 'state-3.json';
        touched.add(name);
        const path = join(fixture.folder, name);
        const bytes = await readFile(path);
        const kind = Math.floor(random() * 5);
        if (kind === 0) await truncate(path, Math.floor(random() * bytes.length));
        else if (kind === 1) await writeFile(path, randomBytes(run * 10 + damage, 1 + Math.floor(random() * 2_000)));
        else if (kind === 2 && bytes.length > 0) {
          randomBytes(run * 10 + damage, 1 + Math.floor(random() * 16)).copy(bytes, Math.floor(random() * bytes.length));
          await writeFile(path, bytes);
        } else if (kind === 3) await writeFile(path, JSON.stringify(random() < 0.5 ? { formatVersion: 1, seq: 3 } : [{ seq: 'x' }]));
        else await writeFile(path, JSON.stringify({ formatVersion: Math.floor(random() * 4), seq: 4, state: null }));
      }
      const { storage } = fixture.open();
      let manager: ContextManager | undefined;
      try {
        manager = await ContextManager.load({ ...OPTIONS, storage });
      } catch (error) {
        expect(isCorruptState(error), `run ${run} (${[...touched].join(', ')}): ${String(error)}`).toBe(true);
        outcomes.corrupt += 1;
        continue;
      }
      if ([...touched].every((name) => name.startsWith('state-'))) {
        // Damage to state files alone never loses anything: an older version plus the journal.
        expect(manager.state(), `run ${run} (${[...touched].join(', ')})`).toEqual(fixture.expected);
      }
      if (JSON.stringify(manager.state()) === JSON.stringify(fixture.expected)) outcomes.recovered += 1;
      else outcomes.loadedWithJournalDamage += 1;
    }
    console.log(`corruption fuzz: ${JSON.stringify(outcomes)} over ${runs} runs`);
    expect(outcomes.recovered + outcomes.corrupt + outcomes.loadedWithJournalDamage).toBe(runs);
  });
});

function randomBytes(seed: number, length: number): Buffer {
  const random = createRandom(seed);
  return Buffer.from(Array.from({ length }, () => Math.floor(random() * 256)));
}

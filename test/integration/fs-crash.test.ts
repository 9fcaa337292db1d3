import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileStorageRecovery } from '../../src/storage/fs/index.js';
import { createFileStorage } from '../../src/storage/fs/index.js';
import { createRandom } from '../random.js';
import { bundleFileStorage, startChild, writeChildScript } from './fs-processes.js';

/** Crash trials in the default run; raise it with MOBIUS_CRASH_TRIALS. */
const TRIALS = Number(process.env['MOBIUS_CRASH_TRIALS'] ?? 200);
const SEED = Number(process.env['MOBIUS_CRASH_SEED'] ?? 20_261_122);
/** Trials run in this many independent lanes (one folder and one child at a time each). */
const LANES = 2;
const SESSION = 'crash';

// The child appends events and saves snapshots in a loop, printing each acknowledged result before
// going on; the parent SIGKILLs it at a random point. Contents depend only on the seq, so the
// parent knows what every stored event and state must be.
const CHILD = `
import { createFileStorage } from './fs.mjs';
const [directory, sessionId, seedText] = process.argv.slice(2);
const hash = (value) => Math.imul(value, 2654435761) >>> 0;
const contentOf = (seq) => 'event ' + seq + ' ✓\\u0000 ' + 'x'.repeat([0, 10, 300, 8000, 60000][hash(seq) % 5]);
const stateOf = (seq) => ({ seq, sum: (seq * (seq + 1)) / 2, padding: 'p'.repeat([0, 2000, 60000, 300000][hash(seq + 7) % 4]) });
let state = Number(seedText) >>> 0;
const random = () => {
  state = (state + 0x6d2b79f5) >>> 0;
  let value = Math.imul(state ^ (state >>> 15), state | 1);
  value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
  return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
};
const storage = createFileStorage({ directory, versions: 3, onRecover: (info) => process.stdout.write('recover ' + JSON.stringify(info) + '\\n') });
const snapshot = await storage.loadSnapshot(sessionId);
const events = await storage.read(sessionId, { afterSeq: snapshot?.seq ?? 0 });
let lastSeq = Math.max(snapshot?.seq ?? 0, events.at(-1)?.seq ?? 0);
let version = snapshot?.version ?? 0;
process.stdout.write('start ' + version + ' ' + lastSeq + '\\n');
for (;;) {
  if (random() < 0.7) {
    const count = 1 + Math.floor(random() * 3);
    const batch = [];
    for (let index = 1; index <= count; index += 1) batch.push({ type: 'message', seq: lastSeq + index, role: 'user', content: contentOf(lastSeq + index) });
    await storage.append(sessionId, batch);
    lastSeq += count;
    process.stdout.write('event ' + lastSeq + '\\n');
  } else {
    version = await storage.saveSnapshot(sessionId, { formatVersion: 1, seq: lastSeq, state: stateOf(lastSeq) }, { expectedVersion: version });
    process.stdout.write('save ' + version + ' ' + lastSeq + '\\n');
  }
}
`;

const hash = (value: number): number => Math.imul(value, 2_654_435_761) >>> 0;
const contentOf = (seq: number): string => `event ${seq} ✓\u0000 ${'x'.repeat([0, 10, 300, 8_000, 60_000][hash(seq) % 5] ?? 0)}`;
const stateOf = (seq: number): unknown => ({ seq, sum: (seq * (seq + 1)) / 2, padding: 'p'.repeat([0, 2_000, 60_000, 300_000][hash(seq + 7) % 4] ?? 0) });

let workspace: string;
let script: string;

beforeAll(async () => {
  workspace = await mkdtemp(join(tmpdir(), 'mobius-crash-'));
  await bundleFileStorage(workspace);
  script = await writeChildScript(workspace, 'crash-child.mjs', CHILD);
});

afterAll(async () => {
  if (workspace !== undefined) await rm(workspace, { recursive: true, force: true });
});

interface Acknowledged {
  /** Highest event seq the child reported as appended (or found at start). */
  seq: number;
  /** Newest version the child reported as saved (or loaded at start). */
  version: number;
  /** Seq of that version. */
  versionSeq: number;
}

interface Tally {
  trials: number;
  killedBeforeStart: number;
  lockLeft: number;
  tempLeft: number;
  tornJournal: number;
  orphanJournal: number;
  loadedNewerThanAcknowledged: number;
  eventsBeyondAcknowledged: number;
  saves: number;
  appends: number;
}

async function inspect(folder: string, tally: Tally): Promise<void> {
  if (!existsSync(folder)) return;
  const names = await readdir(folder);
  if (names.includes('lock')) tally.lockLeft += 1;
  if (names.some((name) => name.includes('.tmp-'))) tally.tempLeft += 1;
  const states = names.flatMap((name) => /^state-(\d+)\.json$/.exec(name)?.[1] ?? []).map(Number);
  const journals = names.flatMap((name) => /^journal-(\d+)\.jsonl$/.exec(name)?.[1] ?? []).map(Number);
  if (journals.some((journal) => journal > Math.max(0, ...states))) tally.orphanJournal += 1;
  for (const journal of journals) {
    const text = await readFile(join(folder, `journal-${journal}.jsonl`), 'utf8');
    if (text.length > 0 && !text.endsWith('\n')) tally.tornJournal += 1;
  }
}

async function verify(directory: string, acknowledged: Acknowledged, tally: Tally, trial: number): Promise<Acknowledged> {
  const recoveries: FileStorageRecovery[] = [];
  const storage = createFileStorage({ directory, versions: 3, onRecover: (info) => recoveries.push(info) });
  const snapshot = await storage.loadSnapshot(SESSION);
  const context = `trial ${trial}, acknowledged ${JSON.stringify(acknowledged)}`;
  if (acknowledged.version > 0) expect(snapshot, context).not.toBeNull();
  const base = snapshot?.seq ?? 0;
  if (snapshot !== null) {
    expect(snapshot.version, context).toBeGreaterThanOrEqual(acknowledged.version);
    expect(snapshot.seq, context).toBeGreaterThanOrEqual(acknowledged.versionSeq);
    expect(snapshot.state, context).toEqual(stateOf(snapshot.seq));
    if ((snapshot.version ?? 0) > acknowledged.version) tally.loadedNewerThanAcknowledged += 1;
  }
  const events = await storage.read(SESSION, { afterSeq: base });
  events.forEach((event, index) => {
    expect(event.seq, context).toBe(base + index + 1);
    expect(event.type === 'message' ? event.content : undefined, context).toBe(contentOf(event.seq));
  });
  const top = events.at(-1)?.seq ?? base;
  expect(top, `${context}: an acknowledged event is missing`).toBeGreaterThanOrEqual(acknowledged.seq);
  if (top > acknowledged.seq) tally.eventsBeyondAcknowledged += 1;
  expect(recoveries, context).toEqual([]);
  const names = existsSync(join(directory, SESSION)) ? await readdir(join(directory, SESSION)) : [];
  expect(names.filter((name) => name.includes('.corrupt-')), context).toEqual([]);
  return { seq: top, version: snapshot?.version ?? 0, versionSeq: base };
}

async function runLane(lane: number, trials: number, tally: Tally): Promise<void> {
  const random = createRandom(SEED + lane * 7_919);
  let directory = '';
  let acknowledged: Acknowledged = { seq: 0, version: 0, versionSeq: 0 };
  for (let trial = 0; trial < trials; trial += 1) {
    // A fresh folder now and then keeps the journals and version numbers small.
    if (trial % 25 === 0) {
      directory = join(workspace, `lane-${lane}-${trial}`);
      acknowledged = { seq: 0, version: 0, versionSeq: 0 };
    }
    const child = startChild(script, [directory, SESSION, String(Math.floor(random() * 2 ** 32))]);
    const target = Math.floor(random() * 10);
    let seen = 0;
    if (target === 0) {
      // Kill during start-up or the first load (which may have to break a dead writer's lock).
      await new Promise((resolveDelay) => setTimeout(resolveDelay, random() * 250));
    } else {
      for (;;) {
        const line = await child.next();
        if (line === undefined) break;
        const [kind, first, second] = line.split(' ');
        if (kind === 'recover') throw new Error(`trial ${trial}: the child had to recover: ${line}`);
        if (kind === 'event') {
          acknowledged.seq = Number(first);
          tally.appends += 1;
        } else if (kind === 'save') {
          acknowledged = { ...acknowledged, version: Number(first), versionSeq: Number(second) };
          tally.saves += 1;
        } else if (kind === 'start') {
          // What the child found must be at least what was acknowledged before.
          expect(Number(first)).toBeGreaterThanOrEqual(acknowledged.version);
          expect(Number(second)).toBeGreaterThanOrEqual(acknowledged.seq);
        }
        seen += 1;
        if (seen >= target) break;
      }
      // Land the kill anywhere in the next operation: at once, after the event loop turns, or later.
      const wait = random();
      if (wait < 0.25) await new Promise((resolveDelay) => setImmediate(resolveDelay));
      else if (wait < 0.85) await new Promise((resolveDelay) => setTimeout(resolveDelay, random() * 12));
    }
    child.process.kill('SIGKILL');
    const exit = await child.exited;
    if (exit.signal !== 'SIGKILL') throw new Error(`trial ${trial}: the child exited on its own (${exit.code}): ${child.stderr()}`);
    // Lines printed before the kill are acknowledgements too.
    for (const line of child.lines.slice(seen)) {
      const [kind, first, second] = line.split(' ');
      if (kind === 'recover') throw new Error(`trial ${trial}: the child had to recover: ${line}`);
      if (kind === 'event') acknowledged.seq = Number(first);
      if (kind === 'save') acknowledged = { ...acknowledged, version: Number(first), versionSeq: Number(second) };
    }
    if (seen === 0 && child.lines.length === 0) tally.killedBeforeStart += 1;
    await inspect(join(directory, SESSION), tally);
    acknowledged = await verify(directory, acknowledged, tally, trial);
    tally.trials += 1;
  }
}

describe('file storage under SIGKILL', () => {
  it(`loses no acknowledged save or event and leaves no unreadable state (${TRIALS} trials)`, async () => {
    const tally: Tally = {
      trials: 0,
      killedBeforeStart: 0,
      lockLeft: 0,
      tempLeft: 0,
      tornJournal: 0,
      orphanJournal: 0,
      loadedNewerThanAcknowledged: 0,
      eventsBeyondAcknowledged: 0,
      saves: 0,
      appends: 0,
    };
    const perLane = Math.ceil(TRIALS / LANES);
    await Promise.all(Array.from({ length: LANES }, (_, lane) => runLane(lane, Math.min(perLane, TRIALS - lane * perLane), tally)));
    // Shows where the kills landed; the assertions are in verify().
    console.log(`crash injection (seed ${SEED}): ${JSON.stringify(tally)}`);
    expect(tally.trials).toBe(TRIALS);
  });
});

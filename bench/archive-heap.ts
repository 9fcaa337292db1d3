// `npm run bench:archive-heap [turns]`: the heap a session keeps with the archive spilled to storage
// (`archive: { memoryItems }`) and without, per 1,000 turns. The base session (the bundled one-hour
// synthetic session, as in the performance section) is concatenated with itself up to 10,000
// turns. Each setting runs in its own process with a file storage in a temporary folder, so that
// nothing the storage keeps is on the heap: the heap growth from before the manager was created to
// the end of the session (after a full GC, manager alive) is what the manager keeps. Reported,
// never asserted.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ContextManager } from '../src/index.js';
import type { ArchiveOptions } from '../src/index.js';
import { createFileStorage } from '../src/storage/fs/index.js';
import { createReplayer } from '../examples/replay.js';
import type { SessionLine } from '../examples/replay.js';
import { bundledSessions, collectGarbage, shifted } from './concatenation.js';
import { HARNESS_ONLY, MODEL_EVENTS, SYSTEM_PROMPT } from './run-session.js';
import { eventTexts } from './session-source.js';
import type { BenchSession } from './session-source.js';

const BUDGET = 28_000;
const TURNS = Number(process.argv[2] ?? 10_000);
const SETTINGS: readonly string[] = ['off', '1000', '200', '0'];

interface HeapRun {
  readonly setting: string;
  readonly turns: number;
  readonly textBytes: number;
  readonly heapBytes: number;
  readonly archived: number;
  readonly inMemory: number;
}

const setting = process.argv[3];
if (setting === undefined) {
  const rows: string[] = [];
  let baseName = '';
  for (const each of SETTINGS) {
    const output = execFileSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), String(TURNS), each], { encoding: 'utf8', maxBuffer: 1 << 24 });
    const run = JSON.parse(output.trim().split('\n').pop() ?? '{}') as HeapRun & { base: string };
    baseName = run.base;
    const label = each === 'off' ? 'off (whole archive in memory)' : `on, memoryItems ${each}`;
    rows.push(
      `| ${label} | ${run.turns.toLocaleString('en-US')} | ${run.archived.toLocaleString('en-US')} | ${run.inMemory.toLocaleString('en-US')} | ${Math.round(((run.heapBytes / run.turns) * 1_000) / 1_024).toLocaleString('en-US')} KiB | ${(run.heapBytes / 1_048_576).toFixed(1)} MiB | ${(run.heapBytes / run.textBytes).toFixed(2)}× |`,
    );
    process.stderr.write(`[archive-heap] ${rows[rows.length - 1]}\n`);
  }
  process.stdout.write(
    [
      `Heap kept by one manager after ${TURNS.toLocaleString('en-US')} turns of ${baseName} concatenated (budget ${BUDGET.toLocaleString('en-US')}, file storage, one process per row; Node ${process.version}).`,
      '',
      '| archive spill | turns | archived items | items in memory | heap per 1,000 turns | heap | ÷ raw text |',
      '|---|---:|---:|---:|---:|---:|---:|',
      ...rows,
      '',
    ].join('\n'),
  );
} else {
  if (typeof globalThis.gc !== 'function') throw new Error('run node with --expose-gc');
  const { base } = bundledSessions();
  const directory = mkdtempSync(join(tmpdir(), 'mobius-archive-heap-'));
  try {
    const run = await measure({ base, setting, directory });
    process.stdout.write(`${JSON.stringify({ ...run, base: base.name })}\n`);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

// --- Internal helpers ---

async function measure(options: { base: BenchSession; setting: string; directory: string }): Promise<HeapRun> {
  const archive: ArchiveOptions | undefined = options.setting === 'off' ? undefined : { memoryItems: Number(options.setting) };
  // Parsed just before recording, so that the strings the manager keeps are its own.
  const raw = options.base.lines.filter((line) => !HARNESS_ONLY.has(line.type)).map((line) => JSON.stringify(line));
  const span = (options.base.minutes[options.base.minutes.length - 1] ?? 0) + 1;
  const storage = createFileStorage({ directory: options.directory });
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  const manager = new ContextManager({ budget: BUDGET, systemPrompt: SYSTEM_PROMPT, storage, sessionId: 'heap', autoSave: false, ...(archive === undefined ? {} : { archive }) });
  const replayer = createReplayer(manager);
  let turns = 0;
  let textBytes = 0;
  for (let copy = 1; turns < TURNS; copy += 1) {
    for (const json of raw) {
      if (turns >= TURNS) break;
      const line = shifted(JSON.parse(json) as SessionLine, { copy, span });
      if (MODEL_EVENTS.has(line.type)) await manager.settle();
      replayer.apply(line);
      turns += 1;
      textBytes += eventTexts(line).reduce((sum, text) => sum + Buffer.byteLength(text, 'utf8'), 0);
    }
  }
  await manager.settle();
  // Counted in a helper, so that no copy of the state stays on this frame during the measurement.
  const { archived, inMemory } = archiveCounts(manager);
  await new Promise((resolve) => setImmediate(resolve));
  collectGarbage();
  const after = process.memoryUsage().heapUsed;
  // The manager must still be alive here: what it keeps is what is measured.
  if (manager.state().lastSeq === 0) throw new Error('nothing was recorded');
  return { setting: options.setting, turns, textBytes, heapBytes: Math.max(0, after - before), archived, inMemory };
}

function archiveCounts(manager: ContextManager): { archived: number; inMemory: number } {
  const state = manager.state();
  return { archived: state.archive.length + state.spilledArchiveItems, inMemory: state.archive.length };
}

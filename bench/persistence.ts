// Bytes a session writes to storage with automatic saves on: the base session concatenated with
// itself, recorded into a storage that counts what it is given. Appends carry each event once;
// snapshots follow `autoSave.snapshotGrowth`, so that the total stays proportional to the session.
import { ContextManager, createMemoryStorage } from '../src/index.js';
import type { Storage } from '../src/index.js';
import { createReplayer } from '../examples/replay.js';
import type { SessionLine } from '../examples/replay.js';
import { HARNESS_ONLY, SYSTEM_PROMPT } from './run-session.js';
import type { BenchSession } from './session-source.js';

/** Turns per reported block. */
export const PERSISTENCE_BLOCK_TURNS = 1_000;

/** Bytes written during one block of turns. */
export interface PersistenceBlock {
  /** Turns recorded when the block ended. */
  readonly turns: number;
  /** Serialised bytes of the events appended during the block. */
  readonly appendedBytes: number;
  /** Serialised bytes of the snapshots written during the block. */
  readonly snapshotBytes: number;
  /** Snapshots written during the block. */
  readonly snapshots: number;
}

/** Storage traffic of a long session with automatic saves. */
export interface PersistenceResult {
  /** Turns recorded. */
  readonly turns: number;
  /** One entry per {@link PERSISTENCE_BLOCK_TURNS} turns. */
  readonly blocks: readonly PersistenceBlock[];
  /** All bytes written (appends and snapshots). */
  readonly totalBytes: number;
  /** Bytes of the log at the end (what a session must write at least). */
  readonly logBytes: number;
  /** Snapshots written. */
  readonly snapshots: number;
  /** Events not in storage at the end, as `settle()` reported them (0 when all are durable). */
  readonly pendingEvents: number;
}

/** Replays `base` concatenated up to `turns` into a counting storage with automatic saves on. */
export async function measurePersistence(options: {
  base: BenchSession;
  budget: number;
  turns: number;
  /** Snapshot schedule; 0 snapshots on every automatic save (the behaviour before the schedule). @default 1 */
  snapshotGrowth?: number | undefined;
}): Promise<PersistenceResult> {
  const counted = countingStorage();
  const manager = new ContextManager({ budget: options.budget, systemPrompt: SYSTEM_PROMPT, storage: counted.storage, autoSave: { snapshotGrowth: options.snapshotGrowth } });
  const replayer = createReplayer(manager);
  const raw = options.base.lines.filter((line) => !HARNESS_ONLY.has(line.type)).map((line) => JSON.stringify(line));
  const blocks: PersistenceBlock[] = [];
  let turns = 0;
  let mark = { appended: 0, snapshot: 0, snapshots: 0 };
  for (let copy = 1; turns < options.turns; copy += 1) {
    for (const json of raw) {
      if (turns >= options.turns) break;
      // Later copies touch other files, as a longer session would.
      const line = JSON.parse(json) as Record<string, unknown>;
      if (copy > 1 && typeof line['path'] === 'string') line['path'] = `copy${copy}/${line['path']}`;
      replayer.apply(line as SessionLine);
      turns += 1;
      // As an agent loop would: background work (graduation, appends, saves) runs between events.
      await manager.settle();
      if (turns % PERSISTENCE_BLOCK_TURNS === 0 || turns === options.turns) {
        const now = counted.totals();
        blocks.push({ turns, appendedBytes: now.appended - mark.appended, snapshotBytes: now.snapshot - mark.snapshot, snapshots: now.snapshots - mark.snapshots });
        mark = now;
      }
    }
  }
  const { pendingEvents } = await manager.settle();
  const totals = counted.totals();
  return { turns, blocks, totalBytes: totals.appended + totals.snapshot, logBytes: totals.appended, snapshots: totals.snapshots, pendingEvents };
}

// --- Internal helpers ---

function countingStorage(): { storage: Storage; totals: () => { appended: number; snapshot: number; snapshots: number } } {
  const memory = createMemoryStorage({ versions: 2 });
  let appended = 0;
  let snapshot = 0;
  let snapshots = 0;
  return {
    storage: {
      ...memory,
      name: 'counting',
      append: (sessionId, events) => {
        appended += Buffer.byteLength(JSON.stringify(events), 'utf8');
        return memory.append(sessionId, events);
      },
      saveSnapshot: (sessionId, value, saveOptions) => {
        snapshot += Buffer.byteLength(JSON.stringify(value), 'utf8');
        snapshots += 1;
        return memory.saveSnapshot(sessionId, value, saveOptions);
      },
    },
    totals: () => ({ appended, snapshot, snapshots }),
  };
}

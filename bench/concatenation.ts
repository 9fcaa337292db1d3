// Concatenating a bundled session with itself, as the heap and latency measurements do
// (`npm run bench:performance`, `npm run bench:archive-heap`): which session is the base, how a
// later copy of a line is shifted, and the full GC taken before reading the heap.
import { fileURLToPath } from 'node:url';
import type { SessionLine } from '../examples/replay.js';
import { defaultSets } from './bench-sets.js';
import { loadBenchSession } from './session-source.js';
import type { BenchSession } from './session-source.js';

/**
 * The bundled sessions (synthetic and real; the validation set is for retention only) and the
 * base of the concatenated sessions: the one-hour synthetic session, or the first.
 */
export function bundledSessions(): { sessions: BenchSession[]; base: BenchSession } {
  const fixtures = fileURLToPath(new URL('../bench/fixtures/', import.meta.url));
  const { sets } = defaultSets({ fixtures, validation: fileURLToPath(new URL('../bench/no-validation-set/', import.meta.url)) });
  const sessions = sets.flatMap((set) => set.files.map((file) => loadBenchSession(file)));
  const base = sessions.find((session) => session.kind === 'synth' && /(^|\D)60min/.test(session.name)) ?? sessions[0];
  if (base === undefined) throw new Error(`no bundled sessions in ${fixtures}`);
  return { sessions, base };
}

/** A line of copy `copy` (from 1) of a session `span` minutes long: paths and timestamps moved on. */
export function shifted(line: SessionLine, options: { copy: number; span: number }): SessionLine {
  if (options.copy === 1) return line;
  const result: Record<string, unknown> = { ...line };
  if (typeof line.path === 'string') result['path'] = `copy${options.copy}/${line.path}`;
  if (typeof line.ts === 'string') {
    const time = Date.parse(line.ts);
    if (!Number.isNaN(time)) result['ts'] = new Date(time + (options.copy - 1) * options.span * 60_000).toISOString();
  }
  return result as SessionLine;
}

/** Runs a full GC twice (weak references cleared by the first are collected by the second); nothing without `--expose-gc`. */
export function collectGarbage(): void {
  if (typeof globalThis.gc === 'function') {
    globalThis.gc();
    globalThis.gc();
  }
}

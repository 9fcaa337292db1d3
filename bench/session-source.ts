// Loads benchmark sessions (the JSONL schema of ../shared/tools/synth/README.md and the real-corpus
// variants) and derives what the harness needs: a simulated clock, checkpoints and probe chains.
import { basename } from 'node:path';
import { readSession } from '../examples/replay.js';
import type { SessionLine } from '../examples/replay.js';

/** Minutes between checkpoints of sessions that carry none (real transcripts without probes). */
export const CHECKPOINT_INTERVAL_MINUTES = 15;

/** Idle gaps in real transcripts (overnight, between aider runs) count as at most this long. */
export const MAX_GAP_MINUTES = 10;

/** Minutes per event for sessions without timestamps (about 15 s per agent step). */
export const MINUTES_PER_UNTIMED_EVENT = 0.25;

/** Real transcripts with fewer distinct timestamps than this share of their events use the event count. */
export const MIN_DISTINCT_TIMESTAMPS = 0.5;

/** A retention probe: a fact stated in the session and the keywords that answer it. */
export interface Probe {
  /** Probe id, e.g. `"p7"`. */
  readonly id: string;
  /** `decision`, `preference`, `convention`, `constraint`, `error_resolution`, `requirement` or `routine`. */
  readonly category: string;
  /** All of these must occur in the context (case-insensitive, not glued to word characters). */
  readonly keywords: readonly string[];
  /** The id of the probe this one replaces, if it is an update. */
  readonly supersedes: string | undefined;
  /** Simulated minute at which the fact was stated. */
  readonly minute: number;
  /** Index of the probe line in the session (right after the statement). */
  readonly lineIndex: number;
}

/** A point at which every strategy's context is built and scored. */
export interface Checkpoint {
  /** `c3` from the session, or `m45` for a 15-minute mark of a session without checkpoints. */
  readonly id: string;
  /** Index in `lines` before which the checkpoint is taken. */
  readonly lineIndex: number;
  /** Simulated minute. */
  readonly minute: number;
  /** Probe ids to score (sessions with probes only). */
  readonly probes: readonly string[];
  /** Whether this is the last checkpoint of the session. */
  readonly isFinal: boolean;
}

/** A session ready to be replayed by the benchmark. */
export interface BenchSession {
  /** Short name, from the file name. */
  readonly name: string;
  /** Path it was read from. */
  readonly file: string;
  /** `synth` for generated sessions (`meta.source` is `synth`), `real` for agent transcripts. */
  readonly kind: 'synth' | 'real';
  /** Whether the session carries retention probes (synthetic or hand-annotated): it is scored. */
  readonly isScored: boolean;
  /** Where the transcript comes from (the `meta` line's `source`), when known. */
  readonly source: string | undefined;
  /** Every line, including harness-only ones. */
  readonly lines: readonly SessionLine[];
  /** Simulated minute of each line (same index as `lines`). */
  readonly minutes: readonly number[];
  /** Probes by id. */
  readonly probes: ReadonlyMap<string, Probe>;
  /** Checkpoints in order; the last one is final. */
  readonly checkpoints: readonly Checkpoint[];
  /** Events that are replayed (everything except meta, probe and checkpoint lines). */
  readonly eventCount: number;
  /** UTF-8 bytes of the text the events carry (messages, file contents, commands, outputs). */
  readonly textBytes: number;
  /** How the clock was derived. */
  readonly clock: 'timestamps' | 'timestamps, idle gaps capped' | 'event count';
}

/** Reads a `.jsonl` or `.jsonl.gz` session and derives its clock, probes and checkpoints. */
export function loadBenchSession(file: string): BenchSession {
  return toBenchSession({ file, name: sessionName(file), lines: readSession(file) });
}

/**
 * Builds a session from lines already in memory, e.g. a session concatenated with itself.
 * Probes and checkpoints are derived exactly as for a file.
 */
export function toBenchSession(options: { file: string; name: string; lines: readonly SessionLine[] }): BenchSession {
  const { lines } = options;
  const meta = lines.find((line) => line.type === 'meta');
  const hasCheckpoints = lines.some((line) => line.type === 'checkpoint');
  // The meta line says where a session comes from; without one, checkpoints mean a generated session.
  const kind = meta === undefined ? (hasCheckpoints ? 'synth' : 'real') : meta['source'] === 'synth' ? 'synth' : 'real';
  const { minutes, clock } = simulatedMinutes(lines, kind);
  const probes = new Map<string, Probe>();
  const checkpoints: Checkpoint[] = [];
  let eventCount = 0;
  let textBytes = 0;
  let nextMark = CHECKPOINT_INTERVAL_MINUTES;
  lines.forEach((line, index) => {
    const minute = minutes[index] ?? 0;
    if (line.type === 'probe' && typeof line.id === 'string') {
      probes.set(line.id, {
        id: line.id,
        category: line.category ?? 'unknown',
        keywords: line.answer_keywords ?? [],
        supersedes: line.supersedes,
        minute,
        lineIndex: index,
      });
    } else if (line.type === 'checkpoint') {
      checkpoints.push({
        id: typeof line.id === 'string' ? line.id : `c${checkpoints.length + 1}`,
        lineIndex: index,
        minute,
        probes: line.probes ?? [],
        isFinal: line.final === true,
      });
    } else if (line.type !== 'meta') {
      // Sessions without checkpoints of their own (unannotated transcripts) are measured every 15 minutes.
      if (!hasCheckpoints) {
        while (minute >= nextMark) {
          checkpoints.push({ id: `m${nextMark}`, lineIndex: index, minute: nextMark, probes: [], isFinal: false });
          nextMark += CHECKPOINT_INTERVAL_MINUTES;
        }
      }
      eventCount += 1;
      textBytes += eventTextBytes(line);
    }
  });
  const last = checkpoints[checkpoints.length - 1];
  if (last?.isFinal !== true) {
    checkpoints.push({ id: 'end', lineIndex: lines.length, minute: minutes[minutes.length - 1] ?? 0, probes: last?.probes ?? [], isFinal: true });
  }
  return {
    name: options.name,
    file: options.file,
    kind,
    isScored: probes.size > 0,
    source: typeof meta?.['source'] === 'string' ? meta['source'] : undefined,
    lines,
    minutes,
    probes,
    checkpoints,
    eventCount,
    textBytes,
    clock,
  };
}

/** The strings an event carries, i.e. what a naive history sends and what a tokenizer must read. */
export function eventTexts(line: SessionLine): string[] {
  const parts: string[] = [];
  for (const value of [line.text, line.content, line.before, line.after, line.search, line.replace, line.patch, line.cmd, line.output]) {
    if (typeof value === 'string' && value.length > 0) parts.push(value);
  }
  if (line.type === 'tool' && line.input !== undefined) parts.push(typeof line.input === 'string' ? line.input : JSON.stringify(line.input));
  return parts;
}

// --- Internal helpers ---

// Lines the harness reads and no strategy records; annotations (probes, checkpoints) copy the
// timestamp of the line they follow, so they must not count towards a transcript's clock.
const HARNESS_LINES: ReadonlySet<string> = new Set(['meta', 'probe', 'checkpoint']);

function sessionName(file: string): string {
  return basename(file).replace(/\.jsonl(\.gz)?$/, '');
}

function eventTextBytes(line: SessionLine): number {
  return eventTexts(line).reduce((sum, text) => sum + Buffer.byteLength(text, 'utf8'), 0);
}

function firstTimestamp(lines: readonly SessionLine[]): number | undefined {
  for (const line of lines) {
    if (typeof line.ts === 'string') {
      const time = Date.parse(line.ts);
      if (!Number.isNaN(time)) return time;
    }
  }
  return undefined;
}

// Synthetic sessions run on their own simulated clock. Real transcripts keep their timestamps but
// cap idle gaps (a session may span a night); those without per-event timestamps advance a fixed
// step per event.
function simulatedMinutes(
  lines: readonly SessionLine[],
  kind: 'synth' | 'real',
): { minutes: number[]; clock: BenchSession['clock'] } {
  const start = firstTimestamp(lines);
  const minutes: number[] = [];
  const stamped = lines.filter((line) => typeof line.ts === 'string' && !HARNESS_LINES.has(line.type));
  // aider logs stamp each run, not each event: such coarse clocks are replaced by the event count.
  const isCoarse = kind === 'real' && new Set(stamped.map((line) => line.ts)).size < stamped.length * MIN_DISTINCT_TIMESTAMPS;
  if (start === undefined || isCoarse) {
    let events = 0;
    for (const line of lines) {
      if (!HARNESS_LINES.has(line.type)) events += 1;
      minutes.push(events * MINUTES_PER_UNTIMED_EVENT);
    }
    return { minutes, clock: 'event count' };
  }
  let clock = 0;
  let previous = start;
  for (const line of lines) {
    const time = typeof line.ts === 'string' ? Date.parse(line.ts) : Number.NaN;
    if (!Number.isNaN(time)) {
      const gap = Math.max(0, (time - previous) / 60_000);
      clock += kind === 'synth' ? gap : Math.min(gap, MAX_GAP_MINUTES);
      previous = time;
    }
    minutes.push(clock);
  }
  return { minutes, clock: kind === 'synth' ? 'timestamps' : 'timestamps, idle gaps capped' };
}

// Mobius alone, measured for speed and memory: build() latency against session length (the same
// session concatenated with itself), the heap of a 10,000-turn session, and ingestion throughput
// against raw tokenizer counting of the same text.
import { ContextManager, createTokenCounter } from '../src/index.js';
import type { TokenCounter } from '../src/index.js';
import { createReplayer } from '../examples/replay.js';
import type { SessionLine } from '../examples/replay.js';
import { HARNESS_ONLY, MODEL_EVENTS, SYSTEM_PROMPT } from './run-session.js';
import { eventTexts } from './session-source.js';
import type { BenchSession } from './session-source.js';
import { measurePersistence } from './persistence.js';
import type { PersistenceResult } from './persistence.js';
import { summarizeSamples } from './statistics.js';
import type { SampleSummary } from './statistics.js';

/** Turns (recorded session events) in the long session whose heap is measured. */
export const HEAP_TURNS = 10_000;

/** Session lengths, in copies of the base session, at which build() latency is reported. */
export const LATENCY_COPIES: readonly number[] = [1, 4, 16];

/** build() latency while the history is `copies` times the base session. */
export interface LatencyAtLength {
  /** Copies of the base session recorded before and during these builds. */
  readonly copies: number;
  /** Events recorded when the copy ended. */
  readonly events: number;
  /** Items in the archive when the copy ended (a measure of history length). */
  readonly archived: number;
  /** Latency of the builds made during that copy (ms). */
  readonly latency: SampleSummary;
}

/** Heap of a long session. */
export interface HeapResult {
  /** Turns (events) recorded. */
  readonly turns: number;
  /** UTF-8 bytes of the text those events carry. */
  readonly textBytes: number;
  /** Heap retained by the manager after a full GC, in bytes; `undefined` without `--expose-gc`. */
  readonly heapBytes: number | undefined;
  /** `heapBytes ÷ turns`. */
  readonly bytesPerTurn: number | undefined;
  /** Items in the archive at the end. */
  readonly archived: number;
}

/** Ingestion speed of Mobius against the tokenizer alone on the same text. */
export interface ThroughputResult {
  /** Events recorded. */
  readonly events: number;
  /** UTF-8 bytes of their text. */
  readonly bytes: number;
  /** Mobius: events per second, recording each event and letting graduation run. */
  readonly mobiusEventsPerSecond: number;
  /** Mobius: MB of event text per second. */
  readonly mobiusMegabytesPerSecond: number;
  /** Tokenizer alone: MB per second (gpt-tokenizer o200k through createTokenCounter). */
  readonly tokenizerMegabytesPerSecond: number;
  /** Mobius speed ÷ tokenizer speed (1.0 = as fast as counting the tokens once). */
  readonly ratio: number;
}

/** The performance section of the results. */
export interface PerformanceResult {
  /** Name of the session that was concatenated. */
  readonly baseSession: string;
  /** Events per copy of it. */
  readonly eventsPerCopy: number;
  /** Latency during every copy of the base session (the report shows 1×, 4× and 16×). */
  readonly latencyByLength: readonly LatencyAtLength[];
  /** Every build of the long session, Mobius alone in the process: each right after a new event. */
  readonly latency: SampleSummary;
  /** A second build at the same points, with nothing new recorded (what caching saves). */
  readonly repeatLatency: SampleSummary;
  readonly heap: HeapResult;
  readonly throughput: ThroughputResult;
  /** Bytes written to storage by the long session with automatic saves on. */
  readonly persistence: PersistenceResult;
}

/**
 * How build() latency grows with history: the median of the per-copy p50s over copies 13–16
 * against copies 1–4 (medians, because single copies are noisy on a shared machine).
 */
export function latencyGrowth(latencyByLength: readonly LatencyAtLength[]): { early: number; late: number; ratio: number } | undefined {
  const p50s = (from: number, to: number): number[] =>
    latencyByLength.filter((entry) => entry.copies >= from && entry.copies <= to).map((entry) => entry.latency.p50).sort((a, b) => a - b);
  const early = p50s(1, 4);
  const late = p50s(13, 16);
  if (early.length === 0 || late.length === 0) return undefined;
  const middle = (values: number[]): number => ((values[Math.floor((values.length - 1) / 2)] ?? 0) + (values[Math.ceil((values.length - 1) / 2)] ?? 0)) / 2;
  const earlyMedian = middle(early);
  const lateMedian = middle(late);
  return { early: earlyMedian, late: lateMedian, ratio: earlyMedian === 0 ? 0 : lateMedian / earlyMedian };
}

/** Runs the performance measurements. */
export async function measurePerformance(options: {
  base: BenchSession;
  sessions: readonly BenchSession[];
  budget: number;
  log: (message: string) => void;
}): Promise<PerformanceResult> {
  const { base, budget, log } = options;
  log(`latency against session length and heap: ${base.name} concatenated up to ${HEAP_TURNS.toLocaleString('en-US')} turns`);
  const long = await replayConcatenated({ base, budget, turns: HEAP_TURNS });
  log('ingestion throughput against the tokenizer');
  const throughput = await measureThroughput({ sessions: options.sessions, budget });
  log(`bytes written to storage with automatic saves: ${HEAP_TURNS.toLocaleString('en-US')} turns`);
  const persistence = await measurePersistence({ base, budget, turns: HEAP_TURNS });
  return {
    baseSession: base.name,
    eventsPerCopy: base.eventCount,
    latencyByLength: long.latencyByLength,
    latency: long.latency,
    repeatLatency: long.repeatLatency,
    heap: long.heap,
    throughput,
    persistence,
  };
}

// --- Internal helpers ---

// Each event is parsed from JSON just before it is recorded, so that the strings the manager
// keeps are its own: shared strings would hide from the heap measurement. The heap is measured as
// the difference made by dropping the manager, which leaves out caches that outlive it (the
// tokenizer's).
async function replayConcatenated(options: {
  base: BenchSession;
  budget: number;
  turns: number;
}): Promise<{ latencyByLength: LatencyAtLength[]; latency: SampleSummary; repeatLatency: SampleSummary; heap: HeapResult }> {
  const { base, budget, turns } = options;
  const all: number[] = [];
  const repeated: number[] = [];
  const raw = base.lines.filter((line) => !HARNESS_ONLY.has(line.type)).map((line) => JSON.stringify(line));
  const span = (base.minutes[base.minutes.length - 1] ?? 0) + 1;
  const latencyByLength: LatencyAtLength[] = [];
  let manager: ContextManager | undefined = new ContextManager({ budget, systemPrompt: SYSTEM_PROMPT });
  let replayer: ReturnType<typeof createReplayer> | undefined = createReplayer(manager);
  let archived = 0;
  manager.on('archive-add', (event) => (archived += event.items.length));
  let events = 0;
  let textBytes = 0;
  for (let copy = 1; events < turns; copy += 1) {
    const samples: number[] = [];
    for (const json of raw) {
      if (events >= turns) break;
      const line = shifted(JSON.parse(json) as SessionLine, { copy, span });
      if (MODEL_EVENTS.has(line.type)) {
        await manager.settle();
        const start = performance.now();
        manager.build({ budget });
        const middle = performance.now();
        manager.build({ budget });
        repeated.push(performance.now() - middle);
        samples.push(middle - start);
        all.push(middle - start);
      }
      replayer.apply(line);
      events += 1;
      textBytes += eventTexts(line).reduce((sum, text) => sum + Buffer.byteLength(text, 'utf8'), 0);
    }
    latencyByLength.push({ copies: copy, events, archived, latency: summarizeSamples(samples) });
  }
  await manager.settle();
  const archivedAtEnd = manager.state().archive.length;
  collectGarbage();
  const withManager = process.memoryUsage().heapUsed;
  manager = undefined;
  replayer = undefined;
  collectGarbage();
  const withoutManager = process.memoryUsage().heapUsed;
  const heapBytes = typeof globalThis.gc === 'function' ? Math.max(0, withManager - withoutManager) : undefined;
  return {
    latencyByLength,
    latency: summarizeSamples(all),
    repeatLatency: summarizeSamples(repeated),
    heap: {
      turns: events,
      textBytes,
      heapBytes,
      bytesPerTurn: heapBytes === undefined ? undefined : heapBytes / events,
      archived: archivedAtEnd,
    },
  };
}

async function measureThroughput(options: { sessions: readonly BenchSession[]; budget: number }): Promise<ThroughputResult> {
  const { sessions, budget } = options;
  const texts = sessions.flatMap((session) => session.lines.flatMap((line) => (HARNESS_ONLY.has(line.type) ? [] : eventTexts(line))));
  const bytes = texts.reduce((sum, text) => sum + Buffer.byteLength(text, 'utf8'), 0);
  const events = sessions.reduce((sum, session) => sum + session.eventCount, 0);
  let tokenizerSeconds = Number.POSITIVE_INFINITY;
  let mobiusSeconds = Number.POSITIVE_INFINITY;
  // Best of two, alternating, so that neither side pays for warm-up or a stray GC alone.
  for (let round = 0; round < 2; round += 1) {
    tokenizerSeconds = Math.min(tokenizerSeconds, countAll(texts, createTokenCounter()));
    mobiusSeconds = Math.min(mobiusSeconds, await ingestAll(sessions, budget));
  }
  const megabytes = bytes / 1_000_000;
  return {
    events,
    bytes,
    mobiusEventsPerSecond: events / mobiusSeconds,
    mobiusMegabytesPerSecond: megabytes / mobiusSeconds,
    tokenizerMegabytesPerSecond: megabytes / tokenizerSeconds,
    ratio: tokenizerSeconds / mobiusSeconds,
  };
}

function countAll(texts: readonly string[], counter: TokenCounter): number {
  const start = performance.now();
  let tokens = 0;
  for (const text of texts) tokens += counter.count(text);
  // Use the result so the loop cannot be optimised away.
  if (tokens < 0) throw new Error('negative token count');
  return (performance.now() - start) / 1_000;
}

async function ingestAll(sessions: readonly BenchSession[], budget: number): Promise<number> {
  const start = performance.now();
  for (const session of sessions) {
    const manager = new ContextManager({ budget, systemPrompt: SYSTEM_PROMPT });
    const replayer = createReplayer(manager);
    for (const line of session.lines) {
      if (HARNESS_ONLY.has(line.type)) continue;
      try {
        replayer.apply(line);
      } catch {
        // Rejections are reported by the main run; here only speed matters.
      }
      await manager.settle();
    }
  }
  return (performance.now() - start) / 1_000;
}

function shifted(line: SessionLine, options: { copy: number; span: number }): SessionLine {
  if (options.copy === 1) return line;
  const result: Record<string, unknown> = { ...line };
  if (typeof line.path === 'string') result['path'] = `copy${options.copy}/${line.path}`;
  if (typeof line.ts === 'string') {
    const time = Date.parse(line.ts);
    if (!Number.isNaN(time)) result['ts'] = new Date(time + (options.copy - 1) * options.span * 60_000).toISOString();
  }
  return result as SessionLine;
}

function collectGarbage(): void {
  if (typeof globalThis.gc === 'function') {
    globalThis.gc();
    globalThis.gc();
  }
}

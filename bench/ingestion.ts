// Ingestion throughput per bundled session: the public recording API (addMessage, addToolResult,
// openFile, updateFile, closeFile, addNote) against raw gpt-tokenizer `countTokens` on the same
// texts, in the same process. The texts are exactly the strings the replay hands to the API
// (message contents, tool outputs and inputs, full file contents), captured in a first pass.
// Graduation is not on the recording path: a recording call only schedules it on the session's
// background queue (p-queue), and it runs after the call has returned; so does the preparation of
// the next build() (boundary features, gap scores, T0 units), which runs at the start of the next
// `settle()`. The replay awaits `settle()` after every event, so that work is measured too, and
// reported apart: recording calls, work moved to `settle()` (preparation and other queued work),
// graduation (from `graduation-start` to its end), and everything together.
// Every session is replayed twice before any is timed (to capture its texts, then once as timed),
// so both sides run warm, and the timed rounds go over all sessions in turn: measured cold or
// one session after the other, the first sessions would also pay for the JIT settling. The
// split per recording method is measured in a round of its own, so that the wrappers it needs do
// not slow the rounds that are compared with the tokenizer.
// Times are this process's CPU time, so that other processes on a loaded machine do not skew the
// ratio. That CPU time includes V8's own threads (concurrent marking, parallel scavenging,
// background compiles). The heap is not collected by force between the timed sections: a forced
// full collection before every section made the library's side about a third slower (its heap and
// young generation start small again every time), which no application sees. Each side keeps the
// best of INGESTION_ROUNDS rounds (5; 3 left the per-session ratios of small sessions noisy), a
// session under 0.5 MB of more (up to 25), so that every session is timed on about as many bytes.
// Garbage-collection pauses (perf_hooks `gc` entries) that overlap recording calls are reported
// beside the ratio, with the ratio that leaves their wall time out: most of what a replay allocates
// is allocated in settle() (graduation), so a collection inside a recording call is often started
// by that garbage. An untimed minor collection after every settle() was tried instead, and made
// the recording calls slower (docs/benchmark.md, section 13).
// Measures; asserts nothing.
//   npm run bench:ingest                        bundled sessions (bench/fixtures)
//   npm run bench:ingest -- path/to/session.jsonl[.gz] ...
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { ContextManager } from '../src/index.js';
import { createReplayer } from '../examples/replay.js';
import { HARNESS_ONLY, SYSTEM_PROMPT } from './run-session.js';
import { loadBenchSession } from './session-source.js';
import type { BenchSession } from './session-source.js';

/** Ingestion speed of one session against the tokenizer alone on the same texts. */
export interface IngestionResult {
  /** Session name. */
  readonly name: string;
  /** API calls made by the replay. */
  readonly calls: number;
  /** UTF-8 bytes of the texts handed to the API. */
  readonly bytes: number;
  /** Mobius: MB of API text recorded per second, everything included (recording calls and all the work `settle()` waits for). */
  readonly mobiusMegabytesPerSecond: number;
  /** Mobius: MB per second counting the recording calls only (graduation, run off the recording path by `settle()`, left out). */
  readonly recordingMegabytesPerSecond: number;
  /** gpt-tokenizer `countTokens` (o200k) on the same texts: MB per second. */
  readonly tokenizerMegabytesPerSecond: number;
  /** Mobius speed with everything ÷ tokenizer speed (1.0 = as fast as counting every text once). */
  readonly ratio: number;
  /** Recording calls only ÷ tokenizer speed: the throughput of the recording path. */
  readonly recordingRatio: number;
  /** CPU seconds of `countTokens` on the texts. */
  readonly tokenizerSeconds: number;
  /** CPU seconds of the recording calls. */
  readonly recordingSeconds: number;
  /** Wall seconds of V8's garbage-collection pauses that fell inside recording calls (best round): collections there are often started by garbage made in `settle()`. */
  readonly recordingGcPauseSeconds: number;
  /** Garbage-collection pauses inside recording calls, all rounds of the session: how many, and how many rounds. */
  readonly recordingGcPauses: { readonly count: number; readonly rounds: number };
  /** CPU seconds of the graduation runs (from `graduation-start` to `graduation-end` or `graduation-error`). */
  readonly graduationSeconds: number;
  /** CPU seconds spent in `settle()` outside graduation runs: the preparation of the next build() and other queued work, moved off the recording path. */
  readonly movedToSettleSeconds: number;
  /** CPU seconds of everything: recording calls and all of `settle()`. */
  readonly totalSeconds: number;
  /** CPU seconds per recording method (a round of its own, with the methods wrapped), with its call count. */
  readonly methods: Readonly<Record<string, { readonly calls: number; readonly seconds: number }>>;
}

/** Rounds per side; the best of them is kept, alternating so neither side pays for warm-up alone. */
export const INGESTION_ROUNDS = 5;
/** A session smaller than this (MB of API text) gets more rounds, up to {@link MAX_SMALL_SESSION_ROUNDS}: its best round is a few milliseconds. */
const SMALL_SESSION_MEGABYTES = 0.5;
const MAX_SMALL_SESSION_ROUNDS = 25;

// Rounds for one session: `rounds`, or more for a small session (a 0.07 MB session is timed in
// about 15 ms a round, where one descheduling or collection is a large share), so that each
// session gets about the timed bytes of `rounds` rounds of a 0.5 MB session.
function roundsFor(texts: readonly string[], rounds: number): number {
  const megabytes = texts.reduce((sum, text) => sum + text.length, 0) / 1_000_000;
  if (megabytes >= SMALL_SESSION_MEGABYTES || megabytes === 0) return rounds;
  return Math.max(rounds, Math.min(MAX_SMALL_SESSION_ROUNDS, Math.ceil((rounds * SMALL_SESSION_MEGABYTES) / megabytes)));
}

/** Measures {@link IngestionResult} for each session. */
export async function measureIngestion(options: {
  sessions: readonly BenchSession[];
  budget: number;
  rounds?: number | undefined;
}): Promise<IngestionResult[]> {
  const results: IngestionResult[] = [];
  // The texts of every session are captured before any is timed, then every session is replayed
  // once more, unwrapped and untimed (the capture wraps the recording methods, which the timed
  // rounds do not): both bring both sides to the code the JIT optimises, whose background
  // compilation would otherwise be charged to the sessions measured first.
  const captured: string[][] = [];
  for (const session of options.sessions) {
    const texts = await captureTexts(session, options.budget);
    countRaw(texts);
    captured.push(texts);
  }
  for (const session of options.sessions) await ingest(session, options.budget, false);
  // The rounds go over all sessions in turn (round 1 of every session, then round 2, ...), not
  // all rounds of one session and then the next: timed one after the other, the first sessions
  // paid for the JIT settling (ratios of the first session timed were a third lower than the same
  // session timed last), and a small session's five rounds all fell in one short stretch of
  // machine load.
  const rounds = options.rounds ?? INGESTION_ROUNDS;
  const roundsOf = captured.map((texts) => roundsFor(texts, rounds));
  const tokenizerBest = options.sessions.map(() => Number.POSITIVE_INFINITY);
  const replayedBest: (Replayed | undefined)[] = options.sessions.map(() => undefined);
  const pausesOf = options.sessions.map(() => ({ count: 0, rounds: 0 }));
  for (let round = 0; round < Math.max(...roundsOf); round += 1) {
    for (const [index, session] of options.sessions.entries()) {
      if (round >= (roundsOf[index] as number)) continue;
      tokenizerBest[index] = Math.min(tokenizerBest[index] as number, countRaw(captured[index] as string[]));
      const replayed = await ingest(session, options.budget, false);
      const pauses = pausesOf[index] as { count: number; rounds: number };
      pauses.count += replayed.gcPauses;
      pauses.rounds += 1;
      // The round with the fastest recording calls, its settle() work with it.
      const best = replayedBest[index];
      if (best === undefined || replayed.api < best.api) replayedBest[index] = replayed;
    }
  }
  for (const [index, session] of options.sessions.entries()) {
    const texts = captured[index] as string[];
    const bytes = texts.reduce((sum, text) => sum + Buffer.byteLength(text, 'utf8'), 0);
    const tokenizerSeconds = tokenizerBest[index] as number;
    const best = replayedBest[index];
    const methods = (await ingest(session, options.budget, true)).methods;
    const { api, total, graduation, gcPause } = best as Replayed;
    const megabytes = bytes / 1_000_000;
    results.push({
      name: session.name,
      calls: texts.length,
      bytes,
      mobiusMegabytesPerSecond: megabytes / total,
      recordingMegabytesPerSecond: megabytes / api,
      tokenizerMegabytesPerSecond: megabytes / tokenizerSeconds,
      ratio: tokenizerSeconds / total,
      recordingRatio: tokenizerSeconds / api,
      tokenizerSeconds,
      recordingSeconds: api,
      graduationSeconds: graduation,
      recordingGcPauseSeconds: gcPause,
      recordingGcPauses: pausesOf[index] as { count: number; rounds: number },
      movedToSettleSeconds: Math.max(0, total - api - graduation),
      totalSeconds: total,
      methods,
    });
  }
  return results;
}

/**
 * Renders the results as Markdown: one row per session with a total row (bytes-weighted), then
 * where the recording time goes, per recording method, as a multiple of `countTokens` time.
 */
export function renderIngestionTable(results: readonly IngestionResult[]): string {
  const percent = (value: number): string => `${(value * 100).toFixed(0)}%`;
  const times = (seconds: number, tokenizerSeconds: number): string => `${(seconds / tokenizerSeconds).toFixed(2)}×`;
  const row = (name: string, result: Omit<IngestionResult, 'name' | 'methods' | 'mobiusMegabytesPerSecond' | 'recordingMegabytesPerSecond' | 'tokenizerMegabytesPerSecond' | 'ratio' | 'recordingRatio'>): string => {
    const megabytes = result.bytes / 1_000_000;
    const tokenizer = result.tokenizerSeconds;
    return `| ${name} | ${result.calls} | ${megabytes.toFixed(2)} | ${(megabytes / tokenizer).toFixed(2)} | ${(megabytes / result.recordingSeconds).toFixed(2)} | **${percent(tokenizer / result.recordingSeconds)}** | ${(result.recordingGcPauseSeconds * 1_000).toFixed(1)} | ${result.recordingGcPauses.count} in ${result.recordingGcPauses.rounds} | ${percent(tokenizer / Math.max(1e-9, result.recordingSeconds - result.recordingGcPauseSeconds))} | ${times(result.movedToSettleSeconds, tokenizer)} | ${times(result.graduationSeconds, tokenizer)} | ${(megabytes / result.totalSeconds).toFixed(2)} | ${percent(tokenizer / result.totalSeconds)} | ${((result.totalSeconds * 1_000) / megabytes).toFixed(0)} |`;
  };
  const sum = (pick: (result: IngestionResult) => number): number => results.reduce((total, result) => total + pick(result), 0);
  const recordingSeconds = sum((result) => result.recordingSeconds);
  const tokenizerSeconds = sum((result) => result.tokenizerSeconds);
  const worst = Math.min(...results.map((result) => result.recordingRatio));
  const all = {
    calls: sum((result) => result.calls),
    bytes: sum((result) => result.bytes),
    tokenizerSeconds,
    recordingSeconds,
    graduationSeconds: sum((result) => result.graduationSeconds),
    movedToSettleSeconds: sum((result) => result.movedToSettleSeconds),
    recordingGcPauseSeconds: sum((result) => result.recordingGcPauseSeconds),
    recordingGcPauses: { count: sum((result) => result.recordingGcPauses.count), rounds: sum((result) => result.recordingGcPauses.rounds) },
    totalSeconds: sum((result) => result.totalSeconds),
  };
  const methodNames = [...new Set(results.flatMap((result) => Object.keys(result.methods)))].sort();
  const methodSeconds = sum((result) => Object.values(result.methods).reduce((total, method) => total + method.seconds, 0));
  const methodRows = methodNames.map((method) => {
    const calls = sum((result) => result.methods[method]?.calls ?? 0);
    const seconds = sum((result) => result.methods[method]?.seconds ?? 0);
    return `| ${method} | ${calls} | ${(seconds * 1_000).toFixed(0)} | ${percent(seconds / methodSeconds)} | ${times(seconds, tokenizerSeconds)} |`;
  });
  return [
    '| session | API calls | MB | countTokens MB/s | recording MB/s | recording ÷ countTokens | GC pauses in recording, ms | GC pauses in recording calls, all rounds | recording without GC pauses ÷ countTokens | moved to settle() ÷ countTokens time | graduation ÷ countTokens time | everything MB/s | everything ÷ countTokens | everything CPU ms per MB |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...results.map((result) => row(result.name, result)),
    row(`**all** (worst recording ${percent(worst)})`, all),
    '',
    'GC pauses: wall time of V8 collection pauses (perf_hooks `gc` entries) that overlap recording calls in the best round, and how many pauses overlapped a recording call over all rounds; "without GC pauses" takes that wall time off the recording CPU time (a lower bound on the GC cost, which parallel scavenging spreads over helper threads).',
    '',
    'Recording time per method, all sessions, measured in a round of its own (CPU ms; ÷ the countTokens time of all texts):',
    '',
    '| method | calls | ms | share of recording | ÷ countTokens time |',
    '|---|---:|---:|---:|---:|',
    ...methodRows,
    '',
  ].join('\n');
}

// --- Internal helpers ---

const RECORDING_METHODS = ['addMessage', 'addToolResult', 'openFile', 'updateFile', 'addNote'] as const;

// Replays the session once with every recording method wrapped, to collect the strings it hands
// to the API: the raw side counts exactly these.
async function captureTexts(session: BenchSession, budget: number): Promise<string[]> {
  const manager = new ContextManager({ budget, systemPrompt: SYSTEM_PROMPT });
  const texts: string[] = [];
  const target = manager as unknown as Record<string, (input: Record<string, unknown>) => unknown>;
  for (const method of RECORDING_METHODS) {
    const original = target[method]?.bind(manager);
    if (original === undefined) continue;
    target[method] = (input: Record<string, unknown>): unknown => {
      for (const key of ['content', 'output', 'reason']) {
        const value = input[key];
        if (typeof value === 'string' && value.length > 0) texts.push(value);
      }
      if (Array.isArray(input['toolCalls'])) texts.push(JSON.stringify(input['toolCalls']));
      return original(input);
    };
  }
  await replay(manager, session);
  return texts;
}

// CPU time of this process in milliseconds (user + system).
function cpuNow(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1_000;
}

function countRaw(texts: readonly string[]): number {
  const start = cpuNow();
  let tokens = 0;
  for (const text of texts) tokens += countTokens(text, NO_SPECIAL);
  if (tokens < 0) throw new Error('negative token count');
  return (cpuNow() - start) / 1_000;
}

/** CPU seconds of one replay: the recording calls, graduation runs, everything; per method when wrapped. */
interface Replayed {
  readonly api: number;
  /** Wall seconds of garbage-collection pauses overlapping the recording calls, and how many pauses. */
  readonly gcPause: number;
  readonly gcPauses: number;
  readonly graduation: number;
  readonly total: number;
  readonly methods: Record<string, { calls: number; seconds: number }>;
}

// `total` counts everything (the work queued by recording calls runs inside `settle()`, awaited
// after every event); `api` only the synchronous recording calls; `graduation` the CPU from each
// `graduation-start` to its end. With `isPerMethod`, the recording methods are wrapped and timed.
async function ingest(session: BenchSession, budget: number, isPerMethod: boolean): Promise<Replayed> {
  const manager = new ContextManager({ budget, systemPrompt: SYSTEM_PROMPT });
  const methods: Record<string, { calls: number; seconds: number }> = {};
  if (isPerMethod) {
    const target = manager as unknown as Record<string, (input: unknown) => unknown>;
    for (const method of [...RECORDING_METHODS, 'closeFile']) {
      const original = target[method]?.bind(manager);
      if (original === undefined) continue;
      const tally = (methods[method] = { calls: 0, seconds: 0 });
      target[method] = (input: unknown): unknown => {
        const start = cpuNow();
        try {
          return original(input);
        } finally {
          tally.calls += 1;
          tally.seconds += (cpuNow() - start) / 1_000;
        }
      };
    }
  }
  let graduationMilliseconds = 0;
  let graduationStart: number | undefined;
  const graduationEnd = (): void => {
    if (graduationStart !== undefined) graduationMilliseconds += cpuNow() - graduationStart;
    graduationStart = undefined;
  };
  manager.on('graduation-start', () => {
    graduationStart = cpuNow();
  });
  manager.on('graduation-end', graduationEnd);
  manager.on('graduation-error', graduationEnd);
  const pauses: { start: number; end: number }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) pauses.push({ start: entry.startTime, end: entry.startTime + entry.duration });
  });
  observer.observe({ entryTypes: ['gc'] });
  const start = cpuNow();
  const { api, calls } = await replay(manager, session);
  const total = (cpuNow() - start) / 1_000;
  // The observer is told of collections asynchronously, after the task that ran them.
  await new Promise((resolve) => setTimeout(resolve, 1));
  observer.disconnect();
  const overlap = pauseOverlap(calls, pauses);
  return { total, api, gcPause: overlap.milliseconds / 1_000, gcPauses: overlap.count, graduation: graduationMilliseconds / 1_000, methods };
}

// Wall milliseconds of the pauses that overlap the calls, and how many pauses overlap any call.
// `calls` holds start and end times, in order, as [start0, end0, start1, end1, ...].
function pauseOverlap(calls: readonly number[], pauses: readonly { start: number; end: number }[]): { milliseconds: number; count: number } {
  let milliseconds = 0;
  let count = 0;
  let first = 0;
  for (const pause of [...pauses].sort((left, right) => left.start - right.start)) {
    while (first < calls.length && (calls[first + 1] as number) < pause.start) first += 2;
    let overlap = 0;
    for (let index = first; index < calls.length && (calls[index] as number) < pause.end; index += 2) {
      overlap += Math.max(0, Math.min(pause.end, calls[index + 1] as number) - Math.max(pause.start, calls[index] as number));
    }
    if (overlap > 0) count += 1;
    milliseconds += overlap;
  }
  return { milliseconds, count };
}

// CPU seconds of the recording calls, and their wall-clock start and end times (for the pauses).
async function replay(manager: ContextManager, session: BenchSession): Promise<{ api: number; calls: number[] }> {
  const replayer = createReplayer(manager);
  let apiMilliseconds = 0;
  const calls: number[] = [];
  for (const line of session.lines) {
    if (HARNESS_ONLY.has(line.type)) continue;
    const wallStart = performance.now();
    const start = cpuNow();
    try {
      replayer.apply(line);
    } catch {
      // Rejections are reported by the main benchmark; here only speed matters.
    }
    apiMilliseconds += cpuNow() - start;
    calls.push(wallStart, performance.now());
    await manager.settle();
  }
  return { api: apiMilliseconds / 1_000, calls };
}

const NO_SPECIAL = { disallowedSpecial: new Set<string>() };

/**
 * Node flags `npm run bench:ingest` runs with. `--no-regexp-tier-up` compiles every regular
 * expression to machine code at its first use instead of starting it in V8's regexp interpreter.
 * gpt-tokenizer's `countTokens` matches with a fresh copy of its split pattern on every call, and
 * with V8's defaults that copy sometimes runs interpreted: the raw side then swings between 5 and
 * 18 MB/s from run to run, and the ratio with it. The flag gives the raw side its best speed.
 */
export const INGESTION_NODE_FLAGS: readonly string[] = ['--no-regexp-tier-up'];

// Standalone: `npm run bench:ingest [-- files...]`.
const isMain = /(^|[\\/])ingestion\.js$/.test(process.argv[1] ?? '');
if (isMain) {
  const argumentsGiven = process.argv.slice(2);
  const fixtures = fileURLToPath(new URL('../bench/fixtures/', import.meta.url));
  const files =
    argumentsGiven.length > 0
      ? argumentsGiven
      : readdirSync(fixtures)
          .filter((name) => /\.jsonl(\.gz)?$/.test(name))
          .sort()
          .map((name) => join(fixtures, name));
  const results = await measureIngestion({ sessions: files.map((file) => loadBenchSession(file)), budget: 28_000 });
  const flags = INGESTION_NODE_FLAGS.filter((flag) => !process.execArgv.includes(flag));
  if (flags.length > 0) process.stderr.write(`note: run with node ${flags.join(' ')} (npm run bench:ingest does) for a steady countTokens side\n`);
  process.stdout.write(renderIngestionTable(results));
}

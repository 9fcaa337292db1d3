// Mobius alone, measured for speed and memory: build() latency against session length (the same
// session concatenated with itself), the heap of a 10,000-turn session, and ingestion throughput
// against raw tokenizer counting of the same text.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { ContextManager, defaultPatterns } from '../src/index.js';
import { PATTERN_GROUPS } from '../src/boundaries/pattern-pack.js';
import { createReplayer } from '../examples/replay.js';
import type { SessionLine } from '../examples/replay.js';
import { HARNESS_ONLY, MODEL_EVENTS, SYSTEM_PROMPT } from './run-session.js';
import { collectGarbage, shifted } from './concatenation.js';
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
  /** Tokenizer alone: MB per second (gpt-tokenizer's o200k `countTokens`, special-token strings counted as text). */
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
  /** build() latency per session at every model call, cold and warm (each session in fresh processes). */
  readonly buildLatency: readonly SessionBuildLatency[];
  /** build() latency along the base session looped with fresh facts, per copy. */
  readonly looped: readonly LoopedLatency[];
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
  const buildLatency = measureSessionLatencies({ sessions: options.sessions, budget, log });
  const looped = measureLoopedLatency({ base, budget, copies: Math.max(...LATENCY_COPIES), log });
  if (!looped.every((copy, index) => index === 0 || copy.facts > (looped[index - 1]?.facts ?? 0))) log('warning: the looped session did not add facts in every copy');
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
    buildLatency,
    looped,
  };
}

/** Measures the heap of the base session concatenated up to {@link HEAP_TURNS} turns. */
export async function measureHeap(options: { base: BenchSession; budget: number }): Promise<HeapResult> {
  return (await replayConcatenated({ base: options.base, budget: options.budget, turns: HEAP_TURNS })).heap;
}

/** Renders the build() part of the performance section as Markdown, for bench/PERFORMANCE.md. */
export function renderPerformanceMarkdown(result: Pick<PerformanceResult, 'baseSession' | 'buildLatency' | 'looped' | 'heap'>, options: { generatedAt: string; environment: string; budget: number }): string {
  const ms = (value: number): string => value.toFixed(2);
  const times = (entry: BuildTimes): string => `${ms(entry.wall.p50)} / ${ms(entry.wall.p99)} / ${ms(entry.wall.max)}`;
  const lines = [
    '# build() performance',
    '',
    `Latest run (\`npm run bench\` or \`npm run bench:performance\`): ${options.generatedAt}, ${options.environment}. Timings are reported, never asserted.`,
    '',
    `Each session is replayed through the public API at a ${formatNumber(options.budget)}-token budget, with \`build()\` before every model call. Cold: the first replay in a fresh Node process; warm: the ${LATENCY_PASSES - 1} replays after it in the same process. Each build's time is its minimum over ${LATENCY_RUNS} fresh processes (the machine is shared, so a single run mostly measures other processes); the single-run p99 is shown for comparison.`,
    '',
    '## Per session (ms: p50 / p99 / max)',
    '',
    '| session | builds | cold | warm | single-run p99 cold / warm |',
    '|---|---:|---|---|---|',
    ...result.buildLatency.map((session) => `| ${session.name} | ${session.cold.wall.count} | ${times(session.cold)} | ${times(session.warm)} | ${ms(session.cold.wallSingleRun.p99)} / ${ms(session.warm.wallSingleRun.p99)} |`),
    '',
    `## Along ${result.baseSession} looped with fresh facts (ms: p50 / p99 / max)`,
    '',
    `Copies after the first shift paths and timestamps and rename the words of user and assistant messages, so every copy adds new facts. Minimum over ${LOOPED_RUNS} fresh processes; warm is the second replay of the whole loop in each.`,
    '',
    '| length | events | facts added | cold | warm |',
    '|---|---:|---:|---|---|',
    ...result.looped.filter((copy) => LATENCY_COPIES.includes(copy.copies)).map((copy) => `| ${copy.copies}× | ${formatNumber(copy.events)} | ${formatNumber(copy.facts)} | ${times(copy.cold)} | ${times(copy.warm)} |`),
    '',
    '## Heap',
    '',
    `${formatNumber(result.heap.turns)} turns of ${result.baseSession} concatenated: ${result.heap.bytesPerTurn === undefined ? 'not measured (run node with --expose-gc)' : `${formatNumber(Math.round((result.heap.bytesPerTurn * 1_000) / 1_024))} KiB per 1,000 turns (${formatNumber(Math.round((result.heap.heapBytes ?? 0) / 1_048_576))} MiB in all, ${(result.heap.heapBytes === undefined || result.heap.textBytes === 0 ? 0 : result.heap.heapBytes / result.heap.textBytes).toFixed(2)}× the raw text)`}.`,
    '',
  ];
  return lines.join('\n');
}

/** Fresh processes per measurement; each build's time is the minimum over them (as issue 11 measured). */
export const LATENCY_RUNS = 3;

/** Replays per process: the first is cold, the others warm. */
export const LATENCY_PASSES = 3;

/** Fresh processes and replays per process for the looped session, which is 16 times longer. */
export const LOOPED_RUNS = 2;

/** build() times of one session or copy: each build's minimum over {@link LATENCY_RUNS} runs. */
export interface BuildTimes {
  /** Wall-clock ms per build, minimum over the runs, summarised over the builds. */
  readonly wall: SampleSummary;
  /** The same from a single run (the first), which shows what a loaded machine adds. */
  readonly wallSingleRun: SampleSummary;
  /** CPU ms per build (user + system of the whole process, so background compiler and GC threads count). */
  readonly cpu: SampleSummary;
}

/** build() latency of one session at every model call, cold and warm. */
export interface SessionBuildLatency {
  /** Session name. */
  readonly name: string;
  /** `synth` or `real`. */
  readonly kind: 'synth' | 'real';
  /** The first replay in a fresh process: code, regexes and caches start cold. */
  readonly cold: BuildTimes;
  /** Later replays of the same session in the same process. */
  readonly warm: BuildTimes;
}

/** build() latency during one copy of a looped session whose facts are renamed per copy, so they grow. */
export interface LoopedLatency {
  /** Copy number (1 = the session as recorded). */
  readonly copies: number;
  /** Events recorded when the copy ended. */
  readonly events: number;
  /** Facts added to T2 by the end of the copy (must grow from copy to copy). */
  readonly facts: number;
  /** The builds made during that copy in the first pass of a fresh process. */
  readonly cold: BuildTimes;
  /** The same builds in later passes of the whole loop in the same process. */
  readonly warm: BuildTimes;
}

/** What one replay measured: per-build samples and where each copy ended. @internal */
export interface ReplaySamples {
  readonly wall: readonly number[];
  readonly cpu: readonly number[];
  /** For each copy: builds made before it ended, events and facts added by then. */
  readonly copies: readonly { readonly builds: number; readonly events: number; readonly facts: number }[];
}

/**
 * Measures build() latency per session, each run in fresh Node processes (so that "cold" means a
 * cold process: compiled code, regexes and caches start empty), by running `.build/build-latency.js`.
 */
export function measureSessionLatencies(options: { sessions: readonly BenchSession[]; budget: number; log: (message: string) => void }): SessionBuildLatency[] {
  return options.sessions.map((session) => {
    options.log(`build() latency, ${LATENCY_RUNS} fresh processes × ${LATENCY_PASSES} replays: ${session.name}`);
    const runs = runLatencyChildren(['--session', session.file, '--budget', String(options.budget)], { runs: LATENCY_RUNS, passes: LATENCY_PASSES });
    const { cold, warm } = coldAndWarm(runs, { from: 0, to: Number.POSITIVE_INFINITY });
    return { name: session.name, kind: session.kind, cold, warm };
  });
}

/** Measures build() latency along a session looped `copies` times with fresh facts. */
export function measureLoopedLatency(options: { base: BenchSession; budget: number; copies: number; log: (message: string) => void }): LoopedLatency[] {
  options.log(`build() latency along ${options.base.name} looped ${options.copies}× with fresh facts, ${LOOPED_RUNS} fresh processes × ${LOOPED_RUNS} replays`);
  const runs = runLatencyChildren(['--looped', options.base.file, '--budget', String(options.budget), '--copies', String(options.copies)], { runs: LOOPED_RUNS, passes: LOOPED_RUNS });
  const first = runs[0]?.[0];
  if (first === undefined) return [];
  let from = 0;
  return first.copies.map((copy, index) => {
    const range = { from, to: copy.builds };
    from = copy.builds;
    return { copies: index + 1, events: copy.events, facts: copy.facts, ...coldAndWarm(runs, range) };
  });
}

/**
 * Replays session lines and measures build() at every model call (the window is built right
 * before each event the model produces, after pending graduations settle). A looped session
 * (`copies` > 1) repeats the lines with paths and timestamps shifted and the words of user and
 * assistant messages renamed per copy, so that every copy adds new facts.
 */
export async function replayBuildLatency(options: { lines: readonly SessionLine[]; budget: number; copies?: number | undefined }): Promise<ReplaySamples> {
  const { budget } = options;
  const copies = options.copies ?? 1;
  const manager = new ContextManager({ budget, systemPrompt: SYSTEM_PROMPT });
  const replayer = createReplayer(manager);
  let facts = 0;
  manager.on('fact-add', () => (facts += 1));
  const base = options.lines.filter((line) => !HARNESS_ONLY.has(line.type));
  const span = minutesSpan(base);
  const wall: number[] = [];
  const cpu: number[] = [];
  const copyEnds: { builds: number; events: number; facts: number }[] = [];
  let events = 0;
  for (let copy = 1; copy <= copies; copy += 1) {
    for (const original of base) {
      const line = copy === 1 ? original : freshened(shifted(original, { copy, span }), copy);
      if (MODEL_EVENTS.has(line.type)) {
        await manager.settle();
        const cpuStart = process.cpuUsage();
        const start = performance.now();
        manager.build({ budget });
        wall.push(performance.now() - start);
        const used = process.cpuUsage(cpuStart);
        cpu.push((used.user + used.system) / 1_000);
      }
      try {
        replayer.apply(line);
      } catch {
        // Rejections are reported by the main run; here only speed matters.
      }
      events += 1;
    }
    await manager.settle();
    copyEnds.push({ builds: wall.length, events, facts });
  }
  return { wall, cpu, copies: copyEnds };
}

// --- Internal helpers ---

function formatNumber(value: number): string {
  return value.toLocaleString('en-US');
}

// Each child prints the samples of its passes; runs[r][p] is pass p of run r.
function runLatencyChildren(args: readonly string[], options: { runs: number; passes: number }): ReplaySamples[][] {
  // The bench bundle lives in .build/ next to build-latency.js.
  const script = fileURLToPath(new URL('./build-latency.js', import.meta.url));
  const runs: ReplaySamples[][] = [];
  for (let run = 0; run < options.runs; run += 1) {
    const output = execFileSync(process.execPath, [script, ...args, '--passes', String(options.passes)], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    runs.push(JSON.parse(output) as ReplaySamples[]);
  }
  return runs;
}

// Cold: pass 0 of every run; warm: every later pass. Each build's time is its minimum over those
// passes, which removes what other processes on a shared machine add and keeps what every run pays.
function coldAndWarm(runs: readonly ReplaySamples[][], range: { from: number; to: number }): { cold: BuildTimes; warm: BuildTimes } {
  const times = (passes: readonly ReplaySamples[]): BuildTimes => {
    const slice = (values: readonly number[]): number[] => values.slice(range.from, range.to);
    const minimum = (pick: (pass: ReplaySamples) => readonly number[]): number[] => {
      const [first, ...rest] = passes.map((pass) => slice(pick(pass)));
      return (first ?? []).map((value, index) => Math.min(value, ...rest.map((other) => other[index] ?? value)));
    };
    return {
      wall: summarizeSamples(minimum((pass) => pass.wall)),
      wallSingleRun: summarizeSamples(slice(passes[0]?.wall ?? [])),
      cpu: summarizeSamples(minimum((pass) => pass.cpu)),
    };
  };
  return {
    cold: times(runs.flatMap((passes) => passes.slice(0, 1))),
    warm: times(runs.flatMap((passes) => passes.slice(1))),
  };
}

function minutesSpan(lines: readonly SessionLine[]): number {
  const times = lines.map((line) => (typeof line.ts === 'string' ? Date.parse(line.ts) : Number.NaN)).filter((time) => !Number.isNaN(time));
  if (times.length === 0) return 1;
  return Math.ceil((Math.max(...times) - Math.min(...times)) / 60_000) + 1;
}

// Words the pattern packs use, and short words, keep their spelling so that boundaries and
// retention classes stay the same; every other word of a user or assistant message gets a suffix
// per copy, so that its statements have new topic words and become new facts instead of
// restating the first copy's.
let protectedWords: ReadonlySet<string> | undefined;
function freshened(line: SessionLine, copy: number): SessionLine {
  if ((line.type !== 'user' && line.type !== 'assistant') || typeof line.text !== 'string') return line;
  protectedWords ??= patternWords();
  const words = protectedWords;
  const suffix = `q${copyLetters(copy)}`;
  const text = line.text.replace(/(?<![\p{L}\p{N}_`./-])\p{Ll}{5,}(?![\p{L}\p{N}_`/])/gu, (word) => (words.has(word) ? word : `${word}${suffix}`));
  return { ...line, text };
}

function patternWords(): Set<string> {
  const words = new Set<string>();
  for (const group of PATTERN_GROUPS) {
    for (const pattern of defaultPatterns[group]) {
      const source = typeof pattern === 'string' ? pattern : pattern.source;
      for (const match of source.toLowerCase().matchAll(/\p{L}+/gu)) words.add(match[0]);
    }
  }
  return words;
}

function copyLetters(copy: number): string {
  let value = copy;
  let letters = '';
  while (value > 0) {
    letters = String.fromCharCode(97 + ((value - 1) % 26)) + letters;
    value = Math.floor((value - 1) / 26);
  }
  return letters;
}

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
    tokenizerSeconds = Math.min(tokenizerSeconds, countAll(texts));
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

// Raw gpt-tokenizer, not `createTokenCounter()`: the library's counter remembers counts across
// rounds (by text and by pre-token), which would flatter the baseline's second round.
function countAll(texts: readonly string[]): number {
  const start = performance.now();
  let tokens = 0;
  for (const text of texts) tokens += countTokens(text, NO_SPECIAL);
  // Use the result so the loop cannot be optimised away.
  if (tokens < 0) throw new Error('negative token count');
  return (performance.now() - start) / 1_000;
}

const NO_SPECIAL = { disallowedSpecial: new Set<string>() };

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

// `npm run bench`: replays the default session sets (bundled synth, the synth-c validation set
// from ../shared/corpus when present, the annotated real transcripts) or the session files given as
// arguments through Mobius and the baselines, then writes bench-results/results.json and
// bench-results/report.html and prints the Markdown tables. Measures; asserts nothing.
//   npm run bench
//   npm run bench -- path/to/session.jsonl[.gz] path/to/folder/ [name=path] [--out dir]
//   npm run bench -- --from bench-results/results.json    re-render without measuring
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { arch, cpus, platform } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTokenCounter } from '../src/index.js';
import { aggregate, STRATEGIES } from './aggregate.js';
import { defaultSets, setsFromArguments } from './bench-sets.js';
import type { BenchSet } from './bench-sets.js';
import { COMPACTION_SUMMARY_TOKENS, PRUNE_KEEP_LAST_MESSAGES } from './baselines.js';
import { INGESTION_NODE_FLAGS } from './ingestion.js';
import { measurePerformance, renderPerformanceMarkdown } from './performance.js';
import { renderHtmlReport } from './report-html.js';
import { renderMarkdownReport } from './report-markdown.js';
import type { BenchResults, SetResult } from './results.js';
import { FILE_STATE_EVENTS, runSession } from './run-session.js';
import type { SessionResult } from './run-session.js';
import { CHECKPOINT_INTERVAL_MINUTES, loadBenchSession, MAX_GAP_MINUTES } from './session-source.js';
import type { BenchSession } from './session-source.js';

const BUDGET = 28_000;
const COMPACTION_THRESHOLD = 160_000;

const started = performance.now();
// Filled by measure(): the per-session ingestion table (also `npm run bench:ingest`).
let ingestionTable = '';
const { sets, missingSets, outDirectory, from } = parseArguments(process.argv.slice(2));
const log = (message: string): void => {
  process.stderr.write(`[bench ${((performance.now() - started) / 1_000).toFixed(1).padStart(5)}s] ${message}\n`);
};
const output = from === undefined ? await measure() : readResults(from);

mkdirSync(outDirectory, { recursive: true });
if (from === undefined) writeFileSync(join(outDirectory, 'results.json'), `${JSON.stringify(output, null, 2)}\n`);
if (from === undefined) {
  // The latest build() numbers, kept in the repository next to the benchmark.
  const environment = `Node ${output.environment.node}, ${output.environment.cpus} × ${output.environment.cpu}`;
  writeFileSync(fileURLToPath(new URL('../bench/PERFORMANCE.md', import.meta.url)), renderPerformanceMarkdown(output.performance, { generatedAt: output.generatedAt, environment, budget: BUDGET }));
}
writeFileSync(join(outDirectory, 'report.html'), renderHtmlReport(output));
process.stdout.write(renderMarkdownReport(output));
if (ingestionTable !== '') process.stdout.write(`\n### Ingestion per session (recording API ÷ raw countTokens on the same texts)\n\n${ingestionTable}`);
log(from === undefined ? `wrote ${join(outDirectory, 'results.json')} and ${join(outDirectory, 'report.html')} in ${output.wallSeconds.toFixed(1)}s` : `re-rendered ${join(outDirectory, 'report.html')} from ${from}`);

// --- Internal helpers ---

// The table of `npm run bench:ingest` on `files`, measured in a process of its own: with the V8
// flags that keep the raw tokenizer's side steady, and a heap not grown by the runs above.
function measureIngestionApart(files: readonly string[]): string {
  const script = fileURLToPath(new URL('./ingestion.js', import.meta.url));
  return execFileSync(process.execPath, [...INGESTION_NODE_FLAGS, script, ...files], { encoding: 'utf8', maxBuffer: 1 << 26 });
}

async function measure(): Promise<BenchResults> {
  if (typeof globalThis.gc !== 'function') log('note: run node with --expose-gc to measure the heap (npm run bench does)');
  const counter = createTokenCounter();
  for (const missing of missingSets) log(`set not found, left out: ${missing}`);
  const sessions: BenchSession[] = [];
  // The validation set is scored only: ingestion throughput is read on the other sets' sessions.
  const throughputSessions: BenchSession[] = [];
  const throughputFiles: string[] = [];
  const results: SessionResult[] = [];
  const setResults: SetResult[] = [];
  for (const set of sets) {
    const setSessions: SessionResult[] = [];
    let probes = 0;
    for (const file of set.files) {
      const session = loadBenchSession(file);
      const result = await runSession({ session, budget: BUDGET, compactionThreshold: COMPACTION_THRESHOLD, counter });
      log(`${set.name}/${session.name}: ${session.eventCount} events, ${Math.round(result.minutes)} min, ${result.checkpoints.length} checkpoints, ${session.probes.size} probes, ${result.seconds.toFixed(1)}s`);
      sessions.push(session);
      if (set.isInThroughput) {
        throughputSessions.push(session);
        throughputFiles.push(file);
      }
      results.push(result);
      setSessions.push(result);
      probes += session.probes.size;
    }
    setResults.push({
      name: set.name,
      label: set.label,
      description: set.description,
      retentionTarget: set.retentionTarget,
      sessions: setSessions.map((result) => result.name),
      probes,
      aggregate: aggregate(setSessions, { budget: BUDGET }),
    });
  }
  const performanceResult = await measurePerformance({ base: pickBaseSession(sessions), sessions: throughputSessions, budget: BUDGET, log });
  log(`ingestion per session against raw countTokens (npm run bench:ingest, in a process of its own: node ${INGESTION_NODE_FLAGS.join(' ')})`);
  ingestionTable = measureIngestionApart(throughputFiles);
  const cpu = cpus()[0];
  return {
    formatVersion: 2,
    generatedAt: new Date().toISOString(),
    environment: { node: process.version, platform: platform(), arch: arch(), cpu: cpu?.model ?? 'unknown', cpus: cpus().length },
    settings: {
      budget: BUDGET,
      compactionThreshold: COMPACTION_THRESHOLD,
      compactionSummaryTokens: COMPACTION_SUMMARY_TOKENS,
      pruneKeepLastMessages: PRUNE_KEEP_LAST_MESSAGES,
      checkpointIntervalMinutes: CHECKPOINT_INTERVAL_MINUTES,
      maxGapMinutes: MAX_GAP_MINUTES,
      fileStateEvents: FILE_STATE_EVENTS,
      tokenizer: counter.name,
    },
    strategies: STRATEGIES,
    sessions: results.map(({ latencySamples: _samples, ...rest }) => rest),
    sets: setResults,
    missingSets,
    aggregate: aggregate(results, { budget: BUDGET }),
    performance: performanceResult,
    wallSeconds: (performance.now() - started) / 1_000,
  };
}

// Results of an older format lack the per-set numbers the reports are built from.
function readResults(file: string): BenchResults {
  const parsed = JSON.parse(readFileSync(file, 'utf8')) as { formatVersion?: unknown };
  if (parsed.formatVersion !== 2) {
    process.stderr.write(`${file} has results format ${String(parsed.formatVersion)}; this version renders format 2. Run npm run bench again.\n`);
    process.exit(1);
  }
  return parsed as BenchResults;
}

function parseArguments(argv: readonly string[]): { sets: BenchSet[]; missingSets: string[]; outDirectory: string; from: string | undefined } {
  let outDirectory = resolve('bench-results');
  let from: string | undefined;
  const inputs: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const argument = argv[index] ?? '';
    if (argument === '--out') {
      outDirectory = resolve(argv[index + 1] ?? 'bench-results');
      index += 1;
    } else if (argument === '--from') {
      // Re-renders the report and tables from an earlier results.json without measuring again.
      from = resolve(argv[index + 1] ?? join(outDirectory, 'results.json'));
      index += 1;
    } else if (argument === '--help' || argument === '-h') {
      process.stdout.write('usage: npm run bench -- [session.jsonl[.gz] | directory | name=path]... [--out dir] [--from results.json]\n');
      process.exit(0);
    } else {
      inputs.push(argument);
    }
  }
  // The bundle lives in .build/; the repository root is one level up, the shared corpus beside it.
  const fixtures = fileURLToPath(new URL('../bench/fixtures/', import.meta.url));
  const validation = fileURLToPath(new URL('../../shared/corpus/synth-c/', import.meta.url));
  const chosen = inputs.length > 0 ? { sets: setsFromArguments(inputs), missing: [] } : defaultSets({ fixtures, validation });
  if (chosen.sets.every((set) => set.files.length === 0) && from === undefined) {
    process.stderr.write(`no session files (.jsonl or .jsonl.gz) found in ${inputs.length > 0 ? inputs.join(', ') : fixtures}\n`);
    process.exit(1);
  }
  return { sets: chosen.sets, missingSets: chosen.missing, outDirectory, from };
}

// The base of the length and heap measurements: a one-hour synthetic session when there is one.
function pickBaseSession(all: readonly BenchSession[]): BenchSession {
  const synth = all.filter((session) => session.kind === 'synth');
  const hour = synth.find((session) => /(^|\D)60min/.test(session.name));
  return hour ?? synth[0] ?? (all[0] as BenchSession);
}

// `npm run bench`: replays the default sessions (bench/fixtures/) or the session files given as
// arguments through Mobius and the baselines, then writes bench-results/results.json and
// bench-results/report.html and prints the Markdown tables. Measures; asserts nothing.
//   npm run bench
//   npm run bench -- path/to/session.jsonl[.gz] path/to/folder/ [--out dir]
//   npm run bench -- --from bench-results/results.json    re-render without measuring
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { arch, cpus, platform } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTokenCounter } from '../src/index.js';
import { aggregate, STRATEGIES } from './aggregate.js';
import { COMPACTION_SUMMARY_TOKENS, PRUNE_KEEP_LAST_MESSAGES } from './baselines.js';
import { measurePerformance } from './performance.js';
import { renderHtmlReport } from './report-html.js';
import { renderMarkdownReport } from './report-markdown.js';
import type { BenchResults } from './results.js';
import { FILE_STATE_EVENTS, runSession } from './run-session.js';
import type { SessionResult } from './run-session.js';
import { CHECKPOINT_INTERVAL_MINUTES, loadBenchSession, MAX_GAP_MINUTES } from './session-source.js';
import type { BenchSession } from './session-source.js';

const BUDGET = 28_000;
const COMPACTION_THRESHOLD = 160_000;

const started = performance.now();
const { files, outDirectory, from } = parseArguments(process.argv.slice(2));
const log = (message: string): void => {
  process.stderr.write(`[bench ${((performance.now() - started) / 1_000).toFixed(1).padStart(5)}s] ${message}\n`);
};
const output = from === undefined ? await measure() : (JSON.parse(readFileSync(from, 'utf8')) as BenchResults);

mkdirSync(outDirectory, { recursive: true });
if (from === undefined) writeFileSync(join(outDirectory, 'results.json'), `${JSON.stringify(output, null, 2)}\n`);
writeFileSync(join(outDirectory, 'report.html'), renderHtmlReport(output));
process.stdout.write(renderMarkdownReport(output));
log(from === undefined ? `wrote ${join(outDirectory, 'results.json')} and ${join(outDirectory, 'report.html')} in ${output.wallSeconds.toFixed(1)}s` : `re-rendered ${join(outDirectory, 'report.html')} from ${from}`);

// --- Internal helpers ---

async function measure(): Promise<BenchResults> {
  if (typeof globalThis.gc !== 'function') log('note: run node with --expose-gc to measure the heap (npm run bench does)');
  const counter = createTokenCounter();
  const sessions: BenchSession[] = files.map((file) => loadBenchSession(file));
  const results: SessionResult[] = [];
  for (const session of sessions) {
    const result = await runSession({ session, budget: BUDGET, compactionThreshold: COMPACTION_THRESHOLD, counter });
    log(`${session.name}: ${session.eventCount} events, ${Math.round(result.minutes)} min, ${result.checkpoints.length} checkpoints, ${result.seconds.toFixed(1)}s`);
    results.push(result);
  }
  const performanceResult = await measurePerformance({ base: pickBaseSession(sessions), sessions, budget: BUDGET, log });
  const cpu = cpus()[0];
  return {
    formatVersion: 1,
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
    aggregate: aggregate(results),
    performance: performanceResult,
    wallSeconds: (performance.now() - started) / 1_000,
  };
}

function parseArguments(argv: readonly string[]): { files: string[]; outDirectory: string; from: string | undefined } {
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
      process.stdout.write('usage: npm run bench -- [session.jsonl[.gz] | directory]... [--out dir] [--from results.json]\n');
      process.exit(0);
    } else {
      inputs.push(argument);
    }
  }
  const fixtures = fileURLToPath(new URL('../bench/fixtures/', import.meta.url));
  const sources = inputs.length > 0 ? inputs : [fixtures];
  const found = sources.flatMap((source) => (statSync(source).isDirectory() ? sessionFiles(source) : [resolve(source)]));
  if (found.length === 0 && from === undefined) {
    process.stderr.write(`no session files (.jsonl or .jsonl.gz) found in ${sources.join(', ')}\n`);
    process.exit(1);
  }
  return { files: found, outDirectory, from };
}

function sessionFiles(directory: string): string[] {
  return readdirSync(directory)
    .filter((name) => /\.jsonl(\.gz)?$/.test(name))
    .sort()
    .map((name) => join(directory, name));
}

// The base of the length and heap measurements: a one-hour synthetic session when there is one.
function pickBaseSession(all: readonly BenchSession[]): BenchSession {
  const synth = all.filter((session) => session.kind === 'synth');
  const hour = synth.find((session) => /(^|\D)60min/.test(session.name));
  return hour ?? synth[0] ?? (all[0] as BenchSession);
}

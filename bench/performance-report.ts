// `npm run bench:performance`: the build() part of the performance section alone (much shorter than
// `npm run bench`): build() latency per bundled session, cold and warm; along the one-hour session
// looped 16× with fresh facts; the heap of 10,000 turns. Writes bench/PERFORMANCE.md and prints it.
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { bundledSessions } from './concatenation.js';
import { LATENCY_COPIES, measureHeap, measureLoopedLatency, measureSessionLatencies, renderPerformanceMarkdown } from './performance.js';

const BUDGET = 28_000;
const started = performance.now();
const log = (message: string): void => {
  process.stderr.write(`[bench:performance ${((performance.now() - started) / 1_000).toFixed(1).padStart(6)}s] ${message}\n`);
};
// The bundled sessions only (synthetic and real); the validation set is for retention.
const { sessions, base } = bundledSessions();
const buildLatency = measureSessionLatencies({ sessions, budget: BUDGET, log });
const looped = measureLoopedLatency({ base, budget: BUDGET, copies: Math.max(...LATENCY_COPIES), log });
if (!looped.every((copy, index) => index === 0 || copy.facts > (looped[index - 1]?.facts ?? 0))) log('warning: the looped session did not add facts in every copy');
log('heap of 10,000 turns');
const heap = await measureHeap({ base, budget: BUDGET });
const cpu = cpus()[0]?.model ?? 'unknown CPU';
// Other processes on the machine set most of the tail: the report says how loaded it was.
const load = `load average ${loadavg().map((value) => value.toFixed(1)).join(' / ')} (1 / 5 / 15 min) at the end`;
const markdown = renderPerformanceMarkdown(
  { baseSession: base.name, buildLatency, looped, heap },
  { generatedAt: new Date().toISOString(), environment: `Node ${process.version}, ${cpus().length} × ${cpu}, ${load}`, budget: BUDGET },
);
writeFileSync(fileURLToPath(new URL('../bench/PERFORMANCE.md', import.meta.url)), markdown);
process.stdout.write(markdown);

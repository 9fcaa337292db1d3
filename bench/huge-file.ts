// Times recording a 10 MB file and editing it: ten one-line edits and ten whole-file rewrites,
// with the default secret redaction on. Prints the slowest call of each kind, in milliseconds of
// wall-clock time and of this process's CPU time (on a loaded machine the wall clock also counts
// the time other processes ran; CPU time is what the call itself cost).
// Run: npm run bench:huge-file
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { ContextManager } from '../src/index.js';

const TARGET_BYTES = 10 * 1024 * 1024;
const EDITS = 10;

function makeFile(variant: number): string {
  const lines: string[] = [];
  let bytes = 0;
  for (let index = 0; bytes < TARGET_BYTES; index += 1) {
    const line = `export const value${index} = computeSomething(${index}, 'item-${index % 97}', ${variant}); // line ${index}`;
    lines.push(line);
    bytes += line.length + 1;
  }
  // A few secrets, so that redaction has something to do: one near the top, one in the middle.
  lines.splice(5, 0, 'const API_KEY = "sk_live_4eC39HqLyjWDarjtT1zdp7dc";');
  lines.splice(lines.length >> 1, 0, 'DATABASE_URL=postgres://app:s3cr3t-pw@db:5432/app');
  return `${lines.join('\n')}\n`;
}

function time<T>(run: () => T): { value: T; ms: number; cpuMs: number } {
  const start = performance.now();
  const cpu = process.cpuUsage();
  const value = run();
  const used = process.cpuUsage(cpu);
  return { value, ms: performance.now() - start, cpuMs: (used.user + used.system) / 1_000 };
}

function main(): void {
  const manager = new ContextManager({ model: 'gpt-4o', ...(process.env['NO_REDACT'] === '1' ? { redact: false as const } : {}) });
  const path = 'src/huge.ts';
  let content = makeFile(0);
  const open = time(() => manager.openFile({ path, content }));
  const lineEdits: number[] = [];
  const lineEditsCpu: number[] = [];
  for (let edit = 0; edit < EDITS; edit += 1) {
    const lines = content.split('\n');
    const at = Math.floor(((edit + 1) * lines.length) / (EDITS + 2));
    lines[at] = `${lines[at] ?? ''} // edited ${edit}`;
    content = lines.join('\n');
    const measured = time(() => manager.updateFile({ path, content, reason: `edit ${edit}` }));
    lineEdits.push(measured.ms);
    lineEditsCpu.push(measured.cpuMs);
  }
  const rewrites: number[] = [];
  const rewritesCpu: number[] = [];
  for (let edit = 0; edit < EDITS; edit += 1) {
    content = makeFile(edit + 1);
    const measured = time(() => manager.updateFile({ path, content, reason: `rewrite ${edit}` }));
    rewrites.push(measured.ms);
    rewritesCpu.push(measured.cpuMs);
  }
  const mb = (Buffer.byteLength(content) / 1024 / 1024).toFixed(1);
  const format = (values: readonly number[]): string =>
    `max ${Math.max(...values).toFixed(0)} ms, median ${[...values].sort((a, b) => a - b)[values.length >> 1]?.toFixed(0)} ms`;
  console.log(`file: ${mb} MB, ${content.split('\n').length} lines`);
  console.log(`openFile:              ${open.ms.toFixed(0)} ms (CPU ${open.cpuMs.toFixed(0)} ms)`);
  console.log(`one-line edits (x${EDITS}):  ${format(lineEdits)}  [${lineEdits.map((value) => value.toFixed(0)).join(', ')}]`);
  console.log(`              CPU time:  ${format(lineEditsCpu)}`);
  console.log(`whole rewrites (x${EDITS}):  ${format(rewrites)}  [${rewrites.map((value) => value.toFixed(0)).join(', ')}]`);
  console.log(`              CPU time:  ${format(rewritesCpu)}`);
  console.log(`load average: ${loadavg().map((value) => value.toFixed(1)).join(' ')} on ${cpus().length} cores`);
}

main();

// `npm run bench:digest`: replays every bundled session (bench/fixtures: synth and real) through
// the public API at a 28K budget, builds the window before every model call and once at the end,
// and prints one sha256 per session over all built windows (each `JSON.stringify`ed), plus a
// total over the sessions. Two runs print the same digests exactly when every window is the same
// byte for byte, so it checks that a change meant to be a pure optimisation changes no window.
//   npm run bench:digest
//   npm run bench:digest -- path/to/session.jsonl[.gz] path/to/folder/
//   npm run bench:digest -- --messages   hash the messages only (ignore the token breakdown)
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ContextManager } from '../src/index.js';
import { createReplayer } from '../examples/replay.js';
import type { SessionLine } from '../examples/replay.js';
import { sessionFiles } from './bench-sets.js';
import { HARNESS_ONLY, MODEL_EVENTS, SYSTEM_PROMPT } from './run-session.js';
import { loadBenchSession } from './session-source.js';

const BUDGET = 28_000;

const argv = process.argv.slice(2);
const isMessagesOnly = argv.includes('--messages');
const inputs = argv.filter((argument) => argument !== '--messages');
// npm runs scripts from the package root, where the fixtures are.
const files = (inputs.length > 0 ? inputs : ['bench/fixtures']).flatMap((input) => {
  const path = resolve(input);
  return statSync(path).isDirectory() ? sessionFiles(path) : [path];
});

const total = createHash('sha256');
for (const file of files) {
  const session = loadBenchSession(file);
  const digest = await digestSession(session.lines);
  total.update(`${session.name} ${digest.sha256}\n`);
  process.stdout.write(`${digest.sha256}  ${session.name}  (${digest.builds} builds, ${digest.rejected} rejected events)\n`);
}
process.stdout.write(`${total.digest('hex')}  TOTAL${isMessagesOnly ? ' (messages only)' : ''}\n`);

// --- Internal helpers ---

async function digestSession(lines: readonly SessionLine[]): Promise<{ sha256: string; builds: number; rejected: number }> {
  const manager = new ContextManager({ budget: BUDGET, systemPrompt: SYSTEM_PROMPT });
  const replayer = createReplayer(manager);
  const hash = createHash('sha256');
  let builds = 0;
  let rejected = 0;
  const build = (): void => {
    const built = manager.build({ budget: BUDGET });
    hash.update(JSON.stringify(isMessagesOnly ? built.messages : built));
    hash.update('\n');
    builds += 1;
  };
  for (const line of lines) {
    if (HARNESS_ONLY.has(line.type)) continue;
    if (MODEL_EVENTS.has(line.type)) {
      await manager.settle();
      build();
    }
    try {
      replayer.apply(line);
    } catch {
      // The bench counts rejections the same way; the digest only needs them to be the same.
      rejected += 1;
    }
  }
  await manager.settle();
  build();
  return { sha256: hash.digest('hex'), builds, rejected };
}

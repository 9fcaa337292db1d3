// Child process of the performance section of `npm run bench`: replays one session (or one looped
// session) several times in this fresh process and prints the build() samples of every pass as
// JSON on stdout; the first pass is the cold one.
//   node .build/build-latency.js --session file.jsonl.gz [--budget 28000] [--passes 3]
//   node .build/build-latency.js --looped file.jsonl.gz --copies 16 [--budget 28000] [--passes 3]
import { replayBuildLatency } from './performance.js';
import type { ReplaySamples } from './performance.js';
import { loadBenchSession } from './session-source.js';

const argv = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const index = argv.indexOf(name);
  return index < 0 ? undefined : argv[index + 1];
};
const file = option('--session') ?? option('--looped');
if (file === undefined) {
  process.stderr.write('usage: build-latency.js (--session file | --looped file --copies N) [--budget tokens] [--passes N]\n');
  process.exit(1);
}
const budget = Number(option('--budget') ?? '28000');
const copies = option('--looped') === undefined ? 1 : Number(option('--copies') ?? '16');
const { lines } = loadBenchSession(file);
const passes: ReplaySamples[] = [];
for (let pass = 0; pass < Number(option('--passes') ?? '3'); pass += 1) passes.push(await replayBuildLatency({ lines, budget, copies }));
process.stdout.write(JSON.stringify(passes));

// `npm run demo`: replays a bundled coding session through ContextManager with the offline
// extractive summarizer and prints, every simulated 15 minutes, what the window holds.
//   npm run demo                 a real Cline session (MIT, Jasonleonardvolk/Tori), with the
//                                retention probes written for it by hand (bench/fixtures/)
//   npm run demo -- --synth      a generated two-hour session (examples/sessions/)
//   npm run demo -- FILE.jsonl   any session in the same JSONL schema
//   npm run demo -- --resume     loads the session the last run saved (in .demo-session/) and
//                                prints its window, without replaying anything
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ContextManager, createTokenCounter } from '../src/index.js';
import { createFileStorage } from '../src/storage/fs/index.js';
import type { BuiltContext, GraduationReport } from '../src/index.js';
import { createReplayer, readSession } from './replay.js';
import type { SessionLine } from './replay.js';

const BUDGET = 28_000;
const INTERVAL_MINUTES = 15;

const argument = process.argv[2];
const storage = createFileStorage({ directory: fileURLToPath(new URL('../.demo-session/', import.meta.url)) });
const SYSTEM_PROMPT = 'You are a careful coding agent. Follow the session facts and pinned instructions.';

if (argument === '--resume') {
  const resumed = await ContextManager.load({ storage, sessionId: 'demo', budget: BUDGET, systemPrompt: SYSTEM_PROMPT, autoSave: false }).catch((error: unknown) => {
    console.error(`Nothing to resume (${error instanceof Error ? error.message : String(error)}). Run \`npm run demo\` first.`);
    process.exit(1);
  });
  const window = resumed.build({ budget: BUDGET });
  const state = resumed.state();
  console.log(`Resumed session "demo" from .demo-session/ at event #${state.lastSeq}: ${state.summaries.length} summaries, ${state.facts.length} facts, ${state.files.length} open files, ${state.archive.length} archived items.`);
  console.log(`Window: ${JSON.stringify(window.tokens.blocks)}, total ${window.tokens.total} / ${BUDGET}\n`);
  console.log(await resumed.recap('brief'));
  process.exit(0);
}
const bundled = (path: string): string => fileURLToPath(new URL(`../${path}`, import.meta.url));
const file =
  argument === undefined
    ? bundled('bench/fixtures/real-10-cline-tori-ripple.jsonl.gz')
    : argument === '--synth'
      ? bundled('examples/sessions/synth-seed11-120min.jsonl.gz')
      : argument;

const lines = readSession(file);
const counter = createTokenCounter();
rmSync(fileURLToPath(new URL('../.demo-session/', import.meta.url)), { recursive: true, force: true });
const manager = new ContextManager({ budget: BUDGET, systemPrompt: SYSTEM_PROMPT, storage, sessionId: 'demo', autoSave: false });
const replayer = createReplayer(manager);
const reports: GraduationReport[] = [];
manager.on('graduation-end', (report) => reports.push(report));
let fallbacks = 0;
manager.on('summarizer-fallback', () => (fallbacks += 1));

// Retention probes (the bundled sessions have them): facts stated in the conversation, with the
// keywords that must still be in the window for the fact to count as kept.
const probes = new Map<string, { keywords: readonly string[]; supersededBy?: string }>();
const start = firstTime(lines);
let naive = 0;
let nextMark = INTERVAL_MINUTES;
let events = 0;

console.log(`Mobius demo: replaying ${file.split('/').slice(-2).join('/')} (${lines.length} events)`);
console.log(`budget ${format(BUDGET)} tokens, extractive summarizer (offline), naive = full history verbatim\n`);
console.log(row(['time', 'prefix', 'facts', 'pins', 'T1', 'files', 'T0', 'window', 'naive', 'naive÷window', 'graduated', 'probes kept']));
console.log(row(['----', '------', '-----', '----', '--', '-----', '--', '------', '-----', '------------', '---------', '-----------']));

let built: BuiltContext | undefined;
for (const [index, line] of lines.entries()) {
  const minutes = minutesOf(line, index);
  while (minutes !== undefined && minutes >= nextMark) {
    built = await checkpoint(nextMark);
    nextMark += INTERVAL_MINUTES;
  }
  if (line.type === 'probe' && typeof line.id === 'string') {
    probes.set(line.id, { keywords: line.answer_keywords ?? [] });
    const old = typeof line.supersedes === 'string' ? probes.get(line.supersedes) : undefined;
    if (old !== undefined) old.supersededBy = line.id;
  }
  if (replayer.apply(line)) {
    events += 1;
    naive += naiveTokens(line);
  }
}
built = await checkpoint(minutesOf(lines[lines.length - 1], lines.length - 1) ?? nextMark, true);

const state = manager.state();
console.log(`\nRecorded ${events} events; ${state.archive.length} items archived (recallable), ${state.summaries.length} summaries in T1, ${state.facts.length} facts in T2, ${state.files.length} files open.`);
if (fallbacks > 0) console.log(`Summarizer fallbacks: ${fallbacks}`);
const skipped = Object.entries(replayer.stats.skipped);
if (skipped.length > 0) console.log(`Replay adaptations: ${skipped.map(([reason, count]) => `${count} × ${reason}`).join('; ')}`);

// Save the final state so that `npm run demo -- --resume` can pick the session up.
await manager.save();
console.log('\nSaved to .demo-session/ (run `npm run demo -- --resume` to load it).');
const facts = built.system.match(/## Session facts[^\n]*\n([\s\S]*?)(?=\n\n## |$)/)?.[1];
console.log('\nT2 session facts (YAML) in the final window:\n');
console.log(indent(facts ?? '(none yet)'));

const last = [...reports].reverse().find((report) => report.mode === 'chunk');
const consolidations = reports.filter((report) => report.mode === 'consolidate').length;
if (last !== undefined) {
  console.log(`\nLast graduation report (what left T0 and where it went; ${reports.length - consolidations} T0 graduations and ${consolidations} T1 consolidations in all):\n`);
  const kinds = new Map<string, number>();
  for (const item of last.removed) kinds.set(item.kind, (kinds.get(item.kind) ?? 0) + 1);
  console.log(indent([
    `entries #${last.source.from}–#${last.source.to}, cut at: ${last.boundary ?? 'n/a'}`,
    `left T0: ${last.removed.length} items (${[...kinds].map(([kind, count]) => `${count} ${kind}`).join(', ')}), ${format(last.tokensIn)} tokens, all archived as ${last.summary.id}`,
    `became: summary ${last.summary.id} (${format(last.summary.tokens)} tokens, ${(last.tokensIn / Math.max(1, last.tokensOut)).toFixed(1)}:1) + facts added [${last.factsAdded.join(', ')}]${last.factsSuperseded.length > 0 ? `, superseded [${last.factsSuperseded.join(', ')}]` : ''}`,
    `summarizer: ${last.summarizer}${last.isFallback ? ' (fallback)' : ''}`,
    '',
    last.summary.text,
  ].join('\n')));
}

async function checkpoint(mark: number, isFinal = false): Promise<BuiltContext> {
  await manager.settle();
  const window = manager.build({ budget: BUDGET });
  const blocks = window.tokens.blocks;
  console.log(row([
    `${isFinal ? 'end ' : ''}${Math.floor(mark / 60)}:${String(Math.round(mark % 60)).padStart(2, '0')}`,
    format(blocks.prefix),
    format(blocks.facts),
    format(blocks.pins),
    format(blocks.summaries),
    format(blocks.scratchpad),
    format(blocks.working),
    `${format(window.tokens.total)} / ${format(BUDGET)}`,
    format(naive),
    `${(naive / window.tokens.total).toFixed(1)}×`,
    String(reports.length),
    retention(window),
  ]));
  return window;
}

function retention(window: BuiltContext): string {
  if (probes.size === 0) return 'n/a';
  // What the model reads: message text and the strings of tool-call inputs.
  const text = window.messages.map((message) => (message.role === 'assistant' ? [message.content, ...(message.toolCalls ?? []).flatMap((call) => stringsIn(call.input))].join('\n') : message.content)).join('\n');
  let kept = 0;
  let total = 0;
  for (const probe of probes.values()) {
    if (probe.supersededBy !== undefined) continue; // the newest value of a chain is what counts
    total += 1;
    if (probe.keywords.every((keyword) => keywordPattern(keyword).test(text))) kept += 1;
  }
  return `${kept}/${total}`;
}

function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap((item) => stringsIn(item));
  if (typeof value === 'object' && value !== null) return Object.values(value).flatMap((item) => stringsIn(item));
  return [];
}

function keywordPattern(keyword: string): RegExp {
  // As in the corpus: case-insensitive, not glued to word characters (`5s` does not match `15s`).
  const escaped = keyword.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?<![A-Za-z0-9_.])${escaped}(?![A-Za-z0-9_])`, 'i');
}

function naiveTokens(line: SessionLine): number {
  // Full history verbatim: file contents every time they are read, edits as full before/after.
  const parts = [line.text, line.content, line.before, line.after, line.search, line.replace, line.cmd, line.output, line.patch];
  if (line.type === 'tool') parts.push(JSON.stringify(line.input ?? null));
  return parts.reduce<number>((sum, part) => sum + (typeof part === 'string' ? counter.count(part) + 4 : 0), 0);
}

function firstTime(all: readonly SessionLine[]): number | undefined {
  const first = all.find((line) => typeof line.ts === 'string');
  return first?.ts === undefined ? undefined : Date.parse(first.ts);
}

function minutesOf(line: SessionLine | undefined, index: number): number | undefined {
  if (line === undefined) return undefined;
  // Sessions without timestamps advance one simulated minute every 4 events.
  if (start === undefined || typeof line.ts !== 'string') return index / 4;
  return (Date.parse(line.ts) - start) / 60_000;
}

function row(cells: readonly string[]): string {
  const widths = [8, 7, 6, 5, 6, 7, 6, 16, 10, 13, 9, 12];
  return cells.map((cell, index) => cell.padStart(widths[index] ?? 8)).join(' ');
}

function format(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function indent(text: string): string {
  return text.split('\n').map((line) => `  ${line}`).join('\n');
}

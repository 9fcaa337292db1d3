import type { BoundaryScore } from '../boundaries/boundary-detector.js';
import type { ResolvedTierBudgets } from '../options.js';
import { createScratchpad } from '../scratchpad/scratchpad.js';
import { createEntry } from '../tiers/entry.js';
import { createTierStore } from '../tiers/tier-store.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import type { Entry } from '../types.js';
import { createWindowBuilder } from './window-builder.js';

/**
 * Whether this process has not yet run {@link warmUpBuildPath}: sessions ask before scheduling it,
 * so that only the first one of a process does.
 * @internal
 */
export function isBuildPathCold(): boolean {
  return !isWarm;
}

/**
 * Builds a few windows of a small made-up session with throwaway components, once per process.
 * The first `build()` of a process otherwise pays for compiling the builder's code (about a
 * millisecond, more on a loaded machine); a session runs this in the background after it is
 * created (see GraduationQueue.speedUp), so that its first build finds the code compiled. Its
 * counter, tiers and scratchpad are its own; `scoreGaps` is the session's (scores depend only on
 * the entries given).
 * @internal
 */
export function warmUpBuildPath(options: { scoreGaps: (entries: readonly Entry[]) => readonly BoundaryScore[] }): void {
  if (isWarm) return;
  isWarm = true;
  // An estimate: the tokenizer is warmed by recording; what is cold here is the builder.
  const counter: TokenCounter = { name: 'warm-up', count: (text) => Math.ceil(text.length / 4) };
  const builder = createWindowBuilder({ counter, systemPrompt: 'Warm-up.', budgets: WARM_UP_BUDGETS, scoreGaps: options.scoreGaps });
  const tiers = createTierStore({ counter });
  const scratchpad = createScratchpad({ counter, budget: WARM_UP_BUDGETS.scratchpad, autoCloseAfter: 10 });
  const entry = (seq: number, fields: Pick<Entry, 'kind' | 'role' | 'text'> & Partial<Pick<Entry, 'toolCalls' | 'callId' | 'callSeq' | 'toolName'>>): void =>
    tiers.addEntry(createEntry({ seq, counter, maxEntryTokens: 200, exchange: Math.ceil(seq / 4), ...fields }));
  const source = Array.from({ length: 24 }, (_, line) => `export const value${line} = ${line};`).join('\n');
  entry(1, { kind: 'user', role: 'user', text: 'Rename the constants in src/values.ts and run the tests.' });
  entry(2, { kind: 'assistant', role: 'assistant', text: 'Running the tests first.', toolCalls: [{ id: 'warm-1', name: 'run', input: { command: 'npm test' } }] });
  entry(3, { kind: 'tool-result', role: 'tool', text: 'ok 1 - values\n'.repeat(120), callId: 'warm-1', callSeq: 2, toolName: 'run' });
  scratchpad.open({ path: 'src/values.ts', content: source, seq: 4, exchange: 1 });
  entry(4, { kind: 'assistant', role: 'assistant', text: 'Done: all tests pass.' });
  tiers.facts.apply({ updates: [{ key: 'test-command', category: 'conventions', value: 'Tests run with `npm test`.' }], source: { from: 1, to: 4 }, seq: 5 });
  builder.prepare(tiers);
  // A roomy window (longer forms shown), then a tight one (files as stubs, history cut).
  builder.build(4_000, tiers, scratchpad);
  builder.build(700, tiers, scratchpad);
  // After a graduation: its entries shown again before T0 (history made by toMessages()).
  tiers.graduateEntries({ seqs: [1, 2, 3], summaryId: 'warm-up', seq: 6 });
  builder.prepareAfterGraduation(tiers);
  entry(7, { kind: 'user', role: 'user', text: 'Now the docs.' });
  builder.prepare(tiers);
  builder.build(4_000, tiers, scratchpad);
}

// --- Internal helpers ---

let isWarm = false;

const WARM_UP_BUDGETS: ResolvedTierBudgets = { facts: 200, pins: 100, summaries: 400, scratchpad: 1_500, working: 1_500 };

import { countMessageTokens } from '../build/window-builder.js';
import type { ContextManager } from '../context-manager.js';
import { replayPatches } from '../scratchpad/diff-record.js';
import type { ArchivedItem } from '../types.js';
import type { OperationModel } from './arbitraries.js';
import { findProviderProblems } from './provider-validity.js';

/** Options of {@link assertInvariants}. */
export interface InvariantOptions {
  /** Budget to build with for invariant 1. @default the manager's budget */
  budget?: number | undefined;
  /** The driver's model, to check that the scratchpad holds the last content given (invariant 3) and pins survive (5). */
  model?: OperationModel | undefined;
  /**
   * The whole archive, `await manager.readArchive()`, for a manager whose archive spills to storage
   * (`archive.memoryItems`): `state().archive` then holds only the part in memory. @default state().archive
   */
  archive?: readonly ArchivedItem[] | undefined;
}

/**
 * Checks DESIGN.md's invariants 1–5 and 8 (a window providers accept) on a manager and throws an
 * `Error` listing every violation. Call it after `await manager.settle()` in your own property
 * tests (with your Summarizer or Storage) to check that they keep the guarantees.
 */
export function assertInvariants(manager: ContextManager, options: InvariantOptions = {}): void {
  const problems: string[] = [];
  const state = manager.state();
  const budget = options.budget ?? manager.budgets.total;

  // 1. The window never exceeds its budget, counted from scratch.
  const built = manager.build({ budget });
  const recount = countMessageTokens(built.messages, manager.tokenCounter);
  if (built.tokens.total > budget) problems.push(`1: build() reported ${built.tokens.total} tokens for a budget of ${budget}`);
  if (recount > budget) problems.push(`1: build() output recounts to ${recount} tokens for a budget of ${budget}`);

  // 2. Every recorded entry is in T0 or in the archive, represented by a summary covering it.
  const inWorking = new Set(state.entries.map((entry) => entry.seq));
  const archivedEntries = new Map<number, Extract<ArchivedItem, { type: 'entry' }>>();
  const summaryIds = new Map<string, { from: number; to: number }>();
  for (const summary of state.summaries) summaryIds.set(summary.id, summary.source);
  for (const item of options.archive ?? state.archive) {
    if (item.type === 'entry') archivedEntries.set(item.entry.seq, item);
    if (item.type === 'summary') summaryIds.set(item.summary.id, item.summary.source);
  }
  for (const seq of state.entrySeqs) {
    const archived = archivedEntries.get(seq);
    if (inWorking.has(seq) === (archived !== undefined)) {
      problems.push(`2: entry #${seq} is ${inWorking.has(seq) ? 'both in T0 and archived' : 'neither in T0 nor archived'}`);
      continue;
    }
    if (archived !== undefined) {
      const source = summaryIds.get(archived.summaryId);
      if (source === undefined) problems.push(`2: entry #${seq} cites unknown summary ${archived.summaryId}`);
      else if (seq < source.from || seq > source.to) problems.push(`2: summary ${archived.summaryId} (#${source.from}–${source.to}) does not cover entry #${seq}`);
    }
  }
  for (const fact of state.facts) {
    if (fact.source.from > fact.source.to) problems.push(`2: fact ${fact.key} has an empty source range`);
  }

  // 3. Open files hold the last content given, and their diffs replay to it.
  for (const file of state.files) {
    const expected = options.model?.lastContent.get(file.path);
    if (options.model !== undefined && expected !== file.content) problems.push(`3: ${file.path} does not hold the last content given`);
    const history = manager.fileHistory({ path: file.path });
    if (replayPatches(history.openContent, history.patches) !== file.content) problems.push(`3: the diffs of ${file.path} do not replay to its content`);
  }

  // 4. A tool call and its results graduate together (a late result, recorded after its call was
  // closed without one, may find the call already graduated: it is then shown as a note).
  const placeOf = (seq: number): string => (inWorking.has(seq) ? 'T0' : (archivedEntries.get(seq)?.summaryId ?? 'missing'));
  const callPlace = new Map<string, { seq: number; place: string }>();
  const recorded = [...archivedEntries.values()].map((item) => item.entry).concat(state.entries);
  for (const entry of recorded) {
    for (const call of entry.toolCalls ?? []) callPlace.set(`${entry.seq}:${call.id}`, { seq: entry.seq, place: placeOf(entry.seq) });
  }
  for (const entry of recorded) {
    if (entry.callId === undefined || entry.isLate === true || entry.callSeq === undefined) continue;
    const call = callPlace.get(`${entry.callSeq}:${entry.callId}`);
    const place = placeOf(entry.seq);
    if (call !== undefined && call.place !== place) {
      problems.push(`4: tool call ${entry.callId} (#${call.seq}, in ${call.place}) and its result (#${entry.seq}, in ${place}) were separated`);
    }
  }

  // 8. The window is one a provider accepts: every call answered right after it, no stray result.
  for (const problem of findProviderProblems(built.messages)) problems.push(`8: ${problem}`);

  // 5. One value per key; pins survive.
  const keys = new Set<string>();
  for (const fact of state.facts) {
    if (keys.has(fact.key)) problems.push(`5: fact key ${fact.key} has more than one value`);
    keys.add(fact.key);
  }
  for (const pinId of options.model?.pinIds ?? []) {
    if (!state.pins.some((pin) => pin.id === pinId)) problems.push(`5: pin ${pinId} did not survive`);
  }

  if (problems.length > 0) throw new Error(`Mobius invariants violated:\n- ${problems.join('\n- ')}`);
}

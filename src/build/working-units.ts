import type { BoundaryScore } from '../boundaries/boundary-detector.js';
import type { Entry } from '../types.js';
import type { ToolPairing } from './tool-pairing.js';

/** T0 entries that are shown or left out together, with the tokens they cost. @internal */
export interface Unit {
  readonly entries: readonly Entry[];
  readonly tokens: number;
}

/**
 * The units of T0, kept from build to build. @internal
 */
export interface WorkingUnits {
  /**
   * The units of `entries`, oldest first. Gaps that are not `forbidden` separate runs of entries;
   * a tool result joins the unit of its call, a "no result" marker replaced by a late result is
   * left out, an unanswered call is charged for its placeholder result, and a result whose call is
   * not among the entries is charged as a note. When `entries` extends the entries of the last
   * call (T0 only grows between graduations), only the units the new entries touch are made
   * again: the last run, the new ones, and the runs of the calls the new results answer.
   */
  unitsOf(entries: readonly Entry[]): readonly Unit[];
  /** How the entries of the last {@link WorkingUnits.unitsOf} call pair up around tool calls. */
  readonly pairing: ToolPairing;
}

/**
 * Creates the incremental unit model of the window builder. `noteTokens` gives the cost of a
 * result shown as a note; `pendingResultTokens` the cost of an unanswered call's placeholder.
 * @internal
 */
export function createWorkingUnits(options: {
  scoreGaps: (entries: readonly Entry[]) => readonly BoundaryScore[];
  noteTokens: (entry: Entry) => number;
  pendingResultTokens: number;
}): WorkingUnits {
  const { scoreGaps, noteTokens, pendingResultTokens } = options;
  // The entries scored so far (a copy: T0 arrays are extended in place), the run each belongs
  // to, the start of each run, and each run's unit (undefined once every entry left it).
  let seen: Entry[] = [];
  let runOf: number[] = [];
  let runStarts: number[] = [];
  let runUnits: (Unit | undefined)[] = [];
  // Index in `seen` by seq (unique in T0): a number key costs less to hash than a new object.
  let indexOf = new Map<number, number>();
  let units: readonly Unit[] = [];
  // unitsBefore[run]: how many of `units` the runs before `run` make.
  let unitsBefore: number[] = [0];
  // The array the entries last came in.
  let source: readonly Entry[] | undefined;
  // The pairing, extended entry by entry the way pairToolCalls() scans.
  let answers = new Map<Entry, (Entry | undefined)[]>();
  let callOf = new Map<Entry, Entry>();
  let hidden = new Set<Entry>();
  let callsBySeq = new Map<number, Entry>();
  let newestById = new Map<string, { entry: Entry; index: number }>();
  const pairing: ToolPairing = {
    get answers() {
      return answers;
    },
    get callOf() {
      return callOf;
    },
    get hidden() {
      return hidden;
    },
  };

  const reset = (): void => {
    seen = [];
    runOf = [];
    runStarts = [];
    runUnits = [];
    indexOf = new Map();
    answers = new Map();
    callOf = new Map();
    hidden = new Set();
    callsBySeq = new Map();
    newestById = new Map();
    unitsBefore = [0];
  };

  // One step of pairToolCalls(); `touched` hears of each call whose unit an answer joins.
  const pairEntry = (entry: Entry, touched: (older: Entry) => void): void => {
    const calls = entry.toolCalls ?? NO_CALLS;
    if (calls.length > 0) {
      callsBySeq.set(entry.seq, entry);
      answers.set(entry, calls.map(() => undefined));
      calls.forEach((call, index) => newestById.set(call.id, { entry, index }));
      return;
    }
    if (entry.role !== 'tool' || entry.callId === undefined) return;
    const target = entry.callSeq === undefined ? newestById.get(entry.callId) : callAt(callsBySeq.get(entry.callSeq), entry.callId);
    if (target === undefined) return;
    const slots = answers.get(target.entry) as (Entry | undefined)[];
    const current = slots[target.index];
    if (current === undefined) {
      slots[target.index] = entry;
      callOf.set(entry, target.entry);
      touched(target.entry);
    } else if (current.kind === 'tool-call-orphan' && entry.kind !== 'tool-call-orphan') {
      hidden.add(current);
      callOf.delete(current);
      slots[target.index] = entry;
      callOf.set(entry, target.entry);
      touched(target.entry);
    } else if (entry.kind === 'tool-call-orphan') {
      hidden.add(entry);
    }
  };

  // A run's unit: its entries that stay where they were recorded, plus the results of its calls.
  const unitOfRun = (run: number): Unit | undefined => {
    const end = runStarts[run + 1] ?? seen.length;
    const members: Entry[] = [];
    let tokens = 0;
    for (let index = runStarts[run] as number; index < end; index += 1) {
      const entry = seen[index] as Entry;
      if (hidden.has(entry) || callOf.has(entry)) continue;
      if (entry.role === 'tool' && entry.callId !== undefined) {
        // A result without its call: a marker has nothing to answer, any other result is a note.
        if (entry.kind !== 'tool-call-orphan') {
          members.push(entry);
          tokens += noteTokens(entry);
        }
      } else {
        members.push(entry);
        tokens += entry.tokens;
      }
      const slots = answers.get(entry);
      if (slots === undefined) continue;
      for (const answer of slots) {
        if (answer === undefined) {
          tokens += pendingResultTokens;
        } else {
          members.push(answer);
          tokens += answer.tokens;
        }
      }
    }
    return members.length === 0 ? undefined : { entries: members, tokens };
  };

  return {
    pairing,
    unitsOf(entries) {
      // The tier store extends its T0 array in place and replaces it when entries leave: the same
      // array, no shorter, extends what was seen without a look at every entry.
      const isExtension = seen.length > 0 && ((entries === source && entries.length >= seen.length) || extendsEntries(entries, seen));
      source = entries;
      if (isExtension && entries.length === seen.length) return units;
      if (!isExtension) reset();
      const scores = scoreGaps(entries);
      const first = seen.length;
      const changed = new Set<number>();
      const touched = (call: Entry): void => {
        const run = runOf[indexOf.get(call.seq) as number];
        if (run !== undefined) changed.add(run);
      };
      for (let index = first; index < entries.length; index += 1) {
        const entry = entries[index] as Entry;
        seen.push(entry);
        indexOf.set(entry.seq, index);
        pairEntry(entry, touched);
      }
      // Only the gap after the previous newest entry changed its score: regroup from its run on.
      const reopened = Math.max(0, runStarts.length - 1);
      let index = runStarts[reopened] ?? 0;
      runStarts.length = reopened;
      runUnits.length = reopened;
      let isOpen = false;
      for (; index < seen.length; index += 1) {
        if (!isOpen) {
          runStarts.push(index);
          isOpen = true;
        }
        runOf[index] = runStarts.length - 1;
        if (index === seen.length - 1 || scores[index]?.strength !== 'forbidden') isOpen = false;
      }
      let firstChanged = reopened;
      for (const run of changed) {
        if (run >= reopened) continue;
        runUnits[run] = unitOfRun(run);
        firstChanged = Math.min(firstChanged, run);
      }
      for (let run = reopened; run < runStarts.length; run += 1) runUnits[run] = unitOfRun(run);
      // The units of the runs before the first changed one are those of the last call: copied as
      // a block rather than filtered again, so that a step costs what it changed.
      const next = isExtension ? units.slice(0, unitsBefore[firstChanged] ?? 0) : [];
      unitsBefore.length = firstChanged + 1;
      for (let run = firstChanged; run < runStarts.length; run += 1) {
        const unit = runUnits[run];
        if (unit !== undefined) next.push(unit);
        unitsBefore[run + 1] = next.length;
      }
      units = next;
      return units;
    },
  };
}

// --- Internal helpers ---

/** Shared, so that an entry without calls costs no allocation. */
const NO_CALLS: NonNullable<Entry['toolCalls']> = [];

function callAt(entry: Entry | undefined, callId: string): { entry: Entry; index: number } | undefined {
  if (entry === undefined) return undefined;
  const index = (entry.toolCalls ?? []).findIndex((call) => call.id === callId);
  return index < 0 ? undefined : { entry, index };
}

function extendsEntries(entries: readonly Entry[], previous: readonly Entry[]): boolean {
  if (entries.length < previous.length) return false;
  for (let index = previous.length - 1; index >= 0; index -= 1) if (entries[index] !== previous[index]) return false;
  return true;
}

import type { Entry } from '../types.js';

/**
 * How the T0 entries of a window pair up around tool calls: which entry answers each call, which
 * "no result" markers a late result replaces, and which results have no call among the entries.
 * @internal
 */
export interface ToolPairing {
  /** For each assistant entry with tool calls: the entry answering each call, in call order. */
  readonly answers: ReadonlyMap<Entry, readonly (Entry | undefined)[]>;
  /** The assistant entry each answering entry belongs to. */
  readonly callOf: ReadonlyMap<Entry, Entry>;
  /** "No result" markers replaced by a late result: not shown at all. */
  readonly hidden: ReadonlySet<Entry>;
}

/**
 * Pairs results with their calls. A result names its call by `callSeq` (the seq of the message
 * that made it) and `callId`; entries recorded before `callSeq` existed answer the nearest earlier
 * call with their id. A late result replaces its call's "no result" marker. `entries` must be in
 * seq order.
 * @internal
 */
export function pairToolCalls(entries: readonly Entry[]): ToolPairing {
  const answers = new Map<Entry, (Entry | undefined)[]>();
  const callOf = new Map<Entry, Entry>();
  const hidden = new Set<Entry>();
  const callsBySeq = new Map<number, Entry>();
  const newestById = new Map<string, { entry: Entry; index: number }>();
  for (const entry of entries) {
    const calls = entry.toolCalls ?? [];
    if (calls.length > 0) {
      callsBySeq.set(entry.seq, entry);
      answers.set(entry, Array.from({ length: calls.length }, () => undefined));
      calls.forEach((call, index) => newestById.set(call.id, { entry, index }));
      continue;
    }
    if (entry.role !== 'tool' || entry.callId === undefined) continue;
    const target = entry.callSeq === undefined ? newestById.get(entry.callId) : callAt(callsBySeq.get(entry.callSeq), entry.callId);
    if (target === undefined) continue;
    const slots = answers.get(target.entry) as (Entry | undefined)[];
    const current = slots[target.index];
    if (current === undefined) {
      slots[target.index] = entry;
      callOf.set(entry, target.entry);
    } else if (current.kind === 'tool-call-orphan' && entry.kind !== 'tool-call-orphan') {
      // The late result takes the marker's place.
      hidden.add(current);
      callOf.delete(current);
      slots[target.index] = entry;
      callOf.set(entry, target.entry);
    } else if (entry.kind === 'tool-call-orphan') {
      hidden.add(entry);
    }
  }
  return { answers, callOf, hidden };
}

/**
 * The note shown for a result whose call is not in the window (a late result whose call has
 * already been summarised): never a `tool` message away from its call.
 * @internal
 */
export function resultNoteText(entry: Entry): string {
  const call = `${entry.toolName !== undefined && entry.toolName.length > 0 ? `${entry.toolName} ` : ''}call ${entry.callId ?? '?'}${entry.callSeq === undefined ? '' : ` (#${entry.callSeq})`}`;
  return `[${entry.isLate === true ? 'late ' : ''}result of ${call}, whose call is no longer in this window]\n${entry.display}`;
}

// --- Internal helpers ---

function callAt(entry: Entry | undefined, callId: string): { entry: Entry; index: number } | undefined {
  if (entry === undefined) return undefined;
  const index = (entry.toolCalls ?? []).findIndex((call) => call.id === callId);
  return index < 0 ? undefined : { entry, index };
}

import { InvalidArgumentError, describeValue } from './errors.js';
import type { ToolCall } from './types.js';

/**
 * Where a tool call stands: waiting for its result, answered, closed without a result
 * (`orphaned`), or answered after it was closed (`late`).
 */
export type ToolCallStatus = 'pending' | 'answered' | 'orphaned' | 'late';

/** The ledger's record of one tool call. @internal */
export interface ToolCallRecord {
  /** The provider's call id (ids may be reused once a call is closed). */
  readonly id: string;
  /** The tool's name. */
  readonly name: string;
  /** Seq of the assistant message that made the call; with `id`, it names the call uniquely. */
  readonly seq: number;
  /** Where the call stands. */
  readonly status: ToolCallStatus;
  /** Messages recorded after the call while it was pending. */
  readonly messagesAfter: number;
  /** Seq of the event that answered it (`answered`, `late`); 0 when unknown (older snapshots). */
  readonly resultSeq?: number | undefined;
  /** Seq of its "no result" marker (`orphaned`, `late`). */
  readonly orphanSeq?: number | undefined;
}

/** Why a pending tool call was closed without a result. */
export type ToolCallOrphanReason = 'later-message' | 'id-reused';

/** Text of the "no result" marker shown as the result of a call that was closed without one. */
export const NO_RESULT_TEXT = 'No result was recorded for this call.';

/** Text shown as the result of a call that is still waiting for its result when a window is built. */
export const PENDING_RESULT_TEXT = 'No result has been recorded for this call yet.';

/**
 * Tracks every tool call of a session by id: a result answers the newest call with its id; a
 * result for a call closed without one is a late result; a second result is refused. Checks
 * throw before anything changes, so the fold that uses it stays atomic.
 * @internal
 */
export interface ToolCallLedger {
  /** The newest call with this id, or `undefined`. */
  get(id: string): ToolCallRecord | undefined;
  /** Calls waiting for their result, oldest first. */
  pending(): readonly ToolCallRecord[];
  /** Throws when a message's calls cannot be recorded: an id repeated in it, or an id still pending. */
  checkCalls(calls: readonly ToolCall[]): void;
  /** Records a message: pending calls age by one message, then its calls become pending. */
  addMessage(options: { calls: readonly ToolCall[]; seq: number }): void;
  /** Returns the call a result with this id answers (pending or orphaned); throws when there is none. */
  resolveResult(id: string): ToolCallRecord;
  /** Records the result of the call `resolveResult(id)` returned. */
  answer(options: { id: string; seq: number }): void;
  /** Returns the pending call `id` made at `callSeq`; throws when it is not pending. */
  checkOrphan(options: { id: string; callSeq: number }): ToolCallRecord;
  /** Closes a pending call without a result. */
  orphan(options: { id: string; seq: number }): void;
  /** Serialises the ledger. */
  toJSON(): readonly ToolCallRecord[];
}

/**
 * Creates a ledger, empty or from serialised records. Snapshots written before the ledger
 * existed carry only `pendingCalls` and `knownCalls` (id → tool name); `findCallSeq` locates the
 * message of such a pending call in T0.
 * @internal
 */
export function createToolCallLedger(options: {
  initial?: readonly ToolCallRecord[] | undefined;
  legacy?: { pendingCalls: readonly (readonly [string, string])[]; knownCalls: readonly (readonly [string, string])[] } | undefined;
  findCallSeq?: ((id: string) => number | undefined) | undefined;
}): ToolCallLedger {
  const records = new Map<string, ToolCallRecord>();
  const pendingIds = new Set<string>();
  if (options.initial !== undefined) {
    for (const record of options.initial) records.set(record.id, record);
  } else if (options.legacy !== undefined) {
    const pending = new Set(options.legacy.pendingCalls.map(([id]) => id));
    for (const [id, name] of options.legacy.knownCalls) {
      records.set(id, pending.has(id)
        ? { id, name, seq: options.findCallSeq?.(id) ?? 0, status: 'pending', messagesAfter: 0 }
        : { id, name, seq: options.findCallSeq?.(id) ?? 0, status: 'answered', messagesAfter: 0, resultSeq: 0 });
    }
    for (const [id, name] of options.legacy.pendingCalls) {
      if (!records.has(id)) records.set(id, { id, name, seq: options.findCallSeq?.(id) ?? 0, status: 'pending', messagesAfter: 0 });
    }
  }
  for (const record of records.values()) if (record.status === 'pending') pendingIds.add(record.id);

  const pendingRecord = (id: string): ToolCallRecord | undefined => (pendingIds.has(id) ? records.get(id) : undefined);

  return {
    get: (id) => records.get(id),
    // Most messages come with no call pending: nothing to copy or sort then.
    pending: () => (pendingIds.size === 0 ? NO_RECORDS : [...pendingIds].map((id) => records.get(id) as ToolCallRecord).sort((a, b) => a.seq - b.seq)),
    checkCalls(calls) {
      const seen = new Set<string>();
      calls.forEach((call, index) => {
        if (seen.has(call.id)) {
          throw new InvalidArgumentError({
            parameter: `toolCalls[${index}].id`,
            value: call.id,
            message: `toolCalls[${index}].id repeats the id ${describeValue(call.id)} of an earlier call of the same message. Give each call of a message its own id.`,
          });
        }
        seen.add(call.id);
        const pending = pendingRecord(call.id);
        if (pending !== undefined) {
          throw new InvalidArgumentError({
            parameter: `toolCalls[${index}].id`,
            value: call.id,
            message: `toolCalls[${index}].id ${describeValue(call.id)} is the id of call #${pending.seq}, which still awaits its result. Record its result first; an id can be reused once its call is answered or closed.`,
          });
        }
      });
    },
    addMessage({ calls, seq }) {
      for (const id of pendingIds) {
        const record = records.get(id) as ToolCallRecord;
        const messagesAfter = record.messagesAfter + 1;
        records.set(id, isBare(record) ? { id: record.id, name: record.name, seq: record.seq, status: record.status, messagesAfter } : { ...record, messagesAfter });
      }
      for (const call of calls) {
        // Re-inserted so that iteration follows call order.
        records.delete(call.id);
        records.set(call.id, { id: call.id, name: call.name, seq, status: 'pending', messagesAfter: 0 });
        pendingIds.add(call.id);
      }
    },
    resolveResult(id) {
      const record = records.get(id);
      if (record === undefined) throw unknownCall(id);
      if (record.status === 'pending' || record.status === 'orphaned') return record;
      const first = record.resultSeq === undefined || record.resultSeq === 0 ? 'an earlier event' : `event #${record.resultSeq}`;
      throw new InvalidArgumentError({
        parameter: 'callId',
        value: id,
        message: `tool call ${describeValue(id)} (${record.name}${record.seq === 0 ? '' : `, made in event #${record.seq}`}) already has its result, recorded in ${first}; a call takes one result. If the agent reused the id for a new call, record that call first with addMessage({ role: 'assistant', content, toolCalls: [{ id, name, input }] }).`,
      });
    },
    answer({ id, seq }) {
      const record = records.get(id);
      if (record === undefined) return;
      const status = record.status === 'orphaned' ? 'late' : 'answered';
      records.set(id, isBare(record) ? { id: record.id, name: record.name, seq: record.seq, status, messagesAfter: record.messagesAfter, resultSeq: seq } : { ...record, status, resultSeq: seq });
      pendingIds.delete(id);
    },
    checkOrphan({ id, callSeq }) {
      const record = pendingRecord(id);
      if (record === undefined || (record.seq !== callSeq && record.seq !== 0)) {
        throw new InvalidArgumentError({
          parameter: 'callId',
          value: id,
          code: 'UNKNOWN_TOOL_CALL',
          message: `no pending tool call has id ${describeValue(id)} from event #${callSeq}, so it cannot be closed without a result. Replay the log from the beginning or from a snapshot.`,
        });
      }
      return record;
    },
    orphan({ id, seq }) {
      const record = records.get(id);
      if (record === undefined) return;
      records.set(id, isBare(record) ? { id: record.id, name: record.name, seq: record.seq, status: 'orphaned', messagesAfter: record.messagesAfter, orphanSeq: seq } : { ...record, status: 'orphaned', orphanSeq: seq });
      pendingIds.delete(id);
    },
    toJSON: () => [...records.values()],
  };
}

// --- Internal helpers ---

const NO_RECORDS: readonly ToolCallRecord[] = Object.freeze([]);

// Whether a record has only the keys every record has (a pending call's), in their order: then a
// changed copy is written key by key, in the order a spread would give, rather than spread (a
// spread of records of several shapes goes through V8's slow path, on every recorded message).
function isBare(record: ToolCallRecord): boolean {
  return record.resultSeq === undefined && record.orphanSeq === undefined;
}

function unknownCall(callId: string): InvalidArgumentError {
  return new InvalidArgumentError({
    parameter: 'callId',
    value: callId,
    code: 'UNKNOWN_TOOL_CALL',
    message: `no tool call has id ${describeValue(callId)}. Record the call first with addMessage({ role: 'assistant', content, toolCalls: [{ id, name, input }] }), and give each result once.`,
  });
}

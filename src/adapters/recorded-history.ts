import type { ContextManager } from '../context-manager.js';
import { InvalidArgumentError } from '../errors.js';
import type { Entry, ToolCall } from '../types.js';
import { onViewRestore } from '../view-restore.js';

/**
 * What one framework message amounts to for the manager: a user turn, an assistant turn with its
 * tool calls, or a tool result. Adapters turn their framework's messages into these, in order.
 * @internal
 */
export type HistoryRecord =
  | { readonly kind: 'user'; readonly text: string }
  | { readonly kind: 'assistant'; readonly text: string; readonly toolCalls: readonly ToolCall[] }
  | { readonly kind: 'tool-result'; readonly callId: string; readonly toolName: string; readonly output: string; readonly isError: boolean };

/**
 * Records a framework's view of the conversation in a manager, each message once. Frameworks hand
 * adapters the conversation again and again: an agent loop repeats earlier messages at every step,
 * an app resends the whole history with each call, a restored session (`ContextManager.load()`)
 * gets its old messages back from the app's database. The recorded history lines up the messages
 * it is given with what the manager already holds and records only what follows.
 * @internal
 */
export interface RecordedHistory {
  /** Records what `records` holds beyond the manager's history; returns how many records were made. */
  record(records: readonly HistoryRecord[]): number;
}

/**
 * Creates the {@link RecordedHistory} of `manager`. It knows the manager's user and assistant
 * turns (those already recorded, a restored session's included, and every one recorded later,
 * by whoever records it) by content: text with the session's redactions applied and whitespace
 * collapsed, so a message re-serialised by the framework or a database still matches, and the
 * assistant's tool names. Given a list, it finds the longest start of the list that reaches the
 * manager's last turn with the turns before it found in the history in the same order (the
 * history may hold turns the list leaves out, such as the tool-calling steps an app does not
 * keep; {@link ALIGNED_TURNS} turns are compared at most) and records the rest. A turn said again after the history's end is new: "continue" twice is
 * two turns. After `rollback()` it knows what the restored version holds: what the rollback
 * dropped is recorded again when it is resent. A forked manager has its own.
 *
 * Tool results are matched by call id, wherever they stand: a result for a call still waiting is
 * recorded (frameworks fill results in late); the same result again is skipped; a different
 * second result for an answered call, or a result for a call the manager never saw, is kept as a
 * note when it is new — real agents do send both, and a call takes one result in a window.
 * Two calls with one id in one assistant message keep the first. The adapters of one manager
 * share its recorded history.
 * @internal
 */
export function createRecordedHistory(manager: ContextManager): RecordedHistory {
  // One per manager, shared by its adapters: one `entry-add` listener however many are created.
  let history = histories.get(manager);
  if (history === undefined) {
    history = trackHistory(manager);
    histories.set(manager, history);
  }
  return history;
}

// --- Internal helpers ---

const histories = new WeakMap<ContextManager, RecordedHistory>();

function trackHistory(manager: ContextManager): RecordedHistory {
  const turns: string[] = [];
  const calls = new Map<string, string>();
  const results = new Map<string, string>();
  const noted = new Set<string>();
  const signatures = new Map<string, string>();

  const signatureOf = (text: string): string => {
    let signature = signatures.get(text);
    if (signature === undefined) {
      if (signatures.size >= SIGNATURE_CACHE_SIZE) signatures.clear();
      signature = textFingerprint(manager.redact(text));
      signatures.set(text, signature);
    }
    return signature;
  };

  const track = (entry: Entry): void => {
    if (entry.kind === 'user' || entry.kind === 'assistant') {
      turns.push(turnSignature(entry.kind, textFingerprint(entry.text), entry.toolCalls ?? []));
      for (const call of entry.toolCalls ?? []) {
        calls.set(call.id, call.name);
        results.delete(call.id);
      }
    } else if (entry.kind === 'tool-result' && entry.callId !== undefined) {
      results.set(entry.callId, textFingerprint(entry.text));
    } else if (entry.kind === 'note') {
      const match = NOTE_PATTERN.exec(entry.text);
      if (match !== null) noted.add(`${String(JSON.parse(match[1] ?? '""'))}\n${textFingerprint(entry.text.slice(match[0].length))}`);
    }
  };
  // What the manager holds now: at the start, and again when a rollback replaces its view.
  const derive = (): void => {
    turns.length = 0;
    calls.clear();
    results.clear();
    noted.clear();
    const state = manager.state();
    const archived = state.archive.flatMap((item) => (item.type === 'entry' ? [item.entry] : []));
    for (const entry of [...archived, ...state.entries].sort((a, b) => a.seq - b.seq)) track(entry);
  };
  derive();
  manager.on('entry-add', ({ entry }) => track(entry));
  onViewRestore(manager, derive);

  const addResult = (record: Extract<HistoryRecord, { kind: 'tool-result' }>, isNew: boolean): number => {
    const answered = results.get(record.callId);
    if (answered !== undefined && answered === signatureOf(record.output)) return 0;
    if (calls.has(record.callId) && answered === undefined) {
      try {
        manager.addToolResult({ callId: record.callId, output: record.output, isError: record.isError });
        return 1;
      } catch (error) {
        if (!InvalidArgumentError.isInstance(error) || error.parameter !== 'callId') throw error;
      }
    }
    if (!isNew || noted.has(`${record.callId}\n${signatureOf(record.output)}`)) return 0;
    const about = `tool call ${JSON.stringify(record.callId)}${record.toolName.length > 0 ? ` (${record.toolName})` : ''}${record.isError ? ', an error' : ''}`;
    manager.addNote({
      content: answered === undefined ? `Result of ${about}, whose call was not recorded:\n${record.output}` : `Another result of ${about}, which already had one:\n${record.output}`,
    });
    return 1;
  };

  return {
    record(records) {
      const prepared = records.flatMap(prepare);
      const incoming = prepared.flatMap((record, index) => (record.kind === 'tool-result' ? [] : [{ index, signature: turnSignature(record.kind, signatureOf(record.text), record.kind === 'assistant' ? record.toolCalls : []) }]));
      const matched = alignedLength(turns, incoming.map((turn) => turn.signature));
      const start = matched === 0 ? 0 : (incoming[matched - 1]?.index ?? -1) + 1;
      let count = 0;
      prepared.forEach((record, index) => {
        const isNew = index >= start;
        if (record.kind === 'tool-result') {
          count += addResult(record, isNew);
        } else if (isNew) {
          if (record.kind === 'user') manager.addMessage({ role: 'user', content: record.text });
          else manager.addMessage({ role: 'assistant', content: record.text, ...(record.toolCalls.length > 0 ? { toolCalls: record.toolCalls } : {}) });
          count += 1;
        }
      });
      return count;
    },
  };
}


/** How many of the newest turns must agree for a resent list to line up with the history. */
const ALIGNED_TURNS = 64;
/** How far back in the recorded history the turns of a resent list are looked for. */
const LOOK_BACK_TURNS = 1_024;
const SIGNATURE_CACHE_SIZE = 4_096;
/** The start of the notes that keep a result the window cannot hold (the note's first line). */
const NOTE_PATTERN = /^(?:Another result|Result) of tool call ("(?:[^"\\]|\\.)*")[^\n]*\n/;

// An assistant turn with neither text nor calls carries nothing; repeated call ids keep the first.
function prepare(record: HistoryRecord): HistoryRecord[] {
  if (record.kind !== 'assistant') return [record];
  const seen = new Set<string>();
  const toolCalls = record.toolCalls.filter((call) => !seen.has(call.id) && seen.add(call.id));
  if (record.text.trim().length === 0 && toolCalls.length === 0) return [];
  return [toolCalls.length === record.toolCalls.length ? record : { ...record, toolCalls }];
}

// A turn as compared: its role, the fingerprint of its (redacted) text and its tools' names.
function turnSignature(kind: 'user' | 'assistant', text: string, toolCalls: readonly ToolCall[]): string {
  return `${kind}:${text}:${toolCalls.map((call) => call.name).join(',')}`;
}

// Whitespace collapsed: frameworks and databases re-serialise text (joined blocks, trimmed ends).
function textFingerprint(text: string): string {
  return fingerprint(text.replace(/\s+/g, ' ').trim());
}

/**
 * The largest k such that the first k turns of `incoming` line up with the end of `recorded`: the
 * k-th is the last recorded turn, and the turns before it (up to ALIGNED_TURNS of them) occur in
 * the recorded history in the same order. Recorded turns the list leaves out are allowed (an app
 * that keeps only the questions and final answers drops the tool-calling steps), within
 * LOOK_BACK_TURNS; turns older than the whole recorded history (spilled, or before the adapter
 * was attached) are taken as recorded. 0 when the list does not reach the last recorded turn.
 */
function alignedLength(recorded: readonly string[], incoming: readonly string[]): number {
  const last = recorded.length - 1;
  if (last < 0) return 0;
  const oldest = Math.max(0, last - LOOK_BACK_TURNS);
  for (let k = incoming.length; k > 0; k -= 1) {
    if (incoming[k - 1] !== recorded[last]) continue;
    let at = last - 1;
    let isMatch = true;
    for (let index = k - 2, compared = 1; index >= 0 && compared < ALIGNED_TURNS && at >= 0; index -= 1, compared += 1) {
      while (at >= oldest && recorded[at] !== incoming[index]) at -= 1;
      if (at < oldest) {
        isMatch = at < 0;
        break;
      }
      at -= 1;
    }
    if (isMatch) return k;
  }
  return 0;
}

/** A short, stable fingerprint of `text` (length and two 32-bit FNV-1a hashes). */
function fingerprint(text: string): string {
  let first = 0x811c9dc5;
  let second = 0x01000193;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    first = Math.imul(first ^ code, 0x01000193);
    second = Math.imul(second ^ code, 0x5bd1e995);
  }
  return `${text.length.toString(36)}.${(first >>> 0).toString(36)}.${(second >>> 0).toString(36)}`;
}

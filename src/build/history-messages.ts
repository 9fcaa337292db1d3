import { PENDING_RESULT_TEXT } from '../tool-calls.js';
import type { ContextMessage, Entry } from '../types.js';
import type { ToolPairing } from './tool-pairing.js';
import { resultNoteText } from './tool-pairing.js';

/**
 * Turns the shown T0 entries into messages the way `toMessages()` does, reusing the frozen
 * messages of the previous windows: an entry whose message depends on nothing else (a user or
 * assistant message) is converted once, a call once per set of answers and ids, a run of notes
 * once per run. A build after one new entry makes the messages of that entry only. @internal
 */
export interface HistoryRenderer {
  /**
   * The messages of `entries` (in seq order, whole units of `pairing`'s entries), each shown as
   * its longer form in `forms` when it has one, or `undefined` when the entries are not whole
   * units (a result shown without its call), for which the caller uses `toMessages()`.
   */
  render(entries: readonly Entry[], pairing: ToolPairing, forms?: ReadonlyMap<Entry, Entry> | undefined): readonly ContextMessage[] | undefined;
}

/** Creates a {@link HistoryRenderer}. @internal */
export function createHistoryRenderer(): HistoryRenderer {
  // Entries are immutable, so a message made from one entry alone never goes stale.
  const single = new WeakMap<Entry, ContextMessage>();
  const calls = new WeakMap<Entry, { ids: readonly string[]; answers: readonly (Entry | undefined)[]; messages: readonly ContextMessage[] }>();
  // Keyed by the first entry of the run.
  const notes = new WeakMap<Entry, { run: readonly Entry[]; message: ContextMessage }>();

  const messageOf = (entry: Entry, role: 'user' | 'assistant'): ContextMessage => {
    const cached = single.get(entry);
    if (cached !== undefined) return cached;
    const message: ContextMessage = Object.freeze({ role, content: entry.display });
    single.set(entry, message);
    return message;
  };

  const notesOf = (run: readonly Entry[]): ContextMessage => {
    const first = run[0] as Entry;
    const cached = notes.get(first);
    if (cached !== undefined && isSameList(cached.run, run)) return cached.message;
    const message: ContextMessage = Object.freeze({ role: 'user', content: run.map(noteText).join('\n') });
    notes.set(first, { run: [...run], message });
    return message;
  };

  return {
    render(entries, pairing, forms) {
      if (!isWhole(entries, pairing)) return undefined;
      // A longer form pairs as its entry does (same seq, ids and calls): toMessages() of the
      // entries with their forms in place pairs them the same way.
      const shownOf = forms === undefined || forms.size === 0 ? undefined : (entry: Entry): Entry => forms.get(entry) ?? entry;
      const messages: ContextMessage[] = [];
      const usedIds = new Set<string>();
      let run: Entry[] = [];
      const flushNotes = (): void => {
        if (run.length > 0) {
          messages.push(notesOf(run));
          run = [];
        }
      };
      // Indexed loops: a build runs a few hundred times per session, mostly before the optimizing
      // compiler sees it, and unoptimized for…of loops allocate an iterator result per step.
      for (let position = 0; position < entries.length; position += 1) {
        const recorded = entries[position] as Entry;
        if (pairing.hidden.has(recorded) || pairing.callOf.has(recorded)) continue;
        const entry = shownOf === undefined ? recorded : shownOf(recorded);
        const shownCalls = entry.displayToolCalls ?? entry.toolCalls ?? NO_CALLS;
        if (entry.kind === 'assistant' || shownCalls.length > 0) {
          flushNotes();
          if (shownCalls.length === 0) {
            messages.push(messageOf(entry, 'assistant'));
            continue;
          }
          const recordedAnswers = pairing.answers.get(recorded) ?? [];
          const answers = shownOf === undefined ? recordedAnswers : recordedAnswers.map((answer) => (answer === undefined ? undefined : shownOf(answer)));
          let cached = calls.get(entry);
          let isValid = cached !== undefined && isSameAnswers(cached.answers, answers, shownCalls.length);
          const ids: string[] = [];
          for (let index = 0; index < shownCalls.length; index += 1) {
            const id = uniqueId({ id: (shownCalls[index] as ToolCalls[number]).id, seq: entry.seq, used: usedIds });
            if (cached?.ids[index] !== id) isValid = false;
            ids.push(id);
          }
          if (cached === undefined || !isValid) {
            cached = { ids, answers: [...answers], messages: callMessages(entry, shownCalls, ids, answers).map((message) => Object.freeze(message)) };
            calls.set(entry, cached);
          }
          for (let index = 0; index < cached.messages.length; index += 1) messages.push(cached.messages[index] as ContextMessage);
        } else if (entry.kind === 'user') {
          flushNotes();
          messages.push(messageOf(entry, 'user'));
        } else if (entry.role === 'tool' && entry.callId !== undefined) {
          // A marker without its call has nothing to answer; any other result is kept as a note.
          if (entry.kind !== 'tool-call-orphan') run.push(entry);
        } else {
          run.push(entry);
        }
      }
      flushNotes();
      return messages;
    },
  };
}

// --- Internal helpers ---

/** Shared, so that an entry without calls costs no allocation. */
const NO_CALLS: NonNullable<Entry['toolCalls']> = [];

type ToolCalls = NonNullable<Entry['toolCalls']>;

/**
 * The assistant message with its calls (ids as given), then one `tool` message per call: its
 * answer, or a placeholder while it waits. Shared with `toMessages()`. @internal
 */
export function callMessages(entry: Entry, shownCalls: ToolCalls, ids: readonly string[], answers: readonly (Entry | undefined)[]): ContextMessage[] {
  const messages: ContextMessage[] = [
    {
      role: 'assistant',
      content: entry.display,
      toolCalls: shownCalls.map((call, index) => (ids[index] === call.id ? call : { ...call, id: ids[index] as string })),
    },
  ];
  shownCalls.forEach((call, index) => {
    const answer = answers[index];
    const toolCallId = ids[index] as string;
    if (answer === undefined) {
      messages.push({ role: 'tool', toolCallId, toolName: call.name, content: PENDING_RESULT_TEXT });
      return;
    }
    messages.push({
      role: 'tool',
      toolCallId,
      toolName: answer.toolName !== undefined && answer.toolName.length > 0 ? answer.toolName : call.name,
      content: answer.display,
      ...(answer.isError === undefined ? {} : { isError: answer.isError }),
    });
  });
  return messages;
}

function noteText(entry: Entry): string {
  return entry.role === 'tool' && entry.callId !== undefined ? resultNoteText(entry) : entry.display;
}

/**
 * Whether every answer shown has its call shown and every call shown has its answers shown, so
 * that the pairing of all T0 entries is also the pairing of these: then they render as
 * `toMessages()` would render them. `entries` is in seq order.
 */
function isWhole(entries: readonly Entry[], pairing: ToolPairing): boolean {
  for (let position = 0; position < entries.length; position += 1) {
    const entry = entries[position] as Entry;
    if (pairing.hidden.has(entry)) return false;
    const call = pairing.callOf.get(entry);
    if (call !== undefined && !includesEntry(entries, call)) return false;
    const answers = pairing.answers.get(entry);
    if (answers === undefined) continue;
    for (let index = 0; index < answers.length; index += 1) {
      const answer = answers[index];
      if (answer !== undefined && !includesEntry(entries, answer)) return false;
    }
  }
  return true;
}

/** Binary search by seq in entries sorted by seq. */
function includesEntry(entries: readonly Entry[], entry: Entry): boolean {
  let low = 0;
  let high = entries.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const candidate = entries[middle] as Entry;
    if (candidate === entry) return true;
    if (candidate.seq < entry.seq) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

function isSameAnswers(cached: readonly (Entry | undefined)[], answers: readonly (Entry | undefined)[], length: number): boolean {
  for (let index = 0; index < length; index += 1) if (cached[index] !== answers[index]) return false;
  return true;
}

/** Whether two lists hold the same items in the same order. @internal */
export function isSameList<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index += 1) if (a[index] !== b[index]) return false;
  return true;
}

/** `id`, or `id_<seq>` (then `_2`, `_3`…) when `used` already has it; records the result. @internal */
export function uniqueId(options: { id: string; seq: number; used: Set<string> }): string {
  const { id, seq, used } = options;
  let candidate = id;
  for (let attempt = 1; used.has(candidate); attempt += 1) candidate = attempt === 1 ? `${id}_${seq}` : `${id}_${seq}_${attempt}`;
  used.add(candidate);
  return candidate;
}

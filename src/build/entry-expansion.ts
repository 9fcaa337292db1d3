import { excerpt, toolCallTokens } from '../tiers/entry.js';
import { MESSAGE_OVERHEAD_TOKENS } from '../tokens/token-counter.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import type { Entry } from '../types.js';

/** The entries a window shows, longer forms in place, and what those forms add. @internal */
export interface ExpandedEntries {
  /** The entries, each replaced by its chosen longer form if it has one. */
  readonly entries: readonly Entry[];
  /** Tokens the longer forms add. */
  readonly tokens: number;
  /** The longer form chosen for each entry shown longer. */
  readonly forms: ReadonlyMap<Entry, Entry>;
}

/**
 * Shows T0 entries that were shortened to fit one entry's share (long outputs as a head/tail
 * excerpt, long tool-call inputs cut) more fully when the window has room no block uses: in full
 * when that fits (texts up to about 8,000 tokens), else as an excerpt four or two times as long.
 * Newest entries first.
 *
 * Like the graduated pages before T0, the choice is redone only when `isFree` (the system text
 * changed, so the history is not reused by a prompt cache anyway) and leaves 8% of the budget
 * for T0 to grow into; otherwise the previous build's choice stays while it fits and is dropped
 * when it no longer does. Each longer form is made and counted once per entry.
 * @internal
 */
export function createEntryExpansion(options: { counter: TokenCounter }): {
  expand(query: { entries: readonly Entry[]; room: number; budget: number; isFree: boolean }): ExpandedEntries;
  /** Makes the longer forms of every shortened text among `entries` ahead of the builds that may show them. */
  makeForms(entries: readonly Entry[]): void;
} {
  const { counter } = options;
  const forms = new WeakMap<Entry, LazyForms>();
  let previous:
    | { budget: number; chosen: ReadonlyMap<Entry, Entry>; lastSeq: number; first: Entry | undefined; length: number; result: ExpandedEntries }
    | undefined;

  // Longer forms of an entry, longest first, each with its token count. Each form is made (and
  // its excerpt counted) only when a shorter one is asked for or the longer ones do not fit: the
  // full text, whose count is cached since the entry was recorded, usually fits, and excerpts are
  // the costliest text a build would otherwise count.
  const formsOf = (entry: Entry): LazyForms => {
    let lazy = forms.get(entry);
    if (lazy !== undefined) return lazy;
    const makers: (() => Entry)[] = [];
    const isCut = entry.displayToolCalls !== undefined;
    // As createEntry() counts them: the calls shown (shortened or not) are part of the entry's tokens.
    const shownCallTokens = (entry.displayToolCalls ?? entry.toolCalls ?? []).reduce((sum, call) => sum + toolCallTokens(call, counter), 0);
    const fullCallTokens = isCut ? (entry.toolCalls ?? []).reduce((sum, call) => sum + toolCallTokens(call, counter), 0) : shownCallTokens;
    const textTokens = entry.tokens - MESSAGE_OVERHEAD_TOKENS - shownCallTokens;
    if (entry.display === entry.text) {
      if (isCut) makers.push(() => freezeForm(entry, { display: entry.text, tokens: entry.tokens - shownCallTokens + fullCallTokens }));
    } else {
      // The full text's size is estimated from the excerpt first: a text far too large for any
      // window is not counted at all.
      const charsPerToken = entry.display.length / Math.max(1, textTokens);
      const estimate = entry.text.length / Math.max(0.5, charsPerToken);
      const frame = entry.tokens - textTokens - shownCallTokens + fullCallTokens;
      if (estimate <= MAX_FULL_TOKENS) makers.push(() => freezeForm(entry, { display: entry.text, tokens: counter.count(entry.text) + frame }));
      for (const factor of EXCERPT_FACTORS) {
        const maxTokens = textTokens * factor;
        if (maxTokens >= estimate) continue;
        makers.push(() => {
          const text = excerpt({ text: entry.text, tokens: Math.round(estimate), maxTokens, seq: entry.seq, counter });
          return freezeForm(entry, { display: text, tokens: counter.count(text) + frame });
        });
      }
    }
    lazy = { made: [], makers };
    forms.set(entry, lazy);
    return lazy;
  };

  // The longest form of `entry` that adds at most `left` tokens, making forms only as far as needed.
  const longestFitting = (entry: Entry, left: number): Entry | undefined => {
    const lazy = formsOf(entry);
    for (let index = 0; index < lazy.makers.length; index += 1) {
      let form = lazy.made[index];
      if (form === undefined) {
        form = (lazy.makers[index] as () => Entry)();
        lazy.made[index] = form;
      }
      if (form.tokens - entry.tokens <= left) return form;
    }
    return undefined;
  };

  // Adds longer forms of the entries after `afterSeq`, newest first, within `room`.
  const choose = (options: { entries: readonly Entry[]; room: number; afterSeq: number; chosen: Map<Entry, Entry> }): Map<Entry, Entry> => {
    const { entries, chosen } = options;
    let calls: Set<string> | undefined;
    let left = options.room;
    for (let index = entries.length - 1; index >= 0 && left > 0; index -= 1) {
      const entry = entries[index] as Entry;
      if (entry.seq <= options.afterSeq) break;
      if (entry.display === entry.text && entry.displayToolCalls === undefined) continue;
      calls ??= callKeys(entries);
      if (!isExpandable(entry, calls)) continue;
      // Even the shortest longer form of a shortened text adds about as much as the entry holds.
      if (entry.display !== entry.text && entry.tokens > left) continue;
      const form = longestFitting(entry, left);
      if (form === undefined) continue;
      chosen.set(entry, form);
      left -= form.tokens - entry.tokens;
    }
    return chosen;
  };

  return {
    makeForms(entries) {
      // A room no form fits makes every form.
      for (const entry of entries) if (entry.display !== entry.text) longestFitting(entry, Number.NEGATIVE_INFINITY);
    },
    expand({ entries, room, budget, isFree }) {
      const reserve = Math.ceil(budget * RESERVE_SHARE);
      const lastSeq = entries[entries.length - 1]?.seq ?? 0;
      // The same entries as the previous build (T0 only grows at its end between graduations):
      // its answer stands while it fits.
      if (!isFree && previous !== undefined && previous.budget === budget && previous.lastSeq === lastSeq && previous.length === entries.length && previous.first === entries[0] && previous.result.tokens <= room) {
        return previous.result;
      }
      let chosen: ReadonlyMap<Entry, Entry> | undefined;
      if (!isFree && previous !== undefined && previous.budget === budget) {
        const shown = previous.chosen.size === 0 ? undefined : new Set(entries);
        const kept = new Map<Entry, Entry>();
        let extra = 0;
        for (const [entry, form] of previous.chosen) {
          if (shown === undefined) break;
          if (!shown.has(entry)) continue;
          kept.set(entry, form);
          extra += form.tokens - entry.tokens;
        }
        // Entries new since the previous build come after everything it showed: showing them
        // longer changes nothing a prompt cache holds.
        if (extra <= room) chosen = choose({ entries, room: room - reserve - extra, afterSeq: previous.lastSeq, chosen: kept });
      }
      chosen ??= choose({ entries, room: room - reserve, afterSeq: -1, chosen: new Map<Entry, Entry>() });
      let tokens = 0;
      const shown = chosen.size === 0 ? [...entries] : entries.map((entry) => {
        const form = chosen.get(entry);
        if (form === undefined) return entry;
        tokens += form.tokens - entry.tokens;
        return form;
      });
      const result = { entries: shown, tokens, forms: chosen };
      previous = { budget, chosen, lastSeq, first: entries[0], length: entries.length, result };
      return result;
    },
  };
}

// --- Internal helpers ---

/** The longer forms of one entry: `made[i]` is `makers[i]()` once it was needed. */
interface LazyForms {
  readonly made: Entry[];
  readonly makers: readonly (() => Entry)[];
}

/** Room left free when the choice is made afresh, as a share of the budget: T0 grows into it. */
const RESERVE_SHARE = 0.08;

/** Longest full text considered, in estimated tokens. */
const MAX_FULL_TOKENS = 8_000;

/** Excerpt lengths tried, as multiples of the excerpt shown now, longest first. */
const EXCERPT_FACTORS = [4, 2] as const;

// The entry with a longer text and its tool calls in full (the shortened inputs left out).
function freezeForm(entry: Entry, changes: { display: string; tokens: number }): Entry {
  const { displayToolCalls: _shortened, ...rest } = entry;
  return Object.freeze({ ...rest, display: changes.display, tokens: changes.tokens });
}

// `seq:id` of every tool call among the entries, and the bare ids.
function callKeys(entries: readonly Entry[]): Set<string> {
  const keys = new Set<string>();
  for (const entry of entries) {
    for (const call of entry.toolCalls ?? []) {
      keys.add(`${entry.seq}:${call.id}`);
      keys.add(call.id);
    }
  }
  return keys;
}

// A result is shown longer only next to its call: a result shown as a note is counted as a note.
function isExpandable(entry: Entry, calls: ReadonlySet<string>): boolean {
  if (entry.display === entry.text && entry.displayToolCalls === undefined) return false;
  if (entry.kind === 'tool-call-orphan') return false;
  if (entry.role !== 'tool' || entry.callId === undefined) return true;
  return calls.has(entry.callSeq === undefined ? entry.callId : `${entry.callSeq}:${entry.callId}`);
}

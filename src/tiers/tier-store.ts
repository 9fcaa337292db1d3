import type { TokenCounter } from '../tokens/token-counter.js';
import type { ArchivedItem, Entry, Pin, Summary } from '../types.js';
import type { Archive, SpilledGroup } from './archive.js';
import { createArchive } from './archive.js';
import type { FactStore, FactStoreData } from './facts.js';
import { createFactStore } from './facts.js';

/** A rendered block with its token count. */
export interface RenderedBlock {
  /** The block's text (empty when the block has no content). */
  readonly text: string;
  /** Tokens of `text`. */
  readonly tokens: number;
}

/**
 * Holds T0 entries, T1 summaries, T2 facts, pins and the archive. Every item carries its token
 * count, computed once; running totals make tier sizes O(1).
 */
export interface TierStore {
  /** T0 entries, oldest first. */
  entries(): readonly Entry[];
  /** Sum of the tokens of the T0 entries. */
  readonly workingTokens: number;
  /** Appends a T0 entry. */
  addEntry(entry: Entry): void;
  /** Removes T0 entries by seq and archives them as represented by `summaryId`. */
  graduateEntries(options: { seqs: readonly number[]; summaryId: string; seq: number }): readonly ArchivedItem[];
  /** T1 summaries, oldest first. */
  summaries(): readonly Summary[];
  /** Sum of the tokens of the T1 summaries. */
  readonly summaryTokens: number;
  /** Appends a T1 summary after the existing ones (chunk graduation). */
  addSummary(summary: Summary): void;
  /** Replaces the given summaries by one consolidated summary in their place. */
  consolidateSummaries(options: { ids: readonly string[]; summary: Summary; seq: number }): readonly ArchivedItem[];
  /** T2 facts and tasks. */
  readonly facts: FactStore;
  /** Pinned items, in pin order. */
  pins(): readonly Pin[];
  /** Adds a pin. */
  addPin(pin: Pin): void;
  /** Removes a pin and archives it; returns it, or `undefined` when unknown. */
  removePin(options: { id: string; seq: number }): Pin | undefined;
  /** The archive. */
  readonly archive: Archive;
  /** Renders the pins block, cached while pins do not change. */
  renderPins(): RenderedBlock;
}

/** Serialisable contents of a {@link TierStore}. @internal */
export interface TierStoreData {
  readonly entries: readonly Entry[];
  readonly summaries: readonly Summary[];
  readonly pins: readonly Pin[];
  readonly facts: FactStoreData;
  readonly archive: readonly ArchivedItem[];
  /** Archive groups held only in storage (absent when none spilled). */
  readonly archiveSpilled?: readonly SpilledGroup[] | undefined;
}

/** Creates a {@link TierStore}. */
export function createTierStore(options: {
  counter: TokenCounter;
  initial?: TierStoreData | undefined;
}): TierStore & { toJSON(): TierStoreData } {
  const { counter } = options;
  let entries: Entry[] = [...(options.initial?.entries ?? [])];
  let summaries: Summary[] = [...(options.initial?.summaries ?? [])];
  const pins = new Map<string, Pin>();
  for (const pin of options.initial?.pins ?? []) pins.set(pin.id, pin);
  const facts = createFactStore({ counter, initial: options.initial?.facts });
  const archive = createArchive(options.initial?.archive ?? [], options.initial?.archiveSpilled ?? []);
  let workingTokens = entries.reduce((sum, entry) => sum + entry.tokens, 0);
  let summaryTokens = summaries.reduce((sum, summary) => sum + summary.tokens, 0);
  let pinsCache: RenderedBlock | undefined;

  return {
    entries: () => entries,
    get workingTokens() {
      return workingTokens;
    },
    addEntry(entry) {
      entries.push(entry);
      workingTokens += entry.tokens;
    },
    graduateEntries({ seqs, summaryId, seq }) {
      const leaving = new Set(seqs);
      const archived: ArchivedItem[] = [];
      const kept: Entry[] = [];
      for (const entry of entries) {
        if (leaving.has(entry.seq)) {
          archived.push({ type: 'entry', reason: 'graduated', entry, summaryId, archivedAt: seq });
          workingTokens -= entry.tokens;
        } else {
          kept.push(entry);
        }
      }
      entries = kept;
      archive.append(archived);
      return archived;
    },
    summaries: () => summaries,
    get summaryTokens() {
      return summaryTokens;
    },
    addSummary(summary) {
      summaries.push(summary);
      summaryTokens += summary.tokens;
    },
    consolidateSummaries({ ids, summary, seq }) {
      const leaving = new Set(ids);
      const archived: ArchivedItem[] = [];
      const next: Summary[] = [];
      let isPlaced = false;
      for (const existing of summaries) {
        if (!leaving.has(existing.id)) {
          next.push(existing);
          continue;
        }
        archived.push({ type: 'summary', reason: 'consolidated', summary: existing, summaryId: summary.id, archivedAt: seq });
        summaryTokens -= existing.tokens;
        if (!isPlaced) {
          next.push(summary);
          summaryTokens += summary.tokens;
          isPlaced = true;
        }
      }
      summaries = next;
      archive.append(archived);
      return archived;
    },
    facts,
    pins: () => [...pins.values()],
    addPin(pin) {
      pins.set(pin.id, pin);
      pinsCache = undefined;
    },
    removePin({ id, seq }) {
      const pin = pins.get(id);
      if (pin === undefined) return undefined;
      pins.delete(id);
      pinsCache = undefined;
      archive.append([{ type: 'pin', reason: 'unpinned', pin, archivedAt: seq }]);
      return pin;
    },
    archive,
    renderPins() {
      if (pinsCache !== undefined) return pinsCache;
      const list = [...pins.values()];
      const text = list.length === 0 ? '' : list.map((pin) => `- ${pin.text}`).join('\n');
      pinsCache = { text, tokens: text.length === 0 ? 0 : counter.count(text) };
      return pinsCache;
    },
    toJSON: () => ({
      entries,
      summaries,
      pins: [...pins.values()],
      facts: facts.toJSON(),
      archive: archive.items(),
      ...(archive.spilled().length === 0 ? {} : { archiveSpilled: archive.spilled() }),
    }),
  };
}

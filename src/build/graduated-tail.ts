import type { BoundaryScore } from '../boundaries/boundary-detector.js';
import type { Archive } from '../tiers/archive.js';
import type { ArchivedItem, Entry } from '../types.js';
import { pairToolCalls } from './tool-pairing.js';

/** A run of recently graduated entries the window can show again as one piece. @internal */
export interface GraduatedPage {
  /** The entries, in seq order. */
  readonly entries: readonly Entry[];
  /** Tokens they take in the window (each entry's count, framing included). */
  readonly tokens: number;
}

/**
 * Picks the most recently graduated entries to show verbatim again, before T0, when the window
 * has room that no block uses (open files closed, facts or summaries smaller than when T0 was
 * cut): their summaries stay in T1, so this only fills room that would otherwise go unused.
 *
 * The graduated chunks are split, from their newest end, into pages of about 3% of the budget at
 * gaps where T0 may be cut; pages are taken whole, newest first and contiguous with T0. A page
 * whose tool calls are not all answered inside it, or that holds a result of a call outside it,
 * ends the run: shown alone it would need placeholders or notes its token count does not cover.
 *
 * Prompt caches reuse the longest unchanged prefix, so the start of the history moves only when
 * it costs nothing or must: with `isFree` (the system text changed, so nothing after it is
 * reused anyway) the pages are chosen afresh, leaving 8% of the budget for T0 to grow into;
 * otherwise the pages of the previous build stay while they fit, and leave oldest first when
 * they no longer do. The same builds in the same order give the same windows.
 *
 * Reads the archive from its end and stops after about twice the budget: the work is
 * proportional to the window, not to the archive, and is redone only when the archive grows.
 * @internal
 */
export function createGraduatedTail(options: { scoreGaps: (entries: readonly Entry[]) => readonly BoundaryScore[] }): {
  select(query: { archive: Archive; beforeSeq: number; room: number; budget: number; isFree: boolean }): GraduatedPage[];
  /** Splits the graduated entries into the pages `select()` will look at, ahead of it. */
  prepare(query: { archive: Archive; beforeSeq: number; budget: number }): void;
} {
  let cache: { size: number; beforeSeq: number; budget: number; pages: readonly GraduatedPage[] } | undefined;
  // What the previous build showed: the same pages are kept while nothing forces a change.
  let previous: { budget: number; beforeSeq: number; count: number } | undefined;

  const candidates = (archive: Archive, beforeSeq: number, budget: number): readonly GraduatedPage[] => {
    if (cache !== undefined && cache.size === archive.size && cache.beforeSeq === beforeSeq && cache.budget === budget) return cache.pages;
    const pages = recentPages({
      items: archive.items(),
      beforeSeq,
      maxTokens: budget * MAX_TAIL_BUDGETS,
      pageTokens: Math.max(MIN_PAGE_TOKENS, Math.round(budget * PAGE_SHARE)),
      scoreGaps: options.scoreGaps,
    });
    cache = { size: archive.size, beforeSeq, budget, pages };
    return pages;
  };

  return {
    prepare({ archive, beforeSeq, budget }) {
      if (archive.size > 0) candidates(archive, beforeSeq, budget);
    },
    select({ archive, beforeSeq, room, budget, isFree }) {
      const pages = room <= 0 || archive.size === 0 ? [] : candidates(archive, beforeSeq, budget);
      const reserve = Math.ceil(budget * RESERVE_SHARE);
      const isKept = !isFree && previous !== undefined && previous.budget === budget && previous.beforeSeq === beforeSeq;
      let count = isKept ? Math.min(previous?.count ?? 0, pages.length) : fitCount(pages, room - reserve);
      if (isKept && tokensOf(pages, count) > room) count = fitCount(pages, room - reserve);
      previous = { budget, beforeSeq, count };
      return pages.slice(0, count);
    },
  };
}

// --- Internal helpers ---

/** Archive items looked at, at most, from its end. */
const MAX_SCAN_ITEMS = 20_000;

/**
 * Graduated entries split into pages, at most, in budgets: an archive that spills to storage
 * keeps this many budgets of its newest graduated entries in memory, so spilling never changes a window.
 * @internal
 */
export const MAX_TAIL_BUDGETS = 2;

/** Size of a page, as a share of the budget. */
const PAGE_SHARE = 0.03;

/** Smallest page, in tokens. */
const MIN_PAGE_TOKENS = 128;

/** Room left free when pages are chosen afresh, as a share of the budget: T0 grows into it. */
const RESERVE_SHARE = 0.08;

// How many of the newest pages fit in `room`.
function fitCount(pages: readonly GraduatedPage[], room: number): number {
  let left = room;
  let count = 0;
  for (const page of pages) {
    if (page.tokens > left) break;
    left -= page.tokens;
    count += 1;
  }
  return count;
}

function tokensOf(pages: readonly GraduatedPage[], count: number): number {
  let total = 0;
  for (let index = 0; index < count; index += 1) total += pages[index]?.tokens ?? 0;
  return total;
}

// The newest graduated chunks (as in the archive: one run of items per summary), split into
// pages, newest first, up to `maxTokens`; stops at the first piece that cannot be shown alone.
function recentPages(options: {
  items: readonly ArchivedItem[];
  beforeSeq: number;
  maxTokens: number;
  pageTokens: number;
  scoreGaps: (entries: readonly Entry[]) => readonly BoundaryScore[];
}): GraduatedPage[] {
  const { items, maxTokens } = options;
  const pages: GraduatedPage[] = [];
  let total = 0;
  let nextSeq = options.beforeSeq;
  let current: { id: string; entries: Entry[] } | undefined;
  // Adds the current chunk's pages; false when the run must stop.
  const flush = (): boolean => {
    if (current === undefined) return true;
    const entries = current.entries.reverse();
    current = undefined;
    const last = entries[entries.length - 1];
    if (last === undefined || last.seq >= nextSeq) return false;
    const split = splitPages({ entries, pageTokens: options.pageTokens, scoreGaps: options.scoreGaps });
    for (const page of split.pages) {
      total += page.tokens;
      if (total > maxTokens) return false;
      pages.push(page);
    }
    nextSeq = (entries[0] as Entry).seq;
    return split.isComplete;
  };
  const stop = Math.max(0, items.length - MAX_SCAN_ITEMS);
  for (let index = items.length - 1; index >= stop; index -= 1) {
    const item = items[index];
    if (item === undefined || item.type !== 'entry' || item.reason !== 'graduated') continue;
    if (current !== undefined && current.id !== item.summaryId && !flush()) return pages;
    if (current === undefined) current = { id: item.summaryId, entries: [] };
    current.entries.push(item.entry);
  }
  flush();
  return pages;
}

// Splits one chunk into pages from its newest end: a page closes once it holds `pageTokens` at a
// gap that is not forbidden and renders alone as counted. `isComplete` is false when the oldest
// entries could not form such a page (they are left out, and so is everything older).
function splitPages(options: {
  entries: readonly Entry[];
  pageTokens: number;
  scoreGaps: (entries: readonly Entry[]) => readonly BoundaryScore[];
}): { pages: GraduatedPage[]; isComplete: boolean } {
  const { entries, pageTokens } = options;
  const scores = options.scoreGaps(entries);
  const pages: GraduatedPage[] = [];
  let end = entries.length;
  let tokens = 0;
  for (let start = entries.length - 1; start >= 0; start -= 1) {
    tokens += (entries[start] as Entry).tokens;
    // The chunk's own start is a graduation cut, always allowed.
    const isAllowed = start === 0 || scores[start - 1]?.strength !== 'forbidden';
    if (!isAllowed || (tokens < pageTokens && start > 0)) continue;
    const slice = entries.slice(start, end);
    if (!isSelfContained(slice)) continue;
    pages.push({ entries: slice, tokens });
    end = start;
    tokens = 0;
  }
  return { pages, isComplete: end === 0 };
}

// Whether the entries render on their own exactly as counted: every call answered among them
// (no placeholder), every result's call among them (no note).
function isSelfContained(entries: readonly Entry[]): boolean {
  const pairing = pairToolCalls(entries);
  for (const slots of pairing.answers.values()) if (slots.includes(undefined)) return false;
  for (const entry of entries) {
    if (entry.role === 'tool' && entry.callId !== undefined && !pairing.callOf.has(entry) && !pairing.hidden.has(entry)) return false;
  }
  return true;
}

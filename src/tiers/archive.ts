import type { ArchivedItem, SequenceRange } from '../types.js';
import { recallDocumentOf } from './recall.js';

/**
 * What stays in memory of an archive group that was spilled to storage: enough to tell which
 * read needs it, never its text.
 */
export interface SpilledGroup {
  /** Sequence number of the event that archived the group; its key in storage. */
  readonly seq: number;
  /** Number of items in the group. */
  readonly count: number;
  /** Smallest and largest seq that the group's items cover (entries, summary and fact sources). */
  readonly from: number;
  readonly to: number;
  /** Ids of the group's summaries, superseded facts and pins (entries are found by `from`/`to`). */
  readonly ids: readonly string[];
}

/** The items that one event archived, kept together. */
export interface ArchiveGroupItems {
  /** Sequence number of the event that archived them. */
  readonly seq: number;
  /** The items, in archive order. */
  readonly items: readonly ArchivedItem[];
}

/**
 * The append-only archive: everything that left the window, kept for recall. When it spills,
 * its oldest groups live only in storage ({@link SpilledGroup}); `items()` is the in-memory tail.
 */
export interface Archive {
  /** Appends items; earlier items are never rewritten. */
  append(items: readonly ArchivedItem[]): void;
  /** The items held in memory, oldest first: every item unless groups were spilled. */
  items(): readonly ArchivedItem[];
  /** Number of items, spilled ones included. */
  readonly size: number;
  /** Number of items held in memory. */
  readonly memorySize: number;
  /** Groups held only in storage, oldest first. */
  spilled(): readonly SpilledGroup[];
  /** Whether an entry with this sequence number was archived and is held in memory. */
  hasEntry(seq: number): boolean;
  /** The in-memory items archived by event `seq` (`[]` when none, or when spilled). */
  group(seq: number): readonly ArchivedItem[];
  /**
   * The oldest in-memory groups that can leave memory so that at least `keep` items stay, among
   * the groups archived by events up to `maxSeq` (those already durable in the log). With
   * `keepEntryTokens`, the newest groups holding that many tokens of graduated entries (and the
   * group that crosses it) stay too: `build()` may show them again.
   */
  spillable(options: { keep: number; maxSeq: number; keepEntryTokens?: number | undefined }): readonly ArchiveGroupItems[];
  /** Drops groups from memory once storage holds them; they become {@link SpilledGroup}s. */
  markSpilled(groups: readonly ArchiveGroupItems[]): void;
  /** Spilled groups whose items cover any seq of `range`. */
  spilledOverlapping(range: SequenceRange): readonly SpilledGroup[];
  /** The spilled group holding the summary, superseded fact or pin with this id. */
  spilledGroupOf(id: string): SpilledGroup | undefined;
}

/** Creates an {@link Archive}, empty or from its serialised items and spilled groups. */
export function createArchive(initial: readonly ArchivedItem[] = [], spilledInitial: readonly SpilledGroup[] = []): Archive {
  let list: ArchivedItem[] = [];
  const spilledGroups: SpilledGroup[] = [...spilledInitial];
  let spilledItems = spilledGroups.reduce((sum, group) => sum + group.count, 0);
  const spilledIds = new Map<string, SpilledGroup>();
  for (const group of spilledGroups) for (const id of group.ids) spilledIds.set(id, group);
  const entrySeqs = new Set<number>();
  const append = (items: readonly ArchivedItem[]): void => {
    for (const item of items) {
      list.push(item);
      if (item.type === 'entry') entrySeqs.add(item.entry.seq);
    }
  };
  append(initial);
  // Items are appended in event order, so `archivedAt` never decreases along the list.
  const firstAt = (seq: number): number => {
    let low = 0;
    let high = list.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((list[middle]?.archivedAt ?? 0) < seq) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  return {
    append,
    items: () => list,
    get size() {
      return spilledItems + list.length;
    },
    get memorySize() {
      return list.length;
    },
    spilled: () => spilledGroups,
    hasEntry: (seq) => entrySeqs.has(seq),
    group(seq) {
      const start = firstAt(seq);
      let end = start;
      while (end < list.length && list[end]?.archivedAt === seq) end += 1;
      return list.slice(start, end);
    },
    spillable({ keep, maxSeq, keepEntryTokens = 0 }) {
      // Items from `limit` on stay: the newest graduated entries up to keepEntryTokens, and the
      // item that crosses it (so its whole group).
      let limit = list.length;
      for (let tokens = 0; keepEntryTokens > 0 && limit > 0 && tokens <= keepEntryTokens; ) {
        limit -= 1;
        const item = list[limit] as ArchivedItem;
        if (item.type === 'entry' && item.reason === 'graduated') tokens += item.entry.tokens;
      }
      const groups: ArchiveGroupItems[] = [];
      let remaining = list.length;
      let index = 0;
      while (index < list.length) {
        const seq = (list[index] as ArchivedItem).archivedAt;
        if (seq > maxSeq) break;
        let end = index;
        while (end < list.length && list[end]?.archivedAt === seq) end += 1;
        if (remaining - (end - index) < keep || end > limit) break;
        groups.push({ seq, items: list.slice(index, end) });
        remaining -= end - index;
        index = end;
      }
      return groups;
    },
    markSpilled(groups) {
      let dropped = 0;
      for (const group of groups) {
        // Only the current head can leave: a group already gone (or replaced) is skipped.
        const head = list[dropped];
        if (head === undefined || head.archivedAt !== group.seq || group.items[0] !== head) break;
        const summary = describeGroup(group);
        spilledGroups.push(summary);
        for (const id of summary.ids) spilledIds.set(id, summary);
        for (const item of group.items) if (item.type === 'entry') entrySeqs.delete(item.entry.seq);
        spilledItems += group.items.length;
        dropped += group.items.length;
      }
      if (dropped > 0) list = list.slice(dropped);
    },
    spilledOverlapping: (range) => spilledGroups.filter((group) => group.from <= range.to && group.to >= range.from),
    spilledGroupOf: (id) => spilledIds.get(id),
  };
}

// --- Internal helpers ---

function describeGroup(group: ArchiveGroupItems): SpilledGroup {
  let from = Number.POSITIVE_INFINITY;
  let to = Number.NEGATIVE_INFINITY;
  const ids: string[] = [];
  for (const item of group.items) {
    const document = recallDocumentOf(item);
    from = Math.min(from, document.source.from);
    to = Math.max(to, document.source.to);
    if (item.type !== 'entry') ids.push(document.id);
  }
  return { seq: group.seq, count: group.items.length, from: Number.isFinite(from) ? from : group.seq, to: Number.isFinite(to) ? to : group.seq, ids };
}

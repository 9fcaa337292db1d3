import type { ArchivedItem } from '../types.js';

/** The append-only archive: everything that left the window, kept for recall. */
export interface Archive {
  /** Appends items; earlier items are never rewritten. */
  append(items: readonly ArchivedItem[]): void;
  /** All items, oldest first. */
  items(): readonly ArchivedItem[];
  /** Number of items. */
  readonly size: number;
  /** Whether an entry with this sequence number was archived. */
  hasEntry(seq: number): boolean;
}

/** Creates an empty {@link Archive}. */
export function createArchive(initial: readonly ArchivedItem[] = []): Archive {
  const list: ArchivedItem[] = [];
  const entrySeqs = new Set<number>();
  const append = (items: readonly ArchivedItem[]): void => {
    for (const item of items) {
      list.push(item);
      if (item.type === 'entry') entrySeqs.add(item.entry.seq);
    }
  };
  append(initial);
  return {
    append,
    items: () => list,
    get size() {
      return list.length;
    },
    hasEntry: (seq) => entrySeqs.has(seq),
  };
}

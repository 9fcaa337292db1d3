import { InvalidArgumentError, MobiusError, describeValue } from '../errors.js';
import type { ArchivedItem, Entry, SequenceRange } from '../types.js';
import type { ArchiveLoader } from './archive-reader.js';
import { readArchiveGroups } from './archive-reader.js';
import { recallDocumentOf } from './recall.js';
import type { TierStore } from './tier-store.js';

/**
 * Re-expands an item into the original entries it came from: a summary id (T1 or archived, down
 * through the summaries a consolidation merged), a fact key (current, or `fact:<key>@<seq>` from
 * recall), or an entry id `e<seq>`. Entries come from T0 and the archive, oldest first.
 * @throws {InvalidArgumentError} when no item has that id.
 * @throws {MobiusError} with code `ARCHIVE_SPILLED` when the answer needs archive groups that were
 * spilled to storage; {@link expandItemAsync} loads them.
 */
export function expandItem(options: { tiers: Pick<TierStore, 'entries' | 'summaries' | 'archive' | 'facts'>; id: string; method?: string | undefined }): readonly Entry[] {
  const { tiers, id } = options;
  const archive = tiers.archive;
  if (archive.spilled().length > 0) {
    const holder = archive.spilledGroupOf(id);
    const range = holder === undefined ? rangeOf({ tiers, id, items: archive.items() }) : undefined;
    const needed = holder !== undefined ? [holder] : range === undefined ? [] : archive.spilledOverlapping(range);
    if (needed.length > 0) {
      throw new MobiusError(
        'ARCHIVE_SPILLED',
        `${options.method ?? 'expand'}(): ${describeValue(id)} leads to archived items that were spilled to storage (the groups of events ${needed.slice(0, 5).map((group) => `#${group.seq}`).join(', ')}${needed.length > 5 ? ', …' : ''}). Use \`await manager.expandAsync(${JSON.stringify(id)})\`, which loads them.`,
      );
    }
  }
  return expandFrom({ tiers, id, items: archive.items(), method: options.method });
}

/**
 * {@link expandItem} for every id, spilled ones included: loads the spilled archive groups that
 * the item's sequence range touches (and the one holding the item), never the whole archive.
 * @throws {InvalidArgumentError} when no item has that id.
 */
export async function expandItemAsync(options: { tiers: Pick<TierStore, 'entries' | 'summaries' | 'archive' | 'facts'>; id: string; load: ArchiveLoader; method?: string | undefined }): Promise<readonly Entry[]> {
  const { tiers, id, load } = options;
  const archive = tiers.archive;
  const memory = archive.items();
  if (archive.spilled().length === 0) return expandFrom({ tiers, id, items: memory, method: options.method });
  const holder = archive.spilledGroupOf(id);
  let range = rangeOf({ tiers, id, items: memory });
  if (holder !== undefined) {
    const found = (await readArchiveGroups({ archive, load, seqs: [holder.seq] })).find((item) => recallDocumentOf(item).id === id);
    if (found !== undefined) range = recallDocumentOf(found).source;
  }
  const seqs = [...(holder === undefined ? [] : [holder.seq]), ...(range === undefined ? [] : archive.spilledOverlapping(range).map((group) => group.seq))];
  const spilled = await readArchiveGroups({ archive, load, seqs });
  const loaded = new Set(seqs);
  // Spilled groups are older than every in-memory one; a group spilled while loading is in both.
  return expandFrom({ tiers, id, items: [...spilled, ...memory.filter((item) => !loaded.has(item.archivedAt))], method: options.method });
}

// --- Internal helpers ---

// The sequence range whose entries an id stands for: every entry it expands to, and every
// summary linking them to it, lies inside it.
function rangeOf(options: { tiers: Pick<TierStore, 'summaries' | 'facts'>; id: string; items: readonly ArchivedItem[] }): SequenceRange | undefined {
  const { tiers, id, items } = options;
  const entryMatch = /^e(\d+)$/.exec(id);
  if (entryMatch !== null) return { from: Number(entryMatch[1]), to: Number(entryMatch[1]) };
  const summary = tiers.summaries().find((candidate) => candidate.id === id);
  if (summary !== undefined) return summary.source;
  const archived = items.find((item) => item.type !== 'entry' && recallDocumentOf(item).id === id);
  if (archived !== undefined) return recallDocumentOf(archived).source;
  const factKey = id.startsWith('fact:') ? id.slice(5).replace(/@\d+$/, '') : id;
  return tiers.facts.get(factKey)?.source;
}

function expandFrom(options: { tiers: Pick<TierStore, 'entries' | 'summaries' | 'facts'>; id: string; items: readonly ArchivedItem[]; method: string | undefined }): readonly Entry[] {
  const { tiers, id, items: archive } = options;
  const all = (): Entry[] => [...archive.flatMap((item) => (item.type === 'entry' ? [item.entry] : [])), ...tiers.entries()];
  const inRange = (range: SequenceRange): Entry[] =>
    all().filter((entry) => entry.seq >= range.from && entry.seq <= range.to).sort((a, b) => a.seq - b.seq);
  const entryMatch = /^e(\d+)$/.exec(id);
  if (entryMatch !== null) return inRange({ from: Number(entryMatch[1]), to: Number(entryMatch[1]) });
  const summaryIds = new Set([id]);
  const isSummary = tiers.summaries().some((summary) => summary.id === id) || archive.some((item) => item.type === 'summary' && item.summary.id === id);
  if (isSummary) {
    // A consolidated summary stands for the summaries it merged, and so on down to entries.
    for (let isGrowing = true; isGrowing; ) {
      isGrowing = false;
      for (const item of archive) {
        if (item.type === 'summary' && summaryIds.has(item.summaryId) && !summaryIds.has(item.summary.id)) {
          summaryIds.add(item.summary.id);
          isGrowing = true;
        }
      }
    }
    return archive.flatMap((item) => (item.type === 'entry' && summaryIds.has(item.summaryId) ? [item.entry] : [])).sort((a, b) => a.seq - b.seq);
  }
  const factKey = id.startsWith('fact:') ? id.slice(5).replace(/@\d+$/, '') : id;
  const archivedFact = archive.find((item) => item.type === 'fact' && `fact:${item.key}@${item.archivedAt}` === id);
  if (archivedFact?.type === 'fact') return inRange(archivedFact.source);
  const fact = tiers.facts.get(factKey);
  if (fact !== undefined) return inRange(fact.source);
  throw new InvalidArgumentError({
    parameter: 'itemId',
    value: id,
    message: `${options.method ?? 'expand'}(): no summary, fact or entry has id ${describeValue(id)}. Use an id from state().summaries, state().facts (its key), or recall().`,
  });
}

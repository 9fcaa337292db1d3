import { InvalidArgumentError, describeValue } from '../errors.js';
import type { Entry, SequenceRange } from '../types.js';
import type { TierStore } from './tier-store.js';

/**
 * Re-expands an item into the original entries it came from: a summary id (T1 or archived, down
 * through the summaries a consolidation merged), a fact key (current, or `fact:<key>@<seq>` from
 * recall), or an entry id `e<seq>`. Entries come from T0 and the archive, oldest first.
 * @throws {InvalidArgumentError} when no item has that id.
 */
export function expandItem(options: { tiers: Pick<TierStore, 'entries' | 'summaries' | 'archive' | 'facts'>; id: string; method?: string | undefined }): readonly Entry[] {
  const { tiers, id } = options;
  const archive = tiers.archive.items();
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

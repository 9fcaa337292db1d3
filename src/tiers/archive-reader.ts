import { CorruptStateError } from '../errors.js';
import type { ArchivedItem } from '../types.js';
import type { Archive, ArchiveGroupItems } from './archive.js';

/** Loads spilled archive groups from storage by the seq of the event that archived them. @internal */
export type ArchiveLoader = (seqs: readonly number[]) => Promise<readonly ArchiveGroupItems[]>;

/** Groups read from storage per call, so that reading the whole archive holds one batch at a time. */
export const ARCHIVE_READ_BATCH = 64;

/**
 * Returns the items of the given archive groups, oldest first: in-memory groups from the archive,
 * spilled ones through `load`.
 * @throws {CorruptStateError} when storage lacks a group the archive spilled.
 * @internal
 */
export async function readArchiveGroups(options: { archive: Archive; load: ArchiveLoader; seqs: readonly number[] }): Promise<readonly ArchivedItem[]> {
  const { archive, load } = options;
  const wanted = [...new Set(options.seqs)].sort((left, right) => left - right);
  // Decided at once: a group that spills while storage is read was already taken from memory.
  const fromMemory = new Map<number, readonly ArchivedItem[]>();
  const spilled = new Set(archive.spilled().map((group) => group.seq));
  const toLoad: number[] = [];
  for (const seq of wanted) {
    const items = archive.group(seq);
    if (items.length > 0) fromMemory.set(seq, items);
    else if (spilled.has(seq)) toLoad.push(seq);
  }
  const loaded = new Map<number, readonly ArchivedItem[]>();
  for (let start = 0; start < toLoad.length; start += ARCHIVE_READ_BATCH) {
    const batch = toLoad.slice(start, start + ARCHIVE_READ_BATCH);
    for (const group of await load(batch)) loaded.set(group.seq, group.items);
    const missing = batch.find((seq) => !loaded.has(seq));
    if (missing !== undefined) {
      throw new CorruptStateError({
        message: `the archive group of event #${missing} was spilled to storage, but storage does not hold it. Roll back to an earlier version (listVersions()) or restore the storage from a backup.`,
      });
    }
  }
  return wanted.flatMap((seq) => fromMemory.get(seq) ?? loaded.get(seq) ?? []);
}

/**
 * Calls `visit` with every archived item, oldest first, reading spilled groups in batches so that
 * only one batch is held at a time.
 * @internal
 */
export async function forEachArchived(options: { archive: Archive; load: ArchiveLoader; visit: (items: readonly ArchivedItem[]) => void }): Promise<void> {
  const { archive, load, visit } = options;
  const memory = archive.items();
  const seqs = archive.spilled().map((group) => group.seq);
  for (let start = 0; start < seqs.length; start += ARCHIVE_READ_BATCH) {
    visit(await readArchiveGroups({ archive, load, seqs: seqs.slice(start, start + ARCHIVE_READ_BATCH) }));
  }
  // The in-memory tail as it was at the start: groups spilled meanwhile were read above or are in it.
  const lastSpilled = seqs[seqs.length - 1] ?? 0;
  visit(memory.filter((item) => item.archivedAt > lastSpilled));
}

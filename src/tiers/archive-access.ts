import type { RecallOptions } from '../context-manager-inputs.js';
import type { ArchivedItem } from '../types.js';
import type { ArchiveLoader } from './archive-reader.js';
import { forEachArchived } from './archive-reader.js';
import type { RecallHit } from './recall.js';
import { renderRecap } from './recap.js';
import type { TierStore } from './tier-store.js';

/**
 * Returns every archived item, oldest first, reading spilled groups back through `load`.
 * @internal
 */
export async function readWholeArchive(options: { tiers: Pick<TierStore, 'archive'>; load: ArchiveLoader }): Promise<readonly ArchivedItem[]> {
  const items: ArchivedItem[] = [];
  await forEachArchived({ archive: options.tiers.archive, load: options.load, visit: (batch) => items.push(...batch) });
  return items;
}

/**
 * Renders a session recap (see `renderRecap`); a `{ topic }` recap asks `recall` for at most 8
 * hits within 3,000 tokens.
 * @internal
 */
export async function recapSession(options: {
  level: 'brief' | 'full' | { readonly topic: string };
  tiers: Parameters<typeof renderRecap>[0]['tiers'];
  factsBudget: number;
  load: ArchiveLoader;
  recall: (query: string, options: RecallOptions) => Promise<readonly RecallHit[]>;
}): Promise<string> {
  const { recall, ...rest } = options;
  const search = (topic: string): Promise<readonly RecallHit[]> => recall(topic, { limit: 8, maxTokens: 3_000 });
  return renderRecap({ ...rest, search });
}

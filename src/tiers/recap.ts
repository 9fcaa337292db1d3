import { renderSummary } from '../session-view.js';
import type { Summary } from '../types.js';
import type { ArchiveLoader } from './archive-reader.js';
import { forEachArchived } from './archive-reader.js';
import type { RecallHit } from './recall.js';
import type { TierStore } from './tier-store.js';

/**
 * Renders a recap of a session as text: `'brief'` (tasks and facts), `'full'` (plus every
 * summary, archived ones included — spilled ones read from storage — oldest first) or `{ topic }`
 * (what `search` finds on it).
 */
export async function renderRecap(options: {
  level: 'brief' | 'full' | { readonly topic: string };
  tiers: Pick<TierStore, 'facts' | 'summaries' | 'archive'>;
  factsBudget: number;
  search: (topic: string) => Promise<readonly RecallHit[]>;
  /** Reads spilled archive groups; `'full'` reads every one, a batch at a time, keeping only summaries. */
  load: ArchiveLoader;
}): Promise<string> {
  const { level, tiers } = options;
  if (typeof level === 'object') {
    const hits = await options.search(level.topic);
    if (hits.length === 0) return `Nothing in the archive about "${level.topic}".`;
    return [`Recap on "${level.topic}":`, ...hits.map((hit) => `- [#${hit.source.from}–${hit.source.to}] ${hit.text}`)].join('\n');
  }
  const facts = tiers.facts.render({ maxTokens: options.factsBudget }).text;
  const parts = ['Recap (brief):', facts.length > 0 ? facts : '(no facts or tasks yet)'];
  if (level === 'full') {
    const archived: Summary[] = [];
    await forEachArchived({ archive: tiers.archive, load: options.load, visit: (items) => archived.push(...items.flatMap((item) => (item.type === 'summary' ? [item.summary] : []))) });
    const summaries = [...archived, ...tiers.summaries()].sort((a, b) => a.source.from - b.source.from || a.level - b.level);
    parts[0] = 'Recap (full):';
    for (const summary of summaries) parts.push(renderSummary(summary));
  }
  return parts.join('\n\n');
}

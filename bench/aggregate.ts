// Pools the per-session measurements into the numbers the report leads with.
import type { CheckpointResult, SessionResult } from './run-session.js';
import { AGE_BUCKETS } from './scoring.js';
import { share, summarizeSamples } from './statistics.js';
import type { SampleSummary, Share } from './statistics.js';

/** A strategy as it appears in the report. */
export interface StrategyInfo {
  /** Key in the per-session results. */
  readonly name: string;
  /** Human-readable name. */
  readonly label: string;
  /** Whether it is held to the 28K budget (the equal-budget comparison). */
  readonly isHeldToBudget: boolean;
  /** One line on what it does. */
  readonly description: string;
  /** Chart colour. */
  readonly color: string;
}

/** Every strategy, equal-budget ones first. */
export const STRATEGIES: readonly StrategyInfo[] = [
  { name: 'mobius', label: 'Mobius', isHeldToBudget: true, color: '#6d28d9', description: 'ContextManager with the extractive summarizer and default budgets (28K total).' },
  { name: 'sliding-window', label: 'Sliding window', isHeldToBudget: true, color: '#0891b2', description: 'The newest messages that fit 28K (tool calls kept with their results). Also what naive becomes when held to 28K.' },
  { name: 'tool-pruning-28k', label: 'Tool pruning, 28K', isHeldToBudget: true, color: '#d97706', description: 'Tool calls and results before the last 2 messages dropped, prose kept; then the newest that fit 28K.' },
  { name: 'compaction-28k', label: 'Compaction, 28K', isHeldToBudget: true, color: '#dc2626', description: 'Verbatim until 28K, then everything replaced by one ~2K extractive summary (summary + facts).' },
  { name: 'naive', label: 'Naive', isHeldToBudget: false, color: '#64748b', description: 'The full history verbatim: every file read in full each time, edits as full before/after, all outputs.' },
  { name: 'tool-pruning', label: 'Tool pruning', isHeldToBudget: false, color: '#f59e0b', description: 'pruneMessages({ toolCalls: "before-last-2-messages" }) without a budget.' },
  { name: 'compaction-160k', label: 'Compaction, 160K', isHeldToBudget: false, color: '#f87171', description: 'Claude-Code-style: verbatim until 160K, then one ~2K extractive summary.' },
];

/** Probe categories whose retention target is ≥ 95% at every age. */
export const KEY_CATEGORIES: readonly string[] = ['decision', 'constraint', 'convention', 'preference', 'error_resolution'];

/** All probe categories, in report order. */
export const CATEGORIES: readonly string[] = [...KEY_CATEGORIES, 'requirement', 'routine'];

/** Budget use is read at checkpoints from this minute on (the "after the first 30 minutes"). */
export const BUDGET_USE_FROM_MINUTE = 30;

/**
 * Window tokens ÷ budget over the checkpoints from {@link BUDGET_USE_FROM_MINUTE} on; where the whole
 * history (naive) is smaller than the budget, ÷ the history instead: that is all there is to fill.
 */
export interface BudgetUse {
  /** Checkpoints measured. */
  readonly checkpoints: number;
  /** Smallest share of the budget used (0 when nothing was measured). */
  readonly min: number;
  /** Median share of the budget used. */
  readonly median: number;
}

/** Tokens of each strategy at the checkpoint nearest 60 minutes of one session. */
export interface TokensAt {
  /** Session name. */
  readonly session: string;
  /** Minute of the checkpoint used. */
  readonly minute: number;
  /** Tokens by strategy. */
  readonly tokens: Readonly<Record<string, number>>;
  /** Naive ÷ Mobius. */
  readonly naiveRatio: number;
}

/** One strategy's pooled results. */
export interface StrategySummary {
  /** Retention over all probes of all checkpoints. */
  readonly retention: Share;
  /** Retention of the key categories (decisions, constraints, conventions, preferences, error resolutions). */
  readonly keyRetention: Share;
  /** Retention by category. */
  readonly byCategory: Readonly<Record<string, Share>>;
  /** Retention by age bucket (label → share), all categories. */
  readonly byAge: Readonly<Record<string, Share>>;
  /** Retention of the key categories by age bucket. */
  readonly keyByAge: Readonly<Record<string, Share>>;
  /** Updates whose newest value is present and not shadowed by an older one. */
  readonly newestWins: Share;
  /** Updates where only an older value is present (stale-only). */
  readonly stale: Share;
  /** How much of the budget the window fills after the first 30 minutes. */
  readonly budgetUse: BudgetUse;
  /** Recently touched files present with their exact content. */
  readonly fileState: Share;
  /** Largest window seen at a checkpoint. */
  readonly maxTokens: number;
  /** Prompt-cache prefix reuse, token-weighted over all model calls of all sessions. */
  readonly cacheReuse: number;
  /** Σ tokens sent over all model calls of all sessions. */
  readonly sentTokens: number;
  /** Σ tokens sent if shared-prefix tokens cost 10% (a typical cached-input price). */
  readonly sentTokensCached: number;
  /** Where the shared prefix of consecutive windows ended, by number of calls. */
  readonly cacheBreaks: Readonly<Record<string, number>>;
}

/** Summarizer cost of one strategy, pooled over sessions. */
export interface PooledSummarizerCost {
  /** Calls of any mode. */
  calls: number;
  /** Tokens sent to the summarizer. */
  inputTokens: number;
  /** Tokens that left the verbatim tier. */
  graduatedTokens: number;
  /** `inputTokens ÷ graduatedTokens`. */
  inputRatio: number;
  /** Wall-clock milliseconds inside the summarizer. */
  milliseconds: number;
}

/** The pooled results of a run. */
export interface Aggregate {
  /** By strategy name. */
  readonly strategies: Readonly<Record<string, StrategySummary>>;
  /** Tokens at 60 minutes, per session that lasts that long. */
  readonly tokensAt60: readonly TokensAt[];
  /** Mobius build() latency over all model calls of all sessions (ms). */
  readonly latency: SampleSummary;
  /** Summarizer cost by strategy, pooled over sessions. */
  readonly summarizer: Readonly<Record<string, PooledSummarizerCost>>;
  /** Mobius builds over budget (recounted at checkpoints, reported at every call). */
  readonly budgetViolations: number;
}

/** Pools the session results; `budget` is what budget use is measured against. */
export function aggregate(sessions: readonly SessionResult[], options: { budget: number }): Aggregate {
  const strategies: Record<string, StrategySummary> = {};
  for (const strategy of STRATEGIES) strategies[strategy.name] = summarizeStrategy(sessions, strategy.name, options.budget);
  const summarizer: Record<string, PooledSummarizerCost> = {};
  for (const session of sessions) {
    for (const [name, cost] of Object.entries(session.summarizer)) {
      const pooled = summarizer[name] ?? { calls: 0, inputTokens: 0, graduatedTokens: 0, inputRatio: 0, milliseconds: 0 };
      pooled.calls += cost.calls;
      pooled.inputTokens += cost.inputTokens;
      pooled.graduatedTokens += cost.graduatedTokens;
      pooled.milliseconds += cost.milliseconds;
      pooled.inputRatio = pooled.graduatedTokens === 0 ? 0 : pooled.inputTokens / pooled.graduatedTokens;
      summarizer[name] = pooled;
    }
  }
  return {
    strategies,
    tokensAt60: sessions.flatMap((session) => tokensAt(session, 60)),
    latency: summarizeSamples(sessions.flatMap((session) => session.latencySamples)),
    summarizer,
    budgetViolations: sessions.reduce((sum, session) => sum + session.budgetViolations, 0),
  };
}

/** The checkpoint nearest `minute` (within 5 minutes), if the session lasts that long. */
export function checkpointNear(session: { readonly checkpoints: readonly CheckpointResult[] }, minute: number): CheckpointResult | undefined {
  let best: CheckpointResult | undefined;
  for (const checkpoint of session.checkpoints) {
    const distance = Math.abs(checkpoint.minute - minute);
    if (distance <= 5 && (best === undefined || distance < Math.abs(best.minute - minute))) best = checkpoint;
  }
  return best;
}

/** Says where consecutive windows stopped sharing a prefix, e.g. "only appended at 71% of calls; …". */
export function describeCacheBreaks(breaks: Readonly<Record<string, number>>): string {
  const calls = Object.values(breaks).reduce((sum, count) => sum + count, 0);
  if (calls === 0) return 'no consecutive calls';
  const percent = (count: number): string => `${Math.round((count / calls) * 100)}%`;
  const others = Object.entries(breaks)
    .filter(([where]) => where !== 'appended')
    .sort((a, b) => b[1] - a[1])
    .map(([where, count]) => `${where} ${percent(count)}`);
  return `the window only grew at ${percent(breaks['appended'] ?? 0)} of calls; otherwise the shared prefix ended in: ${others.join(', ')}`;
}

/** Returns the age bucket label of an age in minutes. */
export function ageBucket(age: number): string {
  const bucket = AGE_BUCKETS.find((candidate) => age >= candidate.from && age < candidate.to);
  return (bucket ?? AGE_BUCKETS[AGE_BUCKETS.length - 1])?.label ?? '';
}

// --- Internal helpers ---

function tokensAt(session: SessionResult, minute: number): TokensAt[] {
  const checkpoint = checkpointNear(session, minute);
  if (checkpoint === undefined) return [];
  const tokens: Record<string, number> = {};
  for (const [name, result] of Object.entries(checkpoint.strategies)) tokens[name] = result.tokens;
  const mobius = tokens['mobius'] ?? 0;
  return [{ session: session.name, minute: checkpoint.minute, tokens, naiveRatio: mobius === 0 ? 0 : (tokens['naive'] ?? 0) / mobius }];
}

function summarizeStrategy(sessions: readonly SessionResult[], name: string, budget: number): StrategySummary {
  const counts: Record<'retention' | 'key' | 'newest' | 'stale' | 'files', [number, number]> = {
    retention: [0, 0],
    key: [0, 0],
    newest: [0, 0],
    stale: [0, 0],
    files: [0, 0],
  };
  const byCategory = new Map<string, [number, number]>();
  const byAge = new Map<string, [number, number]>();
  const keyByAge = new Map<string, [number, number]>();
  const bump = (map: Map<string, [number, number]>, key: string, isHit: boolean): void => {
    const entry = map.get(key) ?? [0, 0];
    entry[0] += isHit ? 1 : 0;
    entry[1] += 1;
    map.set(key, entry);
  };
  let maxTokens = 0;
  const budgetShares: number[] = [];
  let sent = 0;
  let sentCached = 0;
  let shared = 0;
  let compared = 0;
  const cacheBreaks: Record<string, number> = {};
  for (const session of sessions) {
    for (const checkpoint of session.checkpoints) {
      const result = checkpoint.strategies[name];
      if (result === undefined) continue;
      maxTokens = Math.max(maxTokens, result.tokens);
      const fillable = Math.min(budget, checkpoint.naiveTokens);
      if (checkpoint.minute >= BUDGET_USE_FROM_MINUTE && fillable > 0) budgetShares.push(result.tokens / fillable);
      counts.files[0] += result.fileState.present;
      counts.files[1] += result.fileState.checked;
      for (const probe of result.probes ?? []) {
        const isKey = KEY_CATEGORIES.includes(probe.category);
        counts.retention[0] += probe.isRetained ? 1 : 0;
        counts.retention[1] += 1;
        if (isKey) {
          counts.key[0] += probe.isRetained ? 1 : 0;
          counts.key[1] += 1;
          bump(keyByAge, ageBucket(probe.age), probe.isRetained);
        }
        bump(byCategory, probe.category, probe.isRetained);
        bump(byAge, ageBucket(probe.age), probe.isRetained);
        if (probe.isNewestWinning !== undefined) {
          counts.newest[0] += probe.isNewestWinning ? 1 : 0;
          counts.newest[1] += 1;
          counts.stale[0] += probe.isStale === true ? 1 : 0;
          counts.stale[1] += 1;
        }
      }
    }
    const cache = session.cache[name];
    if (cache !== undefined) {
      sent += cache.sentTokens;
      shared += cache.sharedTokens;
      compared += cache.comparedTokens;
      sentCached += cache.sentTokens - 0.9 * cache.sharedTokens;
      for (const [where, count] of Object.entries(cache.breaks)) cacheBreaks[where] = (cacheBreaks[where] ?? 0) + count;
    }
  }
  const toShares = (map: Map<string, [number, number]>): Record<string, Share> => {
    const result: Record<string, Share> = {};
    for (const [key, [hits, total]] of map) result[key] = share(hits, total);
    return result;
  };
  return {
    retention: share(counts.retention[0], counts.retention[1]),
    keyRetention: share(counts.key[0], counts.key[1]),
    byCategory: toShares(byCategory),
    byAge: toShares(byAge),
    keyByAge: toShares(keyByAge),
    newestWins: share(counts.newest[0], counts.newest[1]),
    stale: share(counts.stale[0], counts.stale[1]),
    budgetUse: budgetUseOf(budgetShares),
    fileState: share(counts.files[0], counts.files[1]),
    maxTokens,
    cacheReuse: compared === 0 ? 0 : shared / compared,
    sentTokens: sent,
    sentTokensCached: Math.round(sentCached),
    cacheBreaks,
  };
}

function budgetUseOf(shares: readonly number[]): BudgetUse {
  if (shares.length === 0) return { checkpoints: 0, min: 0, median: 0 };
  const sorted = [...shares].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
  return { checkpoints: sorted.length, min: sorted[0] ?? 0, median };
}

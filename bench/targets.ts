// The targets of the benchmark issue, read against a run's numbers. Reported, never asserted.
import { CATEGORIES } from './aggregate.js';
import { formatInteger, formatMilliseconds, formatPercent } from './format.js';
import { LATENCY_COPIES, latencyGrowth } from './performance.js';
import type { BenchResults, SetResult } from './results.js';
import { AGE_BUCKETS } from './scoring.js';

/** One target with what was measured. */
export interface TargetCheck {
  /** The target as the issue states it. */
  readonly target: string;
  /** What this run measured. */
  readonly measured: string;
  /** Whether it is met; `undefined` when the run could not measure it. */
  readonly isMet: boolean | undefined;
}

/** Reads the run against each target. */
export function checkTargets(results: BenchResults): TargetCheck[] {
  const { aggregate, performance, settings } = results;
  const mobius = aggregate.strategies['mobius'];
  const checks: TargetCheck[] = [];

  checks.push({
    target: `Budget never exceeded (${formatInteger(settings.budget)})`,
    measured: `largest window ${formatInteger(mobius?.maxTokens ?? 0)}; ${aggregate.budgetViolations} builds over budget`,
    isMet: aggregate.budgetViolations === 0 && (mobius?.maxTokens ?? 0) <= settings.budget,
  });

  const synthAt60 = aggregate.tokensAt60.filter((entry) => results.sessions.find((session) => session.name === entry.session)?.kind === 'synth');
  const ratios = synthAt60.map((entry) => entry.naiveRatio);
  checks.push({
    target: '≥ 10× fewer tokens than naive at 60 min (file-heavy sessions)',
    measured: ratios.length === 0 ? 'no session reaches 60 min' : `${ratios.map((ratio) => `${ratio.toFixed(1)}×`).join(', ')} (synthetic sessions)`,
    isMet: ratios.length === 0 ? undefined : ratios.every((ratio) => ratio >= 10),
  });

  for (const set of results.sets) checks.push(...setTargets(set));

  const lengths = performance.latencyByLength.filter((entry) => LATENCY_COPIES.includes(entry.copies));
  const growth = latencyGrowth(performance.latencyByLength);
  const alone = performance.latency;
  checks.push({
    target: 'build() p99 ≤ 1 ms for a ~30K window',
    measured: `Mobius alone: p50 ${formatMilliseconds(alone.p50)}, p99 ${formatMilliseconds(alone.p99)} over ${formatInteger(alone.count)} builds (side by side with the baselines: p99 ${formatMilliseconds(aggregate.latency.p99)}); a repeated build with nothing new: p99 ${formatMilliseconds(performance.repeatLatency.p99)}`,
    isMet: alone.count === 0 ? undefined : alone.p99 <= 1,
  });
  checks.push({
    target: 'build() flat in session length',
    measured: `${lengths.map((entry) => `${entry.copies}×: p50 ${formatMilliseconds(entry.latency.p50)} / p99 ${formatMilliseconds(entry.latency.p99)}`).join('; ')}${growth === undefined ? '' : `; median p50 of copies 13–16 ÷ 1–4 = ${growth.ratio.toFixed(2)}`}`,
    isMet: growth === undefined ? undefined : growth.ratio <= 1.5,
  });

  const cost = aggregate.summarizer['mobius'];
  const worst = worstSummarizerSession(results);
  checks.push({
    target: 'Summarizer input ≤ 1.3× tokens graduated, on every session',
    measured:
      cost === undefined || cost.graduatedTokens === 0
        ? 'nothing graduated'
        : `pooled ${cost.inputRatio.toFixed(2)}× (${formatInteger(cost.inputTokens)} in / ${formatInteger(cost.graduatedTokens)} graduated, ${cost.calls} calls)${worst === undefined ? '' : `; highest session ${worst.ratio.toFixed(2)}× (${worst.name})`}`,
    isMet: cost === undefined || cost.graduatedTokens === 0 ? undefined : cost.inputRatio <= 1.3 && (worst === undefined || worst.ratio <= 1.3),
  });

  checks.push({
    target: 'Prompt-cache prefix reuse ≥ 80%',
    measured: `${formatPercent(mobius?.cacheReuse ?? 0)} of tokens, over every model call`,
    isMet: mobius === undefined ? undefined : mobius.cacheReuse >= 0.8,
  });
  return checks;
}

// The session whose summarizer input ÷ graduated tokens is highest, among those that graduated.
function worstSummarizerSession(results: BenchResults): { name: string; ratio: number } | undefined {
  let worst: { name: string; ratio: number } | undefined;
  for (const session of results.sessions) {
    const cost = session.summarizer['mobius'];
    if (cost === undefined || cost.graduatedTokens === 0) continue;
    if (worst === undefined || cost.inputRatio > worst.ratio) worst = { name: session.name, ratio: cost.inputRatio };
  }
  return worst;
}

/** Retention at or above which a set, a category or an age bucket meets the target. */
export const RETENTION_TARGET = 0.95;

/** Stale-only share at or below which a set meets the target. */
export const STALE_TARGET = 0.02;

/** Share of the budget the window must fill at every checkpoint after the first 30 minutes. */
export const BUDGET_FILL_TARGET = 0.85;

// The issue's targets for one set, read for Mobius: retention (overall, per category and per age
// up to 4 h for synthetic sets; overall for real transcripts), stale-only, budget fill, file state.
function setTargets(set: SetResult): TargetCheck[] {
  const mobius = set.aggregate.strategies['mobius'];
  if (mobius === undefined) return [];
  const checks: TargetCheck[] = [];
  const prefix = `[${set.name}]`;
  const retention = mobius.retention;
  if (set.retentionTarget === 'every-category-and-age') {
    const categories = CATEGORIES.map((category) => ({ category, share: mobius.byCategory[category] })).filter((entry) => (entry.share?.total ?? 0) > 0);
    const below = categories.filter((entry) => (entry.share?.share ?? 0) < RETENTION_TARGET);
    checks.push({
      target: `${prefix} Retention ≥ 95% overall and in every category`,
      measured: retention.total === 0 ? 'no probes' : `overall ${formatPercent(retention.share)}; ${below.length === 0 ? 'every category ≥ 95%' : `below: ${below.map((entry) => `${entry.category.replace('_', ' ')} ${formatPercent(entry.share?.share ?? 0)}`).join(', ')}`}`,
      isMet: retention.total === 0 ? undefined : retention.share >= RETENTION_TARGET && below.length === 0,
    });
    const ages = AGE_BUCKETS.filter((bucket) => bucket.from < 240).map((bucket) => ({ label: bucket.label, share: mobius.byAge[bucket.label] })).filter((entry) => (entry.share?.total ?? 0) > 0);
    checks.push({
      target: `${prefix} Retention ≥ 95% at every age up to 4 h`,
      measured: ages.length === 0 ? 'no probes' : ages.map((entry) => `${entry.label}: ${formatPercent(entry.share?.share ?? 0)}`).join(', '),
      isMet: ages.length === 0 ? undefined : ages.every((entry) => (entry.share?.share ?? 0) >= RETENTION_TARGET),
    });
  } else {
    checks.push({
      target: `${prefix} Retention ≥ 95%`,
      measured: retention.total === 0 ? 'no probes' : `${formatPercent(retention.share)} (${retention.hits}/${retention.total})`,
      isMet: retention.total === 0 ? undefined : retention.share >= RETENTION_TARGET,
    });
  }
  const stale = mobius.stale;
  checks.push({
    target: `${prefix} Stale-only ≤ 2% on superseded facts`,
    measured: stale.total === 0 ? 'no updates probed' : `${formatPercent(stale.share)} (${stale.hits}/${stale.total}); newest wins ${formatPercent(mobius.newestWins.share)}`,
    isMet: stale.total === 0 ? undefined : stale.share <= STALE_TARGET,
  });
  const budget = mobius.budgetUse;
  checks.push({
    target: `${prefix} Window ≥ 85% of the budget at every checkpoint after 30 min`,
    measured: budget.checkpoints === 0 ? 'no checkpoint after 30 min' : `smallest ${formatPercent(budget.min)}, median ${formatPercent(budget.median)} over ${budget.checkpoints} checkpoints`,
    isMet: budget.checkpoints === 0 ? undefined : budget.min >= BUDGET_FILL_TARGET,
  });
  const files = mobius.fileState;
  checks.push({
    target: `${prefix} File state 100% (files touched in the last 10 events, exact content)`,
    measured: files.total === 0 ? 'nothing to check' : `${formatPercent(files.share)} (${files.hits}/${files.total})`,
    isMet: files.total === 0 ? undefined : files.hits === files.total,
  });
  return checks;
}

// The targets of the benchmark issue, read against a run's numbers. Reported, never asserted.
import { formatInteger, formatMilliseconds, formatPercent } from './format.js';
import { LATENCY_COPIES, latencyGrowth } from './performance.js';
import type { BenchResults } from './results.js';
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

  const keyByAge = AGE_BUCKETS.map((bucket) => ({ label: bucket.label, share: mobius?.keyByAge[bucket.label] }));
  const measuredAges = keyByAge.filter((bucket) => bucket.share !== undefined && bucket.share.total > 0);
  checks.push({
    target: 'Decisions, constraints, conventions, preferences, error resolutions retained ≥ 95% at every age',
    measured: measuredAges.length === 0 ? 'no probes' : measuredAges.map((bucket) => `${bucket.label}: ${formatPercent(bucket.share?.share ?? 0)}`).join(', '),
    isMet: measuredAges.length === 0 ? undefined : measuredAges.every((bucket) => (bucket.share?.share ?? 0) >= 0.95),
  });

  const newest = mobius?.newestWins;
  checks.push({
    target: 'Newest wins 100% (updated facts)',
    measured: newest === undefined || newest.total === 0 ? 'no updates probed' : `${formatPercent(newest.share)} (${newest.hits}/${newest.total}); stale only: ${mobius?.stale.hits ?? 0}`,
    isMet: newest === undefined || newest.total === 0 ? undefined : newest.hits === newest.total,
  });

  const files = mobius?.fileState;
  checks.push({
    target: 'File state 100% (files touched in the last 10 events, exact content)',
    measured: files === undefined || files.total === 0 ? 'nothing to check' : `${formatPercent(files.share)} (${files.hits}/${files.total})`,
    isMet: files === undefined || files.total === 0 ? undefined : files.hits === files.total,
  });

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
  checks.push({
    target: 'Summarizer input ≤ 1.3× tokens graduated',
    measured: cost === undefined || cost.graduatedTokens === 0 ? 'nothing graduated' : `${cost.inputRatio.toFixed(2)}× (${formatInteger(cost.inputTokens)} in / ${formatInteger(cost.graduatedTokens)} graduated, ${cost.calls} calls)`,
    isMet: cost === undefined || cost.graduatedTokens === 0 ? undefined : cost.inputRatio <= 1.3,
  });

  checks.push({
    target: 'Prompt-cache prefix reuse ≥ 80%',
    measured: `${formatPercent(mobius?.cacheReuse ?? 0)} of tokens, over every model call`,
    isMet: mobius === undefined ? undefined : mobius.cacheReuse >= 0.8,
  });
  return checks;
}

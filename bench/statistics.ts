// Small statistics helpers for the benchmark: percentiles and shares.

/** Percentiles of a set of samples. */
export interface SampleSummary {
  /** Number of samples. */
  readonly count: number;
  /** Median. */
  readonly p50: number;
  /** 90th percentile. */
  readonly p90: number;
  /** 99th percentile. */
  readonly p99: number;
  /** Largest sample. */
  readonly max: number;
  /** Arithmetic mean. */
  readonly mean: number;
}

/** Summarises samples with nearest-rank percentiles; all zero when there are none. */
export function summarizeSamples(samples: readonly number[]): SampleSummary {
  if (samples.length === 0) return { count: 0, p50: 0, p90: 0, p99: 0, max: 0, mean: 0 };
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = (quantile: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(quantile * sorted.length) - 1))] ?? 0;
  const sum = sorted.reduce((total, value) => total + value, 0);
  return { count: sorted.length, p50: rank(0.5), p90: rank(0.9), p99: rank(0.99), max: sorted[sorted.length - 1] ?? 0, mean: sum / sorted.length };
}

/** A count of successes out of a total, with its share (0 when the total is 0). */
export interface Share {
  /** Successes. */
  readonly hits: number;
  /** Trials. */
  readonly total: number;
  /** `hits ÷ total`. */
  readonly share: number;
}

/** Returns `{ hits, total, share }`. */
export function share(hits: number, total: number): Share {
  return { hits, total, share: total === 0 ? 0 : hits / total };
}

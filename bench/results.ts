// The shape of bench-results/results.json.
import type { Aggregate, StrategyInfo } from './aggregate.js';
import type { PerformanceResult } from './performance.js';
import type { SessionResult } from './run-session.js';

/** Everything a benchmark run measured; written to `bench-results/results.json`. */
export interface BenchResults {
  /** Bumped when the shape changes. */
  readonly formatVersion: 1;
  /** When the run finished (ISO-8601). */
  readonly generatedAt: string;
  /** Where it ran. */
  readonly environment: {
    readonly node: string;
    readonly platform: string;
    readonly arch: string;
    readonly cpu: string;
    readonly cpus: number;
  };
  /** The parameters of the run. */
  readonly settings: {
    /** Budget of Mobius and of the equal-budget baselines. */
    readonly budget: number;
    /** Window size at which the Claude-Code-style compaction fires. */
    readonly compactionThreshold: number;
    /** Target size of a compaction summary. */
    readonly compactionSummaryTokens: number;
    /** Messages tool-call pruning keeps whole at the end. */
    readonly pruneKeepLastMessages: number;
    /** Minutes between the checkpoints of real sessions. */
    readonly checkpointIntervalMinutes: number;
    /** Idle gaps of real sessions count as at most this many minutes. */
    readonly maxGapMinutes: number;
    /** Files touched in this many latest events are checked for exact content. */
    readonly fileStateEvents: number;
    /** Tokenizer used for every count. */
    readonly tokenizer: string;
  };
  /** The strategies compared. */
  readonly strategies: readonly StrategyInfo[];
  /** Per-session results (latency samples left out). */
  readonly sessions: readonly Omit<SessionResult, 'latencySamples'>[];
  /** Pooled results. */
  readonly aggregate: Aggregate;
  /** Mobius speed and memory. */
  readonly performance: PerformanceResult;
  /** Wall-clock seconds of the whole run. */
  readonly wallSeconds: number;
}

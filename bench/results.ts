// The shape of bench-results/results.json.
import type { Aggregate, StrategyInfo } from './aggregate.js';
import type { RetentionTarget } from './bench-sets.js';
import type { PerformanceResult } from './performance.js';
import type { SessionResult } from './run-session.js';

/** One set of sessions and its pooled results. */
export interface SetResult {
  /** Short key, e.g. `synth-c`. */
  readonly name: string;
  /** Human-readable name. */
  readonly label: string;
  /** Where the set comes from. */
  readonly description: string;
  /** Which retention targets apply to it. */
  readonly retentionTarget: RetentionTarget;
  /** Names of its sessions (entries of `sessions`). */
  readonly sessions: readonly string[];
  /** Probes of all its sessions (each scored at every later checkpoint). */
  readonly probes: number;
  /** Its sessions pooled. */
  readonly aggregate: Aggregate;
}

/** Everything a benchmark run measured; written to `bench-results/results.json`. */
export interface BenchResults {
  /** Bumped when the shape changes (2: per-set results, budget use, age buckets to 4 h). */
  readonly formatVersion: 2;
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
  /** The sets, in report order; each session belongs to exactly one. */
  readonly sets: readonly SetResult[];
  /** Default sets that were not found (e.g. the validation set outside the repository). */
  readonly missingSets: readonly string[];
  /** All sessions pooled (speed, cost and budget; retention is read per set). */
  readonly aggregate: Aggregate;
  /** Mobius speed and memory. */
  readonly performance: PerformanceResult;
  /** Wall-clock seconds of the whole run. */
  readonly wallSeconds: number;
}

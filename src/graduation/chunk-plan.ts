import type { BoundaryScore } from '../boundaries/boundary-detector.js';
import type { Entry } from '../types.js';

/** Where to cut T0: the oldest `count` entries graduate. */
export interface ChunkPlan {
  /** Number of oldest entries in the chunk. */
  readonly count: number;
  /** Tokens the chunk frees. */
  readonly tokens: number;
  /** The boundary after the chunk's last entry. */
  readonly boundary: BoundaryScore;
}

/**
 * Chooses the chunk of oldest T0 entries to graduate: the strongest allowed boundary among the
 * cuts that free at least `targetTokens` and at most `maxOvershoot` times that (default 1.25: a
 * larger chunk leaves T0, and the window, emptier until it fills again), the smallest chunk on ties.
 * When no such cut exists, the first allowed cut past the target. Never cuts at a forbidden gap
 * and always leaves the newest entry in T0. Returns `undefined` when no allowed cut exists.
 */
export function planChunk(options: {
  entries: readonly Entry[];
  scores: readonly BoundaryScore[];
  targetTokens: number;
  maxOvershoot?: number | undefined;
}): ChunkPlan | undefined {
  const { entries, scores, targetTokens } = options;
  const maxOvershoot = options.maxOvershoot ?? DEFAULT_MAX_OVERSHOOT;
  let cumulative = 0;
  let best: ChunkPlan | undefined;
  let firstBeyond: ChunkPlan | undefined;
  for (let index = 0; index < entries.length - 1; index += 1) {
    cumulative += entries[index]?.tokens ?? 0;
    const boundary = scores[index];
    if (boundary === undefined || boundary.strength === 'forbidden') continue;
    if (cumulative < targetTokens) continue;
    const plan: ChunkPlan = { count: index + 1, tokens: cumulative, boundary };
    if (cumulative <= targetTokens * maxOvershoot) {
      if (best === undefined || STRENGTH_RANK[boundary.strength] > STRENGTH_RANK[best.boundary.strength]) {
        best = plan;
      }
    } else if (firstBeyond === undefined) {
      firstBeyond = plan;
      break;
    }
  }
  return best ?? firstBeyond;
}

/** Smallest summary limit worth asking for; below it a chunk cannot be summarised smaller. */
export const MIN_SUMMARY_TOKENS = 8;


// --- Internal helpers ---

const DEFAULT_MAX_OVERSHOOT = 1.25;

const STRENGTH_RANK: Readonly<Record<BoundaryScore['strength'], number>> = {
  forbidden: 0,
  weak: 1,
  moderate: 2,
  strong: 3,
};

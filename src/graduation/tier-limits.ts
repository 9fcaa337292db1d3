import type { ResolvedTierBudgets } from '../options.js';

/** What the stable blocks of the window use now, in tokens. */
export interface BlockUsage {
  /** The static prefix (system prompt). */
  readonly prefix: number;
  /** All T2 facts and tasks. */
  readonly facts: number;
  /** Pinned items. */
  readonly pins: number;
  /** Open files. */
  readonly scratchpad: number;
  /** T1 summaries. */
  readonly summaries: number;
}

/** When T0 and T1 must graduate, in tokens. */
export interface TierLimits {
  /** T0 graduates into T1 above this. */
  readonly working: number;
  /** T1 consolidates above this. */
  readonly summaries: number;
}

/**
 * Computes when T0 and T1 must graduate. Default tier budgets are floors: when the stable
 * blocks (prefix, facts, pins, open files up to their budget) leave more room in the total
 * budget, T0 and T1 grow into it (less a small margin): T1 up to all of it but T0's floor, T0 into
 * what T1 does not use yet. The window then sits near its budget and history is compressed only
 * when it has to be.
 */
export function tierLimits(options: {
  budget: number;
  budgets: ResolvedTierBudgets;
  usage: BlockUsage;
  /** Which tiers may grow beyond their budget; a budget set explicitly is a hard limit. */
  elastic: { readonly working: boolean; readonly summaries: boolean };
}): TierLimits {
  const { budget, budgets, usage, elastic } = options;
  const stable = usage.prefix + Math.min(usage.facts, budgets.facts * 2) + Math.min(usage.pins, budgets.pins) + Math.min(usage.scratchpad, budgets.scratchpad);
  const free = Math.max(0, budget - stable - Math.ceil(budget * MARGIN));
  // T1 may take all the room but T0's floor; T0 takes what T1 does not use yet.
  const summaries = elastic.summaries ? Math.max(budgets.summaries, free - budgets.working) : budgets.summaries;
  // T1 is held room for what it uses plus the next few summaries, not its whole budget: room it
  // does not use yet is better spent on verbatim turns.
  const summaryRoom = Math.min(budgets.summaries, usage.summaries + Math.ceil(budget * SUMMARY_HEADROOM));
  const working = elastic.working ? Math.max(budgets.working, free - Math.max(usage.summaries, summaryRoom)) : budgets.working;
  return { working, summaries };
}

// --- Internal helpers ---

/** Share of the budget kept free for message framing and estimates that run a little short. */
const MARGIN = 0.02;
/** Share of the budget held for summaries still to come, beyond what T1 uses now. */
const SUMMARY_HEADROOM = 0.03;

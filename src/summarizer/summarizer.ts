import type { Awaitable, Entry, FactUpdate, Summary, SummarySectionData, TaskUpdate } from '../types.js';

/** What a {@link Summarizer} is asked to compress. */
export interface SummarizeRequest {
  /**
   * `'chunk'`: summarise `entries` (the oldest chunk of T0) into one T1 summary.
   * `'consolidate'`: merge `summaries` (the oldest T1 summaries) into one.
   */
  readonly mode: 'chunk' | 'consolidate';
  /** The T0 entries to summarise, oldest first (empty when consolidating). */
  readonly entries: readonly Entry[];
  /** The T1 summaries to consolidate, oldest first (empty for a chunk), with `sections` when they have them. */
  readonly summaries: readonly Summary[];
  /** Roughly how many tokens the summary text should have. */
  readonly targetTokens: number;
  /** Counts tokens the same way the window does. */
  readonly countTokens: (text: string) => number;
  /** Aborted when the summarizer takes longer than `summarizerTimeoutMs`. */
  readonly signal: AbortSignal;
}

/** What a {@link Summarizer} returns. The core validates it and treats it as untrusted. */
export interface SummarizeResult {
  /** Markdown summary text for T1. Must not be empty. */
  readonly summary: string;
  /**
   * The summary as data: sections of items, each with the sequence range it came from. Optional:
   * when given, the window shows its rendering (and `summary` should be that rendering); when
   * left out, `summary` is kept as one `Text` section. Consolidation merges sections as data.
   */
  readonly sections?: readonly SummarySectionData[] | undefined;
  /** Durable facts to merge into T2 (newest wins per key). */
  readonly facts?: readonly FactUpdate[] | undefined;
  /** Task status changes, so finished work is never shown as pending. */
  readonly tasks?: readonly TaskUpdate[] | undefined;
}

/** Turns chunks of history into summaries and facts. Implement it to use an LLM. */
export interface Summarizer {
  /** Identifies this summarizer in events and errors, e.g. `"extractive"`. */
  readonly name: string;
  /** Summarises a chunk or consolidates summaries. May throw; the core falls back. */
  summarize(request: SummarizeRequest): Awaitable<SummarizeResult>;
}

/** Tells whether `value` looks like a {@link Summarizer}. */
export function isSummarizer(value: unknown): value is Summarizer {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { name?: unknown }).name === 'string' &&
    typeof (value as { summarize?: unknown }).summarize === 'function'
  );
}

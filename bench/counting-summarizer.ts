// Wraps a Summarizer to count what it is asked to do: calls and input tokens, so that the
// benchmark can report summarizer cost as input tokens ÷ tokens graduated.
import { hasJudgedFacts, markFactsJudged } from '../src/index.js';
import type { SummarizeRequest, SummarizeResult, Summarizer } from '../src/index.js';

/** What a counting summarizer saw. */
export interface SummarizerUsage {
  /** Calls of any mode (retries included). */
  calls: number;
  /** Calls that summarised a chunk of T0 entries. */
  chunkCalls: number;
  /** Calls that consolidated T1 summaries. */
  consolidateCalls: number;
  /** Tokens of the entries and summaries sent (their cached window token counts). */
  inputTokens: number;
  /** Tokens of the summary texts returned. */
  outputTokens: number;
  /** Wall-clock milliseconds spent inside the summarizer. */
  milliseconds: number;
}

/** Returns a summarizer that delegates to `inner` and records its usage in `usage`. */
export function createCountingSummarizer(inner: Summarizer): { summarizer: Summarizer; usage: SummarizerUsage } {
  const usage: SummarizerUsage = { calls: 0, chunkCalls: 0, consolidateCalls: 0, inputTokens: 0, outputTokens: 0, milliseconds: 0 };
  const summarizer: Summarizer = {
    name: inner.name,
    summarize: async (request: SummarizeRequest): Promise<SummarizeResult> => {
      usage.calls += 1;
      if (request.mode === 'chunk') usage.chunkCalls += 1;
      else usage.consolidateCalls += 1;
      usage.inputTokens +=
        request.entries.reduce((sum, entry) => sum + entry.tokens, 0) +
        request.summaries.reduce((sum, summary) => sum + summary.tokens, 0);
      const start = performance.now();
      try {
        const result = await inner.summarize(request);
        usage.outputTokens += request.countTokens(result.summary);
        return result;
      } finally {
        usage.milliseconds += performance.now() - start;
      }
    },
  };
  // The facts pass through unchanged: a summarizer that judged them itself still has.
  return { summarizer: hasJudgedFacts(inner) ? markFactsJudged(summarizer) : summarizer, usage };
}

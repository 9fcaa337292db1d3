import type { SummarizeRequest, SummarizeResult, Summarizer } from '../summarizer/summarizer.js';

/** Failure modes of {@link createMockSummarizer} that the core must survive. */
export type MockSummarizerFailure = 'throw' | 'hang' | 'garbage';

/** What a mock summarizer does on a call. */
export type MockSummarizerBehavior =
  | SummarizeResult
  | MockSummarizerFailure
  | ((request: SummarizeRequest) => SummarizeResult | Promise<SummarizeResult>);

/** A recording test double of {@link Summarizer}. */
export interface MockSummarizer extends Summarizer {
  /** Every request received, in order. */
  readonly calls: SummarizeRequest[];
}

/**
 * Creates a recording summarizer. `behavior` is a result, a function, a failure mode (`'throw'`,
 * `'hang'` — resolves only when aborted — or `'garbage'`), or an array of those used for
 * successive calls (the last one repeats).
 */
export function createMockSummarizer(
  behavior: MockSummarizerBehavior | readonly MockSummarizerBehavior[] = {
    summary: 'Mock summary.',
  },
  options: { name?: string | undefined } = {},
): MockSummarizer {
  const calls: SummarizeRequest[] = [];
  const behaviors = Array.isArray(behavior) ? (behavior as readonly MockSummarizerBehavior[]) : [behavior as MockSummarizerBehavior];
  return {
    name: options.name ?? 'mock',
    calls,
    summarize(request) {
      calls.push(request);
      const current = behaviors[Math.min(calls.length - 1, behaviors.length - 1)] ?? { summary: 'Mock summary.' };
      if (current === 'throw') return Promise.reject(new Error('mock summarizer failure'));
      if (current === 'garbage') return { summary: 42 } as unknown as SummarizeResult;
      if (current === 'hang') {
        return new Promise<SummarizeResult>((_resolve, reject) => {
          request.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
        });
      }
      if (typeof current === 'function') return current(request);
      return current;
    },
  };
}

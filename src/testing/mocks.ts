import type { SummarizeRequest, SummarizeResult, Summarizer } from '../summarizer/summarizer.js';

/**
 * Failure modes of {@link createMockSummarizer} that the core must survive:
 * - `'throw'`: rejects with an error;
 * - `'hang'`: resolves only when the request is aborted (then rejects);
 * - `'garbage'`: returns `{ summary: 42 }`;
 * - `'oversized'`: returns a summary longer than everything it was given;
 * - `'mutate'`: tries to empty `request.entries` / `request.summaries` and rewrite their texts,
 *   ignoring the errors of frozen input, then returns a valid summary;
 * - `'throwing-getter'`: returns an object whose `summary` getter throws.
 */
export type MockSummarizerFailure = 'throw' | 'hang' | 'garbage' | 'oversized' | 'mutate' | 'throwing-getter';

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

/** The failure modes of {@link createMockSummarizer}, for property tests that pick one. */
export const MOCK_SUMMARIZER_FAILURES: readonly MockSummarizerFailure[] = ['throw', 'hang', 'garbage', 'oversized', 'mutate', 'throwing-getter'];

/**
 * Creates a recording summarizer. `behavior` is a result, a function, a failure mode (see
 * {@link MockSummarizerFailure}), or an array of those used for successive calls (the last one
 * repeats).
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
      if (current === 'oversized') {
        const texts = [...request.entries.map((entry) => entry.text), ...request.summaries.map((summary) => summary.text)];
        return { summary: `${texts.join('\n')}\nAnd in more words than that: ${texts.join(' ')}` };
      }
      if (current === 'mutate') {
        mutate(request);
        return { summary: 'Summarised a request it tried to change.' };
      }
      if (current === 'throwing-getter') {
        return Object.defineProperty({}, 'summary', {
          enumerable: true,
          get(): string {
            throw new Error('mock summary getter failure');
          },
        }) as SummarizeResult;
      }
      if (typeof current === 'function') return current(request);
      return current;
    },
  };
}

// --- Internal helpers ---

// Every write is attempted on its own: frozen input makes each one throw (strict mode).
function mutate(request: SummarizeRequest): void {
  const attempt = (write: () => void): void => {
    try {
      write();
    } catch {
      // Frozen: the write had no effect, which is what the core promises.
    }
  };
  const entries = request.entries as unknown as { text: string; seq: number }[];
  const summaries = request.summaries as unknown as { text: string }[];
  for (const entry of entries) {
    attempt(() => (entry.text = 'rewritten by the summarizer'));
    attempt(() => (entry.seq = -1));
  }
  for (const summary of summaries) attempt(() => (summary.text = 'rewritten by the summarizer'));
  attempt(() => entries.splice(0, entries.length));
  attempt(() => summaries.splice(0, summaries.length));
  attempt(() => ((request as { targetTokens: number }).targetTokens = 1e9));
}

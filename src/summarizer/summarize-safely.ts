import type { SummarizerError } from '../errors.js';
import type { SummarizerFallbackEvent } from '../events.js';
import type { SummarizeRequest, SummarizeResult, Summarizer } from './summarizer.js';
import { nameOf, withFallback, withRetry, withSizeLimit, withTimeout, withValidation, wrapSummarizer } from './summarizer-middleware.js';
import type { SummarizerFailureReason } from './summarizer-middleware.js';

/** The outcome of asking a summarizer, after validation, retries and fallback. */
export interface SummarizeOutcome {
  /** The validated result that will be committed. */
  readonly result: SummarizeResult;
  /** Name of the summarizer that produced it. */
  readonly summarizer: string;
  /** Whether the fallback produced it. */
  readonly isFallback: boolean;
  /** Set when the configured summarizer failed. */
  readonly failure: SummarizerFallbackEvent | undefined;
  /**
   * Set when even the fallback's summary was not smaller than its input and was cut to
   * `maxSummaryTokens`: the tokens it had before the cut.
   */
  readonly trimmedFrom: number | undefined;
}

/**
 * Calls `summarizer` through the middleware pipeline — fallback, retries, timeout, validation —
 * and reports what happened. The summarizers receive frozen deep copies of the entries and
 * summaries, never the caller's arrays. The fallback's summary is held to `maxSummaryTokens` by
 * {@link withSizeLimit} (`trimmedFrom` says when it had to cut). Throws a {@link SummarizerError}
 * only when the fallback fails as well.
 */
export async function summarizeSafely(options: {
  summarizer: Summarizer;
  fallback: Summarizer;
  request: Omit<SummarizeRequest, 'signal'>;
  timeoutMs: number;
  retries: number;
  /** Most tokens the summary text may have. @default Infinity */
  maxSummaryTokens?: number | undefined;
}): Promise<SummarizeOutcome> {
  const { timeoutMs } = options;
  const maxSummaryTokens = options.maxSummaryTokens ?? Number.POSITIVE_INFINITY;
  // The summarizer is untrusted code: it gets its own frozen copy, so that emptying or editing
  // what it was given cannot change what is committed.
  const request = { ...isolateRequest(options.request), signal: new AbortController().signal };
  let attempts = 0;
  let failure: { error: SummarizerError; reason: SummarizerFailureReason } | undefined;
  let trimmedFrom: number | undefined;
  const fallback = wrapSummarizer({
    summarizer: options.fallback,
    middleware: [withSizeLimit({ maxSummaryTokens, onTrim: (trim) => (trimmedFrom = trim.tokens) }), withTimeout({ timeoutMs }), withValidation()],
  });
  const pipeline = options.summarizer === options.fallback
    ? fallback
    : wrapSummarizer({
        summarizer: options.summarizer,
        middleware: [
          withFallback({ fallback, onFallback: (failed) => (failure = failed) }),
          withRetry({ retries: options.retries, onFailure: (failed) => (attempts = failed.attempt) }),
          withTimeout({ timeoutMs }),
          withValidation({ maxSummaryTokens }),
        ],
      });
  const result = await pipeline.summarize(request);
  const summarizer = failure === undefined ? options.summarizer : options.fallback;
  return {
    result,
    summarizer: nameOf(summarizer),
    isFallback: failure !== undefined,
    failure: failure === undefined ? undefined : { ...failure, attempts },
    trimmedFrom,
  };
}

// --- Internal helpers ---

function isolateRequest(request: Omit<SummarizeRequest, 'signal'>): Omit<SummarizeRequest, 'signal'> {
  return Object.freeze({
    mode: request.mode,
    entries: deepFreeze(structuredClone(request.entries)),
    summaries: deepFreeze(structuredClone(request.summaries)),
    targetTokens: request.targetTokens,
    countTokens: request.countTokens,
  });
}

// Iterative: entries are plain data, but a chunk can hold many of them with nested tool inputs.
function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (typeof current !== 'object' || current === null || Object.isFrozen(current)) continue;
    Object.freeze(current);
    for (const key of Object.keys(current)) stack.push((current as Record<string, unknown>)[key]);
  }
  return value;
}


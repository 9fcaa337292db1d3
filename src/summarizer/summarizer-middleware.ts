import { z } from 'zod';
import { SummarizerError } from '../errors.js';
import { hasJudgedFacts, markFactsJudged } from '../graduation/fact-admission.js';
import { FACT_CATEGORIES } from '../tiers/facts.js';
import type { FactCategory, SequenceRange, SummaryItem, SummarySectionData, SummarySectionName } from '../types.js';
import { plainTextSections, renderSections, SUMMARY_SECTIONS } from './summary-sections.js';
import type { SummarizeRequest, SummarizeResult, Summarizer } from './summarizer.js';

/**
 * A layer around a {@link Summarizer}: it receives the next summarizer and returns one that wraps
 * it, e.g. to add a timeout, retries, validation or a fallback. Modelled on the AI SDK's
 * language-model middleware.
 */
export type SummarizerMiddleware = (next: Summarizer) => Summarizer;

/** Why a summarizer call failed. */
export type SummarizerFailureReason = 'threw' | 'timeout' | 'invalid-output' | 'oversized';

/**
 * Wraps a summarizer in middleware. The first middleware is the outermost: it sees the request
 * first and the result last. The wrapped summarizer keeps the base summarizer's `name`, and its
 * {@link markFactsJudged} mark (the extractive summarizer's facts are not judged a second time).
 *
 * @example
 * ```ts
 * const safe = wrapSummarizer({
 *   summarizer: llmSummarizer,
 *   middleware: [withFallback({ fallback: createExtractiveSummarizer() }), withRetry({ retries: 1 }), withTimeout({ timeoutMs: 30_000 }), withValidation()],
 * });
 * ```
 */
export function wrapSummarizer(options: {
  summarizer: Summarizer;
  middleware: SummarizerMiddleware | readonly SummarizerMiddleware[];
}): Summarizer {
  const layers = typeof options.middleware === 'function' ? [options.middleware] : options.middleware;
  const wrapped = layers.reduceRight<Summarizer>((next, layer) => layer(next), options.summarizer);
  // Middleware passes the facts through: a summarizer that judges its own facts still does.
  return hasJudgedFacts(options.summarizer) ? markFactsJudged(wrapped) : wrapped;
}

/**
 * Aborts a call that takes longer than `timeoutMs` (through `request.signal`) and fails it with
 * reason `'timeout'`. An abort of the incoming signal is passed on.
 */
export function withTimeout(options: { timeoutMs: number }): SummarizerMiddleware {
  return (next) => ({
    name: nameOf(next),
    summarize: async (request) => {
      const controller = new AbortController();
      const onAbort = (): void => controller.abort();
      request.signal.addEventListener('abort', onAbort, { once: true });
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timedOut = Symbol('timeout');
      const expiry = new Promise<typeof timedOut>((resolve) => {
        timer = setTimeout(() => {
          controller.abort();
          resolve(timedOut);
        }, options.timeoutMs);
      });
      try {
        const call = Promise.resolve().then(() => next.summarize(Object.freeze({ ...request, signal: controller.signal })));
        const raw = await Promise.race([call, expiry]);
        if (raw === timedOut) {
          throw failure({
            summarizer: next,
            request,
            reason: 'timeout',
            message: (subject, name) => `Summarizer "${name}" did not answer within ${options.timeoutMs} ms while summarising ${subject} and was aborted. The extractive fallback was used; raise \`summarizerTimeoutMs\` if the model is slow.`,
          });
        }
        return raw;
      } finally {
        if (timer !== undefined) clearTimeout(timer);
        request.signal.removeEventListener('abort', onAbort);
      }
    },
  });
}

/**
 * Retries a failed call up to `retries` more times. A timeout is not retried: the same call
 * would most likely hang again. `onFailure` is told of every failed attempt.
 */
export function withRetry(options: {
  retries: number;
  onFailure?: ((failed: { readonly error: SummarizerError; readonly reason: SummarizerFailureReason; readonly attempt: number }) => void) | undefined;
}): SummarizerMiddleware {
  return (next) => ({
    name: nameOf(next),
    summarize: async (request) => {
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await next.summarize(request);
        } catch (error) {
          const wrapped = toSummarizerError({ error, summarizer: next, request });
          const reason = wrapped.reason ?? 'threw';
          options.onFailure?.({ error: wrapped, reason, attempt });
          if (attempt > options.retries || reason === 'timeout') throw wrapped;
        }
      }
    },
  });
}

/**
 * Treats what the summarizer returns as untrusted: checks its shape with zod (reading it, getters
 * included, inside the check), rejects a summary far above `targetTokens` (`'invalid-output'`) or
 * above `maxSummaryTokens` (`'oversized'`), and returns a clean copy. When the result has
 * sections, the summary text becomes their rendering. A throw of the summarizer becomes a
 * {@link SummarizerError} with reason `'threw'`.
 */
export function withValidation(options: { maxSummaryTokens?: number | undefined } = {}): SummarizerMiddleware {
  const maxSummaryTokens = options.maxSummaryTokens ?? Number.POSITIVE_INFINITY;
  return (next) => ({
    name: nameOf(next),
    summarize: async (request) => {
      let raw: unknown;
      try {
        raw = await next.summarize(request);
      } catch (error) {
        throw toSummarizerError({ error, summarizer: next, request });
      }
      const fail = (reason: SummarizerFailureReason, message: (subject: string, name: string) => string, cause?: unknown): SummarizerError =>
        failure({ summarizer: next, request, reason, message, cause });
      // Reading the result runs the summarizer's code too (getters, proxies): a throw here is a
      // failure of the summarizer like any other.
      let parsed: ReturnType<typeof resultSchema.safeParse>;
      let result: SummarizeResult | undefined;
      let summaryTokens: number;
      try {
        parsed = resultSchema.safeParse(raw);
        result = parsed.success ? stripUndefined(parsed.data) : undefined;
        summaryTokens = result === undefined ? 0 : request.countTokens(result.summary);
      } catch (error) {
        throw fail('invalid-output', (subject, name) => `Summarizer "${name}" returned a result that throws when read while summarising ${subject}: ${errorMessage(error)}. Return plain data: { summary: string, facts?: FactUpdate[], tasks?: TaskUpdate[] }. The extractive fallback was used.`, error);
      }
      if (!parsed.success) {
        const error = parsed.error;
        throw fail('invalid-output', (subject, name) => `Summarizer "${name}" returned an invalid result while summarising ${subject}:\n${z.prettifyError(error)}\nIt must return { summary: string, facts?: FactUpdate[], tasks?: TaskUpdate[] }. The extractive fallback was used.`, error);
      }
      if (result === undefined) throw new Error('unreachable: a parsed result is always converted');
      const limit = Math.max(request.targetTokens * 4, request.targetTokens + 400);
      if (summaryTokens > limit) {
        throw fail('invalid-output', (subject, name) => `Summarizer "${name}" returned a summary of ${summaryTokens} tokens for a target of ${request.targetTokens} while summarising ${subject}; the limit is ${limit}. Make it respect \`targetTokens\`. The extractive fallback was used.`);
      }
      if (summaryTokens > maxSummaryTokens) throw oversizedError({ summarizer: next, request, summaryTokens, maxSummaryTokens });
      return result;
    },
  });
}

/**
 * Holds a summary to `maxSummaryTokens`: a summary above it is asked for again with half the
 * limit as target, and if still too large, cut to the limit at line boundaries (its sections then
 * become one `Text` section). `onTrim` is told of every cut, so that none is silent.
 */
export function withSizeLimit(options: {
  maxSummaryTokens: number;
  onTrim?: ((trim: { readonly tokens: number; readonly limit: number }) => void) | undefined;
}): SummarizerMiddleware {
  const { maxSummaryTokens } = options;
  return (next) => ({
    name: nameOf(next),
    summarize: async (request) => {
      const first = await next.summarize(request);
      if (!Number.isFinite(maxSummaryTokens) || request.countTokens(first.summary) <= maxSummaryTokens) return first;
      // An extractive summarizer keeps essential items up to twice its target: ask for half the limit.
      const tighter = Object.freeze({ ...request, targetTokens: Math.max(1, Math.floor(maxSummaryTokens / 2)) });
      const second = await next.summarize(tighter);
      const tokens = request.countTokens(second.summary);
      if (tokens <= maxSummaryTokens) return second;
      // Structured summaries shrink as data: their least important items go first, and what is
      // left is still sections. Plain text is cut at line boundaries.
      const sections = second.sections === undefined ? undefined : dropItemsToFit({ sections: second.sections, maxTokens: maxSummaryTokens, countTokens: request.countTokens });
      if (sections !== undefined) {
        options.onTrim?.({ tokens, limit: maxSummaryTokens });
        return { ...second, summary: renderSections(sections), sections };
      }
      const summary = trimToTokens({ text: second.summary, maxTokens: maxSummaryTokens, countTokens: request.countTokens });
      if (summary === undefined) throw oversizedError({ summarizer: next, request, summaryTokens: tokens, maxSummaryTokens });
      options.onTrim?.({ tokens, limit: maxSummaryTokens });
      // A summary cut mid-section is no longer the sections' rendering: keep it as text.
      return { ...second, summary, sections: plainTextSections({ text: summary, source: sourceOf(request) }) };
    },
  });
}

/**
 * Runs `fallback` when the wrapped summarizer fails, after telling `onFallback` why. A failure
 * of the fallback itself is thrown.
 */
export function withFallback(options: {
  fallback: Summarizer;
  onFallback?: ((failed: { readonly error: SummarizerError; readonly reason: SummarizerFailureReason }) => void) | undefined;
}): SummarizerMiddleware {
  return (next) => ({
    name: nameOf(next),
    summarize: async (request) => {
      try {
        return await next.summarize(request);
      } catch (error) {
        const wrapped = toSummarizerError({ error, summarizer: next, request });
        options.onFallback?.({ error: wrapped, reason: wrapped.reason ?? 'threw' });
        return options.fallback.summarize(request);
      }
    },
  });
}

/** The name of a summarizer, read defensively: a throwing getter gives a placeholder. */
export function nameOf(summarizer: Summarizer): string {
  try {
    const name: unknown = summarizer.name;
    return typeof name === 'string' ? name : String(name);
  } catch {
    return '(unnamed summarizer)';
  }
}

/** The sequence range a request covers. */
export function sourceOf(request: Omit<SummarizeRequest, 'signal'>): SequenceRange {
  const seqs = request.mode === 'chunk' ? request.entries.map((entry) => entry.seq) : request.summaries.flatMap((summary) => [summary.source.from, summary.source.to]);
  return seqs.length === 0 ? { from: 0, to: 0 } : { from: Math.min(...seqs), to: Math.max(...seqs) };
}

// --- Internal helpers ---

const MAX_RESULT_ITEMS = 1_000;

const resultSchema = z.object({
  summary: z.string().trim().min(1, 'the summary is empty'),
  facts: z
    .array(
      z.object({
        key: z.string().trim().min(1).max(80).optional(),
        category: z.enum(FACT_CATEGORIES as [FactCategory, ...FactCategory[]]),
        value: z.string().trim().min(1).max(2_000),
        isUpdate: z.boolean().optional(),
        salience: z.number().min(0).max(1_000).optional(),
      }),
    )
    .optional(),
  tasks: z
    .array(z.object({ title: z.string().trim().min(1).max(300), status: z.enum(['open', 'done']) }))
    .optional(),
  sections: z
    .array(
      z.object({
        name: z.enum(SUMMARY_SECTIONS as [SummarySectionName, ...SummarySectionName[]]),
        items: z
          .array(
            z.object({
              text: z.string().max(4_000).refine((text) => text.trim().length > 0, 'the item is empty'),
              source: z.object({ from: z.number().int().min(0), to: z.number().int().min(0) }),
              salience: z.number().finite().optional(),
              isUserSpeech: z.boolean().optional(),
              isProductStatement: z.boolean().optional(),
              path: z.string().min(1).max(1_000).optional(),
              edits: z.number().int().min(0).optional(),
              command: z.string().min(1).max(1_000).optional(),
              isTestRun: z.boolean().optional(),
              isStillFailing: z.boolean().optional(),
            }),
          )
          .max(MAX_RESULT_ITEMS),
      }),
    )
    .max(100)
    .optional(),
});


function failure(options: {
  summarizer: Summarizer;
  request: Omit<SummarizeRequest, 'signal'>;
  reason: SummarizerFailureReason;
  message: (subject: string, name: string) => string;
  cause?: unknown;
}): SummarizerError {
  const name = nameOf(options.summarizer);
  const source = sourceOf(options.request);
  const what = options.request.mode === 'chunk' ? `a chunk of ${options.request.entries.length} entries` : `a consolidation of ${options.request.summaries.length} summaries`;
  return new SummarizerError({
    summarizer: name,
    mode: options.request.mode,
    source,
    reason: options.reason,
    message: options.message(`${what} (#${source.from}–${source.to})`, name),
    cause: options.cause,
  });
}

// Drops items, least important first (notes and free text by salience, then commands, files, solved
// problems, completed work, and open items last), until the rendering fits. `undefined` when even
// one item per section is too large.
function dropItemsToFit(options: { sections: readonly SummarySectionData[]; maxTokens: number; countTokens: (text: string) => number }): SummarySectionData[] | undefined {
  const sections = options.sections.map((section) => ({ name: section.name, items: [...section.items] }));
  const fits = (): boolean => options.countTokens(renderSections(sections)) <= options.maxTokens;
  for (;;) {
    if (fits()) {
      const kept = sections.filter((section) => section.items.length > 0);
      return kept.length === 0 ? undefined : kept;
    }
    let victim: { section: number; item: number; rank: number } | undefined;
    sections.forEach((section, sectionIndex) => {
      section.items.forEach((item, itemIndex) => {
        const rank = DROP_ORDER.indexOf(section.name) * 10_000 + Math.min(9_999, Math.max(0, item.salience ?? 0));
        if (victim === undefined || rank < victim.rank || (rank === victim.rank && itemIndex >= victim.item)) victim = { section: sectionIndex, item: itemIndex, rank };
      });
    });
    if (victim === undefined) return undefined;
    const { section, item } = victim;
    sections[section]?.items.splice(item, 1);
  }
}

const DROP_ORDER: readonly SummarySectionName[] = ['Text', 'Notes', 'Commands', 'Files', 'Problems solved', 'Completed', 'Open'];

function oversizedError(options: { summarizer: Summarizer; request: Omit<SummarizeRequest, 'signal'>; summaryTokens: number; maxSummaryTokens: number }): SummarizerError {
  return failure({
    ...options,
    reason: 'oversized',
    message: (subject, name) => `Summarizer "${name}" returned a summary of ${options.summaryTokens} tokens while summarising ${subject}, which is not smaller than its input: at most ${options.maxSummaryTokens} are accepted (\`maxSummaryRatio\` of the input, less the summary header). Make it respect \`targetTokens\`. The extractive fallback was used.`,
  });
}

// A failure already described by an inner layer keeps its reason; anything else the summarizer
// threw is wrapped with reason `'threw'` and kept as `cause`.
function toSummarizerError(options: { error: unknown; summarizer: Summarizer; request: Omit<SummarizeRequest, 'signal'> }): SummarizerError {
  const { error } = options;
  if (SummarizerError.isInstance(error) && error.reason !== undefined) return error;
  return failure({
    ...options,
    reason: 'threw',
    message: (subject, name) => `Summarizer "${name}" threw while summarising ${subject}: ${errorMessage(error)}. The extractive fallback was used; check the summarizer's model call and credentials.`,
    cause: error,
  });
}

/** Cuts `text` to at most `maxTokens`: whole lines first, then characters, with a `…` marker. */
function trimToTokens(options: { text: string; maxTokens: number; countTokens: (text: string) => number }): string | undefined {
  const { countTokens, maxTokens } = options;
  const marker = '\n…';
  if (countTokens(marker) >= maxTokens) return undefined;
  const lines = options.text.split('\n');
  let low = 0;
  let high = lines.length;
  // Binary search on prefixes: counting is linear, so this stays O(n log n) for any text.
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (countTokens(lines.slice(0, middle).join('\n') + marker) <= maxTokens) low = middle;
    else high = middle - 1;
  }
  if (low > 0) return lines.slice(0, low).join('\n').trimEnd() + marker;
  const first = lines[0] ?? '';
  let chars = 0;
  let top = first.length;
  while (chars < top) {
    const middle = Math.ceil((chars + top) / 2);
    if (countTokens(first.slice(0, middle) + marker) <= maxTokens) chars = middle;
    else top = middle - 1;
  }
  const head = first.slice(0, chars).trimEnd();
  return head.length === 0 ? undefined : head + marker;
}

function stripUndefined(data: z.infer<typeof resultSchema>): SummarizeResult {
  const sections = data.sections?.map((section): SummarySectionData => ({ name: section.name, items: section.items.map(cleanItem) }));
  const rendered = sections === undefined ? '' : renderSections(sections);
  return {
    // Sections are what is shown: the text is their rendering, whatever `summary` said.
    summary: rendered.trim().length > 0 ? rendered.trim() : data.summary,
    ...(sections === undefined || rendered.trim().length === 0 ? {} : { sections }),
    // A huge chunk (everything recorded before the first graduation ran) can carry more facts
    // than any window shows: keep the newest, which win over older values of the same key anyway.
    facts: (data.facts ?? []).slice(-MAX_RESULT_ITEMS).map((fact) => ({
      category: fact.category,
      value: fact.value,
      ...(fact.key === undefined ? {} : { key: fact.key }),
      ...(fact.isUpdate === undefined ? {} : { isUpdate: fact.isUpdate }),
      ...(fact.salience === undefined ? {} : { salience: fact.salience }),
    })),
    tasks: (data.tasks ?? []).slice(-MAX_RESULT_ITEMS).map((task) => ({ title: task.title, status: task.status })),
  };
}

function cleanItem(item: NonNullable<z.infer<typeof resultSchema>['sections']>[number]['items'][number]): SummaryItem {
  return {
    text: item.text,
    source: { from: item.source.from, to: item.source.to },
    ...(item.salience === undefined ? {} : { salience: item.salience }),
    ...(item.isUserSpeech === undefined ? {} : { isUserSpeech: item.isUserSpeech }),
    ...(item.isProductStatement === undefined ? {} : { isProductStatement: item.isProductStatement }),
    ...(item.path === undefined ? {} : { path: item.path }),
    ...(item.edits === undefined ? {} : { edits: item.edits }),
    ...(item.command === undefined ? {} : { command: item.command }),
    ...(item.isTestRun === undefined ? {} : { isTestRun: item.isTestRun }),
    ...(item.isStillFailing === undefined ? {} : { isStillFailing: item.isStillFailing }),
  };
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

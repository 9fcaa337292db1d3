import { z } from 'zod';
import type { BoundaryScore } from '../boundaries/boundary-detector.js';
import { SummarizerError } from '../errors.js';
import type { SummarizerFallbackEvent } from '../events.js';
import type { SummarizeRequest, SummarizeResult, Summarizer } from '../summarizer/summarizer.js';
import { plainTextSections, renderSections, SUMMARY_SECTIONS } from '../summarizer/summary-sections.js';
import { FACT_CATEGORIES } from '../tiers/facts.js';
import type { Entry, FactCategory, SequenceRange, SummaryItem, SummarySectionData, SummarySectionName } from '../types.js';
import { extractIdentifiers } from './retention.js';

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
 * cuts that free at least `targetTokens` (and at most a quarter more), the smallest chunk on ties.
 * When no such cut exists, the first allowed cut past the target. Never cuts at a forbidden gap
 * and always leaves the newest entry in T0. Returns `undefined` when no allowed cut exists.
 */
export function planChunk(options: {
  entries: readonly Entry[];
  scores: readonly BoundaryScore[];
  targetTokens: number;
}): ChunkPlan | undefined {
  const { entries, scores, targetTokens } = options;
  let cumulative = 0;
  let best: ChunkPlan | undefined;
  let firstBeyond: ChunkPlan | undefined;
  for (let index = 0; index < entries.length - 1; index += 1) {
    cumulative += entries[index]?.tokens ?? 0;
    const boundary = scores[index];
    if (boundary === undefined || boundary.strength === 'forbidden') continue;
    if (cumulative < targetTokens) continue;
    const plan: ChunkPlan = { count: index + 1, tokens: cumulative, boundary };
    if (cumulative <= targetTokens * MAX_CHUNK_OVERSHOOT) {
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

/**
 * How far past its target a chunk may reach for a stronger boundary: a larger chunk leaves T0
 * (and the window) emptier until it fills again.
 */
const MAX_CHUNK_OVERSHOOT = 1.25;

/** Smallest summary limit worth asking for; below it a chunk cannot be summarised smaller. */
export const MIN_SUMMARY_TOKENS = 8;

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
 * Calls `summarizer` with a timeout and retries, validates what it returns, and falls back to
 * `fallback` when it throws, hangs, returns garbage or a summary above `maxSummaryTokens`. The
 * summarizers receive frozen deep copies of the entries and summaries, never the caller's
 * arrays; reading the result (getters included) happens inside the retry path. When the fallback's
 * summary is too large too, it is asked again for half the limit, then cut to the limit
 * (`trimmedFrom`). Throws a {@link SummarizerError} only when the fallback fails as well.
 */
export async function summarizeSafely(options: {
  summarizer: Summarizer;
  fallback: Summarizer;
  request: Omit<SummarizeRequest, 'signal'>;
  timeoutMs: number;
  retries: number;
  /** Most tokens the summary text may have. @default Infinity */
  maxSummaryTokens?: number | undefined;
  /** Sequence range being summarised, named in errors. @default the range of the request */
  source?: SequenceRange | undefined;
}): Promise<SummarizeOutcome> {
  const { summarizer, fallback } = options;
  const maxSummaryTokens = options.maxSummaryTokens ?? Number.POSITIVE_INFINITY;
  // The summarizer is untrusted code: it gets its own frozen copy, so that emptying or editing
  // what it was given cannot change what is committed.
  const request = isolateRequest(options.request);
  const context: AttemptContext = {
    request,
    timeoutMs: options.timeoutMs,
    maxSummaryTokens,
    subject: describeRequest(request, options.source ?? sourceOf(options.request)),
  };
  let failure: SummarizerFallbackEvent | undefined;
  if (summarizer !== fallback) {
    const attempts = 1 + options.retries;
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      const outcome = await attemptOnce({ ...context, summarizer });
      if (outcome.result !== undefined) {
        return { result: outcome.result, summarizer: outcome.name, isFallback: false, failure: undefined, trimmedFrom: undefined };
      }
      failure = { error: outcome.error, reason: outcome.reason, attempts: attempt };
      // A hang is not retried: the same call would most likely hang again.
      if (outcome.reason === 'timeout') break;
    }
  }
  let outcome = await attemptOnce({ ...context, summarizer: fallback });
  let trimmedFrom: number | undefined;
  if (outcome.reason === 'oversized' && Number.isFinite(maxSummaryTokens)) {
    // The fallback keeps essential items up to twice its target: ask for half the limit.
    const tighter = Object.freeze({ ...request, targetTokens: Math.max(1, Math.floor(maxSummaryTokens / 2)) });
    outcome = await attemptOnce({ ...context, request: tighter, summarizer: fallback });
    if (outcome.reason === 'oversized' && outcome.oversized !== undefined) {
      const summary = trimToTokens({ text: outcome.oversized.summary, maxTokens: maxSummaryTokens, countTokens: request.countTokens });
      if (summary !== undefined) {
        trimmedFrom = request.countTokens(outcome.oversized.summary);
        // A summary cut mid-section is no longer the sections' rendering: keep it as text.
        const sections = plainTextSections({ text: summary, source: options.source ?? sourceOf(options.request) });
        outcome = { result: { ...outcome.oversized, summary, sections }, name: outcome.name };
      }
    }
  }
  if (outcome.result === undefined) throw outcome.error;
  return { result: outcome.result, summarizer: outcome.name, isFallback: failure !== undefined, failure, trimmedFrom };
}

/**
 * Checks that the identifiers of a chunk (paths, symbols, error names, numbers with units)
 * survive into its summary or facts, and appends the missing ones so that no summarizer can drop
 * them silently.
 */
export function restoreIdentifiers(options: {
  entries: readonly Entry[];
  result: SummarizeResult;
  countTokens: (text: string) => number;
  maxTokens: number;
}): SummarizeResult {
  // Ranked: error names, paths, numbers with units, then code symbols. Prose in backticks and
  // code fragments are not identifiers and are left to the summary.
  const ranked: [string[], string[], string[], string[]] = [[], [], [], []];
  const seen = new Set<string>();
  const add = (identifier: string): void => {
    const rank = identifierRank(identifier);
    if (rank === undefined || seen.has(identifier)) return;
    seen.add(identifier);
    ranked[rank]?.push(identifier);
  };
  for (const entry of options.entries) {
    if (entry.path !== undefined) add(entry.path);
    if (entry.kind === 'user' || entry.kind === 'assistant') {
      for (const identifier of extractIdentifiers(entry.text)) add(identifier);
    } else if (entry.kind === 'tool-result') {
      for (const match of entry.text.matchAll(ERROR_NAME)) add(match[0]);
    }
  }
  const haystack = [
    options.result.summary,
    ...(options.result.facts ?? []).map((fact) => fact.value),
    ...(options.result.tasks ?? []).map((task) => task.title),
  ].join('\n');
  const missing = ranked.flat().filter((identifier) => !haystack.includes(identifier));
  if (missing.length === 0) return options.result;
  const kept: string[] = [];
  let line = '';
  for (const identifier of missing) {
    const candidate = `Notes: also mentioned ${[...kept, `\`${identifier}\``].join(', ')}`;
    if (options.countTokens(candidate) > options.maxTokens) break;
    kept.push(`\`${identifier}\``);
    line = candidate;
  }
  if (line.length === 0) return options.result;
  const summary = `${options.result.summary.trimEnd()}\n${line}`;
  if (options.result.sections === undefined) return { ...options.result, summary };
  // The line renders as a section of its own after the others, exactly as appended to the text.
  const seqs = options.entries.map((entry) => entry.seq);
  const source = { from: Math.min(...seqs), to: Math.max(...seqs) };
  const added: SummarySectionData = { name: 'Notes', items: [{ text: line.slice('Notes: '.length), source }] };
  return { ...options.result, summary, sections: [...options.result.sections, added] };
}

// --- Internal helpers ---

const STRENGTH_RANK: Readonly<Record<BoundaryScore['strength'], number>> = {
  forbidden: 0,
  weak: 1,
  moderate: 2,
  strong: 3,
};

const ERROR_NAME = /\b(?:[A-Z][A-Za-z]*(?:Error|Exception)|E[A-Z]{3,})\b/g;
const IS_ERROR_NAME = /^(?:[A-Z][A-Za-z]*(?:Error|Exception)|E[A-Z]{3,})$/;
const IS_PATH = /^(?:[\w.@-]+\/)+[\w.@-]+$|^[\w-]+\.[a-z]{1,5}$/;
const IS_QUANTITY = /^\d[\d.,]*\s?[A-Za-z%]+(?:\s[a-z]+){0,3}$/;
const IS_SYMBOL = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$|^--?[a-z][\w-]*(?:=\S+)?$/;

function identifierRank(identifier: string): 0 | 1 | 2 | 3 | undefined {
  if (identifier.length < 2 || identifier.length > 60) return undefined;
  if (IS_ERROR_NAME.test(identifier)) return 0;
  if (IS_PATH.test(identifier)) return 1;
  if (IS_QUANTITY.test(identifier)) return 2;
  // A symbol needs a case change, an underscore or a dot to be an identifier rather than a word.
  if (IS_SYMBOL.test(identifier) && /[a-z][A-Z]|_|\.|^--?/.test(identifier)) return 3;
  return undefined;
}

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

type FailureReason = SummarizerFallbackEvent['reason'];

type AttemptOutcome =
  | { readonly result: SummarizeResult; readonly name: string; readonly error?: undefined; readonly reason?: undefined }
  | {
      readonly result: undefined;
      readonly name: string;
      readonly error: SummarizerError;
      readonly reason: FailureReason;
      /** The valid but too large result, kept so that the fallback's can be cut to size. */
      readonly oversized?: SummarizeResult | undefined;
    };

interface AttemptContext {
  readonly request: Omit<SummarizeRequest, 'signal'>;
  readonly timeoutMs: number;
  readonly maxSummaryTokens: number;
  /** `chunk #12–40`, for messages. */
  readonly subject: RequestSubject;
}

interface RequestSubject {
  readonly mode: SummarizeRequest['mode'];
  readonly source: SequenceRange;
  readonly text: string;
}

async function attemptOnce(options: AttemptContext & { summarizer: Summarizer }): Promise<AttemptOutcome> {
  const { summarizer, request, subject } = options;
  const name = nameOf(summarizer);
  const fail = (reason: FailureReason, message: string, cause?: unknown, oversized?: SummarizeResult): AttemptOutcome => ({
    result: undefined,
    name,
    reason,
    error: new SummarizerError({ summarizer: name, mode: subject.mode, source: subject.source, message, cause }),
    ...(oversized === undefined ? {} : { oversized }),
  });
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = Symbol('timeout');
  const timeout = new Promise<typeof timedOut>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve(timedOut);
    }, options.timeoutMs);
  });
  let raw: unknown;
  try {
    const call = Promise.resolve().then(() => summarizer.summarize(Object.freeze({ ...request, signal: controller.signal })));
    raw = await Promise.race([call, timeout]);
  } catch (error) {
    return fail('threw', `Summarizer "${name}" threw while summarising ${subject.text}: ${errorMessage(error)}. The extractive fallback was used; check the summarizer's model call and credentials.`, error);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
  if (raw === timedOut) {
    return fail('timeout', `Summarizer "${name}" did not answer within ${options.timeoutMs} ms while summarising ${subject.text} and was aborted. The extractive fallback was used; raise \`summarizerTimeoutMs\` if the model is slow.`);
  }
  // Reading the result runs the summarizer's code too (getters, proxies): a throw here is a
  // failure of the summarizer like any other, retried and then replaced by the fallback.
  let parsed: ReturnType<typeof resultSchema.safeParse>;
  let result: SummarizeResult | undefined;
  let summaryTokens: number;
  try {
    parsed = resultSchema.safeParse(raw);
    result = parsed.success ? stripUndefined(parsed.data) : undefined;
    summaryTokens = result === undefined ? 0 : request.countTokens(result.summary);
  } catch (error) {
    return fail('invalid-output', `Summarizer "${name}" returned a result that throws when read while summarising ${subject.text}: ${errorMessage(error)}. Return plain data: { summary: string, facts?: FactUpdate[], tasks?: TaskUpdate[] }. The extractive fallback was used.`, error);
  }
  if (!parsed.success) {
    return fail('invalid-output', `Summarizer "${name}" returned an invalid result while summarising ${subject.text}:\n${z.prettifyError(parsed.error)}\nIt must return { summary: string, facts?: FactUpdate[], tasks?: TaskUpdate[] }. The extractive fallback was used.`, parsed.error);
  }
  if (result === undefined) throw new Error('unreachable: a parsed result is always converted');
  const limit = Math.max(request.targetTokens * 4, request.targetTokens + 400);
  if (summaryTokens > limit) {
    return fail('invalid-output', `Summarizer "${name}" returned a summary of ${summaryTokens} tokens for a target of ${request.targetTokens} while summarising ${subject.text}; the limit is ${limit}. Make it respect \`targetTokens\`. The extractive fallback was used.`);
  }
  if (summaryTokens > options.maxSummaryTokens) {
    return fail('oversized', `Summarizer "${name}" returned a summary of ${summaryTokens} tokens while summarising ${subject.text}, which is not smaller than its input: at most ${options.maxSummaryTokens} are accepted (\`maxSummaryRatio\` of the input, less the summary header). Make it respect \`targetTokens\`. The extractive fallback was used.`, undefined, result);
  }
  return { result, name };
}

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

function sourceOf(request: Omit<SummarizeRequest, 'signal'>): SequenceRange {
  const seqs = request.mode === 'chunk' ? request.entries.map((entry) => entry.seq) : request.summaries.flatMap((summary) => [summary.source.from, summary.source.to]);
  return seqs.length === 0 ? { from: 0, to: 0 } : { from: Math.min(...seqs), to: Math.max(...seqs) };
}

function describeRequest(request: Omit<SummarizeRequest, 'signal'>, source: SequenceRange): RequestSubject {
  const what = request.mode === 'chunk' ? `a chunk of ${request.entries.length} entries` : `a consolidation of ${request.summaries.length} summaries`;
  return { mode: request.mode, source, text: `${what} (#${source.from}–${source.to})` };
}

function nameOf(summarizer: Summarizer): string {
  try {
    const name: unknown = summarizer.name;
    return typeof name === 'string' ? name : String(name);
  } catch {
    return '(unnamed summarizer)';
  }
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

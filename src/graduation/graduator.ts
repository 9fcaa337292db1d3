import { z } from 'zod';
import type { BoundaryScore } from '../boundaries/boundary-detector.js';
import { SummarizerError } from '../errors.js';
import type { SummarizerFallbackEvent } from '../events.js';
import type { SummarizeRequest, SummarizeResult, Summarizer } from '../summarizer/summarizer.js';
import { FACT_CATEGORIES } from '../tiers/facts.js';
import type { Entry, FactCategory } from '../types.js';
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
 * cuts that free at least `targetTokens` (and at most twice that), the smallest chunk on ties.
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
    if (cumulative <= targetTokens * 2) {
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
}

/**
 * Calls `summarizer` with a timeout and retries, validates what it returns, and falls back to
 * `fallback` when it throws, hangs or returns garbage. Throws only when the fallback fails too.
 */
export async function summarizeSafely(options: {
  summarizer: Summarizer;
  fallback: Summarizer;
  request: Omit<SummarizeRequest, 'signal'>;
  timeoutMs: number;
  retries: number;
}): Promise<SummarizeOutcome> {
  const { summarizer, fallback, request } = options;
  let failure: SummarizerFallbackEvent | undefined;
  if (summarizer !== fallback) {
    const attempts = 1 + options.retries;
    for (let attempt = 1; attempt <= attempts; attempt += 1) {
      const outcome = await attemptOnce({ summarizer, request, timeoutMs: options.timeoutMs });
      if (outcome.result !== undefined) {
        return { result: outcome.result, summarizer: summarizer.name, isFallback: false, failure: undefined };
      }
      failure = { error: outcome.error, reason: outcome.reason, attempts: attempt };
      // A hang is not retried: the same call would most likely hang again.
      if (outcome.reason === 'timeout') break;
    }
  }
  const outcome = await attemptOnce({ summarizer: fallback, request, timeoutMs: options.timeoutMs });
  if (outcome.result === undefined) throw outcome.error;
  return { result: outcome.result, summarizer: fallback.name, isFallback: failure !== undefined, failure };
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
  return { ...options.result, summary: `${options.result.summary.trimEnd()}\n${line}` };
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

const resultSchema = z.object({
  summary: z.string().trim().min(1, 'the summary is empty'),
  facts: z
    .array(
      z.object({
        key: z.string().trim().min(1).max(80).optional(),
        category: z.enum(FACT_CATEGORIES as [FactCategory, ...FactCategory[]]),
        value: z.string().trim().min(1).max(2_000),
        isUpdate: z.boolean().optional(),
      }),
    )
    .max(200)
    .optional(),
  tasks: z
    .array(z.object({ title: z.string().trim().min(1).max(300), status: z.enum(['open', 'done']) }))
    .max(200)
    .optional(),
});

type AttemptOutcome =
  | { readonly result: SummarizeResult; readonly error?: undefined; readonly reason?: undefined }
  | {
      readonly result: undefined;
      readonly error: SummarizerError;
      readonly reason: 'threw' | 'timeout' | 'invalid-output';
    };

async function attemptOnce(options: {
  summarizer: Summarizer;
  request: Omit<SummarizeRequest, 'signal'>;
  timeoutMs: number;
}): Promise<AttemptOutcome> {
  const { summarizer, request } = options;
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
    const call = Promise.resolve().then(() => summarizer.summarize({ ...request, signal: controller.signal }));
    raw = await Promise.race([call, timeout]);
  } catch (error) {
    return {
      result: undefined,
      reason: 'threw',
      error: new SummarizerError({
        summarizer: summarizer.name,
        message: `Summarizer "${summarizer.name}" threw while summarising a ${request.mode}: ${errorMessage(error)}. The extractive fallback was used; check the summarizer's model call and credentials.`,
        cause: error,
      }),
    };
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
  if (raw === timedOut) {
    return {
      result: undefined,
      reason: 'timeout',
      error: new SummarizerError({
        summarizer: summarizer.name,
        message: `Summarizer "${summarizer.name}" did not answer within ${options.timeoutMs} ms and was aborted. The extractive fallback was used; raise \`summarizerTimeoutMs\` if the model is slow.`,
      }),
    };
  }
  const parsed = resultSchema.safeParse(raw);
  if (!parsed.success) {
    return {
      result: undefined,
      reason: 'invalid-output',
      error: new SummarizerError({
        summarizer: summarizer.name,
        message: `Summarizer "${summarizer.name}" returned an invalid result:\n${z.prettifyError(parsed.error)}\nIt must return { summary: string, facts?: FactUpdate[], tasks?: TaskUpdate[] }. The extractive fallback was used.`,
        cause: parsed.error,
      }),
    };
  }
  const limit = Math.max(request.targetTokens * 4, request.targetTokens + 400);
  const summaryTokens = request.countTokens(parsed.data.summary);
  if (summaryTokens > limit) {
    return {
      result: undefined,
      reason: 'invalid-output',
      error: new SummarizerError({
        summarizer: summarizer.name,
        message: `Summarizer "${summarizer.name}" returned a summary of ${summaryTokens} tokens for a target of ${request.targetTokens}; the limit is ${limit}. Make it respect \`targetTokens\`. The extractive fallback was used.`,
      }),
    };
  }
  return { result: stripUndefined(parsed.data) };
}

function stripUndefined(data: z.infer<typeof resultSchema>): SummarizeResult {
  return {
    summary: data.summary,
    facts: (data.facts ?? []).map((fact) => ({
      category: fact.category,
      value: fact.value,
      ...(fact.key === undefined ? {} : { key: fact.key }),
      ...(fact.isUpdate === undefined ? {} : { isUpdate: fact.isUpdate }),
    })),
    tasks: (data.tasks ?? []).map((task) => ({ title: task.title, status: task.status })),
  };
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

import { z } from 'zod';
import type { PatternPack } from './boundaries/pattern-pack.js';
import { InvalidArgumentError } from './errors.js';
import { DEFAULTS, contextWindowForModel, resolveBudget, sessionIdSchema, tokenBudgetSchema } from './options.js';
import type { ContextManagerOptions, ProjectMemory, ResolvedOptions, TokenBudget } from './options.js';
import { redactionOptionsSchema, resolveRedaction } from './redaction/redactor.js';
import type { RedactionOptions } from './redaction/redactor.js';
import type { Storage } from './storage/storage.js';
import { isStorage } from './storage/storage.js';
import type { Summarizer } from './summarizer/summarizer.js';
import { isSummarizer } from './summarizer/summarizer.js';
import type { Retriever } from './tiers/recall.js';
import type { TokenCounter } from './tokens/token-counter.js';
import { parse } from './validation.js';

/**
 * Validates {@link ContextManagerOptions} and resolves them: defaults applied by the schema,
 * every budget resolved to tokens against the context window.
 * @throws {InvalidArgumentError} when an option is invalid; the message says which and how to fix it.
 * @internal
 */
export function resolveOptions(options: ContextManagerOptions): ResolvedOptions {
  const { initialState: _ignored, ...rest } = options as ContextManagerOptions & { initialState?: unknown };
  const parsed = parse(optionsSchema, rest, 'new ContextManager', 'new ContextManager({ budget: 28_000, systemPrompt })');
  if (parsed.storage !== undefined && !isStorage(parsed.storage)) {
    throw new InvalidArgumentError({ parameter: 'storage', value: parsed.storage, message: 'new ContextManager(): `storage` must implement append, read, saveSnapshot and loadSnapshot. Use createMemoryStorage() or see docs/storage.md.' });
  }
  if (parsed.archive !== undefined && parsed.storage === undefined) {
    throw new InvalidArgumentError({
      parameter: 'archive',
      value: parsed.archive,
      message: `new ContextManager(): \`archive\` spills archived items to storage, but no \`storage\` is configured, got archive ${JSON.stringify(parsed.archive)}. Pass a storage too, e.g. new ContextManager({ storage: createMemoryStorage(), archive: { memoryItems: 500 } }), or drop \`archive\`.`,
    });
  }
  const contextWindow = parsed.contextWindow ?? contextWindowForModel(parsed.model);
  const resolve = (budget: TokenBudget, name: string): number => {
    const value = resolveBudget({ budget, contextWindow, name });
    if (typeof value === 'string') throw new InvalidArgumentError({ parameter: name, value: budget, message: `new ContextManager(): ${value}` });
    return value;
  };
  const budgets = parsed.budgets;
  return {
    ...parsed,
    model: parsed.model,
    summarizer: parsed.summarizer,
    tokenCounter: parsed.tokenCounter,
    patterns: parsed.patterns,
    retriever: parsed.retriever,
    projectMemory: parsed.projectMemory,
    storage: parsed.storage,
    archive: parsed.archive,
    clock: parsed.clock,
    contextWindow,
    budget: resolve(parsed.budget, '`budget`'),
    budgets: {
      facts: resolve(budgets.facts, '`budgets.facts`'),
      pins: resolve(budgets.pins, '`budgets.pins`'),
      summaries: resolve(budgets.summaries ?? DEFAULTS.budgets.summaries, '`budgets.summaries`'),
      scratchpad: resolve(budgets.scratchpad, '`budgets.scratchpad`'),
      working: resolve(budgets.working ?? DEFAULTS.budgets.working, '`budgets.working`'),
    },
    // A tier whose budget was left to its default may grow into free room.
    elasticTiers: { working: budgets.working === undefined, summaries: budgets.summaries === undefined },
    redact: parsed.redact === false ? false : resolveRedaction(parsed.redact as RedactionOptions),
  };
}

/**
 * Resolves the budget given to `build()` against the context window.
 * @throws {InvalidArgumentError} when it is a fraction and the context window is unknown.
 * @internal
 */
export function resolveBuildBudget(options: { budget: TokenBudget; contextWindow: number | undefined }): number {
  const resolved = resolveBudget({ budget: options.budget, contextWindow: options.contextWindow, name: 'build(): `budget`' });
  if (typeof resolved === 'string') throw new InvalidArgumentError({ parameter: 'budget', value: options.budget, message: resolved });
  return resolved;
}

// --- Internal helpers ---

const tierBudgetsSchema = z.strictObject({
  facts: tokenBudgetSchema.default(DEFAULTS.budgets.facts),
  pins: tokenBudgetSchema.default(DEFAULTS.budgets.pins),
  // Left undefined when not given: T1 and T0 are elastic then.
  summaries: tokenBudgetSchema.optional(),
  scratchpad: tokenBudgetSchema.default(DEFAULTS.budgets.scratchpad),
  working: tokenBudgetSchema.optional(),
});

const autoSave = DEFAULTS.autoSave;
const storageRetry = DEFAULTS.storageRetry;

const optionsSchema = z.strictObject({
  model: z.string().min(1).optional(),
  contextWindow: z.number().int().positive().optional(),
  budget: tokenBudgetSchema.default(DEFAULTS.budget),
  budgets: tierBudgetsSchema.prefault({}),
  systemPrompt: z.string().default(DEFAULTS.systemPrompt),
  autoCloseAfter: z.number().int().positive().default(DEFAULTS.autoCloseAfter),
  orphanCallsAfter: z.number().int().positive().default(DEFAULTS.orphanCallsAfter),
  maxEntryTokens: z.number().int().min(64).default(DEFAULTS.maxEntryTokens),
  graduationTarget: z.number().gt(0).lt(1).default(DEFAULTS.graduationTarget),
  summarizer: z.custom<Summarizer>(isSummarizer, 'expected an object with `name` and `summarize()`').optional(),
  summarizerTimeoutMs: z.number().int().positive().default(DEFAULTS.summarizerTimeoutMs),
  summarizerRetries: z.number().int().min(0).max(10).default(DEFAULTS.summarizerRetries),
  factAdmission: z.enum(['judged', 'trusted']).default(DEFAULTS.factAdmission),
  maxSummaryRatio: z.number().gt(0).lt(1).default(DEFAULTS.maxSummaryRatio),
  maxDiffBytes: z.number().int().positive().default(DEFAULTS.maxDiffBytes),
  maxFileBytes: z.number().int().positive().default(DEFAULTS.maxFileBytes),
  pathCase: z.enum(['sensitive', 'insensitive']).default(DEFAULTS.pathCase),
  tokenCounter: z
    .custom<TokenCounter>(
      (value) => typeof value === 'object' && value !== null && typeof (value as { count?: unknown }).count === 'function',
      'expected an object with `name` and `count(text)`',
    )
    .optional(),
  patterns: z.custom<PatternPack>((value) => typeof value === 'object' && value !== null, 'expected a PatternPack').optional(),
  retriever: z
    .custom<Retriever>(
      (value) =>
        typeof value === 'object' &&
        value !== null &&
        typeof (value as { add?: unknown }).add === 'function' &&
        typeof (value as { search?: unknown }).search === 'function',
      'expected a Retriever with `add()` and `search()` (see createBm25Retriever())',
    )
    .optional(),
  storage: z
    .custom<Storage>(
      (value) => typeof value === 'object' && value !== null && typeof (value as { append?: unknown }).append === 'function',
      'expected a Storage (see createMemoryStorage())',
    )
    .optional(),
  archive: z.strictObject({ memoryItems: z.number().int().min(0) }).optional(),
  sessionId: sessionIdSchema.default(DEFAULTS.sessionId),
  autoSave: z
    .union([
      z.literal(false),
      z.strictObject({
        onTaskDone: z.boolean().default(autoSave.onTaskDone),
        onDecision: z.boolean().default(autoSave.onDecision),
        everyMessages: z.number().int().min(0).default(autoSave.everyMessages),
        onLeaving: z.boolean().default(autoSave.onLeaving),
        pressureThreshold: z.number().min(0).max(1).default(autoSave.pressureThreshold),
        snapshotGrowth: z.number().min(0).max(1_000).default(autoSave.snapshotGrowth),
      }),
    ])
    .prefault({}),
  storageRetry: z
    .union([
      z.literal(false),
      z.strictObject({
        retries: z.number().int().min(0).max(100).default(storageRetry.retries),
        delayMs: z.number().int().min(0).default(storageRetry.delayMs),
        maxDelayMs: z.number().int().min(0).default(storageRetry.maxDelayMs),
      }),
    ])
    .prefault({}),
  storageTimeoutMs: z.number().int().positive().default(DEFAULTS.storageTimeoutMs),
  projectMemory: z
    .custom<ProjectMemory>(
      (value) =>
        typeof value === 'object' &&
        value !== null &&
        (value as { formatVersion?: unknown }).formatVersion === 1 &&
        Array.isArray((value as { facts?: unknown }).facts) &&
        Array.isArray((value as { pins?: unknown }).pins),
      'expected the object returned by manager.projectMemory() (formatVersion 1, facts, pins)',
    )
    .optional(),
  clock: z.custom<() => string>((value) => typeof value === 'function', 'expected a function').optional(),
  redact: z.union([z.literal(false), redactionOptionsSchema]).prefault({}),
});

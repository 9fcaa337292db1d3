import { z } from 'zod';
import type { PatternPack } from './boundaries/pattern-pack.js';
import { DEFAULT_ENTROPY_THRESHOLD } from './redaction/redactor.js';
import type { RedactionOptions, ResolvedRedaction } from './redaction/redactor.js';
import type { Storage } from './storage/storage.js';
import type { Summarizer } from './summarizer/summarizer.js';
import type { Retriever } from './tiers/recall.js';
import type { Fact } from './types.js';
import type { TokenCounter } from './tokens/token-counter.js';

/**
 * A token budget: a number of tokens (an integer ≥ 1), or `{ fraction }` of the model's context
 * window (requires `contextWindow`, or a `model` whose window is known).
 */
export type TokenBudget = number | { readonly fraction: number };

/** Budgets of the tiers of the window. Each block is held within its budget. */
export interface TierBudgets {
  /** T2 session facts (YAML). @default 2_000 */
  facts?: TokenBudget | undefined;
  /** Pinned items. @default 1_000 */
  pins?: TokenBudget | undefined;
  /**
   * T1 summaries. When left out, T1 also grows into room the other blocks leave in the total
   * budget, so history is compressed only when it has to be; when set, it is a hard limit.
   * @default 4_000
   */
  summaries?: TokenBudget | undefined;
  /** Scratchpad: open files with their current content. @default 14_000 */
  scratchpad?: TokenBudget | undefined;
  /**
   * T0 working memory: verbatim recent entries. When left out, T0 also grows into room the other
   * blocks leave in the total budget; when set, T0 graduates above it. @default 6_000
   */
  working?: TokenBudget | undefined;
}

/** When a manager with `storage` saves by itself (seed 003's auto-save triggers). */
export interface AutoSaveOptions {
  /** Save when a message says a task is done ("done", "all tests pass"). @default true */
  onTaskDone?: boolean | undefined;
  /** Save when a message records a decision ("let's use …", "we decided"). @default true */
  onDecision?: boolean | undefined;
  /** Save after this many messages since the last save; 0 turns it off. @default 15 */
  everyMessages?: number | undefined;
  /** Save when the user signals leaving ("bye", "signing off"). @default true */
  onLeaving?: boolean | undefined;
  /** Save (and emit `pressure`) when the window passes this share of its budget; 0 turns it off. @default 0.8 */
  pressureThreshold?: number | undefined;
  /**
   * Every recorded event is appended to storage as it happens; a snapshot only makes `load()`
   * faster. An automatic save therefore writes a full snapshot only once the events appended since
   * the last one add up to this many times its size (serialised), and otherwise just checks that
   * every event is appended (`session-save` with `isSnapshot: false`). `save()`, `snapshot()` and a
   * save on leaving always write one. 0 writes a snapshot on every automatic save. @default 1
   */
  snapshotGrowth?: number | undefined;
}

/**
 * How a manager retries appends that failed while nobody waits for them (`settle()` and `save()`
 * always try at once). Retries back off exponentially and stop after `retries`; the next record
 * starts a new round. Their timers never keep the process alive.
 */
export interface StorageRetryOptions {
  /** Background retries after a failed append, per round. @default 5 */
  retries?: number | undefined;
  /** Delay before the first retry, doubled for each next one. @default 250 */
  delayMs?: number | undefined;
  /** Longest delay between two retries. @default 8_000 */
  maxDelayMs?: number | undefined;
}

/** Options for {@link ContextManager}. */
export interface ContextManagerOptions {
  /** Model name; picks the tokenizer encoding and, when known, the context window. @default undefined */
  model?: string | undefined;
  /** The model's context window in tokens, for fractional budgets. @default known for common models */
  contextWindow?: number | undefined;
  /** Total budget of `build()` when the call gives none (excludes the response reserve). @default 28_000 */
  budget?: TokenBudget | undefined;
  /** Per-tier budgets. */
  budgets?: TierBudgets | undefined;
  /** Static prefix: system prompt and invariant rules, rendered byte-identically first. @default '' */
  systemPrompt?: string | undefined;
  /** Closes a file after this many user turns without a touch. @default 10 */
  autoCloseAfter?: number | undefined;
  /**
   * Closes a tool call left without a result once this many later messages (user or assistant)
   * have been recorded: a "no result" marker answers it and `tool-call-orphan` is emitted, so an
   * unanswered call never stops graduation. A result that arrives afterwards is kept as a late
   * result of the call. @default 1
   */
  orphanCallsAfter?: number | undefined;
  /** Largest T0 entry shown in full; longer ones show a head/tail excerpt with a marker. @default 2_000 */
  maxEntryTokens?: number | undefined;
  /**
   * Largest changed region of a file update (UTF-8 bytes of the changed lines, old and new
   * together) that is diffed line by line. A larger change is recorded as `+N/-M lines` without
   * a line diff, `file-update` says `isDiffSkipped`, and `fileHistory()` restarts at the new
   * content, so that rewriting a huge file costs about as much as reading it. @default 2_097_152
   */
  maxDiffBytes?: number | undefined;
  /**
   * Largest file (UTF-8 bytes) held in the scratchpad. A larger file is held as a one-line digest
   * (size, line count, FNV-1a 64 hash) instead of its content, with a `file-oversize` event, so
   * recording it costs one pass over it and no scan, diff or token count. @default 16_777_216
   */
  maxFileBytes?: number | undefined;
  /**
   * Whether file paths that differ only in letter case name the same file (`'insensitive'`, as
   * on Windows and macOS). Paths are always normalised: `\` → `/`, no `./`, repeated or
   * trailing slashes, so `C:\x\a.ts` and `C:/x/a.ts` are one scratchpad entry. @default 'sensitive'
   */
  pathCase?: 'sensitive' | 'insensitive' | undefined;
  /** Share of its limit that T0 is brought down to by a graduation. @default 0.8 */
  graduationTarget?: number | undefined;
  /** Turns T0 chunks into T1 summaries and T2 facts. @default createExtractiveSummarizer() */
  summarizer?: Summarizer | undefined;
  /** Milliseconds before a summarizer call is aborted and the fallback runs. @default 60_000 */
  summarizerTimeoutMs?: number | undefined;
  /** Extra attempts after a summarizer throws or returns invalid output. @default 1 */
  summarizerRetries?: number | undefined;
  /**
   * Which facts of your `summarizer` enter T2: `'judged'` only those that read as durable
   * statements (not narration, plans, questions, output, hedges or failures without a cause; the
   * others are kept as `Notes` of the summary), `'trusted'` every fact it returns. The built-in
   * extractive summarizer judges its facts itself. @default 'judged'
   */
  factAdmission?: 'judged' | 'trusted' | undefined;
  /**
   * Largest summary accepted, as a share of the tokens it replaces (the summary as rendered in
   * the window, header included). A larger one counts as a summarizer failure: it is retried,
   * then the extractive fallback runs (and is cut to size if it is too large as well), so that
   * every graduation makes the window smaller. @default 0.9
   */
  maxSummaryRatio?: number | undefined;
  /** Counts tokens. @default createTokenCounter({ model }) */
  tokenCounter?: TokenCounter | undefined;
  /** Boundary and retention patterns; replaces the default (extend it with mergePatternPacks). @default defaultPatterns */
  patterns?: PatternPack | undefined;
  /** Ranks archived items for `recall()`. @default createBm25Retriever() */
  retriever?: Retriever | undefined;
  /** Persists the event log and snapshots. @default undefined (in memory only) */
  storage?: Storage | undefined;
  /**
   * Bounds the archive's memory: archived items beyond the newest `memoryItems` are written to
   * `storage` and dropped from memory once stored (see docs/storage.md, "Spilling the archive").
   * Needs a `storage`. @default undefined (the whole archive stays in memory)
   */
  archive?: ArchiveOptions | undefined;
  /** Automatic saves when `storage` is set; `false` turns them all off. @default all triggers on */
  autoSave?: AutoSaveOptions | false | undefined;
  /**
   * Background retries of failed appends; `false` retries only with the next record, `settle()`
   * or `save()`. @default { retries: 5, delayMs: 250, maxDelayMs: 8_000 }
   */
  storageRetry?: StorageRetryOptions | false | undefined;
  /**
   * Milliseconds an append to `storage` may take before it counts as failed: it is then retried
   * like any failed append (the events are sent again; storages skip events already stored), and
   * `settle()` reports the events as not durable instead of waiting forever. @default 30_000
   */
  storageTimeoutMs?: number | undefined;
  /** Facts and pins carried over from earlier sessions of the project (see `projectMemory()`). */
  projectMemory?: ProjectMemory | undefined;
  /** Session id used with `storage`. @default 'default' */
  sessionId?: string | undefined;
  /** Supplies timestamps for records that carry none (ISO-8601). @default undefined (no timestamps) */
  clock?: (() => string) | undefined;
  /**
   * Replaces secrets (API keys, tokens, private keys, passwords in URLs and assignments, long
   * random strings) with stable placeholders such as `[secret:aws-key#1]` in everything recorded,
   * before it reaches storage, the window, recall, summaries or facts. Pass options to add
   * patterns, allow values or tune the entropy detector; `false` records text verbatim.
   * @default {} (on, with the built-in detectors and `entropy: DEFAULTS.redact.entropy`)
   */
  redact?: RedactionOptions | false | undefined;
}

/** How much of the archive stays in memory when it spills to storage. */
export interface ArchiveOptions {
  /**
   * Archived items kept in memory, the newest; older ones (whole groups: the items one graduation
   * or unpin archived) move to storage once the events that archived them are stored. `0` keeps none.
   */
  memoryItems: number;
}

/** Tier budgets resolved to tokens. */
export interface ResolvedTierBudgets {
  readonly facts: number;
  readonly pins: number;
  readonly summaries: number;
  readonly scratchpad: number;
  readonly working: number;
}

/** Automatic-save rules with every default filled in. */
export interface ResolvedAutoSave {
  readonly onTaskDone: boolean;
  readonly onDecision: boolean;
  readonly everyMessages: number;
  readonly onLeaving: boolean;
  readonly pressureThreshold: number;
  readonly snapshotGrowth: number;
}

/** Default values of every option, in one place. */
export const DEFAULTS: {
  readonly budget: number;
  readonly budgets: ResolvedTierBudgets;
  readonly systemPrompt: string;
  readonly autoCloseAfter: number;
  readonly orphanCallsAfter: number;
  readonly maxEntryTokens: number;
  readonly graduationTarget: number;
  readonly summarizerTimeoutMs: number;
  readonly summarizerRetries: number;
  readonly factAdmission: 'judged' | 'trusted';
  readonly maxSummaryRatio: number;
  readonly maxDiffBytes: number;
  readonly maxFileBytes: number;
  readonly pathCase: 'sensitive' | 'insensitive';
  readonly storageRetry: { readonly retries: number; readonly delayMs: number; readonly maxDelayMs: number };
  readonly storageTimeoutMs: number;
  readonly sessionId: string;
  readonly redact: { readonly entropy: number };
  readonly autoSave: ResolvedAutoSave;
} = {
  budget: 28_000,
  budgets: { facts: 2_000, pins: 1_000, summaries: 4_000, scratchpad: 14_000, working: 6_000 },
  systemPrompt: '',
  autoCloseAfter: 10,
  orphanCallsAfter: 1,
  maxEntryTokens: 2_000,
  graduationTarget: 0.8,
  summarizerTimeoutMs: 60_000,
  summarizerRetries: 1,
  factAdmission: 'judged',
  maxSummaryRatio: 0.9,
  maxDiffBytes: 2_097_152,
  maxFileBytes: 16_777_216,
  pathCase: 'sensitive',
  storageRetry: { retries: 5, delayMs: 250, maxDelayMs: 8_000 },
  storageTimeoutMs: 30_000,
  sessionId: 'default',
  redact: { entropy: DEFAULT_ENTROPY_THRESHOLD },
  autoSave: { onTaskDone: true, onDecision: true, everyMessages: 15, onLeaving: true, pressureThreshold: 0.8, snapshotGrowth: 1 },
};

/** Context windows of common models, used for fractional budgets when `contextWindow` is unset. */
export const KNOWN_CONTEXT_WINDOWS: Readonly<Record<string, number>> = {
  'gpt-4o': 128_000,
  'gpt-4o-mini': 128_000,
  'gpt-4.1': 1_047_576,
  'gpt-4.1-mini': 1_047_576,
  'gpt-4': 8_192,
  'gpt-4-turbo': 128_000,
  'gpt-3.5-turbo': 16_385,
  'gpt-5': 400_000,
  'o3': 200_000,
  'o4-mini': 200_000,
  'claude-sonnet-4': 200_000,
  'claude-opus-4': 200_000,
  'claude-3-5-sonnet': 200_000,
  'gemini-2.5-pro': 1_048_576,
  'gemini-2.5-flash': 1_048_576,
};

/** Options after validation and defaults, with every budget resolved to tokens. @internal */
export interface ResolvedOptions {
  readonly model: string | undefined;
  readonly contextWindow: number | undefined;
  readonly budget: number;
  readonly budgets: ResolvedTierBudgets;
  /** Tiers whose budget was left to its default, so it may grow into free room. */
  readonly elasticTiers: { readonly working: boolean; readonly summaries: boolean };
  readonly systemPrompt: string;
  readonly autoCloseAfter: number;
  readonly orphanCallsAfter: number;
  readonly maxEntryTokens: number;
  readonly graduationTarget: number;
  readonly summarizer: Summarizer | undefined;
  readonly summarizerTimeoutMs: number;
  readonly summarizerRetries: number;
  readonly factAdmission: 'judged' | 'trusted';
  readonly maxSummaryRatio: number;
  readonly maxDiffBytes: number;
  readonly maxFileBytes: number;
  readonly pathCase: 'sensitive' | 'insensitive';
  readonly tokenCounter: TokenCounter | undefined;
  readonly patterns: PatternPack | undefined;
  readonly retriever: Retriever | undefined;
  readonly autoSave: ResolvedAutoSave | false;
  readonly projectMemory: ProjectMemory | undefined;
  readonly storage: Storage | undefined;
  readonly archive: { readonly memoryItems: number } | undefined;
  readonly storageRetry: { readonly retries: number; readonly delayMs: number; readonly maxDelayMs: number } | false;
  readonly storageTimeoutMs: number;
  readonly sessionId: string;
  readonly clock: (() => string) | undefined;
  readonly redact: ResolvedRedaction | false;
}

/** The zod schema of a {@link TokenBudget}. @internal */
export const tokenBudgetSchema: z.ZodType<TokenBudget> = z.union([
  z.number().int().positive(),
  z.strictObject({ fraction: z.number().gt(0).lte(1) }),
]);

/** Validates a session id: no path separators, `..`, NUL or control characters. @internal */
export const sessionIdSchema: z.ZodString = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'use letters, digits, ".", "_" and "-", starting with a letter or digit')
  .refine((value) => !value.includes('..'), 'must not contain ".."');

/** Resolves a token budget against a context window. @internal */
export function resolveBudget(options: {
  budget: TokenBudget;
  contextWindow: number | undefined;
  name: string;
}): number | string {
  if (typeof options.budget === 'number') return options.budget;
  if (options.contextWindow === undefined) {
    return `${options.name} is a fraction, but the context window is unknown. Pass \`contextWindow\` (e.g. contextWindow: 128_000) or a \`model\` from KNOWN_CONTEXT_WINDOWS, or give the budget in tokens.`;
  }
  return Math.max(1, Math.floor(options.contextWindow * options.budget.fraction));
}

/** Finds the context window of a known model by exact name or longest known prefix. @internal */
export function contextWindowForModel(model: string | undefined): number | undefined {
  if (model === undefined) return undefined;
  const name = model.toLowerCase();
  let best: string | undefined;
  for (const known of Object.keys(KNOWN_CONTEXT_WINDOWS)) {
    if (name.startsWith(known) && (best === undefined || known.length > best.length)) best = known;
  }
  return best === undefined ? undefined : KNOWN_CONTEXT_WINDOWS[best];
}

/**
 * Durable knowledge carried from one session of a project to the next: T2 facts (with the history
 * of superseded values) and pins. Get it with `manager.projectMemory()`, store it anywhere (it is
 * plain JSON), and pass it as the `projectMemory` option of a new session.
 */
export interface ProjectMemory {
  /** Format of this object. */
  readonly formatVersion: 1;
  /** Facts, with their history. */
  readonly facts: readonly Fact[];
  /** Pinned texts. */
  readonly pins: readonly string[];
}

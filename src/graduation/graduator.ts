import { z } from 'zod';
import type { BoundaryScore } from '../boundaries/boundary-detector.js';
import { createBoundaryDetector } from '../boundaries/boundary-detector.js';
import type { PatternPack } from '../boundaries/pattern-pack.js';
import { defaultPatterns } from '../boundaries/patterns/default.js';
import { MobiusError } from '../errors.js';
import type { GraduationStallEvent, GraduationStartEvent, SummarizerFallbackEvent, SummaryTrimEvent } from '../events.js';
import type { SessionEvent } from '../session-event.js';
import { renderSummary } from '../session-view.js';
import { createExtractiveSummarizer } from '../summarizer/extractive.js';
import { summarizeSafely } from '../summarizer/summarize-safely.js';
import type { SummarizeOutcome } from '../summarizer/summarize-safely.js';
import { plainTextSections } from '../summarizer/summary-sections.js';
import type { Summarizer } from '../summarizer/summarizer.js';
import { isSummarizer } from '../summarizer/summarizer.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import { createTokenCounter } from '../tokens/token-counter.js';
import type { Entry, SequenceRange, Summary } from '../types.js';
import { parse } from '../validation.js';
import { MIN_SUMMARY_TOKENS, planChunk } from './chunk-plan.js';
import type { ChunkPlan } from './chunk-plan.js';
import { admitFacts, DEFAULT_FACT_ADMISSION, hasJudgedFacts } from './fact-admission.js';
import type { FactAdmission } from './fact-admission.js';
import { restoreIdentifiers } from './identifier-restore.js';
import type { TierLimits } from './tier-limits.js';

/** The graduation event a {@link Graduator} asks its subject to commit. */
export type GraduationEvent = Extract<SessionEvent, { type: 'graduation' }>;

/** Options for {@link Graduator}: the summarizer pipeline and the graduation policy. */
export interface GraduatorOptions {
  /** Turns chunks into summaries and facts. @default the fallback */
  summarizer?: Summarizer | undefined;
  /** Runs when the summarizer fails; must not fail itself. @default createExtractiveSummarizer({ patterns }) */
  fallback?: Summarizer | undefined;
  /** Patterns of the default boundary detector and fallback. @default defaultPatterns */
  patterns?: PatternPack | undefined;
  /** Counts tokens. @default createTokenCounter() */
  tokenCounter?: TokenCounter | undefined;
  /** Scores the gaps between T0 entries. @default createBoundaryDetector({ patterns }) */
  boundaryDetector?: { scoreGaps(entries: readonly Entry[]): readonly BoundaryScore[] } | undefined;
  /** Milliseconds before a summarizer call is aborted and the fallback runs. @default 60_000 */
  timeoutMs?: number | undefined;
  /** Extra attempts after the summarizer throws or returns invalid output. @default 1 */
  retries?: number | undefined;
  /** Share of its limit that T0 is brought down to by a chunk graduation. @default 0.8 */
  graduationTarget?: number | undefined;
  /** How far past its target a chunk may reach for a stronger boundary, as a multiple. @default 1.25 */
  maxChunkOvershoot?: number | undefined;
  /** Largest summary accepted, as a share of the tokens it replaces (header included). @default 0.9 */
  maxSummaryRatio?: number | undefined;
  /** Target size of a chunk's summary, as a share of the chunk's tokens. @default 0.1 */
  chunkSummaryRatio?: number | undefined;
  /** Target size of a chunk's summary, as a share of what users and the assistant said in it (the larger target wins). @default 0.25 */
  proseSummaryRatio?: number | undefined;
  /** Target size of a consolidated summary, as a share of the summaries it merges. @default 1/3 */
  consolidateSummaryRatio?: number | undefined;
  /** Smallest target asked of a summarizer, in tokens. @default 64 */
  minTargetTokens?: number | undefined;
  /** Share of the T1 summaries (the oldest) merged by one consolidation; at least two. @default 0.5 */
  consolidateShare?: number | undefined;
  /** A lone summary consolidated more often than this is left as it is (`fully-consolidated`). @default 8 */
  maxConsolidationLevel?: number | undefined;
  /** Room for identifiers added back to a summary, as a share of its target. @default 0.25 */
  identifierNoteRatio?: number | undefined;
  /** Smallest room for identifiers added back, in tokens. @default 32 */
  minIdentifierNoteTokens?: number | undefined;
  /**
   * Which summarizer facts enter T2: `'judged'` only durable statements (see `admitFacts`; the
   * others stay notes of the summary), `'trusted'` every fact as returned. @default 'judged'
   */
  factAdmission?: FactAdmission | undefined;
}

/** Defaults of the graduation policy. */
export const GRADUATOR_DEFAULTS: {
  readonly timeoutMs: number;
  readonly retries: number;
  readonly graduationTarget: number;
  readonly maxChunkOvershoot: number;
  readonly maxSummaryRatio: number;
  readonly chunkSummaryRatio: number;
  readonly proseSummaryRatio: number;
  readonly consolidateSummaryRatio: number;
  readonly minTargetTokens: number;
  readonly consolidateShare: number;
  readonly maxConsolidationLevel: number;
  readonly identifierNoteRatio: number;
  readonly minIdentifierNoteTokens: number;
  readonly factAdmission: FactAdmission;
} = {
  timeoutMs: 60_000,
  retries: 1,
  graduationTarget: 0.8,
  maxChunkOvershoot: 1.25,
  maxSummaryRatio: 0.9,
  chunkSummaryRatio: 0.1,
  proseSummaryRatio: 0.25,
  consolidateSummaryRatio: 1 / 3,
  minTargetTokens: 64,
  consolidateShare: 0.5,
  maxConsolidationLevel: 8,
  identifierNoteRatio: 0.25,
  minIdentifierNoteTokens: 32,
  factAdmission: DEFAULT_FACT_ADMISSION,
};

/** What a {@link Graduator} graduates: T0 entries and T1 summaries it can read and commit to. */
export interface GraduationSubject {
  /** T0 entries, oldest first (read anew at every step: records may arrive while a summarizer runs). */
  entries(): readonly Entry[];
  /** T1 summaries, oldest first. */
  summaries(): readonly Summary[];
  /** Tokens of T0. */
  readonly workingTokens: number;
  /** Tokens of T1. */
  readonly summaryTokens: number;
  /** When T0 and T1 must graduate. */
  limits(): TierLimits;
  /** The sequence number the next committed event gets. */
  nextSeq(): number;
  /** Commits a graduation and returns the tokens it took out of T0 + T1 (what left, less the new summary). */
  commit(event: GraduationEvent, details: { readonly boundary: string | undefined }): number;
}

/** Told what a graduation does, as it happens. Every member is optional. */
export interface GraduationReporter {
  /** A chunk or consolidation is being summarised. */
  start?(event: GraduationStartEvent): void;
  /** The summarizer failed; the fallback's result is used. */
  fallback?(event: SummarizerFallbackEvent): void;
  /** A committed summary was cut to its limit. */
  trim?(event: SummaryTrimEvent): void;
  /** A tier stays over its limit (reported once per cause until a graduation commits). */
  stall?(event: GraduationStallEvent): void;
}

/**
 * Owns the graduation policy: when T0 is over its limit, it cuts the oldest chunk at the
 * strongest allowed boundary, summarises it through a safe pipeline (timeout, retries,
 * validation, fallback; see `wrapSummarizer`) and asks its subject to commit one graduation
 * event; when T1 is over its limit, it consolidates the oldest summaries. Every step commits a
 * graduation that makes its tier smaller or reports a stall, so `graduate()` always ends.
 *
 * @example
 * ```ts
 * const graduator = new Graduator({ summarizer, timeoutMs: 30_000 });
 * await graduator.graduate({ subject: tierStore.graduationSubject({ limits: { working: 6_000, summaries: 4_000 } }) });
 * ```
 */
export class Graduator {
  readonly #options: ResolvedGraduatorOptions;
  readonly #summarizer: Summarizer;
  readonly #fallback: Summarizer;
  readonly #counter: TokenCounter;
  readonly #detector: { scoreGaps(entries: readonly Entry[]): readonly BoundaryScore[] };
  /** `tier:reason` of the last stall reported, until a graduation commits. */
  #stall: string | undefined;

  /**
   * Creates a graduator. Does no I/O.
   * @throws {InvalidArgumentError} when an option is invalid.
   */
  constructor(options: GraduatorOptions = {}) {
    const parsed = parse(graduatorOptionsSchema, options, 'new Graduator', 'new Graduator({ summarizer, timeoutMs: 30_000 })');
    this.#options = parsed;
    const patterns = parsed.patterns ?? defaultPatterns;
    this.#fallback = parsed.fallback ?? createExtractiveSummarizer({ patterns });
    this.#summarizer = parsed.summarizer ?? this.#fallback;
    this.#counter = parsed.tokenCounter ?? createTokenCounter();
    this.#detector = parsed.boundaryDetector ?? createBoundaryDetector({ patterns });
  }

  /** The tier that must graduate next, or `undefined` when both are within their limits. */
  readonly tierToGraduate = (subject: Pick<GraduationSubject, 'workingTokens' | 'summaryTokens' | 'limits'>): 'working' | 'summaries' | undefined => {
    const limits = subject.limits();
    if (subject.workingTokens > limits.working) return 'working';
    return subject.summaryTokens > limits.summaries ? 'summaries' : undefined;
  };

  /** Chooses the chunk of oldest entries that would graduate to bring T0 down to its target. */
  readonly planChunk = (options: { entries: readonly Entry[]; workingLimit: number }): ChunkPlan | undefined => {
    const tokens = options.entries.reduce((sum, entry) => sum + entry.tokens, 0);
    const target = tokens - Math.floor(options.workingLimit * this.#options.graduationTarget);
    return planChunk({
      entries: options.entries,
      scores: this.#detector.scoreGaps(options.entries),
      targetTokens: target,
      maxOvershoot: this.#options.maxChunkOvershoot,
    });
  };

  /**
   * Graduates until T0 and T1 are within their limits or cannot shrink further (reported as a
   * stall). Rejects only when the fallback summarizer or the commit fails: nothing was committed
   * by the failed step; the error carries a code that says which.
   */
  readonly graduate = async (options: { subject: GraduationSubject; reporter?: GraduationReporter | undefined }): Promise<void> => {
    const { subject } = options;
    const reporter = options.reporter ?? {};
    const stuck = new Set<GraduationStallEvent['tier']>();
    try {
      for (;;) {
        const limits = subject.limits();
        const tier = subject.workingTokens > limits.working && !stuck.has('working')
          ? 'working'
          : subject.summaryTokens > limits.summaries && !stuck.has('summaries') ? 'summaries' : undefined;
        if (tier === undefined) return;
        const step = tier === 'working' ? await this.#graduateChunk(subject, reporter) : await this.#consolidate(subject, reporter);
        if (step === true) {
          this.#stall = undefined;
          continue;
        }
        stuck.add(tier);
        this.#reportStall({ subject, reporter, tier, reason: step });
      }
    } catch (error) {
      if (MobiusError.isInstance(error)) throw error;
      throw new MobiusError('GRADUATION_FAILED', `graduation failed and was abandoned; nothing left T0: ${error instanceof Error ? error.message : String(error)}. This is a bug in a component Mobius called (token counter, boundary detector or storage); the session is intact.`, { cause: error });
    }
  };

  // A tier that stays over budget is reported once per cause, not on every record.
  #reportStall(options: { subject: GraduationSubject; reporter: GraduationReporter; tier: GraduationStallEvent['tier']; reason: GraduationStallEvent['reason'] }): void {
    const { subject, tier, reason } = options;
    if (this.#stall === `${tier}:${reason}`) return;
    this.#stall = `${tier}:${reason}`;
    const limits = subject.limits();
    options.reporter.stall?.(tier === 'working'
      ? { tier, reason, tokens: subject.workingTokens, limit: limits.working }
      : { tier, reason, tokens: subject.summaryTokens, limit: limits.summaries });
  }

  async #graduateChunk(subject: GraduationSubject, reporter: GraduationReporter): Promise<GraduationStep> {
    const options = this.#options;
    const entries = [...subject.entries()];
    const plan = this.planChunk({ entries, workingLimit: subject.limits().working });
    if (plan === undefined) return 'no-allowed-cut';
    const chunk = entries.slice(0, plan.count);
    const first = chunk[0] as Entry;
    const last = chunk[chunk.length - 1] as Entry;
    const source = { from: first.seq, to: last.seq };
    const maxSummaryTokens = this.#maxSummaryTokens({ tokens: plan.tokens, source, period: { from: first.at, to: last.at } });
    if (maxSummaryTokens < MIN_SUMMARY_TOKENS) return 'no-shrink';
    reporter.start?.({ mode: 'chunk', source, tokens: plan.tokens });
    // Tool output compresses hard; what people said is kept near-verbatim where it carries content.
    const proseTokens = chunk.reduce((sum, entry) => sum + (entry.kind === 'user' || entry.kind === 'assistant' ? entry.tokens : 0), 0);
    const targetTokens = Math.max(options.minTargetTokens, Math.round(plan.tokens * options.chunkSummaryRatio), Math.round(proseTokens * options.proseSummaryRatio));
    const countTokens = (text: string): number => this.#counter.count(text);
    const outcome = this.#admit(await this.#summarize({ request: { mode: 'chunk', entries: chunk, summaries: [], targetTokens, countTokens }, maxSummaryTokens }), { source, maxSummaryTokens });
    if (outcome.failure !== undefined) reporter.fallback?.(outcome.failure);
    // Identifiers added back must not make the summary larger than the ratio allows either.
    const room = maxSummaryTokens - countTokens(outcome.result.summary) - 1;
    const noteTokens = Math.max(options.minIdentifierNoteTokens, Math.round(targetTokens * options.identifierNoteRatio));
    const result = restoreIdentifiers({ entries: chunk, result: outcome.result, countTokens, maxTokens: Math.min(room, noteTokens) });
    const seq = subject.nextSeq();
    const freed = subject.commit({
      type: 'graduation',
      seq,
      mode: 'chunk',
      source,
      entrySeqs: chunk.map((entry) => entry.seq),
      summaryIds: [],
      summary: { id: `s${seq}`, text: result.summary, level: 1, sections: result.sections ?? plainTextSections({ text: result.summary, source }) },
      facts: result.facts ?? [],
      tasks: result.tasks ?? [],
      summarizer: outcome.summarizer,
      isFallback: outcome.isFallback,
    }, { boundary: plan.boundary.reason });
    this.#reportTrim({ reporter, summaryId: `s${seq}`, source, outcome, limit: maxSummaryTokens });
    return freed > 0 ? true : 'no-shrink';
  }

  async #consolidate(subject: GraduationSubject, reporter: GraduationReporter): Promise<GraduationStep> {
    const options = this.#options;
    const summaries = [...subject.summaries()];
    if (summaries.length === 0) return 'no-shrink';
    const count = summaries.length === 1 ? 1 : Math.max(2, Math.floor(summaries.length * options.consolidateShare));
    const oldest = summaries.slice(0, count);
    const tokens = oldest.reduce((sum, summary) => sum + summary.tokens, 0);
    if (count === 1 && (oldest[0]?.level ?? 0) > options.maxConsolidationLevel) return 'fully-consolidated';
    const source = { from: oldest[0]?.source.from ?? 0, to: oldest[oldest.length - 1]?.source.to ?? 0 };
    const maxSummaryTokens = this.#maxSummaryTokens({ tokens, source, period: { from: oldest[0]?.period?.from, to: oldest[oldest.length - 1]?.period?.to } });
    if (maxSummaryTokens < MIN_SUMMARY_TOKENS) return 'no-shrink';
    reporter.start?.({ mode: 'consolidate', source, tokens });
    const targetTokens = Math.max(options.minTargetTokens, Math.round(tokens * options.consolidateSummaryRatio));
    const request = { mode: 'consolidate' as const, entries: [], summaries: oldest, targetTokens, countTokens: (text: string) => this.#counter.count(text) };
    const outcome = this.#admit(await this.#summarize({ request, maxSummaryTokens }), { source, maxSummaryTokens });
    if (outcome.failure !== undefined) reporter.fallback?.(outcome.failure);
    const seq = subject.nextSeq();
    const text = outcome.result.summary;
    const freed = subject.commit({
      type: 'graduation',
      seq,
      mode: 'consolidate',
      source,
      entrySeqs: [],
      summaryIds: oldest.map((summary) => summary.id),
      summary: { id: `s${seq}`, text, level: Math.max(...oldest.map((summary) => summary.level)) + 1, sections: outcome.result.sections ?? plainTextSections({ text, source }) },
      facts: outcome.result.facts ?? [],
      tasks: outcome.result.tasks ?? [],
      summarizer: outcome.summarizer,
      isFallback: outcome.isFallback,
    }, { boundary: undefined });
    this.#reportTrim({ reporter, summaryId: `s${seq}`, source, outcome, limit: maxSummaryTokens });
    return freed > 0 ? true : 'no-shrink';
  }

  #summarize(options: { request: Parameters<typeof summarizeSafely>[0]['request']; maxSummaryTokens: number }): Promise<SummarizeOutcome> {
    return summarizeSafely({
      summarizer: this.#summarizer,
      fallback: this.#fallback,
      request: options.request,
      timeoutMs: this.#options.timeoutMs,
      retries: this.#options.retries,
      maxSummaryTokens: options.maxSummaryTokens,
    });
  }

  // Facts of a summarizer that did not judge them itself pass judgeFact(); the rest become notes.
  #admit(outcome: SummarizeOutcome, options: { source: SequenceRange; maxSummaryTokens: number }): SummarizeOutcome {
    const producer = outcome.isFallback ? this.#fallback : this.#summarizer;
    if (this.#options.factAdmission === 'trusted' || hasJudgedFacts(producer) || (outcome.result.facts ?? []).length === 0) return outcome;
    const { result } = admitFacts({ result: outcome.result, source: options.source, countTokens: (text) => this.#counter.count(text), maxTokens: options.maxSummaryTokens });
    return { ...outcome, result };
  }

  // Tokens a summary may have so that, rendered with its header, it stays within
  // `maxSummaryRatio` of what it replaces.
  #maxSummaryTokens(options: { tokens: number; source: SequenceRange; period: { from?: string | undefined; to?: string | undefined } }): number {
    const header = this.#counter.count(renderSummary({ source: options.source, text: '', period: options.period }));
    return Math.floor(options.tokens * this.#options.maxSummaryRatio) - header - 1;
  }

  #reportTrim(options: { reporter: GraduationReporter; summaryId: string; source: SequenceRange; outcome: SummarizeOutcome; limit: number }): void {
    const { outcome } = options;
    if (outcome.trimmedFrom === undefined) return;
    options.reporter.trim?.({ summaryId: options.summaryId, source: options.source, tokens: outcome.trimmedFrom, limit: options.limit });
  }
}

// --- Internal helpers ---

/** A graduation step: `true` when it committed and made its tier smaller, else why not. */
type GraduationStep = true | GraduationStallEvent['reason'];

const ratio = z.number().gt(0).lt(1);

const graduatorOptionsSchema = z.strictObject({
  summarizer: z.custom<Summarizer>(isSummarizer, 'expected an object with `name` and `summarize()`').optional(),
  fallback: z.custom<Summarizer>(isSummarizer, 'expected an object with `name` and `summarize()`').optional(),
  patterns: z.custom<PatternPack>((value) => typeof value === 'object' && value !== null, 'expected a PatternPack').optional(),
  tokenCounter: z.custom<TokenCounter>((value) => typeof (value as { count?: unknown } | null)?.count === 'function', 'expected an object with `count(text)`').optional(),
  boundaryDetector: z
    .custom<{ scoreGaps(entries: readonly Entry[]): readonly BoundaryScore[] }>((value) => typeof (value as { scoreGaps?: unknown } | null)?.scoreGaps === 'function', 'expected an object with `scoreGaps(entries)`')
    .optional(),
  timeoutMs: z.number().int().positive().default(GRADUATOR_DEFAULTS.timeoutMs),
  retries: z.number().int().min(0).max(10).default(GRADUATOR_DEFAULTS.retries),
  graduationTarget: ratio.default(GRADUATOR_DEFAULTS.graduationTarget),
  maxChunkOvershoot: z.number().min(1).max(4).default(GRADUATOR_DEFAULTS.maxChunkOvershoot),
  maxSummaryRatio: ratio.default(GRADUATOR_DEFAULTS.maxSummaryRatio),
  chunkSummaryRatio: ratio.default(GRADUATOR_DEFAULTS.chunkSummaryRatio),
  proseSummaryRatio: ratio.default(GRADUATOR_DEFAULTS.proseSummaryRatio),
  consolidateSummaryRatio: ratio.default(GRADUATOR_DEFAULTS.consolidateSummaryRatio),
  minTargetTokens: z.number().int().positive().default(GRADUATOR_DEFAULTS.minTargetTokens),
  consolidateShare: ratio.default(GRADUATOR_DEFAULTS.consolidateShare),
  maxConsolidationLevel: z.number().int().min(1).default(GRADUATOR_DEFAULTS.maxConsolidationLevel),
  identifierNoteRatio: ratio.default(GRADUATOR_DEFAULTS.identifierNoteRatio),
  minIdentifierNoteTokens: z.number().int().min(0).default(GRADUATOR_DEFAULTS.minIdentifierNoteTokens),
  factAdmission: z.enum(['judged', 'trusted']).default(GRADUATOR_DEFAULTS.factAdmission),
});

type ResolvedGraduatorOptions = z.output<typeof graduatorOptionsSchema>;

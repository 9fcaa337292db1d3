import type { Entry } from '../types.js';
import { matcherFor, patternOptionsSchema, type PatternMatcher, type PatternPack } from './pattern-pack.js';
import { defaultPatterns } from './patterns/default.js';
import { parse } from '../validation.js';

/**
 * How good a gap between two T0 entries is as a cut point, from best to unusable:
 * `strong` (a task finished or the topic changed), `moderate` (a user turn starts), `weak`
 * (anywhere else) and `forbidden` (a cut would split a tool call from its result, a code block
 * or an error trace).
 */
export type BoundaryStrength = 'strong' | 'moderate' | 'weak' | 'forbidden';

/** The score of one gap, with a short human-readable reason. */
export interface BoundaryScore {
  /** How good the gap is as a cut point. */
  readonly strength: BoundaryStrength;
  /** Why, e.g. `"completion"`, `"user turn"`, `"tool call c1 awaits its result"`. */
  readonly reason: string;
}

/** Scores the gaps between consecutive T0 entries. */
export interface BoundaryDetector {
  /**
   * Returns one score per entry: `result[i]` scores the gap after `entries[i]`; the last one is
   * the gap after the newest entry. Deterministic and free of I/O.
   */
  scoreGaps(entries: readonly Entry[]): BoundaryScore[];
}

/** Options for {@link createBoundaryDetector}. */
export interface BoundaryDetectorOptions {
  /** Phrases for completions, topic changes, test runs and traces. @default defaultPatterns (English and Vietnamese) */
  patterns?: PatternPack | undefined;
}

/** Every strength, from unusable to best. */
export const BOUNDARY_STRENGTHS: readonly BoundaryStrength[] = ['forbidden', 'weak', 'moderate', 'strong'];

/**
 * Orders strengths from unusable to best, for sorting: negative when `a` is weaker than `b`, zero
 * when equal, positive when stronger.
 */
export function compareStrength(a: BoundaryStrength, b: BoundaryStrength): number {
  return BOUNDARY_STRENGTHS.indexOf(a) - BOUNDARY_STRENGTHS.indexOf(b);
}

/**
 * Creates a boundary detector.
 *
 * A gap is `forbidden` when a tool call made at or before it has no result before it (providers
 * reject orphan calls), when an odd number of code fences has been seen in the current run of
 * same-role entries (a fenced block spans the gap), or when the next entry continues an error trace
 * the entry before it ends. Otherwise it is `strong` when the entry before it completes something
 * (completion wording in its first or last sentence, or a green test run) or the user leaves, or
 * when the next entry is a user message that changes topic; `moderate` when the next entry is a
 * user message (or the newest entry is an assistant reply that ends a turn); `weak` otherwise.
 *
 * @example
 * ```ts
 * const detector = createBoundaryDetector({ patterns: englishPatterns });
 * const scores = detector.scoreGaps(entries); // scores[i]: the gap after entries[i]
 * ```
 */
export function createBoundaryDetector(options: BoundaryDetectorOptions = {}): BoundaryDetector {
  const parsed = parse(patternOptionsSchema, options, 'createBoundaryDetector', 'createBoundaryDetector({ patterns: defaultPatterns })');
  const matcher = matcherFor(parsed.patterns ?? defaultPatterns);
  return {
    scoreGaps: (entries: readonly Entry[]): BoundaryScore[] => scoreAll(entries, matcher),
  };
}

/**
 * Tells whether an entry completes something: a message whose first or last sentence uses
 * completion wording, or a test run whose output is green (matches `testPass`, not `testFail`, and
 * is not flagged as an error).
 */
export function isCompletionEntry(entry: Entry, options: { patterns: PatternPack }): boolean {
  return isCompletion(entry, { matcher: matcherFor(options.patterns) });
}

/** Tells whether a tool result is a green test or type-check run. */
export function isGreenRun(entry: Entry, options: { patterns: PatternPack }): boolean {
  return isGreen(entry, matcherFor(options.patterns));
}

// --- Internal helpers ---

const FENCE_LINE = /^\s{0,3}(?:```|~~~)/u;
const TRACE_TAIL =
  /^\s+at\s|^\s*File "|Traceback|^\s*\^+\s*$|\b[A-Z][A-Za-z]*(?:Error|Exception)\b|^\s*panic:|^\s*Caused by|^\s*goroutine\s/u;
const SENTENCE_END = /(?<=[.!?])\s+/u;

function scoreAll(entries: readonly Entry[], matcher: PatternMatcher): BoundaryScore[] {
  const scores: BoundaryScore[] = [];
  const pending = new Map<string, number>();
  let fenceParity = 0;
  for (let index = 0; index < entries.length; index += 1) {
    const entry = entries[index] as Entry;
    const next = entries[index + 1];
    // A late result answers a call that was already closed: it cannot clear a newer pending call.
    if (entry.callId !== undefined && entry.isLate !== true) pending.delete(entry.callId);
    for (const call of entry.toolCalls ?? []) pending.set(call.id, index);
    // A fenced block can only continue into an entry of the same role; a role change starts a new
    // run, so an unbalanced fence in one message cannot forbid every later gap.
    const previous = entries[index - 1];
    if (previous !== undefined && previous.role !== entry.role) fenceParity = 0;
    const isInsideAtStart = fenceParity === 1;
    fenceParity = (fenceParity + countFences(entry.text)) % 2;

    scores.push(scoreGap({ entry, next, pending, fenceParity, isInsideAtStart, matcher }));
  }
  return scores;
}

function scoreGap(options: {
  entry: Entry;
  next: Entry | undefined;
  pending: ReadonlyMap<string, number>;
  fenceParity: number;
  isInsideAtStart: boolean;
  matcher: PatternMatcher;
}): BoundaryScore {
  const { entry, next, pending, fenceParity, isInsideAtStart, matcher } = options;
  const [firstPending] = pending.keys();
  if (firstPending !== undefined) {
    return { strength: 'forbidden', reason: `tool call ${firstPending} awaits its result` };
  }
  if (fenceParity === 1 && (next === undefined || next.role === entry.role)) {
    return { strength: 'forbidden', reason: 'inside a fenced code block' };
  }
  if (next !== undefined && continuesTrace(entry, { next, matcher })) {
    return { strength: 'forbidden', reason: 'inside an error trace' };
  }
  if (isCompletion(entry, { matcher, isInsideAtStart })) {
    return { strength: 'strong', reason: entry.kind === 'tool-result' ? 'green test run' : 'completion' };
  }
  if (entry.kind === 'user' && matcher.test('leaving', firstSentence(entry.text))) {
    return { strength: 'strong', reason: 'user leaving' };
  }
  if (next === undefined) {
    return entry.kind === 'assistant' && (entry.toolCalls ?? []).length === 0
      ? { strength: 'moderate', reason: 'end of turn' }
      : { strength: 'weak', reason: 'newest entry' };
  }
  if (next.kind === 'user') {
    return matcher.test('topicChange', opening(next.text))
      ? { strength: 'strong', reason: 'topic change' }
      : { strength: 'moderate', reason: 'user turn' };
  }
  return { strength: 'weak', reason: 'mid-turn' };
}

function isCompletion(entry: Entry, options: { matcher: PatternMatcher; isInsideAtStart?: boolean }): boolean {
  const { matcher, isInsideAtStart = false } = options;
  if (entry.kind === 'tool-result') return isGreen(entry, matcher);
  if (entry.kind !== 'user' && entry.kind !== 'assistant') return false;
  const prose = stripFencedBlocks(entry.text, isInsideAtStart);
  return [firstSentence(prose), lastSentence(prose)].some(
    (sentence) =>
      matcher.test('completion', sentence) &&
      !matcher.test('conditional', sentence) &&
      !matcher.test('taskStatus', sentence) &&
      !matcher.test('topicChange', sentence) &&
      !sentence.trimEnd().endsWith('?'),
  );
}

function isGreen(entry: Entry, matcher: PatternMatcher): boolean {
  if (entry.isError === true) return false;
  return matcher.test('testPass', entry.text) && !matcher.test('testFail', entry.text);
}

function continuesTrace(entry: Entry, options: { next: Entry; matcher: PatternMatcher }): boolean {
  const { next, matcher } = options;
  const nextFirst = firstLine(next.text);
  if (nextFirst === undefined || !matcher.test('traceContinuation', nextFirst)) return false;
  const lines = entry.text.split('\n').filter((line) => line.trim().length > 0);
  const last = lines[lines.length - 1];
  return last !== undefined && (TRACE_TAIL.test(last) || matcher.test('traceContinuation', last));
}

function countFences(text: string): number {
  let count = 0;
  for (const line of text.split('\n')) if (FENCE_LINE.test(line)) count += 1;
  return count;
}

function stripFencedBlocks(text: string, isInsideAtStart: boolean): string {
  const kept: string[] = [];
  let isInside = isInsideAtStart;
  for (const line of text.split('\n')) {
    if (FENCE_LINE.test(line)) {
      isInside = !isInside;
      continue;
    }
    if (!isInside) kept.push(line);
  }
  return kept.join('\n');
}

function firstLine(text: string): string | undefined {
  return text.split('\n').find((line) => line.trim().length > 0);
}

function firstSentence(text: string): string {
  const line = firstLine(text) ?? '';
  return line.trim().split(SENTENCE_END)[0] ?? '';
}

function lastSentence(text: string): string {
  const lines = text.split('\n').filter((line) => line.trim().length > 0);
  const line = (lines[lines.length - 1] ?? '').trim();
  const sentences = line.split(SENTENCE_END);
  return sentences[sentences.length - 1] ?? '';
}

function opening(text: string): string {
  return text.trim().slice(0, 200);
}

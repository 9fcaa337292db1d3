import type { Entry, ToolCall } from '../types.js';
import { matcherFor, parsePatternOptions, type PatternGroup, type PatternMatcher, type PatternPack } from './pattern-pack.js';
import { defaultPatterns } from './patterns/default.js';

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
 * (completion wording in its first or last sentence, or a green test run the agent does not report
 * on right after: then the gap is `weak`; completion wording while a test run fails is `weak` too)
 * or the user leaves, or
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
  const parsed = parsePatternOptions(options, 'createBoundaryDetector', 'createBoundaryDetector({ patterns: defaultPatterns })');
  const matcher = matcherFor(parsed.patterns ?? defaultPatterns);
  // Compiled here, once per process, rather than in the first build() that meets each group.
  matcher.warm(SCORING_GROUPS);
  // Appending an entry changes only the score of the gap before it, so the scores of the last call
  // are kept with the scan state after its newest entry and extended when the entries extend them.
  let previous: ScanState | undefined;
  const scoreShared = (entries: readonly Entry[], isAppendOnly: boolean): readonly BoundaryScore[] => {
    previous = scoreAll({ entries, matcher, previous, isAppendOnly });
    return previous.scores;
  };
  // A caller's own array may change anywhere between calls; the window builder's (the tier
  // store's T0) only grows in place until it is replaced.
  const detector: BoundaryDetector = { scoreGaps: (entries: readonly Entry[]): BoundaryScore[] => scoreShared(entries, false).slice() };
  sharedScorers.set(detector, (entries) => scoreShared(entries, true));
  return detector;
}

/**
 * Scores the gaps like `detector.scoreGaps(entries)`, without copying the detector's own array of
 * scores: valid only until the detector's next call. For the window builder, which scores T0 at
 * every build and reads the scores at once. @internal
 */
export function scoreGapsShared(detector: BoundaryDetector, entries: readonly Entry[]): readonly BoundaryScore[] {
  const shared = sharedScorers.get(detector);
  return shared === undefined ? detector.scoreGaps(entries) : shared(entries);
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

/** The pattern groups gap scoring tests. */
const SCORING_GROUPS: readonly PatternGroup[] = ['completion', 'conditional', 'taskStatus', 'topicChange', 'leaving', 'testPass', 'testFail', 'traceContinuation'];

const TRACE_TAIL =
  /^\s+at\s|^\s*File "|Traceback|^\s*\^+\s*$|\b[A-Z][A-Za-z]*(?:Error|Exception)\b|^\s*panic:|^\s*Caused by|^\s*goroutine\s/u;
const SENTENCE_END = /(?<=[.!?])\s+/u;

// Detectors made here, with their scoring that returns the scan's own array (a memo, not
// configuration: weak, and it changes no result).
const sharedScorers = new WeakMap<BoundaryDetector, (entries: readonly Entry[]) => readonly BoundaryScore[]>();

/** The scan after its newest entry; extended in place when the entries are extended. */
interface ScanState {
  /** The entries scored, as they were (T0 arrays are updated in place). */
  readonly entries: Entry[];
  readonly scores: BoundaryScore[];
  /** Calls still pending after the newest entry, in the order they were made. */
  readonly pending: Map<string, number>;
  fenceParity: number;
  /** Whether the newest entry started inside a fenced block. */
  isInsideAtStart: boolean;
  /** Whether a test run failed with no green run since, up to the newest entry. */
  isFailing: boolean;
  /** The array the entries last came in, when it only grows in place. */
  source: readonly Entry[] | undefined;
}

function scoreAll(options: { entries: readonly Entry[]; matcher: PatternMatcher; previous: ScanState | undefined; isAppendOnly: boolean }): ScanState {
  const { entries, matcher, previous } = options;
  let state: ScanState;
  let start = 0;
  // An array that only grows in place (and is replaced when entries leave): the same array, no
  // shorter, extends the scan without a look at every entry.
  const isSameSource = previous !== undefined && previous.source === entries && entries.length >= previous.entries.length;
  const source = options.isAppendOnly ? entries : undefined;
  if (previous !== undefined) previous.source = source;
  if (previous !== undefined && previous.entries.length > 0 && (isSameSource || extendsEntries(entries, previous.entries))) {
    if (previous.entries.length === entries.length) return previous;
    // Only the newest gap of the previous scan had no next entry: score it again, then go on.
    const last = previous.entries.length - 1;
    state = previous;
    state.scores[last] = scoreGap({ entry: entries[last] as Entry, next: entries[last + 1], pending: state.pending, fenceParity: state.fenceParity, isInsideAtStart: state.isInsideAtStart, isFailing: state.isFailing, matcher });
    start = last + 1;
  } else {
    state = { entries: [], scores: [], pending: new Map(), fenceParity: 0, isInsideAtStart: false, isFailing: false, source };
  }
  const { pending } = state;
  for (let index = start; index < entries.length; index += 1) {
    const entry = entries[index] as Entry;
    const next = entries[index + 1];
    state.entries.push(entry);
    // A late result answers a call that was already closed: it cannot clear a newer pending call.
    if (entry.callId !== undefined && entry.isLate !== true) pending.delete(entry.callId);
    const calls = entry.toolCalls;
    if (calls !== undefined) for (let call = 0; call < calls.length; call += 1) pending.set((calls[call] as ToolCall).id, index);
    // A fenced block can only continue into an entry of the same role; a role change starts a new
    // run, so an unbalanced fence in one message cannot forbid every later gap.
    const before = entries[index - 1];
    if (before !== undefined && before.role !== entry.role) state.fenceParity = 0;
    state.isInsideAtStart = state.fenceParity === 1;
    state.fenceParity = (state.fenceParity + featuresOf(entry, matcher).fences) % 2;
    if (entry.kind === 'tool-result') state.isFailing = isGreen(entry, matcher) ? false : state.isFailing || matcher.test('testFail', entry.text);

    state.scores.push(scoreGap({ entry, next, pending, fenceParity: state.fenceParity, isInsideAtStart: state.isInsideAtStart, isFailing: state.isFailing, matcher }));
  }
  return state;
}

function scoreGap(options: {
  entry: Entry;
  next: Entry | undefined;
  pending: ReadonlyMap<string, number>;
  fenceParity: number;
  isInsideAtStart: boolean;
  isFailing: boolean;
  matcher: PatternMatcher;
}): BoundaryScore {
  const { entry, next, pending, fenceParity, isInsideAtStart, isFailing, matcher } = options;
  if (pending.size > 0) {
    const [firstPending] = pending.keys();
    return { strength: 'forbidden', reason: `tool call ${firstPending as string} awaits its result` };
  }
  if (fenceParity === 1 && (next === undefined || next.role === entry.role)) {
    return { strength: 'forbidden', reason: 'inside a fenced code block' };
  }
  const features = featuresOf(entry, matcher);
  if (next !== undefined && features.hasTraceTail() && featuresOf(next, matcher).isTraceStart()) {
    return { strength: 'forbidden', reason: 'inside an error trace' };
  }
  // The agent's words right after a green run report on it, and often tell what fixed the failure
  // before it: the run and that report stay in one chunk (the report ends the task in its turn).
  if (entry.kind === 'tool-result' && next?.kind === 'assistant' && next.text.trim().length > 0 && isGreen(entry, matcher)) {
    return { strength: 'weak', reason: 'green run the agent reports on next' };
  }
  // "Done: …" while a run still fails ends a step of the debugging, not the failure: the cause
  // told before it and the fix told after the green run stay in reach of each other.
  if (isFailing && entry.kind !== 'tool-result' && features.isCompletion(isInsideAtStart)) {
    return { strength: 'weak', reason: 'completion while a run fails' };
  }
  if (features.isCompletion(isInsideAtStart)) {
    return { strength: 'strong', reason: entry.kind === 'tool-result' ? 'green test run' : 'completion' };
  }
  if (entry.kind === 'user' && features.isLeaving()) {
    return { strength: 'strong', reason: 'user leaving' };
  }
  if (next === undefined) {
    return entry.kind === 'assistant' && (entry.toolCalls ?? []).length === 0
      ? { strength: 'moderate', reason: 'end of turn' }
      : { strength: 'weak', reason: 'newest entry' };
  }
  if (next.kind === 'user') {
    return featuresOf(next, matcher).isTopicChange()
      ? { strength: 'strong', reason: 'topic change' }
      : { strength: 'moderate', reason: 'user turn' };
  }
  return { strength: 'weak', reason: 'mid-turn' };
}

function isCompletion(entry: Entry, options: { matcher: PatternMatcher; isInsideAtStart?: boolean }): boolean {
  const { matcher, isInsideAtStart = false } = options;
  if (entry.kind === 'tool-result') return isGreen(entry, matcher);
  if (entry.kind !== 'user' && entry.kind !== 'assistant') return false;
  const prose = proseEnds(entry.text, isInsideAtStart);
  return [firstSentenceOf(prose.first), lastSentenceOf(prose.last)].some(
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

/**
 * What scoring needs to know about one entry, each part computed on first use and kept while the
 * entry lives: entries are immutable, and a T0 entry is scored at every build until it graduates.
 */
interface EntryFeatures {
  /** Fence lines in the entry's text. */
  readonly fences: number;
  /** Whether the entry completes something, given whether it starts inside a fenced block. */
  isCompletion(isInsideAtStart: boolean): boolean;
  /** Whether the first sentence says the user is leaving. */
  isLeaving(): boolean;
  /** Whether the opening changes the topic (for a user entry that follows a gap). */
  isTopicChange(): boolean;
  /** Whether the first non-blank line continues an error trace. */
  isTraceStart(): boolean;
  /** Whether the last non-blank line belongs to an error trace. */
  hasTraceTail(): boolean;
}

// Per matcher, so that detectors with different packs never share answers; weak, so that entries
// that leave T0 take their features with them.
const featureCaches = new WeakMap<PatternMatcher, WeakMap<Entry, EntryFeatures>>();

function featuresOf(entry: Entry, matcher: PatternMatcher): EntryFeatures {
  let cache = featureCaches.get(matcher);
  if (cache === undefined) {
    cache = new WeakMap();
    featureCaches.set(matcher, cache);
  }
  let features = cache.get(entry);
  if (features === undefined) {
    features = computeFeatures(entry, matcher);
    cache.set(entry, features);
  }
  return features;
}

function computeFeatures(entry: Entry, matcher: PatternMatcher): EntryFeatures {
  const completion: (boolean | undefined)[] = [undefined, undefined];
  let isLeaving: boolean | undefined;
  let isTopicChange: boolean | undefined;
  let isTraceStart: boolean | undefined;
  let hasTraceTail: boolean | undefined;
  return {
    fences: countFences(entry.text),
    isCompletion: (isInsideAtStart) => (completion[isInsideAtStart ? 1 : 0] ??= isCompletion(entry, { matcher, isInsideAtStart })),
    isLeaving: () => (isLeaving ??= matcher.test('leaving', firstSentence(entry.text))),
    isTopicChange: () => (isTopicChange ??= matcher.test('topicChange', opening(entry.text))),
    isTraceStart: () => {
      if (isTraceStart === undefined) {
        const first = firstLine(entry.text);
        isTraceStart = first !== undefined && matcher.test('traceContinuation', first);
      }
      return isTraceStart;
    },
    hasTraceTail: () => {
      if (hasTraceTail === undefined) {
        const last = lastNonBlankLine(entry.text);
        hasTraceTail = last !== undefined && (TRACE_TAIL.test(last) || matcher.test('traceContinuation', last));
      }
      return hasTraceTail;
    },
  };
}

function extendsEntries(entries: readonly Entry[], previous: readonly Entry[]): boolean {
  if (entries.length < previous.length) return false;
  for (let index = previous.length - 1; index >= 0; index -= 1) if (entries[index] !== previous[index]) return false;
  return true;
}

function lastNonBlankLine(text: string): string | undefined {
  let end = text.length;
  while (end > 0) {
    const start = text.lastIndexOf('\n', end - 1);
    const line = text.slice(start + 1, end);
    if (line.trim().length > 0) return line;
    if (start < 0) return undefined;
    end = start;
  }
  return undefined;
}

// Entries can be large (a tool output of megabytes), so the helpers below walk the text line by
// line with indexOf instead of splitting it into an array of lines.

function countFences(text: string): number {
  let count = 0;
  for (let start = 0; ; ) {
    if (isFenceAt(text, start)) count += 1;
    const end = text.indexOf('\n', start);
    if (end < 0) return count;
    start = end + 1;
  }
}

/** Whether the line starting at `start` opens or closes a fenced block (as `FENCE_LINE` tests a line). */
function isFenceAt(text: string, start: number): boolean {
  let index = start;
  // Up to three whitespace characters; a line holds no '\n'.
  while (index - start < 3 && index < text.length && text.charCodeAt(index) !== 10 && isWhitespace(text.charCodeAt(index))) index += 1;
  return text.startsWith('```', index) || text.startsWith('~~~', index);
}

/** The first and last non-blank lines outside fenced blocks (empty when there are none). */
function proseEnds(text: string, isInsideAtStart: boolean): { first: string; last: string } {
  let isInside = isInsideAtStart;
  let first: string | undefined;
  let last = '';
  for (let start = 0; ; ) {
    const end = text.indexOf('\n', start);
    const stop = end < 0 ? text.length : end;
    if (isFenceAt(text, start)) {
      isInside = !isInside;
    } else if (!isInside) {
      const line = text.slice(start, stop);
      if (line.trim().length > 0) {
        first ??= line;
        last = line;
      }
    }
    if (end < 0) return { first: first ?? '', last };
    start = end + 1;
  }
}

function firstLine(text: string): string | undefined {
  for (let start = 0; ; ) {
    const end = text.indexOf('\n', start);
    const line = text.slice(start, end < 0 ? text.length : end);
    if (line.trim().length > 0) return line;
    if (end < 0) return undefined;
    start = end + 1;
  }
}

function firstSentence(text: string): string {
  return firstSentenceOf(firstLine(text) ?? '');
}

function firstSentenceOf(line: string): string {
  return line.trim().split(SENTENCE_END)[0] ?? '';
}

function lastSentenceOf(line: string): string {
  const sentences = line.trim().split(SENTENCE_END);
  return sentences[sentences.length - 1] ?? '';
}

// The characters `\s` matches.
function isWhitespace(code: number): boolean {
  if (code < 128) return code === 32 || (code >= 9 && code <= 13);
  return code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
}

function opening(text: string): string {
  return text.trim().slice(0, 200);
}

import { z } from 'zod';
import { parse } from '../validation.js';

/**
 * One pattern of a {@link PatternPack}: a phrase or a regular expression.
 *
 * A phrase is matched case-insensitively, on word boundaries that understand every script (a
 * letter of any language, a digit or `_` may not touch either end of the match). Whitespace in a
 * phrase matches any run of whitespace, `'` also matches `’`, and `…` (or `...`) matches a gap of
 * up to 60 characters within the same sentence, so `"change … to"` matches "change the DB timeout
 * to 12s". A regular expression is used as given (its `g` and `y` flags are ignored).
 */
export type Pattern = string | RegExp;

/**
 * Phrases that drive boundary detection and content-aware retention. Packs are plain data: merge
 * them with {@link mergePatternPacks} to add languages or project-specific wording.
 */
export interface PatternPack {
  /** A task or step is finished: "done", "fixed", "merged", "suite is passing". */
  readonly completion: readonly Pattern[];
  /** Makes completion wording hypothetical or future: "if", "before", "let's see whether". */
  readonly conditional: readonly Pattern[];
  /** A user message moves to another topic: "moving on", "switching gears", "something else". */
  readonly topicChange: readonly Pattern[];
  /** Output of a green test or type-check run (jest, vitest, pytest, go test, tsc …). */
  readonly testPass: readonly Pattern[];
  /** Output of a red test or type-check run; wins over {@link PatternPack.testPass}. */
  readonly testFail: readonly Pattern[];
  /** Short acknowledgements: "thanks", "got it", "makes sense". */
  readonly acknowledgement: readonly Pattern[];
  /** Greetings: "hi", "hello", "morning". */
  readonly greeting: readonly Pattern[];
  /** Small talk unrelated to the work: coffee, weather, meetings. */
  readonly chitChat: readonly Pattern[];
  /** The user is leaving or pausing: "bye", "signing off", "brb". */
  readonly leaving: readonly Pattern[];
  /** Wording that replaces an earlier statement: "change … to", "instead", "no longer". */
  readonly update: readonly Pattern[];
  /** Something was decided: "adopt", "we picked", "settled on". */
  readonly decision: readonly Pattern[];
  /** Something must hold: "must", "has to", "needs to support", "within 200ms". */
  readonly requirement: readonly Pattern[];
  /** Something is limited or forbidden: "don't", "never", "avoid", "at most". */
  readonly constraint: readonly Pattern[];
  /** How things are done here: "always", "every … gets", "naming", "prefix", "snake_case". */
  readonly convention: readonly Pattern[];
  /** What the user likes: "prefer", "I like", "cleaner". */
  readonly preference: readonly Pattern[];
  /** A fix for a failure: "fixed", "workaround", "solved". */
  readonly errorResolution: readonly Pattern[];
  /** An explanation of a failure: "because", "due to", "culprit", "traced". */
  readonly errorCause: readonly Pattern[];
  /** A failure being named: "error", "failure", "deadlock", "flaky", `TypeError`. */
  readonly errorSymptom: readonly Pattern[];
  /** A request that opens a task: "task:", "could you …", "please implement …". */
  readonly taskStatus: readonly Pattern[];
  /** Marks a statement as worth keeping: "note", "remember", "policy". */
  readonly factMarker: readonly Pattern[];
  /** Limits a statement to the current task, so it is not durable: "temporarily", "for the moment". */
  readonly transient: readonly Pattern[];
  /** Dead-end debugging: "red herring", "ruled out", "rolled back". */
  readonly deadEnd: readonly Pattern[];
  /** Announced intentions and plan steps, which summaries skip: "let me read …", "checking …". */
  readonly intention: readonly Pattern[];
  /** Leading discourse markers stripped from fact values: "also,", "btw,", "anyway,". */
  readonly filler: readonly Pattern[];
  /** First line of an entry that continues an error trace: `    at `, `File "`, `Caused by`. */
  readonly traceContinuation: readonly Pattern[];
  /**
   * Function words, and verbs or adverbs that frame a statement rather than name its topic
   * ("the", "should", "instead"): left out when two statements are compared by topic.
   */
  readonly stopword: readonly string[];
  /** Number words, which state values rather than topics: "three", "twice". */
  readonly numberWord: readonly string[];
  /** Unit abbreviations written as separate words, which state values: "ms", "mb". */
  readonly unitWord: readonly string[];
  /** Prepositions whose object names what a statement is about ("for svc5", "in the billing API"). */
  readonly qualifier: readonly string[];
  /** Words skipped between a qualifying preposition and its object: "the", "each". */
  readonly determiner: readonly string[];
  /** Abbreviations whose final period does not end a sentence: "e.g", "etc". */
  readonly abbreviation: readonly string[];
  /**
   * Words after which a lower-case word names a library or tool when the clause ends with it
   * ("with pdfkit.", "use pnpm for …", "switch to vitest"): single words, or two as "switch to".
   */
  readonly nameSlot?: readonly string[];
  /** Ordinary nouns that fill such a slot without naming a tool: "care", "context", "defaults". */
  readonly commonWord?: readonly string[];
  /**
   * Nouns for a kind of tool or service ("queue", "store", "runner"). Followed by a
   * {@link PatternPack.copula} and a name that ends the clause, they state which tool fills the
   * role: "the job queue is bullmq", "our session store is Redis".
   */
  readonly toolKind?: readonly string[];
  /** Verbs that link a subject to what it is: "is", "are". */
  readonly copula?: readonly string[];
  /**
   * Verbs for the work a tool does, in the third person ("handles", "renders", "carries"). A
   * name-like word that leads a sentence before one of them and its object names the tool that
   * does the work: "celery handles the queue", "Pusher carries the live updates".
   */
  readonly toolVerb?: readonly string[];
  /**
   * Nouns for things made with a tool ("files", "tasks", "components"). After a copula, a
   * name-like word before one of them names the tool: "migrations are goose files now".
   */
  readonly toolOutput?: readonly string[];
  /**
   * Verbs and nouns so general that sharing one says nothing about sharing a subject ("run",
   * "use", "choice"): two statements that name different tools and share only such words are not
   * about the same role ("run the tests with X" / "run search on Y").
   */
  readonly lightWord?: readonly string[];
}

/** The name of one word list of a {@link PatternPack}: plain words compared as lower-case text. */
export type WordListGroup = 'stopword' | 'numberWord' | 'unitWord' | 'qualifier' | 'determiner' | 'abbreviation' | 'nameSlot' | 'commonWord' | 'toolKind' | 'copula' | 'toolVerb' | 'toolOutput' | 'lightWord';

/** The name of one pattern group of a {@link PatternPack}. */
export type PatternGroup = Exclude<keyof PatternPack, WordListGroup>;

/** Every word list of a {@link PatternPack}. */
export const WORD_LIST_GROUPS: readonly WordListGroup[] = [
  'stopword',
  'numberWord',
  'unitWord',
  'qualifier',
  'determiner',
  'abbreviation',
  'nameSlot',
  'commonWord',
  'toolKind',
  'copula',
  'toolVerb',
  'toolOutput',
  'lightWord',
];

/** Every group of a {@link PatternPack}, in declaration order. */
export const PATTERN_GROUPS: readonly PatternGroup[] = [
  'completion',
  'conditional',
  'topicChange',
  'testPass',
  'testFail',
  'acknowledgement',
  'greeting',
  'chitChat',
  'leaving',
  'update',
  'decision',
  'requirement',
  'constraint',
  'convention',
  'preference',
  'errorResolution',
  'errorCause',
  'errorSymptom',
  'taskStatus',
  'factMarker',
  'transient',
  'deadEnd',
  'intention',
  'filler',
  'traceContinuation',
];

/** A pattern pack with every group empty. */
export const EMPTY_PATTERN_PACK: PatternPack = {
  completion: [],
  conditional: [],
  topicChange: [],
  testPass: [],
  testFail: [],
  acknowledgement: [],
  greeting: [],
  chitChat: [],
  leaving: [],
  update: [],
  decision: [],
  requirement: [],
  constraint: [],
  convention: [],
  preference: [],
  errorResolution: [],
  errorCause: [],
  errorSymptom: [],
  taskStatus: [],
  factMarker: [],
  transient: [],
  deadEnd: [],
  intention: [],
  filler: [],
  traceContinuation: [],
  stopword: [],
  numberWord: [],
  unitWord: [],
  qualifier: [],
  determiner: [],
  abbreviation: [],
  nameSlot: [],
  commonWord: [],
  toolKind: [],
  copula: [],
  toolVerb: [],
  toolOutput: [],
  lightWord: [],
};

/** Validates `{ patterns? }` options: every group an array of non-empty phrases or regexes. @internal */
export const patternOptionsSchema: z.ZodType<{ patterns?: PatternPack | undefined }> = z.strictObject({
  patterns: z
    .custom<PatternPack>(
      (value) =>
        typeof value === 'object' &&
        value !== null &&
        PATTERN_GROUPS.every((group) => {
          const list = (value as Record<string, unknown>)[group];
          // A non-empty phrase or a RegExp, checked without a schema per item: packs hold thousands.
          return Array.isArray(list) && list.every((item) => (typeof item === 'string' && item.length > 0) || item instanceof RegExp);
        }) &&
        WORD_LIST_GROUPS.every((group) => {
          const list = (value as Record<string, unknown>)[group];
          return list === undefined || (Array.isArray(list) && list.every((item) => typeof item === 'string'));
        }),
      'expected a PatternPack: every pattern group an array of phrases or RegExps and every word list an array of words (build one with mergePatternPacks(defaultPatterns, { … }))',
    )
    .optional(),
});

/**
 * Validates `{ patterns? }` options (see {@link patternOptionsSchema}) for `method`, each pack
 * object once: a pack found valid is remembered (like its compiled matcher, see
 * {@link matcherFor}), so a second component or manager made with the same pack skips the check.
 * @throws {InvalidArgumentError} when the pack is invalid.
 * @internal
 */
export function parsePatternOptions(options: { patterns?: PatternPack | undefined }, method: string, example: string): { patterns?: PatternPack | undefined } {
  const patterns = (options as { patterns?: unknown } | undefined)?.patterns;
  if (isOnlyPatternsKey(options) && (patterns === undefined || validatedPacks.has(patterns as object))) return options;
  const parsed = parse(patternOptionsSchema, options, method, example);
  if (parsed.patterns !== undefined) validatedPacks.add(parsed.patterns);
  return parsed;
}

/**
 * Merges pattern packs group by group, keeping the order of the packs and dropping duplicate
 * phrases (and regular expressions with the same source and flags). Partial packs are allowed,
 * so a project can add a few phrases to a built-in pack.
 *
 * @example
 * ```ts
 * const patterns = mergePatternPacks(englishPatterns, vietnamesePatterns, {
 *   completion: ['shipped'],
 * });
 * ```
 */
export function mergePatternPacks(...packs: readonly Partial<PatternPack>[]): PatternPack {
  const merged = {} as Record<PatternGroup, Pattern[]>;
  const words = {} as Record<WordListGroup, string[]>;
  for (const group of PATTERN_GROUPS) merged[group] = [];
  for (const group of WORD_LIST_GROUPS) words[group] = [];
  const seen = new Set<string>();
  for (const pack of packs) {
    for (const group of PATTERN_GROUPS) {
      for (const pattern of pack[group] ?? []) {
        const identity = `${group}\u0000${patternIdentity(pattern)}`;
        if (seen.has(identity)) continue;
        seen.add(identity);
        merged[group].push(pattern);
      }
    }
    for (const group of WORD_LIST_GROUPS) {
      for (const word of pack[group] ?? []) {
        const normalized = word.trim().toLowerCase();
        const identity = `${group}\u0000${normalized}`;
        if (normalized.length === 0 || seen.has(identity)) continue;
        seen.add(identity);
        words[group].push(normalized);
      }
    }
  }
  return { ...merged, ...words };
}

/** The word lists of a {@link PatternPack} as lower-case sets. */
export type WordSets = { readonly [Group in WordListGroup]: ReadonlySet<string> };

/**
 * Returns the word lists of a pack as sets, built once per pack object. A pack built before the
 * word lists existed (a hand-written literal) counts as having empty lists.
 */
export function wordSetsFor(pack: PatternPack): WordSets {
  const cached = wordSetCache.get(pack);
  if (cached !== undefined) return cached;
  const sets = {} as Record<WordListGroup, ReadonlySet<string>>;
  for (const group of WORD_LIST_GROUPS) {
    const list: readonly string[] | undefined = pack[group];
    sets[group] = new Set((list ?? []).map((word) => word.trim().toLowerCase()));
  }
  wordSetCache.set(pack, sets);
  return sets;
}

/** A match of a pattern group in a text. */
export interface PatternMatch {
  /** Index of the first character of the match. */
  readonly index: number;
  /** The matched text. */
  readonly text: string;
}

/** Tests texts against the groups of one {@link PatternPack}, with its regexes compiled once. */
export interface PatternMatcher {
  /** The pack this matcher was compiled from. */
  readonly pack: PatternPack;
  /** Tells whether any pattern of `group` occurs in `text`. */
  test(group: PatternGroup, text: string): boolean;
  /** Returns the earliest match of any pattern of `group` in `text`, or `undefined`. */
  find(group: PatternGroup, text: string): PatternMatch | undefined;
  /** Counts the distinct phrases (case-insensitively) of `group` that occur in `text`. */
  count(group: PatternGroup, text: string): number;
  /**
   * Runs the `test()` regexes of `groups` on short strings, so that their compiles (milliseconds
   * for large phrase lists) happen now rather than on first use. Once per process per group.
   */
  warm(groups: readonly PatternGroup[]): void;
}

/**
 * Compiles a pattern pack into a {@link PatternMatcher}. Phrases of a group are joined into one
 * regular expression, so testing a group costs one scan of the text.
 */
export function createPatternMatcher(pack: PatternPack): PatternMatcher {
  const compiled = new Map<PatternGroup, CompiledGroup>();
  for (const group of PATTERN_GROUPS) compiled.set(group, compileGroup(pack[group]));
  const regexesOf = (group: PatternGroup): readonly RegExp[] => compiled.get(group)?.regexes ?? [];
  return {
    pack,
    test: (group: PatternGroup, text: string): boolean => {
      // A loop, not some(): no closure per call (graduation tests every sentence against many groups).
      for (const regex of regexesOf(group)) if (regex.test(text)) return true;
      return false;
    },
    find: (group: PatternGroup, text: string): PatternMatch | undefined => {
      let best: PatternMatch | undefined;
      for (const regex of regexesOf(group)) {
        const match = regex.exec(text);
        if (match !== null && (best === undefined || match.index < best.index)) {
          best = { index: match.index, text: match[0] };
        }
      }
      return best;
    },
    count: (group: PatternGroup, text: string): number => countDistinct(compiled.get(group)?.global ?? [], text),
    warm: (groups: readonly PatternGroup[]): void => {
      for (const group of groups) {
        const entry = compiled.get(group);
        if (entry === undefined || entry.isWarm) continue;
        for (const regex of entry.regexes) warm(regex);
        entry.isWarm = true;
      }
    },
  };
}

/**
 * Returns the {@link PatternMatcher} for a pack, compiling it on first use. Compiled matchers are
 * cached per pack object, so pass the same pack object around rather than re-merging it per call.
 */
export function matcherFor(pack: PatternPack): PatternMatcher {
  const cached = matcherCache.get(pack);
  if (cached !== undefined) return cached;
  const matcher = createPatternMatcher(pack);
  matcherCache.set(pack, matcher);
  return matcher;
}

/**
 * The regexes a {@link PatternMatcher} of `pack` tests `group` with (compiled once per content),
 * for tests that check `count()` against a matchAll() scan.
 * @internal
 */
export function groupRegexes(pack: PatternPack, group: PatternGroup): readonly RegExp[] {
  return compileGroup(pack[group]).regexes;
}

/**
 * Compiles a phrase into a Unicode-aware, case-insensitive regular expression source (see
 * {@link Pattern} for the phrase syntax).
 */
export function phraseToRegexSource(phrase: string): string {
  const { head, body, tail } = phraseParts(phrase);
  return `${head ? WORD_START : ''}${body}${tail ? WORD_END : ''}`;
}

// --- Internal helpers ---

// The distinct matches (case-insensitively) of global regexes in `text`. An exec() loop on the
// regex itself rather than matchAll(), which clones the regex (a large phrase alternation) and
// makes an iterator on every call; no Set until a second match. Nothing runs between the reset
// of `lastIndex` and the loop's end, so sharing the regexes is safe.
function countDistinct(regexes: readonly RegExp[], text: string): number {
  let first: string | undefined;
  let distinct: Set<string> | undefined;
  for (const regex of regexes) {
    regex.lastIndex = 0;
    for (let match = regex.exec(text); match !== null; match = regex.exec(text)) {
      const found = match[0];
      if (found === '') regex.lastIndex = nextIndex(text, regex.lastIndex, regex.unicode || regex.flags.includes('v'));
      const lower = found.toLowerCase();
      if (first === undefined) first = lower;
      else if (lower !== first || distinct !== undefined) (distinct ??= new Set([first])).add(lower);
    }
  }
  return distinct?.size ?? (first === undefined ? 0 : 1);
}

// Where a global regex goes on after an empty match at `index` (a whole code point on with the
// `u` flag), as matchAll() does.
function nextIndex(text: string, index: number, isUnicode: boolean): number {
  if (!isUnicode || index + 1 >= text.length) return index + 1;
  const code = text.charCodeAt(index);
  const next = text.charCodeAt(index + 1);
  return code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? index + 2 : index + 1;
}

// Pack objects found valid by parsePatternOptions(): a memo like the caches below (a pack is
// treated as immutable once used, as the matcher cache already does).
const validatedPacks = new WeakSet<object>();

// Whether `options` is a plain object with no key but `patterns` (what the strict schema accepts
// without looking further); anything else goes through the schema.
function isOnlyPatternsKey(options: unknown): boolean {
  if (typeof options !== 'object' || options === null || Object.getPrototypeOf(options) !== Object.prototype) return false;
  for (const key in options) if (key !== 'patterns') return false;
  return Object.getOwnPropertySymbols(options).length === 0;
}

// A WeakMap keyed by pack objects: a memo, not configuration. It holds no state that changes a
// result, and lets packs be garbage-collected.
const matcherCache = new WeakMap<PatternPack, PatternMatcher>();
const wordSetCache = new WeakMap<PatternPack, WordSets>();
// Compiled groups by content, so that packs merged again with the same phrases (a manager per
// session, say) reuse the regexes instead of compiling them again. Non-global regexes carry no
// state between calls, so sharing them is safe; the bound keeps the memo small.
const compiledGroups = new Map<string, CompiledGroup>();
const MAX_COMPILED_GROUPS = 256;

const WORD_CHAR = /[\p{L}\p{N}_]/u;
const WORD_START = '(?<![\\p{L}\\p{N}_])';
const WORD_END = '(?![\\p{L}\\p{N}_])';
const GAP = '[^.!?\\n]{0,60}?';

interface CompiledGroup {
  readonly regexes: readonly RegExp[];
  /** Whether {@link PatternMatcher.warm} has run the regexes once per process. */
  isWarm: boolean;
  /** Global copies for `count()`, which scans all matches. */
  readonly global: readonly RegExp[];
}

function compileGroup(patterns: readonly Pattern[]): CompiledGroup {
  const key = patterns.map(patternIdentity).join('\u0001');
  const cached = compiledGroups.get(key);
  if (cached !== undefined) return cached;
  const regexes = compileGroupUncached(patterns);
  const global = regexes.map((regex) => new RegExp(regex.source, `${regex.flags}g`));
  const compiled: CompiledGroup = { regexes, global, isWarm: false };
  if (compiledGroups.size >= MAX_COMPILED_GROUPS) compiledGroups.clear();
  compiledGroups.set(key, compiled);
  return compiled;
}

// V8 compiles a regular expression on its first execution and again to machine code on the next
// one, separately for one-byte and two-byte strings; the large phrase alternations take
// milliseconds each time. Running each twice on short strings moves those compiles to a moment
// the caller chooses.
const WARM_TEXTS: readonly string[] = ['warm', 'warm', 'warm \u2026', 'warm \u2026'];

function warm(regex: RegExp): void {
  for (const text of WARM_TEXTS) regex.test(text);
  regex.lastIndex = 0;
}

function compileGroupUncached(patterns: readonly Pattern[]): readonly RegExp[] {
  // Phrases are bucketed by the word boundaries their ends need, so that each bucket carries the
  // Unicode boundary lookarounds once: repeating them per alternative makes V8 compile a
  // case-insensitive Unicode regex hundreds of times slower.
  const buckets = new Map<string, { head: boolean; tail: boolean; bodies: string[] }>();
  const regexes: RegExp[] = [];
  for (const pattern of patterns) {
    if (typeof pattern !== 'string') {
      regexes.push(new RegExp(pattern.source, pattern.flags.replace(/[gy]/gu, '')));
      continue;
    }
    if (pattern.trim().length === 0) continue;
    const { head, tail, body } = phraseParts(pattern);
    const key = `${head}:${tail}`;
    const bucket = buckets.get(key) ?? { head, tail, bodies: [] };
    bucket.bodies.push(body);
    buckets.set(key, bucket);
  }
  const phraseRegexes: RegExp[] = [];
  for (const { head, tail, bodies } of buckets.values()) {
    // Longest phrases first: alternation picks the first alternative that matches at a position,
    // so "note that" must be tried before "note" for `find()` to return the whole phrase.
    bodies.sort((a, b) => b.length - a.length);
    phraseRegexes.push(new RegExp(`${head ? WORD_START : ''}(?:${bodies.join('|')})${tail ? WORD_END : ''}`, 'iu'));
  }
  return [...phraseRegexes, ...regexes];
}

function phraseParts(phrase: string): { head: boolean; tail: boolean; body: string } {
  const parts = phrase
    .trim()
    .split(/\s*(?:…|\.\.\.)\s*/u)
    .filter((part) => part.length > 0);
  const first = parts[0] ?? '';
  const last = parts[parts.length - 1] ?? '';
  const body = parts
    .map((part, index) => {
      const escaped = escapeRegex(part).replace(/\s+/gu, '\\s+').replace(/'/gu, "['’]");
      const innerHead = index > 0 && WORD_CHAR.test(part.charAt(0)) ? WORD_START : '';
      const innerTail = index < parts.length - 1 && WORD_CHAR.test(part.charAt(part.length - 1)) ? WORD_END : '';
      return `${innerHead}${escaped}${innerTail}`;
    })
    .join(GAP);
  return {
    head: WORD_CHAR.test(first.charAt(0)),
    tail: WORD_CHAR.test(last.charAt(last.length - 1)),
    body,
  };
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/gu, '\\$&');
}

function patternIdentity(pattern: Pattern): string {
  return typeof pattern === 'string'
    ? `s:${pattern.trim().toLowerCase()}`
    : `r:${pattern.source}/${pattern.flags}`;
}

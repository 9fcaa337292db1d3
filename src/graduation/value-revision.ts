import { wordSetsFor, type WordSets } from '../boundaries/pattern-pack.js';
import { defaultPatterns } from '../boundaries/patterns/default.js';
import { scheduleRevision } from '../language/recurrence.js';
import { qualifierWords, stemWord, topicSequence, type WordListOptions } from './retention.js';
import { hasRivalModifiers } from './rival-modifiers.js';

/**
 * Tells whether a newer statement gives the subject of an older one a new value, however either is
 * worded: "staging keeps 12 database connections open" after "staging runs with a pool of 4
 * database connections", "90 percent coverage is fine" after "line coverage must stay at 70
 * percent". No update wording is needed ("now", "instead" are hints a caller may add). Read clause
 * by clause, what decides is
 * - the same slot with another value: each clause states one figure, a number belonging to the same
 *   word (the word after it, "4 database connections", "four-space indentation"; or the word before
 *   it over a stopword, "port is 8081"), and the newer number is not in the older clause;
 * - the same subject: besides the slot, they share two topic words (one when a side has two) and
 *   half of the smaller side's;
 * - no sign of another thing: no topic word of one side after a qualifying preposition that the
 *   other lacks ("for svc5" / "for svc15"), no two different words in front of the same shared
 *   word ("billing client" / "search client"), clauses that do not open on different words
 *   ("staging keeps …" / "production keeps …").
 * A clause said again with one plain name swapped and no other topic word changed (three or more
 * kept, no figures, the same code spans) is a revision too ("the api service deploys on Thursday
 * mornings" / "… on Tuesday mornings"). It is deliberately strict: two distinct facts must never
 * collapse into one.
 */
export function isValueRevision(older: string, newer: string, options: WordListOptions = {}): boolean {
  // Things numbered differently ("for tenant7" / "for tenant9", "p95" / "p99") are two things,
  // whatever else the statements share.
  if (hasRivalTags(older, newer)) return false;
  // A process given another schedule ("the snapshot moved to 01:00") is a revision as well; two
  // processes with schedules of their own never are.
  const schedules = scheduleRevision(older, newer);
  if (schedules !== undefined) return schedules;
  // Only a clause with one figure or with a name can give a new value.
  const newerClauses = readingsOf(newer, options).filter((reading) => reading.values.figures === 1 || reading.values.names.size > 0);
  if (newerClauses.length === 0) return false;
  for (const a of readingsOf(older, options)) for (const b of newerClauses) if (revisesClause(a, b, options)) return true;
  return false;
}

/**
 * The words of a statement that are values rather than what it is about, in the form fact keys
 * use: names ("RabbitMQ" → `rabbitmq`) and hyphenated counts (`four-space`).
 */
export function valueWords(text: string, options: WordListOptions = {}): string[] {
  const values = readValues(text, options);
  return [...[...values.names].map(stemWord), ...values.counted];
}

/** Whether each statement has a word with a number of its own ("svc5", "p95") that the other lacks. */
export function hasRivalTags(older: string, newer: string): boolean {
  const before = new Set(older.toLowerCase().match(TAGGED_WORD) ?? []);
  const after = new Set(newer.toLowerCase().match(TAGGED_WORD) ?? []);
  return [...before].some((tag) => !after.has(tag)) && [...after].some((tag) => !before.has(tag));
}

// --- Internal helpers ---

/**
 * The clauses of a statement: a slot and its subject are read within one clause, so that what the
 * rest of a sentence mentions ("…, separate from the gateway") does not count as its subject.
 */
function clausesOf(text: string): string[] {
  const spans: string[] = [];
  // A label and the figure it is given make one clause ("new p99 budget for search: 250ms").
  const masked = text.replace(/`[^`\n]*`/gu, (span) => `\u0001${spans.push(span) - 1}\u0001`).replace(LABELLED_FIGURE, ' ');
  return masked
    .split(CLAUSE_BREAK)
    .map((clause) => clause.replace(/\u0001(\d+)\u0001/gu, (_, index: string) => spans[Number(index)] ?? '').trim())
    .filter((clause) => clause.length > 0);
}

/** A clause with what revisesClause() reads in it. */
interface ClauseReading {
  readonly text: string;
  readonly values: StatedValues;
  readonly sequence: readonly string[];
}

// Readings by pack and statement: a fact is compared with many updates over a session, and its
// reading never changes.
const readingCache = new WeakMap<object, Map<string, readonly ClauseReading[]>>();
const MAX_CACHED_READINGS = 4_096;

function readingsOf(text: string, options: WordListOptions): readonly ClauseReading[] {
  const pack = options.patterns ?? defaultPatterns;
  let cache = readingCache.get(pack);
  if (cache === undefined) {
    cache = new Map();
    readingCache.set(pack, cache);
  }
  let readings = cache.get(text);
  if (readings === undefined) {
    readings = clausesOf(text).map((clause) => ({ text: clause, values: readValues(clause, options), sequence: sequenceOf(clause, options) }));
    if (cache.size >= MAX_CACHED_READINGS) cache.clear();
    cache.set(text, readings);
  }
  return readings;
}

/**
 * The topic words of a clause in order, with a gap where a number stands: the words on either side
 * of "stay under 300 ms p95" are not next to each other.
 */
function sequenceOf(clause: string, options: WordListOptions): readonly string[] {
  return topicSequence(clause.replace(STATED_NUMBER, ` ${NUMBER_MARK} `), options).map((word) => (word === NUMBER_MARK ? GAP : word));
}

function revisesClause(older: ClauseReading, newer: ClauseReading, options: WordListOptions): boolean {
  const before = older.values;
  const after = newer.values;
  const slot = numberSlot(before, after);
  if (slot === undefined) return isNameSwap({ older, newer });
  // The slot's words stay in the sequences as gaps, so that no word seems to stand next to another
  // across a value.
  const left = older.sequence.map((word) => (slot.ignored.has(word) ? GAP : word));
  const right = newer.sequence.map((word) => (slot.ignored.has(word) ? GAP : word));
  const leftSet = new Set(left.filter((word) => word !== GAP));
  const rightSet = new Set(right.filter((word) => word !== GAP));
  const smaller = Math.min(leftSet.size, rightSet.size);
  if (smaller === 0) return false;
  let shared = 0;
  for (const word of leftSet) if (rightSet.has(word)) shared += 1;
  // Two shared words, or one when a side has only two; and half of the smaller side.
  if (shared < Math.min(MIN_SHARED, smaller - 1) || shared === 0 || shared / smaller < MIN_COVERAGE) return false;
  const qualifiers = new Set([...qualifierWords(older.text, options), ...qualifierWords(newer.text, options)]);
  for (const word of qualifiers) {
    if (!slot.ignored.has(word) && leftSet.has(word) !== rightSet.has(word)) return false;
  }
  if (opensOnRivals({ left, right, leftSet, rightSet })) return false;
  // Two different words right in front of a shared one, as written ("billing client" / "search
  // client"); words apart in the text ("latency for search" / "budget for search") are not.
  const names = new Set([...before.names, ...after.names].map(stemWord));
  return !hasRivalModifiers(older.text, newer.text, { ...options, ignored: new Set([...slot.ignored, ...names]) });
}

/** The numbers of a clause with the words they belong to, and its names. */
interface StatedValues {
  /** Number → the words it belongs to ("4" → "connection"). */
  readonly numbers: ReadonlyMap<string, ReadonlySet<string>>;
  /** The numbers by the word they belong to. */
  readonly byAnchor: ReadonlyMap<string, ReadonlySet<string>>;
  /** Tokens with a digit, or hyphenated counts. */
  readonly figures: number;
  /** Hyphenated counts ("four-space"), which read as topic words of their own. */
  readonly counted: ReadonlySet<string>;
  /** The code spans' contents. */
  readonly spans: ReadonlySet<string>;
  /** Lower-cased names (capitalised or mixed-case words inside a sentence). */
  readonly names: ReadonlySet<string>;
  /** Lower-cased words that carry a number of their own ("p95", "svc5"): they name things, not amounts. */
  readonly tags: ReadonlySet<string>;
}

interface Slot {
  /** Words left out of the subject comparison: the slot's anchor and the hyphenated counts. */
  readonly ignored: ReadonlySet<string>;
}

const MIN_SHARED = 2;
const MIN_COVERAGE = 0.5;
/** Topic words a clause must keep when only a name in it changes. */
const MIN_SWAP_SHARED = 3;
const PLAIN_NAME = /^\p{L}+$/u;
const TOKEN = /`[^`\n]+`|[\p{L}\p{N}][\p{L}\p{N}_'’.-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu;
const NUMBER = /^\d+(?:[.,]\d+)*$/u;
const SENTENCE_BREAK = /[.!?:;\n]\s*$/u;
const GAP = '';
/** A colon followed by a figure alone: the label before it names what the figure is. */
const LABELLED_FIGURE = /:\s+(?=\d+(?:[.,]\d+)*\s?\p{L}{0,3}\s*(?:[.!?;,]|$))/gu;
/** Units by the measure they state: a new value may come in another unit of the same measure. */
const UNIT_MEASURES: Readonly<Record<string, string>> = {
  ms: 'duration', s: 'duration', sec: 'duration', secs: 'duration',
  kb: 'size', mb: 'size', gb: 'size', tb: 'size',
};
/** A number, with a unit glued to it ("300", "1.5", "400ms"), outside a word ("p95" keeps its digits). */
const STATED_NUMBER = /(?<![\p{L}\p{N}_.-])\d+(?:[.,]\d+)*\p{L}*(?![\p{L}\p{N}_-])/gu;
/** A word no statement uses, standing in for a number while topic words are read. */
const NUMBER_MARK = 'numbermarkq';
const CLAUSE_BREAK = /[;:()\n]+|[,.!?](?=\s|$)|\s[—–-]{1,2}\s/u;
/** A count joined to what it counts by a hyphen ("four-space", "3-node"). */
const JOINED_COUNT = /^([\p{L}\p{N}]+)-(\p{L}+)$/u;
/** A number with its unit in one token ("400ms", "2s", "512mb"). */
const GLUED_UNIT = /^(\d+(?:\.\d+)?)(\p{L}+)$/u;
/** A word that carries a number of its own ("p95", "svc5", "v2"). */
const NUMBERED_WORD = /^\p{L}[\p{L}_-]*\d[\p{L}\p{N}_-]*$/u;
const TAGGED_WORD = /(?<![\p{L}\p{N}_`/.-])\p{L}[\p{L}_-]*\d[\p{L}\p{N}_-]*(?![\p{L}\p{N}_/.])/gu;
/** Stopwords a number may stand behind and still belong to the word before them ("port is 8081"). */
const MAX_SKIPPED = 2;

/**
 * A clause said again with one name in place of another and nothing else changed in its topic
 * words ("the api service deploys on Thursday mornings" / "… on Tuesday mornings, …").
 */
function isNameSwap(options: { older: ClauseReading; newer: ClauseReading }): boolean {
  const before = options.older.values;
  const after = options.newer.values;
  if (before.figures > 0 || after.figures > 0 || before.spans.size !== after.spans.size) return false;
  for (const span of before.spans) if (!after.spans.has(span)) return false;
  const gone = [...before.names].filter((name) => !after.names.has(name));
  const added = [...after.names].filter((name) => !before.names.has(name));
  // One plain word each ("TODO.md" or "v2" name what a clause is about more often than a value).
  if (gone.length !== 1 || added.length !== 1 || ![...gone, ...added].every((name) => PLAIN_NAME.test(name))) return false;
  const ignored = new Set([...gone, ...added].map(stemWord));
  const left = new Set(options.older.sequence.filter((word) => word !== GAP && !ignored.has(word)));
  const right = new Set(options.newer.sequence.filter((word) => word !== GAP && !ignored.has(word)));
  if (left.size < MIN_SWAP_SHARED || left.size !== right.size) return false;
  for (const word of left) if (!right.has(word)) return false;
  return true;
}

function numberSlot(before: StatedValues, after: StatedValues): Slot | undefined {
  // A clause that states one value; narration full of figures ("extracted 706,452 …, kept 78,499")
  // is not read as a setting.
  if (before.figures !== 1 || after.figures !== 1) return undefined;
  for (const [anchor, values] of after.byAnchor) {
    const previous = before.byAnchor.get(anchor);
    if (previous === undefined) continue;
    // The newer states a value the older does not have anywhere, and the older one's value at
    // this word is not stated again at the same word.
    const isNew = [...values].some((value) => !before.numbers.has(value));
    const isReplaced = [...previous].some((value) => !values.has(value));
    if (isNew && isReplaced) return { ignored: new Set([anchor, ...before.counted, ...after.counted]) };
  }
  return undefined;
}

function readValues(text: string, options: WordListOptions): StatedValues {
  const words = wordSetsFor(options.patterns ?? defaultPatterns);
  const tokens: Token[] = [...text.matchAll(TOKEN)].map((match) => ({ text: match[0], index: match.index }));
  const numbers = new Map<string, Set<string>>();
  const byAnchor = new Map<string, Set<string>>();
  const names = new Set<string>();
  const spans = new Set<string>();
  const counted = new Set<string>();
  const tags = new Set<string>();
  let tagTokens = 0;
  const add = ({ value, anchor }: { value: string; anchor: string }): void => {
    if (!numbers.has(value)) numbers.set(value, new Set());
    numbers.get(value)?.add(anchor);
    if (!byAnchor.has(anchor)) byAnchor.set(anchor, new Set());
    byAnchor.get(anchor)?.add(value);
  };
  tokens.forEach((token, index) => {
    if (token.text.startsWith('`')) {
      spans.add(token.text.slice(1, -1));
      return;
    }
    const joined = JOINED_COUNT.exec(token.text.toLowerCase());
    if (joined !== null && (NUMBER.test(joined[1] as string) || words.numberWord.has(joined[1] as string))) {
      const anchor = stemWord(joined[2] as string);
      add({ value: joined[1] as string, anchor });
      counted.add(joined[0]);
      return;
    }
    const glued = GLUED_UNIT.exec(token.text.toLowerCase());
    if (glued !== null && words.unitWord.has(glued[2] as string)) {
      add({ value: glued[1] as string, anchor: unitAnchor(glued[2] as string) });
      return;
    }
    if (NUMBERED_WORD.test(token.text)) {
      tags.add(token.text.toLowerCase());
      tagTokens += 1;
      return;
    }
    if (!NUMBER.test(token.text)) {
      if (isName(token.text, text, token.index)) names.add(token.text.toLowerCase());
      return;
    }
    const anchorToken = anchorOf({ tokens, index, text, words });
    if (anchorToken === undefined) return;
    add({ value: token.text.replace(/,/gu, ''), anchor: unitAnchor(anchorToken.text.toLowerCase()) });
  });
  const figures = tokens.filter((token) => /\p{N}/u.test(token.text)).length - tagTokens + counted.size - [...counted].filter((word) => /\p{N}/u.test(word)).length;
  return { numbers, byAnchor, names, spans, counted, figures, tags };
}

/** The word a number belongs to as fact keys read it; units of one measure are one ("2 s", "800 ms"). */
function unitAnchor(word: string): string {
  return UNIT_MEASURES[word] ?? stemWord(word);
}

interface Token {
  readonly text: string;
  readonly index: number;
}

/**
 * The word a number belongs to, within its clause (no punctuation in between): a count to the word
 * right after it ("4 database connections"); a bare number to the word before it, over a stopword
 * or two ("port is 8081").
 */
function anchorOf(options: { tokens: readonly Token[]; index: number; text: string; words: WordSets }): Token | undefined {
  const { tokens, index, text, words } = options;
  const isJoined = (from: Token, to: Token): boolean => !/[,;:.!?()]/u.test(text.slice(from.index + from.text.length, to.index));
  const isWord = (token: Token): boolean => {
    const lower = token.text.toLowerCase();
    return !token.text.startsWith('`') && !NUMBER.test(token.text) && !words.stopword.has(lower) && !words.numberWord.has(lower);
  };
  const token = tokens[index] as Token;
  const next = tokens[index + 1];
  if (next !== undefined && isJoined(token, next) && isWord(next)) return next;
  // Right after a word the number names something ("task 7", "line 98"); over a stopword it is
  // that word's value ("port is 8081", "limit to 300").
  for (let back = index - 1, skipped = 0; back >= 0 && skipped <= MAX_SKIPPED; back -= 1, skipped += 1) {
    const candidate = tokens[back] as Token;
    if (!isJoined(candidate, tokens[back + 1] as Token)) return undefined;
    if (isWord(candidate)) return skipped === 0 ? undefined : candidate;
    if (NUMBER.test(candidate.text) || candidate.text.startsWith('`')) return undefined;
  }
  return undefined;
}

/** A capitalised word inside a sentence ("runs on Drizzle") or a mixed-case one anywhere ("RabbitMQ"). */
function isName(word: string, text: string, index: number): boolean {
  if (/^\p{Lu}/u.test(word) === false) return /\p{Ll}\p{Lu}/u.test(word);
  if (/\p{Lu}/u.test(word.slice(1))) return true;
  if (word === 'I' || /['’]/u.test(word)) return false;
  return index > 0 && !SENTENCE_BREAK.test(text.slice(Math.max(0, index - 3), index));
}

/** Clauses that open on different things ("staging keeps …" / "production keeps …") are about two things. */
function opensOnRivals(options: { left: readonly string[]; right: readonly string[]; leftSet: ReadonlySet<string>; rightSet: ReadonlySet<string> }): boolean {
  const { left, right, leftSet, rightSet } = options;
  const leftFirst = left.find((word) => word !== GAP);
  const rightFirst = right.find((word) => word !== GAP);
  return leftFirst !== undefined && rightFirst !== undefined && !rightSet.has(leftFirst) && !leftSet.has(rightFirst);
}

import { wordSetsFor, type WordSets } from '../boundaries/pattern-pack.js';
import { defaultPatterns } from '../boundaries/patterns/default.js';
import { qualifierWords, stemWord, topicSequence, type WordListOptions } from './retention.js';

/**
 * Tells whether a newer statement gives the subject of an older one a new value, however either is
 * worded: "staging keeps 12 database connections open" after "staging runs with a pool of 4
 * database connections", "traces are shipped to Tempo" after "we ship the traces to Jaeger". No
 * update wording is needed ("now", "instead" are hints a caller may add); what decides is
 * - the same slot with another value: a number the older has next to a word (its unit or what it
 *   counts: "4 database connections", "Python 3.11", "port 8081") and a different number next to
 *   the same word in the newer, which does not repeat the older value's place with its own (a name
 *   such as `RabbitMQ` only the older has and one only the newer has also makes a slot);
 * - the same subject: besides the slot, they share at least a third of the smaller side's topic
 *   words (half of it and two words for a name slot);
 * - no sign of another thing: no topic word of one side after a qualifying preposition that the
 *   other lacks ("for svc5" / "for svc15"), and no two different words in front of the same shared
 *   word ("staging runs …" / "production runs …", "billing client" / "search client").
 * It is deliberately strict: two distinct facts must never collapse into one.
 */
export function isValueRevision(older: string, newer: string, options: WordListOptions = {}): boolean {
  const newerClauses = clausesOf(newer);
  for (const a of clausesOf(older)) for (const b of newerClauses) if (revisesClause(a, b, options)) return true;
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

// --- Internal helpers ---

/**
 * The clauses of a statement: a slot and its subject are read within one clause, so that what the
 * rest of a sentence mentions ("…, separate from the gateway") does not count as its subject.
 */
function clausesOf(text: string): string[] {
  const spans: string[] = [];
  const masked = text.replace(/`[^`\n]*`/gu, (span) => `\u0001${spans.push(span) - 1}\u0001`);
  return masked
    .split(CLAUSE_BREAK)
    .map((clause) => clause.replace(/\u0001(\d+)\u0001/gu, (_, index: string) => spans[Number(index)] ?? '').trim())
    .filter((clause) => clause.length > 0);
}

function revisesClause(older: string, newer: string, options: WordListOptions): boolean {
  const before = readValues(older, options);
  const after = readValues(newer, options);
  const slot = numberSlot(before, after) ?? nameSlot(before, after);
  if (slot === undefined) return false;
  // The slot's words stay in the sequences as gaps, so that no word seems to stand next to another
  // across a value.
  const left = topicSequence(older, options).map((word) => (slot.ignored.has(word) ? GAP : word));
  const right = topicSequence(newer, options).map((word) => (slot.ignored.has(word) ? GAP : word));
  const leftSet = new Set(left.filter((word) => word !== GAP));
  const rightSet = new Set(right.filter((word) => word !== GAP));
  const smaller = Math.min(leftSet.size, rightSet.size);
  if (smaller === 0) return false;
  let shared = 0;
  for (const word of leftSet) if (rightSet.has(word)) shared += 1;
  if (shared < slot.minShared || shared / smaller < slot.minCoverage) return false;
  const qualifiers = new Set([...qualifierWords(older, options), ...qualifierWords(newer, options)]);
  for (const word of qualifiers) {
    if (!slot.ignored.has(word) && leftSet.has(word) !== rightSet.has(word)) return false;
  }
  return !hasRivalModifiers({ left, right, leftSet, rightSet });
}

/** A number with the word it belongs to, or a name, found in a statement. */
interface StatedValues {
  /** Number → the words it belongs to ("4" → "connection"). */
  readonly numbers: ReadonlyMap<string, ReadonlySet<string>>;
  /** The numbers by the word they belong to. */
  readonly byAnchor: ReadonlyMap<string, ReadonlySet<string>>;
  /** Hyphenated counts ("four-space"), which read as topic words of their own. */
  readonly counted: ReadonlySet<string>;
  /** Lower-cased names (capitalised or mixed-case words inside a sentence, code spans). */
  readonly names: ReadonlySet<string>;
  /** The lower-cased text, to tell whether a value occurs in it at all. */
  readonly lower: string;
}

interface Slot {
  /** Words left out of the subject comparison: the slot's anchor, or the names that differ. */
  readonly ignored: ReadonlySet<string>;
  readonly minShared: number;
  readonly minCoverage: number;
}

const NUMBER_SLOT = { minShared: 1, minCoverage: 1 / 3 } as const;
const NAME_SLOT = { minShared: 2, minCoverage: 0.5 } as const;
const TOKEN = /`[^`\n]+`|[\p{L}\p{N}][\p{L}\p{N}_'’.-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu;
const NUMBER = /^\d+(?:[.,]\d+)*$/u;
const SENTENCE_BREAK = /[.!?:;\n]\s*$/u;
const GAP = '';
const CLAUSE_BREAK = /[;:()\n]+|[,.!?](?=\s|$)|\s[—–-]{1,2}\s/u;
/** A count joined to what it counts by a hyphen ("four-space", "3-node"). */
const JOINED_COUNT = /^([\p{L}\p{N}]+)-(\p{L}+)$/u;
/** Stopwords a number may stand behind and still belong to the word before them ("port is 8081"). */
const MAX_SKIPPED = 2;

function numberSlot(before: StatedValues, after: StatedValues): Slot | undefined {
  for (const [anchor, values] of after.byAnchor) {
    const previous = before.byAnchor.get(anchor);
    if (previous === undefined) continue;
    // The newer states a value the older does not have anywhere, and the older one's value at
    // this word is not stated again at the same word.
    const isNew = [...values].some((value) => !before.numbers.has(value));
    const isReplaced = [...previous].some((value) => !values.has(value));
    if (isNew && isReplaced) return { ignored: new Set([anchor, ...before.counted, ...after.counted]), ...NUMBER_SLOT };
  }
  return undefined;
}

function nameSlot(before: StatedValues, after: StatedValues): Slot | undefined {
  const onlyBefore = [...before.names].filter((name) => !containsWord(after.lower, name));
  const onlyAfter = [...after.names].filter((name) => !containsWord(before.lower, name));
  if (onlyBefore.length === 0 || onlyAfter.length === 0) return undefined;
  return { ignored: new Set([...onlyBefore, ...onlyAfter].map(stemWord)), ...NAME_SLOT };
}

function readValues(text: string, options: WordListOptions): StatedValues {
  const words = wordSetsFor(options.patterns ?? defaultPatterns);
  const tokens: Token[] = [...text.matchAll(TOKEN)].map((match) => ({ text: match[0], index: match.index }));
  const numbers = new Map<string, Set<string>>();
  const byAnchor = new Map<string, Set<string>>();
  const names = new Set<string>();
  const counted = new Set<string>();
  const add = ({ value, anchor }: { value: string; anchor: string }): void => {
    if (!numbers.has(value)) numbers.set(value, new Set());
    numbers.get(value)?.add(anchor);
    if (!byAnchor.has(anchor)) byAnchor.set(anchor, new Set());
    byAnchor.get(anchor)?.add(value);
  };
  tokens.forEach((token, index) => {
    if (token.text.startsWith('`')) {
      names.add(token.text.slice(1, -1).toLowerCase());
      return;
    }
    const joined = JOINED_COUNT.exec(token.text.toLowerCase());
    if (joined !== null && (NUMBER.test(joined[1] as string) || words.numberWord.has(joined[1] as string))) {
      const anchor = stemWord(joined[2] as string);
      add({ value: joined[1] as string, anchor });
      counted.add(joined[0]);
      return;
    }
    if (!NUMBER.test(token.text)) {
      if (isName(token.text, text, token.index)) names.add(token.text.toLowerCase());
      return;
    }
    const anchorToken = anchorOf({ tokens, index, text, words });
    if (anchorToken === undefined) return;
    add({ value: token.text.replace(/,/gu, ''), anchor: stemWord(anchorToken.text.toLowerCase()) });
  });
  return { numbers, byAnchor, names, counted, lower: text.toLowerCase() };
}

interface Token {
  readonly text: string;
  readonly index: number;
}

/**
 * The word a number belongs to, within its clause (no punctuation in between): a version belongs
 * to the name right before it ("Python 3.11"); a count to the word right after it ("4 database
 * connections"); a bare number to the word before it, over a stopword or two ("port is 8081").
 */
function anchorOf(options: { tokens: readonly Token[]; index: number; text: string; words: WordSets }): Token | undefined {
  const { tokens, index, text, words } = options;
  const isJoined = (from: Token, to: Token): boolean => !/[,;:.!?()]/u.test(text.slice(from.index + from.text.length, to.index));
  const isWord = (token: Token): boolean => {
    const lower = token.text.toLowerCase();
    return !token.text.startsWith('`') && !NUMBER.test(token.text) && !words.stopword.has(lower) && !words.numberWord.has(lower);
  };
  const token = tokens[index] as Token;
  const previous = tokens[index - 1];
  const next = tokens[index + 1];
  if (previous !== undefined && isJoined(previous, token) && isWord(previous) && isName(previous.text, text, previous.index)) return previous;
  if (next !== undefined && isJoined(token, next) && isWord(next)) return next;
  for (let back = index - 1, skipped = 0; back >= 0 && skipped <= MAX_SKIPPED; back -= 1, skipped += 1) {
    const candidate = tokens[back] as Token;
    if (!isJoined(candidate, tokens[back + 1] as Token)) return undefined;
    if (isWord(candidate)) return candidate;
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

function containsWord(text: string, word: string): boolean {
  const escaped = word.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
  return new RegExp(`(?<![\\p{L}\\p{N}_])${escaped}(?![\\p{L}\\p{N}_])`, 'u').test(text);
}

/**
 * Two different words right in front of the same shared word name two different things
 * ("staging runs …" / "production runs …").
 */
function hasRivalModifiers(options: { left: readonly string[]; right: readonly string[]; leftSet: ReadonlySet<string>; rightSet: ReadonlySet<string> }): boolean {
  const { left, right, leftSet, rightSet } = options;
  const modified = new Map<string, string>();
  for (let index = 0; index + 1 < left.length; index += 1) {
    const word = left[index] as string;
    const head = left[index + 1] as string;
    if (word !== GAP && !rightSet.has(word) && rightSet.has(head)) modified.set(head, word);
  }
  for (let index = 0; index + 1 < right.length; index += 1) {
    const word = right[index] as string;
    const head = right[index + 1] as string;
    if (word !== GAP && !leftSet.has(word) && modified.has(head)) return true;
  }
  return false;
}

import { matcherFor, wordSetsFor, type PatternMatcher, type PatternPack, type WordSets } from '../boundaries/pattern-pack.js';
import { defaultPatterns } from '../boundaries/patterns/default.js';
import type { Entry, FactCategory, RetentionClass } from '../types.js';
import { extractIdentifiers } from '../language/identifiers.js';
import { countSpecifics, DURABLE_SCORE, scoreSalience, type Salience } from '../language/salience.js';
import { isRelayedWish, relayedDecisionOf } from '../language/relayed-decision.js';
import { isActionResponse, isBehaviourStatement, isConditionalRule, isDeferenceToRule, isFollowingPractice, isObligationStatement, isProductDescription, isRefusalOrScope, isStandingRule, premiseOf, withoutAttribution, type TurnShape } from '../language/behaviour-statement.js';
import { hasFixOutcome, isCauseAndFix, isJoinedCauseAndFix, isLabelledFix, isSplitCauseAndFix } from '../language/fix-statement.js';
import { isAcceptedOption } from '../language/accepted-option.js';
import { attributedRuleOf, isOneOffAttributedAction } from '../language/attributed-rule.js';
import { isStatedConvention } from '../language/convention-statement.js';
import { isSettledChoice } from '../language/settled-choice.js';
import { isMarkedChoice } from '../language/marked-choice.js';
import { heldChoiceOf } from '../language/held-choice.js';
import { isStatedPreference } from '../language/preference-statement.js';
import { isRecurringProcess } from '../language/recurrence.js';
import { editBlockMarker, isCodeLine, letterRunCount, wordCount } from '../language/prose.js';
import { isNoteLine } from '../language/message-parts.js';
import { detachedCopy } from '../detached-copy.js';
import { createRecentMemo, type RecentMemo } from '../recent-memo.js';

export { extractIdentifiers };

/** The role a sentence was said in, for {@link classifySentence}. */
export type SentenceRole = Entry['role'];

/** Options for {@link classifySentence} and {@link analyzeSentence}. */
export interface ClassifySentenceOptions {
  /** Who said it. Assistant sentences need a fact marker or generic wording to become facts. */
  role: SentenceRole;
  /** The phrases to classify with. */
  patterns: PatternPack;
  /**
   * The shape of the message the sentence sits in (see `turnShapeOf`). A statement of how the
   * software behaves counts as a requirement in any turn but small talk and questions, from an
   * assistant's report only with a value in it, and the user's description of what the product
   * does only in an instruction or a statement. @default 'statement'
   */
  turn?: TurnShape | undefined;
}

/** Everything {@link analyzeSentence} found out about one sentence. */
export interface SentenceAnalysis {
  /** The retention class; see {@link classifySentence}. */
  readonly retention: RetentionClass;
  /** The sentence without leading discourse markers ("also,", "btw,", "note:"). */
  readonly text: string;
  /** The wording says it replaces an earlier statement ("change … to", "instead"). */
  readonly isUpdate: boolean;
  /** The sentence is a question. */
  readonly isQuestion: boolean;
  /** The sentence explains a failure but is not a durable fix ("the culprit is …"). */
  readonly isDiagnosis: boolean;
  /** The sentence belongs to dead-end debugging ("ruled that out", "rolled the probe back"). */
  readonly isDeadEnd: boolean;
  /** A user sentence that opens a task ("task: …", "could you implement …"). */
  readonly isTaskRequest: boolean;
  /** The sentence reports that something is finished ("merged, suite is passing"). */
  readonly isCompletion: boolean;
  /** The sentence announces an intention or a plan step ("let me check …", "I'll read …"). */
  readonly isIntention: boolean;
  /** How much durable content it carries (see `scoreSalience`); 0 for none. */
  readonly salience: number;
  /** The names and values it carries, durable or not (`scoreSalience`'s `specifics`). */
  readonly specifics: number;
}

/**
 * Splits prose into sentences. Every line, markdown bullet, numbered item and heading is split on
 * its own (bullet markers are removed), except that a hard-wrapped sentence is joined again: a
 * line that does not end a sentence continues on the next when that one starts in lower case,
 * unless that one is a shorthand note line ("read replicas: not yet") or one of them is quoted
 * ("> …") and the other is not.
 * Inside a line, a sentence ends at `.`, `!`, `?` or `…` followed by whitespace, except inside
 * `` `code spans` `` and after common abbreviations ("e.g.", "i.e.", "vs."). Paths, versions and
 * decimals stay intact because their dots are not followed by whitespace. Code is left out, it
 * holds no sentences: fenced blocks, search/replace edit blocks, and lines outside fences that read
 * as code or markup (`isCodeLine`).
 */
export function splitSentences(text: string, options: WordListOptions = {}): string[] {
  const words = wordsOf(options);
  const sentences: string[] = [];
  for (const line of proseLines(text)) {
    for (const sentence of splitLine(line, words)) {
      if (/[\p{L}\p{N}]/u.test(sentence)) sentences.push(sentence);
    }
  }
  return sentences;
}

/** The lines of `text` outside code fences, markers removed, hard-wrapped sentences joined. */
function proseLines(text: string): string[] {
  const lines: string[] = [];
  let isInFence = false;
  let isInEditBlock = false;
  let canContinue = false;
  // A quoted line ("> …") and the reply under it are different voices: one never continues the other.
  let wasQuoted = false;
  for (const rawLine of text.split(/\r?\n/u)) {
    // A closing fence with prose after it on the same line ("``` Also, …") ends the code block;
    // the prose that follows is part of the message.
    const afterFence = isInFence ? FENCE_WITH_PROSE.exec(rawLine) : null;
    if (afterFence !== null) {
      isInFence = false;
      const rest = (afterFence[1] ?? '').trim();
      lines.push(rest);
      canContinue = !SENTENCE_END.test(rest);
      continue;
    }
    if (FENCE_LINE.test(rawLine)) {
      isInFence = !isInFence;
      canContinue = false;
      continue;
    }
    if (isInFence) continue;
    // Edits written as search/replace blocks and code written without fences are no sentences.
    const marker = editBlockMarker(rawLine);
    if (marker !== undefined || isInEditBlock) {
      isInEditBlock = marker === 'close' ? false : marker === 'open' ? true : isInEditBlock;
      canContinue = false;
      continue;
    }
    if (isCodeLine(rawLine.replace(LINE_MARKER, ''))) {
      canContinue = false;
      continue;
    }
    const hasMarker = LINE_MARKER.test(rawLine);
    const isQuoted = QUOTE_MARKER.test(rawLine);
    const line = rawLine.replace(LINE_MARKER, '').trim();
    if (line.length === 0) {
      canContinue = false;
      continue;
    }
    // A shorthand note line ("DB pool: 20 connections max") starts a sentence of its own.
    const isNote = isNoteLine(line);
    if (canContinue && !hasMarker && !isNote && isQuoted === wasQuoted && WRAPPED_START.test(line)) {
      lines[lines.length - 1] = `${lines[lines.length - 1] ?? ''} ${line}`;
    } else {
      lines.push(line);
    }
    wasQuoted = isQuoted;
    canContinue = !SENTENCE_END.test(line) && !TABLE_LINE.test(line) && !HEADING_LINE.test(rawLine);
  }
  return lines;
}

/**
 * Analyses one sentence: its retention class plus the flags the extractive summarizer uses
 * (update wording, question, diagnosis, dead end, task request, completion).
 */
export function analyzeSentence(sentence: string, options: ClassifySentenceOptions): SentenceAnalysis {
  return analyze(sentence, { role: options.role, matcher: matcherFor(options.patterns), turn: options.turn ?? 'statement' });
}

/**
 * Classifies a sentence for content-aware retention.
 *
 * - `error-resolution`: explains a failure and its fix ("the ECONNRESET came from …; awaiting
 *   `pool.close()` fixed it"), or names a failure and its cause.
 * - `decision`, `constraint`, `requirement`, `preference`, `convention` (checked in that order):
 *   durable statements with enough substance (two topic words or an identifier). Wording limited
 *   to the current task ("temporarily", "for the moment") is not durable. An assistant sentence
 *   qualifies only with a fact marker ("note", "policy") or when it is generic (no
 *   first person, no reference to a particular file or "here"): assistants narrate their work.
 *   A user sentence with update wording and no other class counts as a decision.
 * - `task-status`: a user request that opens a task, or a completion report.
 * - `chit-chat`: greetings, acknowledgements, small talk and goodbyes without identifiers.
 * - `routine`: everything else.
 */
export function classifySentence(sentence: string, options: ClassifySentenceOptions): RetentionClass {
  return analyzeSentence(sentence, options).retention;
}

/**
 * Classifies a whole entry by its most durable sentence. Tool results and file records are
 * `routine`; a message made only of small talk is `chit-chat`.
 */
export function classifyEntry(entry: Entry, patterns: PatternPack): RetentionClass {
  if (entry.kind !== 'user' && entry.kind !== 'assistant' && entry.kind !== 'note') return 'routine';
  const matcher = matcherFor(patterns);
  let best: RetentionClass | undefined;
  let previous: string | undefined;
  for (const sentence of splitSentences(entry.text, { patterns })) {
    // A cause and its fix told in two sentences by the assistant are read together.
    const isSecondHalf = entry.role === 'assistant' && previous !== undefined && isSplitCauseAndFix(previous, sentence);
    const read = isSecondHalf ? `${previous ?? ''} ${sentence}` : sentence;
    const retention = analyze(read, { role: entry.role, matcher, turn: 'statement' }).retention;
    if (best === undefined || RETENTION_RANK[retention] < RETENTION_RANK[best]) best = retention;
    previous = sentence;
  }
  return best ?? 'routine';
}

/** Every retention class that becomes a T2 fact. */
export const FACT_RETENTION_CLASSES: readonly RetentionClass[] = [
  'decision',
  'requirement',
  'constraint',
  'convention',
  'preference',
  'error-resolution',
];

/**
 * Maps a retention class to the T2 category its facts are rendered under, or `undefined` for the
 * classes that do not become facts (`task-status`, `routine`, `chit-chat`).
 */
export function factCategoryFor(retention: RetentionClass): FactCategory | undefined {
  switch (retention) {
    case 'decision':
      return 'decisions';
    case 'requirement':
      return 'requirements';
    case 'constraint':
      return 'constraints';
    case 'convention':
      return 'conventions';
    case 'preference':
      return 'preferences';
    case 'error-resolution':
      return 'error-resolutions';
    default:
      return undefined;
  }
}

/** Maps a T2 category back to its retention class, or `undefined` for `architecture`/`patterns`. */
export function retentionClassFor(category: FactCategory): RetentionClass | undefined {
  return FACT_RETENTION_CLASSES.find((retention) => factCategoryFor(retention) === category);
}

/**
 * Returns the topic words of a statement: lowercased content words, lightly stemmed (plural `s`),
 * without stopwords, without wording that only frames a statement ("let's", "change", "instead",
 * "always") and without values (numbers, number words, units, `code spans`, quoted strings). Two
 * statements about the same thing with different values share their topic words:
 * "every DB call gets a 5s timeout and 3 retries" → `db`, `call`, `timeout`, `retry`.
 */
export function topicWords(value: string, options: WordListOptions = {}): string[] {
  return [...new Set(topicSequence(value, options))];
}

/**
 * The topic words of a statement in the order they occur, repeats included (see
 * {@link topicWords}), so that callers can tell which word stands in front of which.
 */
export function topicSequence(value: string, options: WordListOptions = {}): string[] {
  const words = wordsOf(options);
  // Graduation asks for the topic words of the same few statements again and again (key matching,
  // revisions, salience): those of the texts asked for last are remembered per word list.
  let recent = recentTopicSequences.get(words);
  if (recent === undefined) {
    recent = createRecentMemo<readonly string[]>({ size: REMEMBERED_TOPIC_TEXTS, keyOf: detachedCopy });
    recentTopicSequences.set(words, recent);
  }
  const known = recent.get(value);
  if (known !== undefined) return [...known];
  const sequence = scanTopicSequence(value, words);
  if (value.length <= MAX_REMEMBERED_TOPIC_TEXT) recent.set(value, sequence);
  return [...sequence];
}

/**
 * Tells whether two statements are about the same topic, so the newer can replace the older.
 * With A and B their {@link topicWords}: the overlap coefficient |A∩B| / min(|A|, |B|) must be at
 * least 0.6 and they must share at least two words (one when the smaller set has one word); or,
 * when the smaller set has at most two words, half of it may be shared if a shared word is
 * distinctive (contains a digit, `_` or `.`, like `p95`). It is purely lexical: callers should
 * also require the same category, or update wording.
 */
export function isSameTopic(a: string, b: string, options: WordListOptions = {}): boolean {
  const left = new Set(topicWords(a, options));
  const right = new Set(topicWords(b, options));
  const smaller = Math.min(left.size, right.size);
  if (smaller === 0) return false;
  const shared = [...left].filter((word) => right.has(word));
  if (shared.length >= Math.min(2, smaller) && shared.length / smaller >= 0.6) return true;
  // A short statement ("the p95 target is now 200ms") may share one distinctive word only.
  return smaller <= 2 && shared.length / smaller >= 0.5 && shared.some((word) => DISTINCTIVE.test(word));
}

/**
 * Tells whether a newer statement is about the same subject as an older one, so that it replaces
 * it (newest wins). They must share their topic ({@link isSameTopic}); when each also has topic
 * words the other lacks, those must not qualify the subject ("… for svc5" vs "… for svc15",
 * "… in the billing API" vs "… in the search API"), and the newer statement must say that it replaces something
 * (`isUpdate`): otherwise two distinct facts that share words both stay.
 */
export function isSameSubject(
  older: string,
  newer: string,
  options: { isUpdate: boolean } & WordListOptions,
): boolean {
  if (!isSameTopic(older, newer, options)) return false;
  const left = new Set(topicWords(older, options));
  const right = new Set(topicWords(newer, options));
  const onlyLeft = [...left].filter((word) => !right.has(word));
  const onlyRight = [...right].filter((word) => !left.has(word));
  const shared = left.size - onlyLeft.length;
  // A subject named by one plain word ("test") or a few words out of many ("run" and "test" out of
  // seven) is not the same subject: both statements stay, whatever the wording says.
  if (shared === 1 && Math.max(left.size, right.size) > 1 && ![...left].some((word) => right.has(word) && DISTINCTIVE.test(word))) return false;
  if (shared / Math.max(left.size, right.size) < MIN_SUBJECT_COVERAGE) return false;
  // One restates the other, perhaps with more detail.
  if (onlyLeft.length === 0 || onlyRight.length === 0) return true;
  if (hasDifferentQualifiers(older, newer, options)) return false;
  return options.isUpdate;
}

/**
 * Tells whether a newer statement only repeats an older one with less detail: every value it
 * carries (identifiers, code spans, numbers) is in the older one, which carries more
 * ("Fixed the port conflicts" after "Fixed the port conflicts: 3002 for the API, 8081 for the
 * socket"). Such a restatement should not replace the older value.
 */
export function isVaguerRestatement(older: string, newer: string): boolean {
  const olderValues = valuesOf(older);
  const newerValues = valuesOf(newer);
  if (olderValues.size <= newerValues.size) return false;
  for (const value of newerValues) if (!olderValues.has(value)) return false;
  return true;
}

/**
 * Tells whether two statements name different things they are about: a topic word that only one
 * of them has follows a qualifying preposition ("for svc5" vs "for svc15").
 */
export function hasDifferentQualifiers(a: string, b: string, options: WordListOptions = {}): boolean {
  const left = new Set(topicWords(a, options));
  const right = new Set(topicWords(b, options));
  const qualifiers = new Set([...qualifierWords(a, options), ...qualifierWords(b, options)]);
  for (const word of qualifiers) {
    if (left.has(word) !== right.has(word)) return true;
  }
  return false;
}

/**
 * Derives a deterministic fact key from the first four topic words of a statement, e.g.
 * `"db-call-timeout-retry"`. Falls back to the category and a hash of the text when the statement
 * has no topic words.
 */
export function factKeyFor(value: string, category: FactCategory, options: WordListOptions = {}): string {
  const words = topicWords(value, options).slice(0, 4);
  if (words.length > 0) return words.join('-').replace(/[^\p{L}\p{N}_-]+/gu, '-');
  return `${category}-${fnv1a(value.trim().toLowerCase())}`;
}

/**
 * Removes leading discourse markers ("also,", "btw,", "anyway,", "note:", "fyi:") from a sentence and capitalises what remains.
 */
export function stripFillers(sentence: string, options: { patterns: PatternPack }): string {
  return stripLeading(sentence, matcherFor(options.patterns));
}

// --- Internal helpers ---

// The topic words of `value` in order (see topicSequence).
function scanTopicSequence(value: string, wordSets: WordSets): string[] {
  const { stopword, numberWord, unitWord } = wordSets;
  const withoutValues = value
    .replace(/`[^`]*`/gu, ' ')
    .replace(/"[^"\n]*"/gu, ' ')
    .replace(/(?<![\p{L}\p{N}])'[^'\n]*'(?![\p{L}\p{N}])/gu, ' ')
    .toLowerCase();
  const words: string[] = [];
  for (const match of withoutValues.matchAll(WORD)) {
    const token = match[0].replace(/['’]s$/u, '');
    if (token.length < 2 || /^\p{N}/u.test(token) || stopword.has(token)) continue;
    // Tokens with digits are values ("SHLF-77", "v1.2"), except short metric names ("p95").
    if (/\p{N}/u.test(token) && !/^\p{L}{1,3}\p{N}{1,3}$/u.test(token)) continue;
    if (numberWord.has(token) || unitWord.has(token)) continue;
    const stem = stemWord(token);
    if (stopword.has(stem)) continue;
    words.push(stem);
  }
  return words;
}

function valuesOf(text: string): Set<string> {
  const values = new Set(extractIdentifiers(text).map((value) => value.toLowerCase()));
  for (const match of text.matchAll(VALUE_NUMBER)) values.add(match[0]);
  return values;
}

/** Options of the word-list functions: the pack whose word lists apply (default: `defaultPatterns`). */
export interface WordListOptions {
  /** The pattern pack whose stopwords, number and unit words, qualifiers and abbreviations apply. */
  readonly patterns?: PatternPack | undefined;
}

/** Longest text whose topic words are remembered. */
const MAX_REMEMBERED_TOPIC_TEXT = 4_096;
/** Texts whose topic words are remembered per generation and word list. */
const REMEMBERED_TOPIC_TEXTS = 64;
const recentTopicSequences = new WeakMap<WordSets, RecentMemo<readonly string[]>>();

function wordsOf(options: WordListOptions): WordSets {
  return wordSetsFor(options.patterns ?? defaultPatterns);
}

/**
 * The topic words that follow a pack's qualifying prepositions: they name which thing a statement
 * is about ("for svc5", "in the billing API"), not the value it states.
 */
export function qualifierWords(text: string, options: WordListOptions): string[] {
  const pack = options.patterns ?? defaultPatterns;
  const words: string[] = [];
  const regex = qualifierRegexFor(pack);
  if (regex === undefined) return words;
  for (const match of text.matchAll(regex)) words.push(...topicWords(match[1] ?? '', options));
  return words;
}

const qualifierRegexes = new WeakMap<PatternPack, RegExp | undefined>();

function qualifierRegexFor(pack: PatternPack): RegExp | undefined {
  if (qualifierRegexes.has(pack)) return qualifierRegexes.get(pack);
  const { qualifier, determiner } = wordSetsFor(pack);
  const alternation = (words: ReadonlySet<string>): string =>
    [...words].map((word) => word.replace(/[.*+?^${}()|[\]\\/]/gu, '\\$&')).join('|');
  const regex =
    qualifier.size === 0
      ? undefined
      : new RegExp(
          `(?<![\\p{L}\\p{N}_])(?:${alternation(qualifier)})\\s+` +
            (determiner.size === 0 ? '' : `(?:(?:${alternation(determiner)})\\s+)?`) +
            '([\\p{L}\\p{N}_.-]+)',
          'giu',
        );
  qualifierRegexes.set(pack, regex);
  return regex;
}

const CONSEQUENCE = /^(?:so|and so|which|because|since|as|hence|thus|then)\b/iu;
// Where a sentence may be cut to find a statement of behaviour inside it.
const BEHAVIOUR_CLAUSE_BREAK = /[,;](?=\s)|\s[—–](?=\s)/gu;
const CODE_SUBJECT = /^(?:(?:[Tt]he|[Aa]n?|[Tt]his|[Tt]hat|[Oo]ur)\s+)?(?:`[^`]+`|[a-z]+[A-Z]\w*|[\w.-]+\/[\w./-]+)\s/u;
const LEADING_CONDITION = /^(?:when|whenever|if|once|unless|after|before)\b[^,]*,\s*/iu;
const FIRST_PERSON = /(?<![\p{L}\p{N}_])(?:I|I['’](?:m|ve|ll|d)|me|my)(?![\p{L}\p{N}_'’])/u;
const FENCE_LINE = /^\s{0,3}(?:```|~~~)/u;
// A subject that covers every thing of a kind: "every error response", "all new endpoints".
const UNIVERSAL_SUBJECT = /^(?:every|each|all(?: the)?)\s+(?!(?:of|time|day|week|one|run|attempt)\b)(?:[\p{L}-]+\s+){0,2}?[\p{L}-]+\s+(?:uses?|is|are|has|have|gets?|returns?|goes|go|follows?|takes?|carries|carry|starts?|ends?)\b/iu;
// The prose may open with a contraction or a label: "``` That's the whole change", "``` Don't …", "``` Note: …",
// or with a parenthesis round an aside: "``` (Side note: …)".
const FENCE_WITH_PROSE = /^\s{0,3}(?:```|~~~)\s+(\(?\p{Lu}\p{Ll}*(?:['’]\p{Ll}{1,2})?(?:[\s,]|:\s).*\S.*)$/u;
// A wrapped line goes on with a lower-case word; a line ending in sentence punctuation is done.
const WRAPPED_START = /^\p{Ll}/u;
// A whole sentence in parentheses, with no other parenthesis inside.
const WRAPPED_IN_PARENTHESES = /^\(([^()]+)\)[.!]?$/u;
const SENTENCE_END = /[.!?:;…]["')\]*_`]*$/u;
const TABLE_LINE = /^\|/u;
// A lead of a few words set apart by a comma: "Looking at `ci.yml`, …".
const LEAD_CLAUSE = /^[^,]{3,80},\s+/u;
const HEADING_LINE = /^\s{0,3}#{1,6}\s/u;
// Cue groups that word what a relayed call decided.
const MIN_RELAYED_SPECIFICS = 0.4;
const RELAYED_CALL_GROUPS = ['decision', 'requirement', 'constraint', 'convention', 'preference'] as const;
const QUOTE_MARKER = /^\s{0,3}>/u;
const LINE_MARKER = /^\s*(?:[-*+•]\s+|\d{1,3}[.)]\s+|#{1,6}\s+|>\s*)+/u;
const WORD = /[\p{L}\p{N}][\p{L}\p{N}_'’.-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu;
const CODE_SPAN = /`[^`\n]*`/gu;
const DISTINCTIVE = /[\p{N}_.]/u;
const MAX_CLAUSED_WORDS = 40;
// Words a clause needs to be weighed on its own.
const MIN_CLAUSE_WORDS = 4;
const CONTINUATION = /^(?:and|so|but|or|then|because)\b/iu;
const CLAUSE_REQUEST = /^(?:could|can|would|will|should|is it|please)\s/iu;
const CLAUSE_BREAK = /\s+[-—–]{1,2}\s+|;\s+|,\s+|:\s+|\s+(?=\p{L}+,\s)/gu;
const VALUE_NUMBER = /(?<![\p{L}\p{N}_.])\d[\d,.]*\d(?![\p{L}\p{N}_])|(?<![\p{L}\p{N}_.,])\d(?![\p{L}\p{N}_.,])/gu;
// Share of the larger statement's topic words that two statements about one subject have in common.
const MIN_SUBJECT_COVERAGE = 0.34;

const RETENTION_RANK: Readonly<Record<RetentionClass, number>> = {
  'error-resolution': 0,
  decision: 1,
  requirement: 2,
  constraint: 3,
  convention: 4,
  preference: 5,
  'task-status': 6,
  routine: 7,
  'chit-chat': 8,
};


interface AnalyzeOptions {
  readonly role: SentenceRole;
  readonly matcher: PatternMatcher;
  readonly turn: TurnShape;
}

function analyze(sentence: string, options: AnalyzeOptions): SentenceAnalysis {
  const found = { isOutput: false };
  const whole = analyzeWhole(sentence, options, found);
  if (FACT_RETENTION_CLASSES.includes(whole.retention) || whole.isDeadEnd) return whole;
  // Output (tables, logs, code), long pasted passages and a line that introduces what follows
  // are not split into statements.
  if (found.isOutput || /:\s*$/u.test(sentence)) return whole;
  // A fact about the product given as the reason for the speaker's own work ("Since the app has to
  // work offline, I queue writes locally") restates a requirement, whoever says it.
  if (!whole.isQuestion && premiseOf(whole.text) !== undefined) {
    return { ...whole, retention: 'requirement', salience: Math.max(whole.salience, DURABLE_SCORE) };
  }
  // A statement of behaviour set apart by a comma, a semicolon or a dash is one in any sentence,
  // a long one or an intention too ("free accounts stop at 5 GB; I'll make sure the code respects
  // that", "…, the rule is that refunds above the total are refused, so …").
  if (whole.isIntention || wordCount(sentence) > MAX_CLAUSED_WORDS) return behaviourClauseOf(whole, options) ?? whole;
  // A durable statement tacked onto a request or a remark ("look at the pager next - also, uploads
  // over 25 MB are refused") is still one: each clause is weighed on its own.
  const clauses = clausesOf(whole.text, options.matcher);
  // A question mark belongs to the last clause; the ones before it are part of the question.
  for (const clause of whole.isQuestion ? clauses.slice(-1) : clauses) {
    if (letterRunCount(clause) < MIN_CLAUSE_WORDS) continue;
    const part = analyzeWhole(clause, options);
    if (FACT_RETENTION_CLASSES.includes(part.retention) && !part.isDeadEnd) {
      return { ...whole, retention: part.retention, salience: part.salience, isUpdate: whole.isUpdate || part.isUpdate };
    }
  }
  return behaviourClauseOf(whole, options) ?? whole;
}

function behaviourClauseOf(whole: SentenceAnalysis, options: AnalyzeOptions): SentenceAnalysis | undefined {
  if (whole.isQuestion || whole.isDeadEnd) return undefined;
  const masked = whole.text.replace(CODE_SPAN, (span) => '`'.padEnd(span.length, '_'));
  const breaks = [...masked.matchAll(BEHAVIOUR_CLAUSE_BREAK)].map((match) => match.index);
  if (breaks.length === 0) return undefined;
  let start = 0;
  for (const end of [...breaks, masked.length]) {
    const before = whole.text.slice(0, start);
    const clause = whole.text.slice(start, end).replace(/^[,;—–\s]+/u, '').trim();
    start = end;
    // A consequence ("…, so callers need not change") leans on the clause before it; an
    // assistant's clause after its own narration ("I kept …, so …") belongs to the narration.
    if (CONSEQUENCE.test(clause) || (options.role !== 'user' && FIRST_PERSON.test(before))) continue;
    if (letterRunCount(clause) < MIN_CLAUSE_WORDS || !isBehaviourStatement(clause)) continue;
    const part = analyzeWhole(clause, options);
    if (FACT_RETENTION_CLASSES.includes(part.retention) && !part.isIntention && !part.isDeadEnd) {
      return { ...whole, retention: part.retention, salience: part.salience };
    }
  }
  return undefined;
}

/**
 * The clauses of a sentence that a dash or a semicolon sets apart, or a comma followed by a
 * discourse marker ("…, oh and while I remember, …"); none when there is only one.
 */
function clausesOf(text: string, matcher: PatternMatcher): string[] {
  const clauses: string[] = [];
  let start = 0;
  // Breaks inside `code spans` do not count: a span is masked before searching.
  const masked = text.replace(CODE_SPAN, (span) => '`'.padEnd(span.length, '_'));
  for (const match of masked.matchAll(CLAUSE_BREAK)) {
    const index = match.index;
    const after = text.slice(index + match[0].length);
    // A comma sets a clause apart only before a discourse marker or a polite request.
    // A short label ("separate thing: …") sets apart what follows it; any other break needs a
    // clause of a few words before it ("Interesting - no rows yet" is one remark).
    if (match[0].startsWith(':')) {
      if (start > 0 || wordCount(text.slice(0, index)) > 4 || after.includes(': ') || matcher.test('taskStatus', text.slice(0, index + 1))) continue;
    } else if (wordCount(text.slice(start, index)) < 3) {
      continue;
    }
    // "…, so nothing must change" goes on with the same thought and stays part of it; a marker
    // with a comma of its own ("… next also, uploads …") opens a clause without one before it.
    const isMarkerBreak = match[0].trim() === '';
    if ((match[0].startsWith(',') || isMarkerBreak) && !(CLAUSE_REQUEST.test(after) && !isMarkerBreak) && (matcher.find('filler', after)?.index !== 0 || CONTINUATION.test(after))) continue;
    clauses.push(text.slice(start, index));
    start = index + match[0].length;
  }
  if (start === 0) return [];
  clauses.push(text.slice(start));
  return clauses.map((clause) => clause.trim());
}

function analyzeWhole(
  sentence: string,
  options: AnalyzeOptions,
  found: { isOutput: boolean } = { isOutput: false },
): SentenceAnalysis {
  const { role, matcher, turn } = options;
  // A remark put in parentheses as a whole ("(and keep the ids stable)") says what it says without them.
  const original = sentence.trim().replace(WRAPPED_IN_PARENTHESES, '$1').trim();
  const text = stripLeading(original, matcher);
  // Patterns are tested on prose only: wording inside `code spans` ("Cannot read…", `onlyOnce`)
  // says nothing about the sentence.
  const prose = text.replace(CODE_SPAN, '`…`');
  const isQuestion = /\?\s*\)?$/u.test(text);
  const isUpdate = matcher.test('update', original.replace(CODE_SPAN, '`…`'));
  const isDeadEnd = matcher.test('deadEnd', prose);
  const isUser = role === 'user';
  const taskMatch = isUser ? matcher.find('taskStatus', prose) : undefined;
  const topicMatch = isUser && !isQuestion ? matcher.find('topicChange', prose) : undefined;
  const isTaskRequest =
    (taskMatch !== undefined && taskMatch.index <= 24) || (topicMatch !== undefined && topicMatch.index <= 24);
  // "Let's tackle getting the suite green again" opens a task; it does not complete one.
  const isCompletion =
    !isQuestion &&
    matcher.test('completion', prose) &&
    !matcher.test('conditional', prose) &&
    !matcher.test('taskStatus', prose) &&
    !matcher.test('topicChange', prose) &&
    // "The app is expected to keep working offline" obliges the product; it reports nothing done.
    !isObligationStatement(text) &&
    // "Hotfix branches are merged into main" states how the work is done, not that it is done.
    !isStandingRule(text);
  const isIntention = matcher.test('intention', prose);
  const cause = matcher.find('errorCause', prose);
  const hasCause = cause !== undefined;
  // "The bug is that…" names no failure of its own: the symptom must be outside the cause wording.
  const hasSymptom = matcher.test(
    'errorSymptom',
    cause === undefined ? text : text.replace(cause.text, ' '),
  );
  const hasFix = matcher.test('errorResolution', prose);
  const salience = scoreSalience(text, { role, matcher, original });
  const base = { text, isUpdate, isQuestion, isDeadEnd, isTaskRequest, isCompletion, isIntention, specifics: salience.specifics };

  found.isOutput = salience.isOutput;
  const identifierCount = salience.identifiers;
  const hasSubstance = salience.specifics > 0 || topicWords(prose, { patterns: matcher.pack }).length >= 2;
  if (!isDeadEnd && !isQuestion && hasSubstance && ((hasFix && (hasCause || hasSymptom)) || (hasCause && hasSymptom))) {
    return { ...base, retention: 'error-resolution', isDiagnosis: false, salience: salience.score };
  }
  // What was wrong and what changed, told by the shape of the sentence rather than its cue words:
  // "the export timed out; pages are fetched in parallel now". With a failure named it is one
  // whatever else the sentence is; with only something named in it, when it is nothing else.
  const isShapedFix = !isDeadEnd && !isQuestion && !isIntention && !salience.isOutput && isCauseAndFix(prose);
  // Two sentences read together ("The pool was capped at 5. Raised it to 25.") name the failure in the first.
  if (isShapedFix && hasSubstance && (hasSymptom || hasCause || hasFixOutcome(prose) || isLabelledFix(prose) || isJoinedCauseAndFix(prose))) {
    return { ...base, retention: 'error-resolution', isDiagnosis: false, salience: Math.max(salience.score, DURABLE_SCORE) };
  }
  const isDiagnosis = !isDeadEnd && !isQuestion && hasCause;
  // A call the user passes on from someone else ("the team agreed to standardise on winston for
  // logging", "everyone agreed: pino for all logging") is a decision; the lead's words are no small talk.
  // Someone else's wish to know or to meet ("my lead wants to know when it ships") decides nothing.
  if (isUser && isRelayedWish(text)) return { ...base, retention: 'routine', isDiagnosis, salience: 0 };
  // The assistant passing on a call it was told of or read ("the team settled on trunk-based
  // development") relays it as well.
  if (!isQuestion && !isDeadEnd && !salience.isOutput && isRelayedChoice(text, matcher)) {
    const retention = salience.isDurable ? retentionOf(salience.category) : 'decision';
    return { ...base, retention, isDiagnosis, salience: Math.max(salience.score, DURABLE_SCORE) };
  }
  // Small talk and leaving ("brb, quick call") stay small talk unless they carry specifics or give
  // a process its schedule ("the staging env is reseeded every weekend").
  if ((matcher.test('leaving', prose) || matcher.test('chitChat', prose)) && identifierCount === 0 && salience.specifics < 1 && !isRecurringProcess(text)) {
    return { ...base, retention: 'chit-chat', isDiagnosis, salience: 0 };
  }
  // A step done once because it was asked for, naming no value or tool ("I ran the tests as you
  // asked", "Per your message, I've pushed the branch"), is no fact, whatever its words.
  const isSpeech = role === 'user' || role === 'assistant';
  // A report that it is done ("I reran the suite as you asked; it passes") still reports it.
  if (isSpeech && !isQuestion && !isDeadEnd && salience.specifics < 1 && isOneOffAttributedAction(text, { role })) {
    return { ...base, retention: isCompletion ? 'task-status' : 'routine', isDiagnosis, salience: 0 };
  }
  if (salience.isDurable && !isDeadEnd) {
    return { ...base, retention: retentionOf(salience.category), isDiagnosis, salience: salience.score };
  }
  const rest = { ...base, isDiagnosis, salience: salience.score };
  // A rule, wish, owner or agreement of the listener or the team, stated or applied ("I didn't add
  // new dependencies, per your rule", "like we agreed, Redis is the session cache"), or a tool given
  // a role ("I made Biome the formatter for the repo"), by either speaker.
  const attributed = isSpeech && !isQuestion && !isDeadEnd && !salience.isOutput && hasSubstance ? attributedRuleOf(text, { role }) : undefined;
  if (attributed !== undefined) return { ...rest, retention: attributed, salience: Math.max(salience.score, DURABLE_SCORE) };
  // "the tree had a cycle; `walk` keeps a visited set now".
  if (isShapedFix && (salience.specifics > 0 || hasFixOutcome(prose))) {
    return { ...rest, retention: 'error-resolution', isDiagnosis: false, salience: Math.max(salience.score, DURABLE_SCORE) };
  }
  // A liking about how the work is done, weighed against an alternative or attributed to the
  // listener, is durable with or without names in it ("I kept the imports sorted the way you like them").
  // The user taking up an option put to them, restated ("a nightly rollup table sounds right, do
  // that"), decides it.
  if (role === 'user' && !isDeadEnd && !isQuestion && !salience.isOutput && isAcceptedOption(text) && topicWords(prose, { patterns: matcher.pack }).length >= 2) {
    return { ...rest, retention: 'decision', salience: Math.max(salience.score, DURABLE_SCORE) };
  }
  // A choice settled on how a comparison came out ("ky came out ahead, so that's the client now"), by either speaker.
  if (!isDeadEnd && !isQuestion && !isIntention && !salience.isOutput && isSettledChoice(prose) && topicWords(prose, { patterns: matcher.pack }).length >= 2) {
    return { ...rest, retention: 'decision', salience: Math.max(salience.score, DURABLE_SCORE) };
  }
  // A choice written as marked options ("luxon (rejected), date-fns (chosen)", "| NATS | picked |",
  // "…; offset was ruled out"), also as a table row, by either speaker.
  // "Ruled out" names the alternative here, not a dead end of debugging.
  if (!isQuestion && isMarkedChoice(prose) && (salience.specifics > 0 || topicWords(prose, { patterns: matcher.pack }).length >= 2)) {
    return { ...rest, retention: 'decision', isDeadEnd: false, salience: Math.max(salience.score, DURABLE_SCORE) };
  }
  // A choice to keep something or put it off ("we'll keep the monolith for now", "let's not do the
  // uuid migration in this PR"): its scope words are what it decides, not a sign that it passes.
  if (!isDeadEnd && !isQuestion && !salience.isOutput && isHeldChoice(text, matcher)) {
    return { ...rest, retention: 'decision', salience: Math.max(salience.score, DURABLE_SCORE) };
  }
  if (!isDeadEnd && !isQuestion && !isIntention && !salience.isOutput && isStatedPreference(text, { role })) {
    return { ...rest, retention: 'preference', salience: Math.max(salience.score, DURABLE_SCORE) };
  }
  // How the project does things, told as its habit or observed by the assistant and followed.
  if (!isDeadEnd && !isQuestion && !isIntention && !salience.isOutput && turn !== 'question' && isStatedConvention(text, { role })) {
    return { ...rest, retention: 'convention', salience: Math.max(salience.score, DURABLE_SCORE) };
  }
  if (!isDeadEnd && !isQuestion && !isIntention && !isCompletion && isStatedBehaviour(text, { role, turn, salience, hasSubstance })) {
    return { ...rest, retention: 'requirement', salience: Math.max(salience.score, DURABLE_SCORE) };
  }
  // What the speaker did or left alone because it is someone else's to decide states a constraint.
  if (!isDeadEnd && !isQuestion && !salience.isOutput && isDeferenceToRule(text)) {
    return { ...rest, retention: 'constraint', salience: Math.max(salience.score, DURABLE_SCORE) };
  }
  // Something named, done the way the project already does it, is a convention.
  // A rule over every thing of a kind ("every error response uses …, same as the existing
  // endpoints") needs no name: the kind is what it is about.
  if (!isDeadEnd && !isQuestion && !isIntention && (salience.specifics > 0 || UNIVERSAL_SUBJECT.test(text)) && turn !== 'question' && isFollowingPractice(text)) {
    return { ...rest, retention: 'convention', salience: Math.max(salience.score, DURABLE_SCORE) };
  }
  // A process given a schedule ("the image scan runs every 6 hours", "backups: 03:30 CET") is a
  // standing arrangement, whoever mentions it.
  // A row of a schedule table ("| nightly-e2e | daily 02:00 UTC | Playwright on staging |") is one too.
  // An observation after a lead that reads like the speaker's next step ("Looking at the workflow, I
  // see the suite runs at 02:00 UTC") states the schedule all the same.
  const observed = isIntention ? observationAfterLead(text, matcher) : text;
  if (!isDeadEnd && !isQuestion && observed !== undefined && (!salience.isOutput || TABLE_LINE.test(text)) && isRecurringProcess(observed)) {
    return { ...rest, retention: 'convention', salience: Math.max(salience.score, DURABLE_SCORE) };
  }
  if (isTaskRequest) return { ...rest, retention: 'task-status' };
  if ((matcher.test('leaving', prose) || matcher.test('chitChat', prose)) && identifierCount === 0) {
    return { ...rest, retention: 'chit-chat' };
  }
  if (isCompletion && (role === 'assistant' || wordCount(text) <= 12)) {
    return { ...rest, retention: 'task-status' };
  }
  const isSmallTalk =
    matcher.test('greeting', prose) ||
    matcher.test('acknowledgement', prose) ||
    matcher.test('chitChat', prose);
  if (isSmallTalk && identifierCount === 0 && (wordCount(text) <= 12 || matcher.test('chitChat', prose))) {
    return { ...rest, retention: 'chit-chat' };
  }
  return { ...rest, retention: 'routine' };
}

/**
 * Whether a sentence that no cue word made durable states how the software must behave, in a
 * turn where that can be a requirement: not small talk or a question; from the user with
 * something to it (a value or two topic words); from the assistant only with a value or a name
 * in it (a value in a report), in no first person and not about a piece of code ("`parse`
 * returns null when …" describes the code). The user describing what the product does counts too.
 */
function isStatedBehaviour(
  text: string,
  options: { role: SentenceRole; turn: TurnShape; salience: Salience; hasSubstance: boolean },
): boolean {
  const { role, turn, salience } = options;
  if (turn === 'question' || salience.isOutput || !options.hasSubstance || /:\s*$/u.test(text)) return false;
  // A short line is small talk unless it states behaviour outright ("uploads over 5 MB are refused").
  if (turn === 'chatter') return isBehaviourStatement(text) && !(role !== 'user' && FIRST_PERSON.test(withoutAttribution(text)));
  const stated = withoutAttribution(text);
  // The subject of the main clause, after a leading condition ("when `x` is set, the `load` method …").
  const main = stated.replace(LEADING_CONDITION, '');
  if (role !== 'user' && (CODE_SUBJECT.test(main) || FIRST_PERSON.test(stated))) return false;
  // An obligation put on the product ("the field app is expected to keep working offline") is a
  // requirement from the assistant too; any other statement of behaviour needs a value or a name.
  if (role !== 'user' && salience.specifics < (turn === 'report' ? 1 : 0.4)) return isObligationStatement(text) || isActionResponse(text) || isRefusalOrScope(text) || isConditionalRule(text);
  if (isBehaviourStatement(text)) return true;
  // The user describing what the product does says how it is meant to work.
  return role === 'user' && (turn === 'instruction' || turn === 'statement') && isProductDescription(text);
}

/**
 * Whether a sentence relays another party's call (see `relayedDecisionOf`) about something: what
 * was decided names something or is worded as a choice, a rule or a requirement with a subject,
 * and is no small talk ("the team agreed the meeting ran long").
 */
function isRelayedChoice(text: string, matcher: PatternMatcher): boolean {
  const decided = relayedDecisionOf(text);
  if (decided === undefined) return false;
  const prose = decided.replace(CODE_SPAN, '`…`');
  if (matcher.test('chitChat', prose) || matcher.test('leaving', prose)) return false;
  // Any name counts, an acronym ("EKS") or a code span too.
  if (countSpecifics(decided, { role: 'user' }) >= MIN_RELAYED_SPECIFICS) return true;
  const isWordedAsCall = RELAYED_CALL_GROUPS.some((group) => matcher.test(group, prose));
  return isWordedAsCall && topicWords(prose, { patterns: matcher.pack }).length >= 2;
}

/**
 * Whether a sentence keeps something, puts it off or records an agreed plan (see `heldChoiceOf`)
 * about something named: a name, a value or a topic word in what is kept ("keep the monolith for
 * now"; not "keep going for now", whose object names nothing).
 */
function isHeldChoice(text: string, matcher: PatternMatcher): boolean {
  const held = heldChoiceOf(text);
  if (held === undefined || held.length === 0) return false;
  if (countSpecifics(held, { role: 'user' }) >= MIN_RELAYED_SPECIFICS) return true;
  return topicWords(held, { patterns: matcher.pack }).length >= 1;
}

/** What follows a lead set apart by a comma ("Looking at the crontab, …"), unless it is an intention too. */
function observationAfterLead(text: string, matcher: PatternMatcher): string | undefined {
  const lead = LEAD_CLAUSE.exec(text);
  if (lead === null) return undefined;
  const rest = text.slice(lead[0].length);
  return matcher.test('intention', rest.replace(CODE_SPAN, '`…`')) ? undefined : rest;
}

function retentionOf(category: FactCategory | undefined): RetentionClass {
  return FACT_RETENTION_CLASSES.find((retention) => factCategoryFor(retention) === category) ?? 'decision';
}

function stripLeading(sentence: string, matcher: PatternMatcher): string {
  let text = sentence.trim();
  for (let round = 0; round < 6; round += 1) {
    const match = matcher.find('filler', text);
    if (match === undefined || match.index !== 0) break;
    const rest = text.slice(match.text.length);
    const separator = /^\s*[,:;—–-]?\s+|^\s*[,:;—–-]\s*/u.exec(rest);
    if (separator === null) break;
    const remaining = rest.slice(separator[0].length);
    if (!/[\p{L}\p{N}`]/u.test(remaining.charAt(0))) break;
    text = remaining;
  }
  return capitalize(text);
}

// Only a plain lowercase word is capitalised: `snake_case`, `pool.close()` and paths keep their case.
function capitalize(text: string): string {
  return /^\p{Ll}+(?:['’]\p{Ll}+)?(?=[\s,:;]|$)/u.test(text) ? text.charAt(0).toUpperCase() + text.slice(1) : text;
}

function splitLine(line: string, words: WordSets): string[] {
  const sentences: string[] = [];
  let start = 0;
  let index = 0;
  while (index < line.length) {
    const char = line.charAt(index);
    if (char === '`') {
      const close = line.indexOf('`', index + 1);
      index = close === -1 ? index + 1 : close + 1;
      continue;
    }
    if (char === '.' || char === '!' || char === '?' || char === '…') {
      let end = index + 1;
      while (end < line.length && /[.!?…]/u.test(line.charAt(end))) end += 1;
      while (end < line.length && /["'”’)\]]/u.test(line.charAt(end))) end += 1;
      const punctuation = line.slice(index, end).replace(/["'”’)\]]+$/u, '');
      const isEndOfLine = end >= line.length;
      const isFollowedBySpace = /\s/u.test(line.charAt(end));
      // "..." trails off inside a sentence; a doubled dot before a capital ("large.. The") ends one.
      const isDoubledStop = punctuation === '..' && /^\s+\p{Lu}(?:\p{Ll}|\s)/u.test(line.slice(end));
      if ((isEndOfLine || isFollowedBySpace) && (punctuation !== '..' || isDoubledStop || isEndOfLine) && !isAbbreviation(line, index, words)) {
        sentences.push(line.slice(start, end).trim());
        start = end;
      }
      index = end;
      continue;
    }
    index += 1;
  }
  if (start < line.length) sentences.push(line.slice(start).trim());
  return sentences.filter((sentence) => sentence.length > 0);
}

function isAbbreviation(line: string, dotIndex: number, words: WordSets): boolean {
  if (line.charAt(dotIndex) !== '.') return false;
  const before = /([\p{L}.]+)$/u.exec(line.slice(0, dotIndex));
  if (before === null) return false;
  return words.abbreviation.has((before[1] ?? '').toLowerCase());
}

/** Lower-cased word, lightly stemmed (plural `s`, `ies`) the way {@link topicWords} stems it. */
export function stemWord(word: string): string {
  if (/[._-]/u.test(word)) return word;
  if (word.length > 4 && word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.length > 3 && word.endsWith('s') && !/(?:ss|us|is|os)$/u.test(word)) return word.slice(0, -1);
  return word;
}

function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index += 1) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}


import { wordSetsFor, type WordSets } from '../boundaries/pattern-pack.js';
import { defaultPatterns } from '../boundaries/patterns/default.js';
import { extractIdentifiers } from '../language/identifiers.js';
import { isRecurringProcess } from '../language/recurrence.js';
import { qualifierWords, stemWord, topicSequence, type WordListOptions } from './retention.js';
import { hasRivalModifiers, isLight, lightStems } from './rival-modifiers.js';
import { hasRivalTags, valueWords } from './value-revision.js';

/**
 * Tells whether a newer statement, said as an update, puts another named tool in the same role
 * as an older one: "Bun is your package manager of choice" → "I've come around on package
 * managers, Yarn Berry from now on"; "Zustand is the state library I like" → "on second thought,
 * Jotai as the state library". Both must name the role with the same words — a kind word of the
 * pattern pack with the word in front of it ("package manager", "test runner"; "task runner" is
 * another role) — the newer must name something the older does not, and neither may be about
 * something the other is not (a scope right after the role: "… for the docs site"). The caller
 * checks that the newer is an update.
 */
export function isKindRevision(older: string, newer: string, options: WordListOptions = {}): boolean {
  const newerPhrases = kindPhrases(newer, options);
  // The same role with the same scope: "package manager" and "package manager for the docs site" differ.
  const shared = kindPhrases(older, options).filter((phrase) => newerPhrases.includes(phrase));
  if (shared.length === 0) return false;
  const olderText = older.toLowerCase();
  const names = [...valueWords(newer, options), ...[...newer.matchAll(NAME_AFTER_BREAK)].map((match) => (match[1] as string).toLowerCase())];
  return names.some((name) => !name.includes(' ') && !olderText.includes(name));
}

/**
 * Tells whether a newer statement, said as an update, puts another named thing in a role an older
 * statement filled, however the role is worded around it: "we'll run search on OpenSearch" →
 * "search moves to Typesense"; "the patient export has to support CSV and Parquet" → "exports need
 * NDJSON and XLSX instead"; "I wired the store with Zustand, since it's the state library you like"
 * → "Jotai for client state suits me better". What decides:
 * - the older names something (a capitalised or mixed-case name, an identifier, a lower-case word
 *   in a tool's slot: "bundle with esbuild"; not code: spans, paths, files, calls) and the newer
 *   names something the older never mentions;
 * - they share a word of the role: a topic word that is no name and no light word of the pattern
 *   pack ("run", "use", "choice" say nothing of a subject);
 * - the newer is about nothing the older is not: each other role word in the clause of its new
 *   name stands right in
 *   front of a shared one ("client state"), so "deploy the docs with Netlify" does not revise
 *   "deploy the API with Docker";
 * - no sign of two things: two different words in front of the same shared word ("ticket search"
 *   / "product search"), or each naming a scope the other lacks ("for svc5" / "for svc15");
 * - neither states an amount, and the older no schedule: a limit or a time that names a role is
 *   not a choice of one ("the session cache is flushed every Monday at 06:00").
 * The caller checks that the newer is an update.
 */
export function isRoleRevision(older: string, newer: string, options: WordListOptions = {}): boolean {
  const words = wordSetsFor(options.patterns ?? defaultPatterns);
  // Code is no value of a role: the names read are those of tools and formats, not of symbols.
  const olderBody = withoutLabel(older).replace(CODE_SPAN, ' ');
  const newerBody = withoutLabel(newer).replace(CODE_SPAN, ' ');
  if (AMOUNT.test(olderBody) || AMOUNT.test(newerBody) || isRecurringProcess(older)) return false;
  // Things numbered differently ("for tenant7" / "for tenant12") are two things.
  if (hasRivalTags(olderBody, newerBody)) return false;
  const before = readRole(olderBody, words, options);
  if (before.names.size === 0) return false;
  const olderText = older.toLowerCase();
  const added = [...readRole(newerBody, words, options).names].filter((name) => !before.names.has(name) && !olderText.includes(name));
  if (added.length === 0) return false;
  // The role of the new name is told in its own clause: a lead-in ("one more thing, …") or an
  // aside in another clause says nothing of it.
  const light = lightStems(words);
  const own = readRole(clausesWith(newerBody, added), words, options);
  // A clause of a name alone ("…: Meilisearch instead") takes its role from the rest.
  const after = own.sequence.some((word) => !own.names.has(word) && !isLight(word, light)) ? own : readRole(newerBody, words, options);
  // A name both statements give is part of the role ("CI goes to nox" / "CI goes to tox").
  const roleWords = (sequence: readonly string[], own: ReadonlySet<string>, other: ReadonlySet<string>): string[] =>
    sequence.map((word) => ((own.has(word) && !other.has(word)) || isLight(word, light) ? GAP : word));
  const left = roleWords(before.sequence, before.names, after.names);
  const right = roleWords(after.sequence, after.names, before.names);
  const leftSet = new Set(left.filter((word) => word !== GAP));
  const rightSet = new Set(right.filter((word) => word !== GAP));
  if (![...rightSet].some((word) => leftSet.has(word))) return false;
  for (let index = 0; index < right.length; index += 1) {
    const word = right[index] as string;
    if (word === GAP || leftSet.has(word)) continue;
    const next = right[index + 1];
    if (next === undefined || !leftSet.has(next)) return false;
  }
  const hasOwnScope = (text: string, own: ReadonlySet<string>, names: ReadonlySet<string>, other: ReadonlySet<string>): boolean =>
    qualifierWords(text, options).some((word) => own.has(word) && !names.has(word) && !other.has(word));
  if (hasOwnScope(olderBody, leftSet, before.names, rightSet) && hasOwnScope(newerBody, rightSet, after.names, leftSet)) return false;
  // Read on the words as written, side by side: between topic words a verb may stand in front of
  // a role ("reversing the search call"), and short words with digits ("e2e") are no topic words.
  if (hasRivalModifiers(olderBody, newerBody, { ...options, ignored: new Set([...before.names, ...after.names]) })) return false;
  // The newer gives one new value, in one place ("NDJSON and XLSX"): names in two places ("the CLI
  // is written in Rust") are a subject and its value.
  return isOneRun(after.sequence, new Set([...after.names].filter((name) => !before.names.has(name))), light);
}

// --- Internal helpers ---

// "package manager", "test runner": a kind word and the word before it, when that word is no
// determiner, stopword or possessive ("the runner", "your manager" name no role of their own).
function kindPhrases(text: string, options: WordListOptions): string[] {
  const words = wordSetsFor(options.patterns ?? defaultPatterns);
  const tokens = text.toLowerCase().match(WORD) ?? [];
  const phrases: string[] = [];
  tokens.forEach((token, index) => {
    const kind = stemWord(token);
    if (!words.toolKind.has(kind) || index === 0) return;
    const modifier = tokens[index - 1] as string;
    if (words.determiner.has(modifier) || words.stopword.has(modifier) || POSSESSIVE.has(modifier)) return;
    phrases.push(`${stemWord(modifier)} ${kind}${scopeAfter(tokens, index + 1, words.determiner)}`);
  });
  return phrases;
}

// The scope a role is given right after it: "… for the docs site" → " for docs site".
function scopeAfter(tokens: readonly string[], start: number, determiners: ReadonlySet<string>): string {
  const preposition = tokens[start];
  if (preposition === undefined || !SCOPE_PREPOSITIONS.has(preposition)) return '';
  const scope = tokens.slice(start + 1, start + 4).filter((token) => !determiners.has(token));
  return ` ${preposition} ${scope.slice(0, 2).join(' ')}`;
}

const WORD = /[\p{L}\p{N}][\p{L}\p{N}+.-]*/gu;
// A capitalised name right after a colon or a comma ("test runners: Vitest", "…, Yarn from now on").
const NAME_AFTER_BREAK = /[:,]\s+(\p{Lu}[\p{L}\p{N}.+-]*[\p{L}\p{N}])(?![\p{L}\p{N}'’])/gu;
const SCOPE_PREPOSITIONS: ReadonlySet<string> = new Set(['for', 'in', 'across', 'inside', 'within', 'on']);
const POSSESSIVE: ReadonlySet<string> = new Set(['my', 'your', 'our', 'their', 'his', 'her', 'its', 'new', 'old', 'same', 'other']);

/** What a statement names, and its topic words in order. */
function readRole(text: string, words: WordSets, options: WordListOptions): { names: ReadonlySet<string>; sequence: readonly string[] } {
  const names = new Set<string>(valueWords(text, options));
  for (const identifier of extractIdentifiers(text)) if (!/\d/u.test(identifier) && !CODE_NAME.test(identifier)) names.add(stemWord(identifier.toLowerCase()));
  for (const name of slotNames(text, words)) names.add(name);
  // A capitalised word after a colon or a dash inside the statement ("reversed it: Traefik for ingress").
  for (const match of text.matchAll(NAME_AFTER_COLON)) if (!words.stopword.has((match[1] as string).toLowerCase())) names.add(stemWord((match[1] as string).toLowerCase()));
  return { names, sequence: topicSequence(text, options) };
}

/**
 * Lower-case names in a tool's slot: right after a name slot of the pattern pack ("with", "moves
 * to") and ending the clause or followed by a function word ("bundle with esbuild", "CI goes to nox
 * after all").
 */
function slotNames(text: string, words: WordSets): string[] {
  const tokens = [...text.matchAll(SLOT_TOKEN)].map((match) => ({ raw: match[0], lower: match[0].toLowerCase(), start: match.index, end: match.index + match[0].length }));
  const isJoined = (index: number): boolean => index > 0 && /^\s+$/u.test(text.slice((tokens[index - 1] as { end: number }).end, (tokens[index] as { start: number }).start));
  const names: string[] = [];
  tokens.forEach((token, index) => {
    if (!isJoined(index) || !LOWER_NAME.test(token.raw) || !isNameLike(token.lower, words)) return;
    const previous = (tokens[index - 1] as { lower: string }).lower;
    const pair = index > 1 && isJoined(index - 1) ? `${(tokens[index - 2] as { lower: string }).lower} ${previous}` : undefined;
    // "switch the log output to logfmt": a slot's verb a few words back, its preposition right before.
    const isSpread = tokens.slice(Math.max(0, index - 6), index - 1).some((head) => words.nameSlot.has(`${head.lower} … ${previous}`));
    if (!words.nameSlot.has(previous) && (pair === undefined || !words.nameSlot.has(pair)) && !isSpread) return;
    const next = tokens[index + 1];
    const endsClause = next === undefined || !isJoined(index + 1) || words.stopword.has(next.lower) || words.lightWord.has(next.lower);
    if (endsClause) names.push(stemWord(token.lower));
  });
  return names;
}

function isNameLike(word: string, words: WordSets): boolean {
  if (word.length < 2 || words.stopword.has(word) || words.determiner.has(word) || words.lightWord.has(word) || words.unitWord.has(word) || words.commonWord.has(word)) return false;
  for (const common of words.commonWord) if (common.startsWith('-') && word.length > common.length + 1 && word.endsWith(common.slice(1))) return false;
  return true;
}

/** A statement without a short label in front of it ("Update: …", "Change of plan: …"). */
function withoutLabel(text: string): string {
  const label = LABEL.exec(text);
  return label === null ? text : text.slice(label[0].length);
}

const GAP = '';
const CODE_SPAN = /`[^`\n]*`/gu;
// A path, a call, a snake_case symbol or a file with its extension ("Inventory.cs"; "Day.js" and
// "Fly.io" name tools).
const CODE_NAME = /[/\\()_]|\.(?!js$|io$)\p{L}{1,4}$/iu;
const ROLE_CLAUSE_BREAK = /[;:()\n]+|[,.!?](?=\s|$)|\s[—–-]{1,2}\s/u;
const NAME_AFTER_COLON = /(?<=\S\s*(?::|\s[—–-]))\s+(\p{Lu}[\p{L}\p{N}.+-]*[\p{L}\p{N}])(?![\p{L}\p{N}'’])/gu;
// A short lead-in ending in a colon: up to five plain words.
const LABEL = /^\s*["'“]?(?:[\p{L}'’]+\s+){0,4}[\p{L}'’]+:\s+/u;
// An amount or a time of day outside a word ("p95" and "v2" are names of things).
const AMOUNT = /(?<![\p{L}\p{N}_.-])\d/u;
const SLOT_TOKEN = /[\p{L}\p{N}][\p{L}\p{N}.'’-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu;
const LOWER_NAME = /^\p{Ll}[\p{Ll}\p{N}.-]*$/u;

/** The clauses of a statement that mention any of `names`. */
function clausesWith(text: string, names: readonly string[]): string {
  const clauses = text.split(ROLE_CLAUSE_BREAK).filter((clause) => names.some((name) => clause.toLowerCase().includes(name)));
  return clauses.length === 0 ? text : clauses.join('. ');
}

/** Whether the words of `values` stand together in `sequence`, light words aside. */
function isOneRun(sequence: readonly string[], values: ReadonlySet<string>, light: ReadonlySet<string>): boolean {
  const positions = sequence.flatMap((word, index) => (values.has(word) ? [index] : []));
  for (let index = 1; index < positions.length; index += 1) {
    const between = sequence.slice((positions[index - 1] as number) + 1, positions[index]);
    if (between.some((word) => !values.has(word) && !isLight(word, light))) return false;
  }
  return true;
}


import { wordSetsFor, type WordSets } from '../boundaries/pattern-pack.js';
import { defaultPatterns } from '../boundaries/patterns/default.js';
import { stemWord, topicWords, type WordListOptions } from './retention.js';

/**
 * Tells whether two statements put two different words right in front of a word they share, as
 * written: "never deploy the search service …" / "never deploy the mailer service …", "unit tests"
 * / "e2e tests", "ticket search" / "product search". Such statements are about two things however
 * much else they share. Function words and light words of the pattern pack ("the", "moves") are no
 * modifiers, nor are the words in `ignored` (callers pass the names the statements give: "the
 * Postgres database" / "the Redis database" name values of one thing).
 */
export function hasRivalModifiers(older: string, newer: string, options: WordListOptions & { ignored?: ReadonlySet<string> } = {}): boolean {
  const words = wordSetsFor(options.patterns ?? defaultPatterns);
  const ignored = options.ignored ?? new Set<string>();
  const before = modifiersOf(older, words, ignored);
  if (before.size === 0) return false;
  const after = modifiersOf(newer, words, ignored);
  const shared = new Set(topicWords(older, options));
  for (const [head, modifiers] of after) {
    const others = before.get(head);
    if (!shared.has(head) || others === undefined) continue;
    if ([...modifiers].some((word) => !others.has(word)) && [...others].some((word) => !modifiers.has(word))) return true;
  }
  return false;
}

/** Whether a word is a light word of the pack in any of its forms ("switching", "moved"). */
export function isLight(word: string, light: ReadonlySet<string>): boolean {
  if (light.has(word) || light.has(stemWord(word))) return true;
  const base = INFLECTION.exec(word)?.[1];
  return base !== undefined && (light.has(base) || light.has(`${base}e`) || (DOUBLED.test(base) && light.has(base.slice(0, -1))));
}

/** The light words of a pack, stemmed as topic words are. */
export function lightStems(words: WordSets): ReadonlySet<string> {
  let stems = lightStemCache.get(words);
  if (stems === undefined) {
    stems = new Set([...words.lightWord].map(stemWord));
    lightStemCache.set(words, stems);
  }
  return stems;
}

// --- Internal helpers ---

const lightStemCache = new WeakMap<WordSets, ReadonlySet<string>>();
const INFLECTION = /^(\p{L}{2,}?)(?:ing|ed|es|s)$/u;
const DOUBLED = /(\p{L})\1$/u;
const TOKEN = /[\p{L}\p{N}][\p{L}\p{N}.'’-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu;

/**
 * The words right in front of each word as written, by the stem of the word they stand before
 * ("unit tests" → test: unit); function words, light words, figures, number words and the words in `ignored`
 * are no modifiers, and a light word ("across", "moves") modifies nothing.
 */
function modifiersOf(text: string, words: WordSets, ignored: ReadonlySet<string>): Map<string, Set<string>> {
  const tokens = [...text.matchAll(TOKEN)].map((match) => ({ lower: match[0].toLowerCase(), start: match.index, end: match.index + match[0].length }));
  const light = lightStems(words);
  const modifiers = new Map<string, Set<string>>();
  for (let index = 1; index < tokens.length; index += 1) {
    const modifier = tokens[index - 1] as { lower: string; end: number };
    const head = tokens[index] as { lower: string; start: number };
    if (!/^\s+$/u.test(text.slice(modifier.end, head.start))) continue;
    const word = modifier.lower;
    if (words.stopword.has(word) || words.determiner.has(word) || words.numberWord.has(word) || isLight(word, light) || ignored.has(stemWord(word)) || /['’]|^\d/u.test(word)) continue;
    const stem = stemWord(head.lower);
    if (isLight(head.lower, light)) continue;
    let set = modifiers.get(stem);
    if (set === undefined) {
      set = new Set();
      modifiers.set(stem, set);
    }
    set.add(word);
  }
  return modifiers;
}

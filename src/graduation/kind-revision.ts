import { wordSetsFor } from '../boundaries/pattern-pack.js';
import { defaultPatterns } from '../boundaries/patterns/default.js';
import { stemWord, type WordListOptions } from './retention.js';
import { valueWords } from './value-revision.js';

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

// Index terms of the default recall retriever (BM25 over words and identifier parts).
import { detachedCopy } from '../detached-copy.js';
import { createRecentMemo } from '../recent-memo.js';

const STOPWORDS = new Set(['the', 'a', 'an', 'and', 'or', 'of', 'to', 'in', 'on', 'for', 'is', 'it', 'be', 'with', 'that', 'this', 'as', 'at', 'by', 'we', 'i', 'you', 'was', 'are', 'what', 'did', 'do', 'how', 'which']);

/**
 * The index terms of a text: its words (letters, digits, `_`) lower-cased, without stopwords and
 * runs over 40 characters, each followed by its snake_case or camelCase parts of three or more
 * characters when it has two or more.
 */
export function termsOf(text: string): string[] {
  // The same texts are indexed and searched for again (a replaced document, a repeated query):
  // the terms of the texts seen last are remembered (a copy is handed out each time).
  const known = recentTerms.get(text);
  if (known !== undefined) return [...known];
  const terms = scanTerms(text);
  if (text.length <= MAX_REMEMBERED_TEXT) recentTerms.set(text, terms);
  return [...terms];
}

// --- Internal helpers ---

/** Longest text whose terms are remembered. */
const MAX_REMEMBERED_TEXT = 4_096;
/** Texts whose terms are remembered per generation. */
const REMEMBERED_TEXTS = 64;
const recentTerms = createRecentMemo<readonly string[]>({ size: REMEMBERED_TEXTS, keyOf: detachedCopy });

// The terms of `text` (see termsOf).
function scanTerms(text: string): string[] {
  const terms: string[] = [];
  for (const word of text.match(WORD) ?? []) {
    // Very long runs are not words (minified code, base64); skipping them keeps indexing linear.
    if (word.length > 40) continue;
    const lower = word.toLowerCase();
    if (!STOPWORDS.has(lower)) terms.push(lower);
    // A word of lower-case ASCII letters only is one part: nothing more to split.
    if (LOWER_ASCII_WORD.test(word)) continue;
    // Identifier parts: snake_case and camelCase pieces are searchable on their own.
    const parts = word.includes('_') ? word.split('_') : (word.match(IDENTIFIER_PART) ?? []);
    if (parts.length < 2) continue;
    for (const part of parts) {
      const piece = part.toLowerCase();
      if (piece.length > 2 && !STOPWORDS.has(piece)) terms.push(piece);
    }
  }
  return terms;
}

const WORD = /[\p{L}\p{N}_]+/gu;
const LOWER_ASCII_WORD = /^[a-z]+$/;
const IDENTIFIER_PART = /[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+/g;

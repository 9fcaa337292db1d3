import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { termsOf } from '../../src/tiers/recall-terms.js';
import { PROPERTY_RUNS } from '../helpers.js';

// The terms as first written: every word through `matchAll`, every word split into parts.
const STOPWORDS = new Set(['the', 'a', 'an', 'and', 'or', 'of', 'to', 'in', 'on', 'for', 'is', 'it', 'be', 'with', 'that', 'this', 'as', 'at', 'by', 'we', 'i', 'you', 'was', 'are', 'what', 'did', 'do', 'how', 'which']);
function referenceTerms(text: string): string[] {
  const terms: string[] = [];
  for (const match of text.matchAll(/[\p{L}\p{N}_]+/gu)) {
    const word = match[0];
    if (word.length > 40) continue;
    const lower = word.toLowerCase();
    if (!STOPWORDS.has(lower)) terms.push(lower);
    const parts = word.includes('_') ? word.split('_') : (word.match(/[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+/g) ?? []);
    if (parts.length < 2) continue;
    for (const part of parts) {
      const piece = part.toLowerCase();
      if (piece.length > 2 && !STOPWORDS.has(piece)) terms.push(piece);
    }
  }
  return terms;
}

// Pieces that exercise every branch: plain lower-case words (the shortcut), camelCase, acronyms,
// snake_case, digits, non-ASCII letters (lower-case but not ASCII), stopwords and long runs.
const piece = fc.constantFrom('retry', 'parseConfigFile', 'HTTPServer', 'max_queue_size', 'v2', 'abc123', 'naïve', 'éclair', 'Ünïcode', 'the', 'THE', 'ok', '_', '__init__', 'x'.repeat(41), 'deadlineMs', 'ID', 'ß', '٣٤', ' ', '-', '/', '.', '\n');
const text = fc.oneof(fc.array(piece, { maxLength: 20 }).map((pieces) => pieces.join('')), fc.string({ unit: 'grapheme-composite', maxLength: 60 }), fc.string({ maxLength: 60 }));

describe('termsOf()', () => {
  it('gives the terms of splitting every word into parts, with plain lower-case ASCII words taken whole', () => {
    fc.assert(
      fc.property(text, (value) => {
        expect(termsOf(value)).toEqual(referenceTerms(value));
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });

  it('gives each of many texts read in turn its own terms, in a fresh array every time', () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 150 }), (values) => {
        for (const value of [...values, ...values.slice().reverse()]) {
          const terms = termsOf(value);
          expect(terms).toEqual(referenceTerms(value));
          terms.push('changed by a caller');
        }
      }),
      { numRuns: Math.max(10, PROPERTY_RUNS / 4) },
    );
  });
});

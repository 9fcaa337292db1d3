import type { Awaitable, ArchivedItem, SequenceRange } from '../types.js';

/** One archived item found by `recall()`. */
export interface RecallHit {
  /** Stable id of the item: `e<seq>` for an entry, the summary id, `fact:<key>@<seq>`, or the pin id. */
  readonly id: string;
  /** The archived item. */
  readonly item: ArchivedItem;
  /** Relevance score (higher is better); only comparable within one call. */
  readonly score: number;
  /** The text that was matched and that a recalled block shows. */
  readonly text: string;
  /** Sequence range the item covers (provenance). */
  readonly source: SequenceRange;
}

/** A document a {@link Retriever} ranks: the searchable text of one archived item. */
export interface RecallDocument {
  /** Id of the archived item. */
  readonly id: string;
  /** Its searchable text. */
  readonly text: string;
}

/**
 * Ranks archived items for a query. Implement it to use embeddings; the default is an offline
 * BM25 lexical index. Documents are added as they are archived and never removed.
 */
export interface Retriever {
  /** Identifies the retriever in errors, e.g. `"bm25"`. */
  readonly name: string;
  /** Adds archived documents to the index. */
  add(documents: readonly RecallDocument[]): Awaitable<void>;
  /** Returns the ids of the best matches, best first, with their scores. */
  search(options: { query: string; limit: number }): Awaitable<readonly { readonly id: string; readonly score: number }[]>;
}

/** Options of {@link createBm25Retriever}. */
export interface Bm25Options {
  /** Term-frequency saturation. @default 1.2 */
  k1?: number | undefined;
  /** Length normalisation. @default 0.75 */
  b?: number | undefined;
}

/**
 * Creates the default retriever: an incremental BM25 index over words and identifier parts
 * (`src/auth.py` is found by `auth`), offline and deterministic. A search touches only the
 * postings of the query's terms, not the whole archive.
 */
export function createBm25Retriever(options: Bm25Options = {}): Retriever {
  const k1 = options.k1 ?? 1.2;
  const b = options.b ?? 0.75;
  const postings = new Map<string, Map<number, number>>();
  const lengths: number[] = [];
  const ids: string[] = [];
  let totalLength = 0;
  return {
    name: 'bm25',
    add(documents) {
      for (const document of documents) {
        const index = ids.length;
        ids.push(document.id);
        const terms = termsOf(document.text);
        lengths.push(terms.length);
        totalLength += terms.length;
        for (const term of terms) {
          let list = postings.get(term);
          if (list === undefined) {
            list = new Map();
            postings.set(term, list);
          }
          list.set(index, (list.get(index) ?? 0) + 1);
        }
      }
    },
    search({ query, limit }) {
      const count = ids.length;
      if (count === 0) return [];
      const average = totalLength / count;
      const scores = new Map<number, number>();
      for (const term of new Set(termsOf(query))) {
        const list = postings.get(term);
        if (list === undefined) continue;
        const idf = Math.log(1 + (count - list.size + 0.5) / (list.size + 0.5));
        for (const [index, frequency] of list) {
          const length = lengths[index] ?? 0;
          const score = (idf * frequency * (k1 + 1)) / (frequency + k1 * (1 - b + (b * length) / average));
          scores.set(index, (scores.get(index) ?? 0) + score);
        }
      }
      return [...scores]
        .sort((left, right) => right[1] - left[1] || right[0] - left[0])
        .slice(0, limit)
        .map(([index, score]) => ({ id: ids[index] as string, score }));
    },
  };
}

/** The recall id and searchable text of an archived item. */
export function recallDocumentOf(item: ArchivedItem): RecallDocument & { readonly source: SequenceRange } {
  switch (item.type) {
    case 'entry':
      return { id: `e${item.entry.seq}`, text: item.entry.text, source: { from: item.entry.seq, to: item.entry.seq } };
    case 'summary':
      return { id: item.summary.id, text: item.summary.text, source: item.summary.source };
    case 'fact':
      return { id: `fact:${item.key}@${item.archivedAt}`, text: `${item.key}: ${item.value} (superseded)`, source: item.source };
    case 'pin':
      return { id: item.pin.id, text: item.pin.text, source: { from: item.pin.seq, to: item.pin.seq } };
  }
}

// --- Internal helpers ---

const STOPWORDS = new Set(['the', 'a', 'an', 'and', 'or', 'of', 'to', 'in', 'on', 'for', 'is', 'it', 'be', 'with', 'that', 'this', 'as', 'at', 'by', 'we', 'i', 'you', 'was', 'are', 'what', 'did', 'do', 'how', 'which']);

function termsOf(text: string): string[] {
  const terms: string[] = [];
  for (const match of text.matchAll(/[\p{L}\p{N}_]+/gu)) {
    const word = match[0];
    // Very long runs are not words (minified code, base64); skipping them keeps indexing linear.
    if (word.length > 40) continue;
    const lower = word.toLowerCase();
    if (!STOPWORDS.has(lower)) terms.push(lower);
    // Identifier parts: snake_case and camelCase pieces are searchable on their own.
    const parts = word.includes('_') ? word.split('_') : (word.match(/[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+/g) ?? []);
    if (parts.length < 2) continue;
    for (const part of parts) {
      const piece = part.toLowerCase();
      if (piece.length > 2 && !STOPWORDS.has(piece)) terms.push(piece);
    }
  }
  return terms;
}

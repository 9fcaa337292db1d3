import MiniSearch from 'minisearch';
import type { Awaitable, ArchivedItem, SequenceRange } from '../types.js';
import { termsOf } from './recall-terms.js';

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
 * Creates the default retriever: a MiniSearch index (BM25+ ranking) over words and identifier
 * parts (`src/auth.py` is found by `auth`, `parseConfigFile` by `config`), offline and
 * deterministic; equal scores rank the newer document first. A document added again under the
 * same id replaces the earlier one.
 */
export function createBm25Retriever(options: Bm25Options = {}): Retriever {
  const bm25 = { k: options.k1 ?? 1.2, b: options.b ?? 0.75, d: 0.5 };
  const index = new MiniSearch<RecallDocument>({
    fields: ['text'],
    idField: 'id',
    tokenize: termsOf,
    // termsOf already lowercases and drops stopwords.
    processTerm: (term) => term,
    // A query term counts once, however often the query repeats it.
    searchOptions: { bm25, combineWith: 'OR', tokenize: (text) => [...new Set(termsOf(text))] },
  });
  // Insertion order, to rank ties newest first.
  const order = new Map<string, number>();
  return {
    name: 'bm25',
    add(documents) {
      for (const document of documents) {
        const entry = { id: document.id, text: document.text };
        if (index.has(entry.id)) index.replace(entry);
        else index.add(entry);
        order.set(entry.id, order.size);
      }
    },
    search({ query, limit }) {
      return index
        .search(query)
        .map((result) => ({ id: String(result.id), score: result.score }))
        .sort((left, right) => right.score - left.score || (order.get(right.id) ?? 0) - (order.get(left.id) ?? 0))
        .slice(0, limit);
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

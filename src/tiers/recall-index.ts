import type { RecalledBlock } from '../build/window-builder.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import type { ArchivedItem, SequenceRange } from '../types.js';
import { recallDocumentOf } from './recall.js';
import type { RecallHit, Retriever } from './recall.js';

/**
 * Keeps the archive searchable: feeds each archived item to a {@link Retriever} (in order, in
 * the background) and turns its matches into hits within a token budget. With `show`, the hits
 * become the "recalled" block of the next window.
 * @internal
 */
export class RecallIndex {
  readonly #retriever: Retriever;
  readonly #counter: TokenCounter;
  readonly #items = new Map<string, { item: ArchivedItem; text: string; source: SequenceRange; tokens?: number }>();
  #indexing: Promise<void> = Promise.resolve();
  #recalled: RecalledBlock | undefined;

  constructor(options: { retriever: Retriever; counter: TokenCounter }) {
    this.#retriever = options.retriever;
    this.#counter = options.counter;
  }

  /** Indexes newly archived items. */
  add(items: readonly ArchivedItem[]): void {
    const documents = items.map((item) => ({ item, document: recallDocumentOf(item) }));
    for (const { item, document } of documents) {
      this.#items.set(document.id, { item, text: document.text, source: document.source });
    }
    if (documents.length === 0) return;
    const retriever = this.#retriever;
    this.#indexing = this.#indexing
      .then(() => retriever.add(documents.map(({ document }) => ({ id: document.id, text: document.text }))))
      .catch(() => undefined);
  }

  /** Forgets the items known so far (the retriever keeps its documents; unknown ids are skipped). */
  reset(items: readonly ArchivedItem[]): void {
    this.#items.clear();
    this.#indexing = Promise.resolve();
    this.add(items);
  }

  /** Searches the archive: at most `limit` hits and `maxTokens` tokens of hit text. */
  async search(options: { query: string; limit: number; maxTokens: number; show: boolean }): Promise<readonly RecallHit[]> {
    await this.#indexing;
    const found = await this.#retriever.search({ query: options.query, limit: options.limit * 2 });
    const hits: RecallHit[] = [];
    let used = 0;
    for (const { id, score } of found) {
      const known = this.#items.get(id);
      if (known === undefined) continue;
      known.tokens ??= this.#counter.count(known.text);
      if (used + known.tokens > options.maxTokens) continue;
      used += known.tokens;
      hits.push({ id, item: known.item, score, text: known.text, source: known.source });
      if (hits.length >= options.limit) break;
    }
    if (options.show && hits.length > 0) {
      const text = hits.map((hit) => `- [${hit.id}, #${hit.source.from}–${hit.source.to}] ${hit.text}`).join('\n');
      this.#recalled = { text, tokens: this.#counter.count(text) };
    }
    return hits;
  }

  /** The recalled block for the next window, once: taking it clears it. */
  takeRecalled(): RecalledBlock | undefined {
    const recalled = this.#recalled;
    this.#recalled = undefined;
    return recalled;
  }
}

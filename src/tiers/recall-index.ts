import type { RecalledBlock } from '../build/window-builder.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import type { ArchivedItem, SequenceRange } from '../types.js';
import { ARCHIVE_READ_BATCH } from './archive-reader.js';
import { recallDocumentOf } from './recall.js';
import type { RecallHit, Retriever } from './recall.js';

/**
 * Keeps the archive searchable: feeds each archived item to a {@link Retriever} (in order, in
 * the background) and turns its matches into hits within a token budget. With `show`, the hits
 * become the "recalled" block of the next window. It keeps no item text: only where each item
 * is (the seq of the event that archived it), so that an archive spilled to storage is not held
 * here either; hits are read back through `read`.
 * @internal
 */
export class RecallIndex {
  readonly #retriever: Retriever;
  readonly #counter: TokenCounter;
  readonly #read: (seqs: readonly number[]) => Promise<readonly ArchivedItem[]>;
  readonly #items = new Map<string, { archivedAt: number; source: SequenceRange; tokens?: number }>();
  /** Spilled groups not indexed yet (after a load or rollback): indexed by the next search. */
  #pendingSpilled: number[] = [];
  #indexing: Promise<void> = Promise.resolve();
  #recalled: RecalledBlock | undefined;

  constructor(options: { retriever: Retriever; counter: TokenCounter; read: (seqs: readonly number[]) => Promise<readonly ArchivedItem[]> }) {
    this.#retriever = options.retriever;
    this.#counter = options.counter;
    this.#read = options.read;
  }

  /** Indexes newly archived items. */
  add(items: readonly ArchivedItem[]): void {
    const documents = items.map((item) => ({ item, document: recallDocumentOf(item) }));
    for (const { item, document } of documents) {
      this.#items.set(document.id, { archivedAt: item.archivedAt, source: document.source });
    }
    if (documents.length === 0) return;
    const retriever = this.#retriever;
    this.#indexing = this.#indexing
      .then(() => retriever.add(documents.map(({ document }) => ({ id: document.id, text: document.text }))))
      .catch(() => undefined);
  }

  /** Forgets the items known so far (the retriever keeps its documents; unknown ids are skipped). */
  reset(items: readonly ArchivedItem[], spilledSeqs: readonly number[] = []): void {
    this.#items.clear();
    this.#indexing = Promise.resolve();
    this.#pendingSpilled = [];
    this.addSpilled(spilledSeqs);
    this.add(items);
  }

  /** Notes archive groups held only in storage; the next search reads and indexes them. */
  addSpilled(seqs: readonly number[]): void {
    this.#pendingSpilled.push(...seqs);
  }

  /** Searches the archive: at most `limit` hits and `maxTokens` tokens of hit text. */
  async search(options: { query: string; limit: number; maxTokens: number; show: boolean }): Promise<readonly RecallHit[]> {
    await this.#indexSpilled();
    await this.#indexing;
    const found = await this.#retriever.search({ query: options.query, limit: options.limit * 2 });
    const located = found.flatMap(({ id, score }) => {
      const known = this.#items.get(id);
      return known === undefined ? [] : [{ id, score, known }];
    });
    // One read for every group a hit is in: in-memory groups cost nothing, spilled ones one call.
    const items = new Map<string, ArchivedItem>();
    for (const item of await this.#read(located.map(({ known }) => known.archivedAt))) items.set(recallDocumentOf(item).id, item);
    const hits: RecallHit[] = [];
    let used = 0;
    for (const { id, score, known } of located) {
      const item = items.get(id);
      if (item === undefined) continue;
      const text = recallDocumentOf(item).text;
      known.tokens ??= this.#counter.count(text);
      if (used + known.tokens > options.maxTokens) continue;
      used += known.tokens;
      hits.push({ id, item, score, text, source: known.source });
      if (hits.length >= options.limit) break;
    }
    if (options.show && hits.length > 0) {
      const text = hits.map((hit) => `- [${hit.id}, #${hit.source.from}–${hit.source.to}] ${hit.text}`).join('\n');
      this.#recalled = { text, tokens: this.#counter.count(text) };
    }
    return hits;
  }

  // Reads pending spilled groups a batch at a time and indexes them, so that a loaded session finds
  // what it spilled before, without holding it.
  async #indexSpilled(): Promise<void> {
    while (this.#pendingSpilled.length > 0) {
      const batch = this.#pendingSpilled.slice(0, ARCHIVE_READ_BATCH);
      const items = await this.#read(batch);
      this.#pendingSpilled = this.#pendingSpilled.filter((seq) => !batch.includes(seq));
      this.add(items);
    }
  }

  /** The recalled block for the next window, once: taking it clears it. */
  takeRecalled(): RecalledBlock | undefined {
    const recalled = this.#recalled;
    this.#recalled = undefined;
    return recalled;
  }
}

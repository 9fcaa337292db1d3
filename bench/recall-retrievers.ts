// Compares retrievers on known-item recall: every synthetic session of bench/fixtures is replayed
// with the default budget; at its end, each probe whose fact left the window for the archive is
// queried with its keywords, and a probe counts as found when a hit among the first k contains
// every keyword. Run: npx esbuild bench/recall-retrievers.ts --bundle --platform=node --format=esm
//   --packages=external --outfile=.build/recall-retrievers.mjs && node .build/recall-retrievers.mjs
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ContextManager, createBm25Retriever } from '../src/index.js';
import type { Retriever } from '../src/index.js';
import { createReplayer } from '../examples/replay.js';
import { recallDocumentOf } from '../src/tiers/recall.js';
import { loadBenchSession } from './session-source.js';

const K = [1, 3, 5];
const directory = resolve(import.meta.dirname ?? '.', '../bench/fixtures');
const files = readdirSync(directory).filter((name) => name.startsWith('synth-')).map((name) => join(directory, name));
const retrievers: Record<string, () => Retriever> = { 'hand-written BM25 (before)': createLegacyBm25Retriever, 'minisearch BM25+ (now)': () => createBm25Retriever() };

const contains = (text: string, keywords: readonly string[]): boolean => keywords.every((keyword) => text.toLowerCase().includes(keyword.toLowerCase()));

// `all keywords`: the query is every keyword of the probe; `one keyword`: only its longest one.
const QUERIES: Record<string, (keywords: readonly string[]) => string> = {
  'all keywords': (keywords) => keywords.join(' '),
  'one keyword': (keywords) => [...keywords].sort((left, right) => right.length - left.length)[0] ?? '',
};

for (const [queryLabel, toQuery] of Object.entries(QUERIES)) {
  for (const [label, create] of Object.entries(retrievers)) {
    const found = new Map<number, number>(K.map((k) => [k, 0]));
    let reciprocal = 0;
    let answerable = 0;
    const started = performance.now();
    for (const file of files) {
      const session = loadBenchSession(file);
      const manager = new ContextManager({ budget: 16_000, retriever: create() });
      const replayer = createReplayer(manager);
      for (const line of session.lines) replayer.apply(line);
      await manager.settle();
      const archived = manager.state().archive.map((item) => recallDocumentOf(item).text);
      for (const probe of session.probes.values()) {
        if (!archived.some((text) => contains(text, probe.keywords))) continue;
        answerable += 1;
        const hits = await manager.recall(toQuery(probe.keywords), { limit: Math.max(...K) });
        const rank = hits.findIndex((hit) => contains(hit.text, probe.keywords));
        if (rank !== -1) reciprocal += 1 / (rank + 1);
        for (const k of K) if (rank !== -1 && rank < k) found.set(k, (found.get(k) ?? 0) + 1);
      }
    }
    const rates = K.map((k) => `hit@${k} ${(found.get(k) ?? 0)}/${answerable} (${(((found.get(k) ?? 0) / answerable) * 100).toFixed(1)}%)`).join(', ');
    console.log(`${queryLabel}, ${label}: ${rates}, MRR@5 ${(reciprocal / answerable).toFixed(3)}, ${files.length} sessions in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
}

/** The hand-written BM25 that createBm25Retriever() used before MiniSearch, kept here to compare. */
function createLegacyBm25Retriever(): Retriever {
  const k1 = 1.2;
  const b = 0.75;
  const postings = new Map<string, Map<number, number>>();
  const lengths: number[] = [];
  const ids: string[] = [];
  let totalLength = 0;
  return {
    name: 'legacy-bm25',
    add(documents) {
      for (const document of documents) {
        const index = ids.length;
        ids.push(document.id);
        const terms = legacyTerms(document.text);
        lengths.push(terms.length);
        totalLength += terms.length;
        for (const term of terms) {
          let list = postings.get(term);
          if (list === undefined) postings.set(term, (list = new Map()));
          list.set(index, (list.get(index) ?? 0) + 1);
        }
      }
    },
    search({ query, limit }) {
      const count = ids.length;
      if (count === 0) return [];
      const average = totalLength / count;
      const scores = new Map<number, number>();
      for (const term of new Set(legacyTerms(query))) {
        const list = postings.get(term);
        if (list === undefined) continue;
        const idf = Math.log(1 + (count - list.size + 0.5) / (list.size + 0.5));
        for (const [index, frequency] of list) {
          const length = lengths[index] ?? 0;
          scores.set(index, (scores.get(index) ?? 0) + (idf * frequency * (k1 + 1)) / (frequency + k1 * (1 - b + (b * length) / average)));
        }
      }
      return [...scores]
        .sort((left, right) => right[1] - left[1] || right[0] - left[0])
        .slice(0, limit)
        .map(([index, score]) => ({ id: ids[index] ?? '', score }));
    },
  };
}

function legacyTerms(text: string): string[] {
  const stopwords = new Set(['the', 'a', 'an', 'and', 'or', 'of', 'to', 'in', 'on', 'for', 'is', 'it', 'be', 'with', 'that', 'this', 'as', 'at', 'by', 'we', 'i', 'you', 'was', 'are', 'what', 'did', 'do', 'how', 'which']);
  const terms: string[] = [];
  for (const match of text.matchAll(/[\p{L}\p{N}_]+/gu)) {
    const word = match[0];
    if (word.length > 40) continue;
    const lower = word.toLowerCase();
    if (!stopwords.has(lower)) terms.push(lower);
    const parts = word.includes('_') ? word.split('_') : (word.match(/[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+/g) ?? []);
    if (parts.length < 2) continue;
    for (const part of parts) {
      const piece = part.toLowerCase();
      if (piece.length > 2 && !stopwords.has(piece)) terms.push(piece);
    }
  }
  return terms;
}

import type { Entry, Fact, FactUpdate } from '../types.js';
import { splitSentences } from './retention.js';

/**
 * The statements of a graduating chunk that give a fact already in T2 a new value, as fact
 * updates, whether or not the summarizer made them facts of their own: "Move the cleanup cron to
 * 02:00 UTC" said in passing after "the cleanup cron runs at 04:15 UTC" was recorded. Without them
 * the old value stays in T2 while the new one leaves with the chunk's summary. Each revised fact
 * gets the last such statement of the chunk; statements the summarizer already returned as facts
 * are left to it. The updates carry the fact's category and no key, so the store routes them as it
 * routes any revision (and keeps the fact's salience).
 */
export function chunkRevisions(options: {
  /** The chunk's entries, oldest first. */
  readonly entries: readonly Entry[];
  /** The facts the summarizer returned for the chunk. */
  readonly facts: readonly FactUpdate[];
  /** The held fact a statement gives a new value, if any. */
  readonly revisedFact: (statement: string) => Fact | undefined;
}): FactUpdate[] {
  const known = options.facts.map((fact) => normalized(fact.value));
  const latest = new Map<string, FactUpdate>();
  for (const entry of options.entries) {
    if (entry.kind !== 'user' && entry.kind !== 'assistant') continue;
    for (const sentence of splitSentences(entry.text)) {
      if (sentence.length > MAX_STATEMENT_CHARS) continue;
      const text = normalized(sentence);
      if (known.some((value) => value.includes(text) || text.includes(value))) continue;
      const fact = options.revisedFact(sentence);
      if (fact === undefined) continue;
      // A later statement about the same fact replaces an earlier one of the same chunk.
      latest.delete(fact.key);
      latest.set(fact.key, { category: fact.category, value: sentence });
    }
  }
  return [...latest.values()];
}

// --- Internal helpers ---

/** Longer "sentences" are lists or pasted material run together, not one statement of a value. */
const MAX_STATEMENT_CHARS = 280;

function normalized(text: string): string {
  return text.toLowerCase().replace(/\s+/gu, ' ').replace(/[.!?]+$/u, '').trim();
}

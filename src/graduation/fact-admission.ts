import { judgeFact } from '../language/fact-worth.js';
import type { FactRejection } from '../language/fact-worth.js';
import { renderSections } from '../summarizer/summary-sections.js';
import type { SummarizeResult, Summarizer } from '../summarizer/summarizer.js';
import type { FactUpdate, SequenceRange, SummaryItem, SummarySectionData } from '../types.js';

/**
 * Which facts a summarizer returns enter T2: `'judged'` only those {@link judgeFact} finds
 * nothing against (the others are kept as `Notes` of the summary), `'trusted'` all of them.
 */
export type FactAdmission = 'judged' | 'trusted';

/** The default {@link FactAdmission}. */
export const DEFAULT_FACT_ADMISSION: FactAdmission = 'judged';

/** A fact kept out of T2 by {@link admitFacts}, and why. */
export interface RejectedFact {
  /** The fact as the summarizer returned it. */
  readonly fact: FactUpdate;
  /** What {@link judgeFact} found against it. */
  readonly reason: FactRejection;
}

/**
 * Marks a summarizer whose facts were already judged where they were taken from (with the speaker
 * and the message's layout), as the extractive summarizer does: {@link admitFacts} leaves them as
 * they are. `wrapSummarizer()` carries the mark over; a wrapper of your own that passes the facts
 * through unchanged (to count or log calls) should be marked when `hasJudgedFacts(inner)` is true,
 * or the facts are judged again without their speaker.
 */
export function markFactsJudged(summarizer: Summarizer): Summarizer {
  JUDGED.add(summarizer);
  return summarizer;
}

/** Whether {@link markFactsJudged} marked `summarizer`. */
export function hasJudgedFacts(summarizer: Summarizer): boolean {
  return JUDGED.has(summarizer);
}

/**
 * Lets into T2 only the facts of a summarizer's result that read as durable statements: each
 * fact's value is judged by {@link judgeFact} as a sentence the summarizer wrote. A rejected fact
 * is not lost: it becomes a `Notes` item of the summary (sections and text re-rendered), as long as
 * the summary stays within `maxTokens`; notes that do not fit are left out, newest last.
 */
export function admitFacts(options: {
  /** What the summarizer returned. */
  readonly result: SummarizeResult;
  /** The range the summary covers (provenance of the notes added). */
  readonly source: SequenceRange;
  /** Counts the tokens of the summary text. */
  readonly countTokens: (text: string) => number;
  /** Largest summary, in tokens, once notes are added. */
  readonly maxTokens: number;
}): { readonly result: SummarizeResult; readonly rejected: readonly RejectedFact[] } {
  const { result, source, countTokens, maxTokens } = options;
  const facts = result.facts ?? [];
  const admitted: FactUpdate[] = [];
  const rejected: RejectedFact[] = [];
  for (const fact of facts) {
    // The summarizer wrote the sentence: its own narration and plans are judged like an assistant's.
    const reason = judgeFact({ sentence: fact.value, role: 'assistant' });
    if (reason === undefined) admitted.push(fact);
    else rejected.push({ fact, reason });
  }
  if (rejected.length === 0) return { result, rejected };
  let sections: readonly SummarySectionData[] = result.sections ?? [{ name: 'Text', items: [{ text: result.summary, source }] }];
  let summary = result.summary;
  for (const { fact } of rejected) {
    const next = withNote(sections, { text: fact.value, source, ...(fact.salience === undefined ? {} : { salience: fact.salience }) });
    const text = renderSections(next);
    if (countTokens(text) > maxTokens) continue;
    sections = next;
    summary = text;
  }
  return { result: { ...result, summary, sections, facts: admitted }, rejected };
}

// --- Internal helpers ---

const JUDGED = new WeakSet<Summarizer>();

// Adds a note to the `Notes` section, creating it before `Open` and `Text` when missing.
function withNote(sections: readonly SummarySectionData[], item: SummaryItem): SummarySectionData[] {
  const at = sections.findIndex((section) => section.name === 'Notes');
  if (at >= 0) return sections.map((section, index) => (index === at ? { name: 'Notes', items: [...section.items, item] } : section));
  const before = sections.findIndex((section) => section.name === 'Open' || section.name === 'Text');
  const notes: SummarySectionData = { name: 'Notes', items: [item] };
  return before < 0 ? [...sections, notes] : [...sections.slice(0, before), notes, ...sections.slice(before)];
}

import { ContextManager } from '../src/index.js';
import type { ContextManagerOptions, SessionEvent } from '../src/index.js';
import { createExtractiveSummarizer } from '../src/summarizer/extractive.js';
import type { SummarizeResult } from '../src/summarizer/summarizer.js';
import { createTokenCounter } from '../src/tokens/token-counter.js';
import type { Entry } from '../src/types.js';

/** Number of runs of every property test; raise it with MOBIUS_PROPERTY_RUNS. */
export const PROPERTY_RUNS: number = Number(process.env['MOBIUS_PROPERTY_RUNS'] ?? 1_000);

/** A small manager whose tiers fill quickly, so that graduation runs within a few records. */
export function createSmallManager(options: ContextManagerOptions = {}): ContextManager {
  return new ContextManager({
    budget: 3_000,
    budgets: { facts: 400, pins: 200, summaries: 250, scratchpad: 1_200, working: 600 },
    maxEntryTokens: 200,
    ...options,
  });
}

/** A paragraph of realistic assistant prose of roughly `words` words. */
export function prose(words: number, seed = 1): string {
  const vocabulary = ['the', 'handler', 'checks', 'token', 'expiry', 'before', 'calling', 'the', 'repository', 'and', 'returns', 'early', 'when', 'the', 'user', 'is', 'inactive', 'so', 'we', 'avoid', 'a', 'query'];
  const out: string[] = [];
  for (let index = 0; index < words; index += 1) out.push(vocabulary[(index * 7 + seed) % vocabulary.length] as string);
  return `${out.join(' ')}.`;
}

/** A user message event with sequence number `seq`, for storage tests. */
export function messageEvent(seq: number, content = `message ${seq}`): SessionEvent {
  return { type: 'message', seq, role: 'user', content };
}

/** A minimal snapshot at `seq`, for storage tests. */
export function snapshotAt(seq: number): { formatVersion: number; seq: number; state: unknown } {
  return { formatVersion: 1, seq, state: { at: seq } };
}

/** Runs `call` and returns what it threw (or rejected with); fails when it does not throw. */
export async function capture(call: () => unknown): Promise<unknown> {
  try {
    await call();
  } catch (error) {
    return error;
  }
  throw new Error('expected the call to throw');
}

/** What a test states about an entry; the rest is derived by {@link makeEntries}. */
export type EntryInput = Pick<Entry, 'kind' | 'text'> & Partial<Pick<Entry, 'toolCalls' | 'callId' | 'isError' | 'path' | 'toolName'>>;

const entryCounter = createTokenCounter();

/** T0 entries numbered from `firstSeq`, with the role, display text and token count derived from each input. */
export function makeEntries(inputs: readonly EntryInput[], firstSeq = 1): Entry[] {
  return inputs.map((input, index) => ({
    seq: firstSeq + index,
    role: input.kind === 'tool-result' ? 'tool' : input.kind === 'assistant' ? 'assistant' : 'user',
    display: input.text,
    tokens: entryCounter.count(input.text) + 4,
    exchange: 1,
    ...input,
  }));
}

/**
 * Summarizes `inputs` as one chunk with the extractive summarizer, which answers synchronously,
 * at a summary size of `targetTokens`.
 */
export function summarizeChunk(inputs: readonly EntryInput[], targetTokens = 300): SummarizeResult {
  return createExtractiveSummarizer().summarize({
    mode: 'chunk',
    entries: makeEntries(inputs),
    summaries: [],
    targetTokens,
    countTokens: (text: string) => entryCounter.count(text),
    signal: new AbortController().signal,
  }) as SummarizeResult;
}

/** Characters two texts share at their start and at their end, the end not overlapping the start. */
export function sharedEnds(before: string, after: string): { prefix: number; suffix: number } {
  const shorter = Math.min(before.length, after.length);
  let prefix = 0;
  while (prefix < shorter && before[prefix] === after[prefix]) prefix += 1;
  let suffix = 0;
  while (suffix < shorter - prefix && before[before.length - 1 - suffix] === after[after.length - 1 - suffix]) suffix += 1;
  return { prefix, suffix };
}

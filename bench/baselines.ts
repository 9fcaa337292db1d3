// The baseline strategies Mobius is compared with. Each one turns the shared verbatim transcript
// into the messages it would send; the ones held to a budget drop what does not fit.
import { countMessageTokens, createExtractiveSummarizer } from '../src/index.js';
import type { ContextMessage, Entry, Summarizer, TokenCounter } from '../src/index.js';
import { createCountingSummarizer } from './counting-summarizer.js';
import type { SummarizerUsage } from './counting-summarizer.js';
import type { Transcript, TranscriptMessage } from './transcript.js';

/** One message of a built window with its token count. */
export interface WindowItem {
  /** The message. */
  readonly message: ContextMessage;
  /** Its tokens (content, framing and tool calls). */
  readonly tokens: number;
}

/** A window a strategy would send. */
export interface StrategyWindow {
  /** The messages, system message first. */
  readonly items: readonly WindowItem[];
  /** Total tokens of `items`. */
  readonly total: number;
}

/** A baseline strategy over a transcript. */
export interface BaselineStrategy {
  /** Key in the results, e.g. `"sliding-window"`. */
  readonly name: string;
  /** The budget it is held to, or `undefined` when it grows without bound. */
  readonly budget: number | undefined;
  /** Called after the transcript grew by `appended`; compaction may summarise here. */
  observe(appended: readonly TranscriptMessage[]): Promise<void>;
  /** The window it would send now. */
  build(): StrategyWindow;
  /** Summarizer usage, for the strategies that summarise. */
  readonly usage: SummarizerUsage | undefined;
  /** Tokens replaced by summaries so far (the compaction's "graduated" tokens). */
  readonly summarizedTokens: number;
}

/** Messages kept verbatim at the end of the transcript by tool-call pruning. */
export const PRUNE_KEEP_LAST_MESSAGES = 2;

/** Target size of the single-pass compaction summary, in tokens. */
export const COMPACTION_SUMMARY_TOKENS = 2_000;

/** How a compaction summary message starts. */
export const COMPACTION_SUMMARY_PREFIX = 'This session is being continued from an earlier conversation that ran out of context. Summary of it:';

/** Heading of the facts list at the end of a compaction summary. */
export const COMPACTION_FACTS_HEADING = 'Facts (current):';

/** Creates the baseline strategies, all reading the same transcript. */
export function createBaselines(options: {
  transcript: Transcript;
  system: WindowItem;
  budget: number;
  compactionThreshold: number;
  counter: TokenCounter;
}): BaselineStrategy[] {
  const { transcript, system, budget, counter } = options;
  return [
    createNaive({ transcript, system }),
    createSlidingWindow({ transcript, system, budget }),
    createToolPruning({ name: 'tool-pruning', transcript, system, budget: undefined }),
    createToolPruning({ name: 'tool-pruning-28k', transcript, system, budget }),
    createCompaction({ name: 'compaction-160k', transcript, system, threshold: options.compactionThreshold, counter }),
    createCompaction({ name: 'compaction-28k', transcript, system, threshold: budget, counter }),
  ];
}

// --- Internal helpers ---

function windowOf(system: WindowItem, items: readonly WindowItem[]): StrategyWindow {
  let total = system.tokens;
  for (const item of items) total += item.tokens;
  return { items: [system, ...items], total };
}

// Everything, verbatim.
function createNaive(options: { transcript: Transcript; system: WindowItem }): BaselineStrategy {
  const { transcript, system } = options;
  return {
    name: 'naive',
    budget: undefined,
    usage: undefined,
    summarizedTokens: 0,
    observe: async () => {},
    build: () => ({ items: [system, ...transcript.messages], total: system.tokens + transcript.tokens }),
  };
}

// The newest messages that fit, newest first, never splitting a tool call from its results. A
// newest unit larger than the whole budget is skipped rather than leaving the window empty.
function createSlidingWindow(options: { transcript: Transcript; system: WindowItem; budget: number }): BaselineStrategy {
  const { transcript, system, budget } = options;
  return {
    name: 'sliding-window',
    budget,
    usage: undefined,
    summarizedTokens: 0,
    observe: async () => {},
    build: () => windowOf(system, newestThatFit({ messages: transcript.messages, from: transcript.messages.length - 1, room: budget - system.tokens })),
  };
}

// What the Vercel AI SDK's pruneMessages({ toolCalls: 'before-last-2-messages' }) does: tool calls
// and results before the last messages are removed, prose is kept. With a budget, the newest of
// what remains that fits.
function createToolPruning(options: {
  name: string;
  transcript: Transcript;
  system: WindowItem;
  budget: number | undefined;
}): BaselineStrategy {
  const { transcript, system, budget } = options;
  return {
    name: options.name,
    budget,
    usage: undefined,
    summarizedTokens: 0,
    observe: async () => {},
    build: () => {
      const messages = transcript.messages;
      let tailStart = Math.max(0, messages.length - PRUNE_KEEP_LAST_MESSAGES);
      // Keep a kept result's call with it, so the window is still valid for a provider.
      tailStart = messages[tailStart]?.unitStart ?? tailStart;
      let room = budget === undefined ? Number.POSITIVE_INFINITY : budget - system.tokens;
      const tail = newestThatFit({ messages, from: messages.length - 1, room, stopAt: tailStart });
      for (const item of tail) room -= item.tokens;
      const older: WindowItem[] = [];
      for (let index = tailStart - 1; index >= 0; index -= 1) {
        const pruned = messages[index]?.pruned;
        if (pruned === undefined) continue;
        if (pruned.tokens > room) break;
        older.push(pruned);
        room -= pruned.tokens;
      }
      older.reverse();
      return windowOf(system, [...older, ...tail]);
    },
  };
}

// Claude-Code-style compaction: the history verbatim until it passes `threshold`, then all of it
// (with the previous summary) replaced by one ~2K summary from the extractive summarizer.
function createCompaction(options: {
  name: string;
  transcript: Transcript;
  system: WindowItem;
  threshold: number;
  counter: TokenCounter;
}): BaselineStrategy {
  const { transcript, system, threshold, counter } = options;
  const { summarizer, usage } = createCountingSummarizer(createExtractiveSummarizer());
  let summary: WindowItem | undefined;
  let start = 0;
  let liveTokens = 0;
  let summarizedTokens = 0;
  const countTokens = (text: string): number => counter.count(text);
  return {
    name: options.name,
    budget: threshold,
    usage,
    get summarizedTokens() {
      return summarizedTokens;
    },
    observe: async (appended) => {
      for (const item of appended) liveTokens += item.tokens;
      if (system.tokens + (summary?.tokens ?? 0) + liveTokens <= threshold) return;
      const live = transcript.messages.slice(start);
      const entries: Entry[] = live.map((item) => item.entry);
      if (summary !== undefined) {
        entries.unshift({ seq: 0, kind: 'note', role: 'user', text: summary.message.content, display: summary.message.content, tokens: summary.tokens, exchange: 0 });
      }
      summarizedTokens += liveTokens + (summary?.tokens ?? 0);
      const text = await compactionText({ summarizer, entries, countTokens });
      const message: ContextMessage = { role: 'user', content: `${COMPACTION_SUMMARY_PREFIX}\n\n${text}` };
      summary = { message, tokens: countMessageTokens([message], counter) };
      start = transcript.messages.length;
      liveTokens = 0;
    },
    build: () => windowOf(system, summary === undefined ? transcript.messages.slice(start) : [summary, ...transcript.messages.slice(start)]),
  };
}

// The summary text plus the facts the summarizer extracted (newest first when they do not all
// fit), within COMPACTION_SUMMARY_TOKENS: a compaction prompt asks for both.
async function compactionText(options: {
  summarizer: Summarizer;
  entries: readonly Entry[];
  countTokens: (text: string) => number;
}): Promise<string> {
  const { summarizer, entries, countTokens } = options;
  const result = await summarizer.summarize({
    mode: 'chunk',
    entries,
    summaries: [],
    targetTokens: Math.round(COMPACTION_SUMMARY_TOKENS * 0.6),
    countTokens,
    signal: new AbortController().signal,
  });
  let used = countTokens(result.summary);
  const seen = new Set<string>();
  const facts: string[] = [];
  for (const fact of [...(result.facts ?? [])].reverse()) {
    const line = `- ${fact.value}`;
    if (seen.has(line)) continue;
    seen.add(line);
    const cost = countTokens(line) + 1;
    if (used + cost > COMPACTION_SUMMARY_TOKENS) break;
    facts.unshift(line);
    used += cost;
  }
  return facts.length === 0 ? result.summary : `${result.summary}\n\n${COMPACTION_FACTS_HEADING}\n${facts.join('\n')}`;
}

// Walks back from `from` to `stopAt`, whole units at a time, while they fit in `room`.
function newestThatFit(options: {
  messages: readonly TranscriptMessage[];
  from: number;
  room: number;
  stopAt?: number | undefined;
}): WindowItem[] {
  const { messages } = options;
  const stopAt = options.stopAt ?? 0;
  let room = options.room;
  const collected: WindowItem[] = [];
  let index = options.from;
  while (index >= stopAt) {
    const last = messages[index];
    if (last === undefined) break;
    const unitStart = Math.max(stopAt, last.unitStart);
    let unitTokens = 0;
    for (let position = unitStart; position <= index; position += 1) unitTokens += messages[position]?.tokens ?? 0;
    if (unitTokens <= room) {
      for (let position = index; position >= unitStart; position -= 1) {
        const item = messages[position];
        if (item !== undefined) collected.push(item);
      }
      room -= unitTokens;
    } else if (collected.length > 0) {
      break;
    }
    index = unitStart - 1;
  }
  return collected.reverse();
}

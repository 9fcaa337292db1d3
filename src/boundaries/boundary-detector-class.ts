import { z } from 'zod';
import { createEntry } from '../tiers/entry.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import { createTokenCounter } from '../tokens/token-counter.js';
import type { Entry, JsonValue } from '../types.js';
import { parse } from '../validation.js';
import { createBoundaryDetector } from './boundary-detector.js';
import type { BoundaryScore } from './boundary-detector.js';
import type { PatternPack } from './pattern-pack.js';

/** One item of an agent's history, as {@link BoundaryDetector} scores it. */
export interface BoundaryItem {
  /** Who produced it: a user or assistant message, or a tool's result. */
  role: 'user' | 'assistant' | 'tool';
  /** Its text (an assistant turn that only calls tools may be empty). */
  text: string;
  /** Tool calls made by an assistant item. */
  toolCalls?: readonly { readonly id: string; readonly name: string; readonly input?: unknown }[] | undefined;
  /** For a tool result: the id of the call it answers. */
  callId?: string | undefined;
  /** For a tool result: whether the tool failed. */
  isError?: boolean | undefined;
}

/** Options for {@link BoundaryDetector}. */
export interface BoundaryDetectorOptions {
  /** Phrases for completions, topic changes, test runs and traces. @default defaultPatterns (English and Vietnamese) */
  patterns?: PatternPack | undefined;
  /** Counts the tokens of items. @default createTokenCounter() */
  tokenCounter?: TokenCounter | undefined;
}

/**
 * Scores each gap between consecutive history items as a cut point: `strong` (a task finished,
 * the topic changed), `moderate` (a user turn starts), `weak`, or `forbidden` (a cut would split a
 * tool call from its result, a code block or an error trace). Takes plain items — role, text,
 * tool calls, call id, error flag — and counts their tokens itself, so it works in any agent loop.
 *
 * @example
 * ```ts
 * const detector = new BoundaryDetector();
 * const scores = detector.scoreGaps([
 *   { role: 'user', text: 'Fix the login bug' },
 *   { role: 'assistant', text: 'Fixed: all tests pass.' },
 *   { role: 'user', text: "Now let's add rate limiting" },
 * ]);
 * scores[1]; // { strength: 'strong', reason: … }: the gap after the fix
 * ```
 */
export class BoundaryDetector {
  readonly #counter: TokenCounter;
  readonly #scorer: { scoreGaps(entries: readonly Entry[]): BoundaryScore[] };

  /**
   * Creates a detector. Does no I/O.
   * @throws {InvalidArgumentError} when an option is invalid.
   */
  constructor(options: BoundaryDetectorOptions = {}) {
    const parsed = parse(optionsSchema, options, 'new BoundaryDetector', 'new BoundaryDetector({ patterns: englishPatterns })');
    this.#counter = parsed.tokenCounter ?? createTokenCounter();
    this.#scorer = createBoundaryDetector(parsed.patterns === undefined ? {} : { patterns: parsed.patterns });
  }

  /**
   * Returns one score per item: `result[i]` scores the gap after `items[i]` (the last one, the gap
   * after the newest item). Deterministic.
   * @throws {InvalidArgumentError} when an item is invalid.
   */
  readonly scoreGaps = (items: readonly BoundaryItem[]): BoundaryScore[] => {
    const parsed = parse(itemsSchema, items, 'scoreGaps', "scoreGaps([{ role: 'user', text: 'Fix the bug' }])");
    let exchange = 0;
    const entries = parsed.map((item, index) => {
      if (item.role === 'user') exchange += 1;
      return createEntry({
        seq: index + 1,
        kind: item.role === 'tool' ? 'tool-result' : item.role,
        role: item.role,
        text: item.text,
        counter: this.#counter,
        maxEntryTokens: Number.MAX_SAFE_INTEGER,
        exchange,
        toolCalls: item.toolCalls?.map((call) => ({ id: call.id, name: call.name, input: (call.input ?? {}) as JsonValue })),
        callId: item.callId,
        isError: item.isError,
      });
    });
    return this.#scorer.scoreGaps(entries);
  };

  /** Scores the gaps between T0 entries as Mobius records them (see `ContextManager.state().entries`). */
  readonly scoreEntries = (entries: readonly Entry[]): BoundaryScore[] => this.#scorer.scoreGaps(entries);
}

// --- Internal helpers ---

const optionsSchema = z.strictObject({
  patterns: z.custom<PatternPack>((value) => typeof value === 'object' && value !== null, 'expected a PatternPack').optional(),
  tokenCounter: z.custom<TokenCounter>((value) => typeof (value as { count?: unknown } | null)?.count === 'function', 'expected an object with `count(text)`').optional(),
});

const itemsSchema = z.array(
  z.object({
    role: z.enum(['user', 'assistant', 'tool']),
    text: z.string(),
    toolCalls: z.array(z.object({ id: z.string().min(1), name: z.string().min(1), input: z.unknown().optional() })).optional(),
    callId: z.string().min(1).optional(),
    isError: z.boolean().optional(),
  }),
);

import { z } from 'zod';
import { validateInput } from '../context-manager-inputs.js';
import type { MessageInput, ToolResultInput } from '../context-manager-inputs.js';
import type { GraduationEvent, GraduationSubject } from '../graduation/graduator.js';
import type { TierLimits } from '../graduation/tier-limits.js';
import { DEFAULTS } from '../options.js';
import type { SessionEvent } from '../session-event.js';
import { createSessionView } from '../session-view.js';
import type { EventEffects, SessionView, SessionViewData } from '../session-view.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import { createTokenCounter } from '../tokens/token-counter.js';
import type { ArchivedItem, Entry, Fact, JsonValue, Pin, Summary, Task } from '../types.js';
import { parse } from '../validation.js';
import { expandItem } from './provenance.js';

/** Options for {@link TierStore}. */
export interface TierStoreOptions {
  /** Counts tokens, once per item. @default createTokenCounter() */
  tokenCounter?: TokenCounter | undefined;
  /** Largest T0 entry shown in full; longer ones show a head/tail excerpt. @default 2_000 */
  maxEntryTokens?: number | undefined;
  /** State from `toJSON()` to start from. @default undefined (empty) */
  initial?: TierStoreSnapshot | undefined;
}

/** Serialisable state of a {@link TierStore}, from `toJSON()`; opaque. */
export interface TierStoreSnapshot {
  /** Format of this object. */
  readonly formatVersion: 1;
  /** The folded state. */
  readonly state: unknown;
}

/**
 * Holds the tiers of a session — T0 entries, T1 summaries, T2 facts and tasks, pins and the
 * archive — as the fold of an append-only log: every item carries its sequence number and token
 * count, nothing is deleted (what leaves a tier is archived), and `expand()` leads from any
 * summary or fact back to the entries it came from. Graduate it with a {@link Graduator} through
 * `graduationSubject()`.
 *
 * @example
 * ```ts
 * const store = new TierStore();
 * store.addMessage({ role: 'user', content: 'Use Postgres 16 for the orders service.' });
 * await new Graduator().graduate({ subject: store.graduationSubject({ limits: { working: 500, summaries: 2_000 } }) });
 * store.expand(store.summaries()[0].id); // the entries the summary stands for
 * ```
 */
export class TierStore {
  readonly #view: SessionView;

  /**
   * Creates a store, empty or from `initial`. Does no I/O.
   * @throws {InvalidArgumentError} when an option is invalid.
   */
  constructor(options: TierStoreOptions = {}) {
    const parsed = parse(optionsSchema, options, 'new TierStore', 'new TierStore({ maxEntryTokens: 2_000 })');
    this.#view = createSessionView({
      counter: parsed.tokenCounter ?? createTokenCounter(),
      maxEntryTokens: parsed.maxEntryTokens,
      // The store holds no files; the view's scratchpad stays empty.
      scratchpadBudget: DEFAULTS.budgets.scratchpad,
      autoCloseAfter: DEFAULTS.autoCloseAfter,
      initial: parsed.initial?.state as SessionViewData | undefined,
    });
  }

  /** Sequence number of the newest item. */
  get lastSeq(): number {
    return this.#view.lastSeq;
  }

  /** Tokens of T0. */
  get workingTokens(): number {
    return this.#view.tiers.workingTokens;
  }

  /** Tokens of T1. */
  get summaryTokens(): number {
    return this.#view.tiers.summaryTokens;
  }

  /**
   * Appends a user or assistant message to T0.
   * @throws {InvalidArgumentError} when the input is invalid.
   */
  readonly addMessage = (input: MessageInput): Entry => {
    const parsed = validateInput('addMessage', input);
    const toolCalls = parsed.toolCalls?.map((call) => ({ id: call.id, name: call.name, input: structuredClone(call.input) as JsonValue }));
    return this.#entry({ type: 'message', role: parsed.role, content: parsed.content, ...(toolCalls === undefined || toolCalls.length === 0 ? {} : { toolCalls }), ...at(parsed.at) });
  };

  /**
   * Appends the result of a tool call made by an earlier assistant message.
   * @throws {InvalidArgumentError} with code `UNKNOWN_TOOL_CALL` when no call has that id.
   */
  readonly addToolResult = (input: ToolResultInput): Entry => {
    const parsed = validateInput('addToolResult', input);
    const toolName = this.#view.toolCall(parsed.callId)?.name ?? '';
    return this.#entry({ type: 'tool-result', callId: parsed.callId, toolName, output: parsed.output, ...(parsed.isError === undefined ? {} : { isError: parsed.isError }), ...at(parsed.at) });
  };

  /** Appends a note to T0. */
  readonly addNote = (input: { content: string; at?: string | undefined }): Entry => {
    const parsed = validateInput('addNote', input);
    return this.#entry({ type: 'note', content: parsed.content, ...at(parsed.at) });
  };

  /** Pins text: it never graduates. */
  readonly pin = (input: { text: string }): Pin => {
    const parsed = validateInput('pin', input);
    return (this.#apply({ type: 'pin', pinId: `pin-${this.#view.lastSeq + 1}`, text: parsed.text }).pin as { pin: Pin }).pin;
  };

  /** Removes a pin; it is archived. Unknown ids are ignored. */
  readonly unpin = (input: { id: string }): void => {
    this.#apply({ type: 'unpin', pinId: validateInput('unpin', input).id });
  };

  /** T0 entries, oldest first. */
  readonly entries = (): readonly Entry[] => this.#view.tiers.entries();

  /** T1 summaries, oldest first. */
  readonly summaries = (): readonly Summary[] => this.#view.tiers.summaries();

  /** T2 facts (newest value per key, with history). */
  readonly facts = (): readonly Fact[] => this.#view.tiers.facts.facts();

  /** Tracked tasks. */
  readonly tasks = (): readonly Task[] => this.#view.tiers.facts.tasks();

  /** Pins, in pin order. */
  readonly pins = (): readonly Pin[] => this.#view.tiers.pins();

  /** Everything that left a tier, oldest first. */
  readonly archive = (): readonly ArchivedItem[] => this.#view.tiers.archive.items();

  /** Renders T2 as YAML within `maxTokens`. */
  readonly renderFacts = (options: { maxTokens: number }): string => this.#view.tiers.facts.render(options).text;

  /**
   * Re-expands a summary id, fact key (or `fact:<key>@<seq>`) or entry id `e<seq>` into the
   * entries it came from, oldest first.
   * @throws {InvalidArgumentError} when no item has that id.
   */
  readonly expand = (id: string): readonly Entry[] => expandItem({ tiers: this.#view.tiers, id });

  /** What a {@link Graduator} reads and commits to, with fixed tier limits. */
  readonly graduationSubject = (options: { limits: TierLimits }): GraduationSubject => {
    const view = this.#view;
    return {
      entries: () => view.tiers.entries(),
      summaries: () => view.tiers.summaries(),
      get workingTokens() {
        return view.tiers.workingTokens;
      },
      get summaryTokens() {
        return view.tiers.summaryTokens;
      },
      limits: () => options.limits,
      nextSeq: () => view.lastSeq + 1,
      commit: (event) => this.commitGraduation(event),
    };
  };

  /** Applies a graduation event and returns the tokens it took out of T0 + T1. */
  readonly commitGraduation = (event: GraduationEvent): number => {
    const graduation = this.#view.apply(event).graduation;
    if (graduation === undefined) return 0;
    const removed = graduation.removed.reduce((sum, item) => sum + (item.type === 'entry' ? item.entry.tokens : item.type === 'summary' ? item.summary.tokens : 0), 0);
    return removed - graduation.summary.tokens;
  };

  /** Returns the serialisable state, for the `initial` option. */
  readonly toJSON = (): TierStoreSnapshot => ({ formatVersion: 1, state: structuredClone(this.#view.toJSON()) });

  #entry(event: DistributiveOmit<SessionEvent, 'seq'>): Entry {
    return this.#apply(event).entry as Entry;
  }

  #apply(event: DistributiveOmit<SessionEvent, 'seq'>): EventEffects {
    return this.#view.apply({ ...event, seq: this.#view.lastSeq + 1 } as SessionEvent);
  }
}

// --- Internal helpers ---

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

function at(value: string | undefined): { at?: string } {
  return value === undefined ? {} : { at: value };
}

const optionsSchema = z.strictObject({
  tokenCounter: z.custom<TokenCounter>((value) => typeof (value as { count?: unknown } | null)?.count === 'function', 'expected an object with `count(text)`').optional(),
  maxEntryTokens: z.number().int().min(64).default(DEFAULTS.maxEntryTokens),
  initial: z.custom<TierStoreSnapshot>((value) => (value as { formatVersion?: unknown } | null)?.formatVersion === 1, 'expected the object returned by toJSON()').optional(),
});

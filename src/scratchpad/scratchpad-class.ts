import { z } from 'zod';
import { DEFAULTS } from '../options.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import { createTokenCounter } from '../tokens/token-counter.js';
import type { OpenFile } from '../types.js';
import { parse } from '../validation.js';
import type { FileCloseCause } from './render-diff.js';
import { createScratchpad } from './scratchpad.js';
import type {
  Scratchpad as ScratchpadState,
  ScratchpadCloseResult,
  ScratchpadData,
  ScratchpadFileHistory,
  ScratchpadOpenResult,
  ScratchpadUpdateResult,
} from './scratchpad.js';

/** Options for {@link Scratchpad}. */
export interface ScratchpadOptions {
  /** Tokens the rendered scratchpad may use; a larger file is shown as a head/tail window. @default 14_000 */
  budget?: number | undefined;
  /** User turns (exchanges) without a touch after which `autoClose()` closes a file. @default 10 */
  autoCloseAfter?: number | undefined;
  /** Largest changed region of an update (UTF-8 bytes) that is diffed line by line. @default 2_097_152 */
  maxDiffBytes?: number | undefined;
  /** Whether paths that differ only in letter case name the same file. @default 'sensitive' */
  pathCase?: 'sensitive' | 'insensitive' | undefined;
  /** Counts the tokens of each rendered section, once per open or update. @default createTokenCounter() */
  tokenCounter?: TokenCounter | undefined;
  /** State from `toJSON()` to start from. @default undefined (empty) */
  initial?: ScratchpadData | undefined;
}

/** Where and when an event happened; each field defaults to the scratchpad's own counter. */
export interface ScratchpadPosition {
  /** Sequence number of the event. @default one more than the last one this scratchpad saw */
  seq?: number | undefined;
  /** User-turn counter at the time of the event. @default `scratchpad.exchange` */
  exchange?: number | undefined;
  /** Timestamp (ISO-8601). @default undefined */
  at?: string | undefined;
}

/**
 * The current content of each open file, held once, outside history: `open`, `update` (a compact
 * diff record per hunk) and `close` return the one-line history records to keep; `render()`
 * gives the block a prompt shows. It keeps its own sequence and exchange counters, so it is
 * usable in any agent loop: call `nextExchange()` on each user turn and `autoClose()` to close
 * files left untouched. Pure state: no events, no I/O, no clock.
 *
 * @example
 * ```ts
 * const scratchpad = new Scratchpad({ budget: 15_000 });
 * scratchpad.open({ path: 'src/auth.py', content }).lines; // ['[opened src/auth.py, 245 lines]']
 * scratchpad.update({ path: 'src/auth.py', content: edited, reason: 'null check' }).lines;
 * // ['[src/auth.py:50] `if user:` → `if user and user.active:` (null check)']
 * ```
 */
export class Scratchpad {
  readonly #state: ScratchpadState;
  #seq = 0;
  #exchange = 0;

  /**
   * Creates a scratchpad, empty or from `initial`. Does no I/O.
   * @throws {InvalidArgumentError} when an option is invalid.
   */
  constructor(options: ScratchpadOptions = {}) {
    const parsed = parse(optionsSchema, options, 'new Scratchpad', 'new Scratchpad({ budget: 15_000, autoCloseAfter: 10 })');
    this.#state = createScratchpad({
      counter: parsed.tokenCounter ?? createTokenCounter(),
      budget: parsed.budget,
      autoCloseAfter: parsed.autoCloseAfter,
      maxDiffBytes: parsed.maxDiffBytes,
      isCaseInsensitive: parsed.pathCase === 'insensitive',
      initial: parsed.initial,
    });
    for (const file of this.#state.files()) {
      this.#seq = Math.max(this.#seq, file.touchedAt);
      this.#exchange = Math.max(this.#exchange, file.touchedExchange);
    }
  }

  /** The user-turn counter: advanced by `nextExchange()` or by an `exchange` given to a call. */
  get exchange(): number {
    return this.#exchange;
  }

  /** Counts a new user turn (for auto-close) and returns the new exchange number. */
  readonly nextExchange = (): number => {
    this.#exchange += 1;
    return this.#exchange;
  };

  /**
   * Opens a file and returns `[opened path, N lines]`; re-opening an open file touches it (same
   * content) or diffs it like `update()` (other content).
   */
  readonly open = (options: { path: string; content: string } & ScratchpadPosition): ScratchpadOpenResult =>
    this.#state.open({ path: options.path, content: options.content, ...this.#position(options) });

  /**
   * Replaces an open file's content and returns one compact history line per hunk.
   * @throws {InvalidArgumentError} with code `UNKNOWN_FILE` when the file is not open.
   */
  readonly update = (options: { path: string; content: string; reason?: string | undefined } & ScratchpadPosition): ScratchpadUpdateResult =>
    this.#state.update({ path: options.path, content: options.content, ...(options.reason === undefined ? {} : { reason: options.reason }), ...this.#position(options) });

  /**
   * Closes a file and returns `[closed path, N edits]`.
   * @throws {InvalidArgumentError} with code `UNKNOWN_FILE` when the file is not open.
   */
  readonly close = (options: { path: string; cause?: FileCloseCause | undefined }): ScratchpadCloseResult =>
    this.#state.close({ path: options.path, cause: options.cause ?? 'explicit', exchange: this.#exchange });

  /** Closes the files untouched for `autoCloseAfter` exchanges and returns what each close recorded. */
  readonly autoClose = (): ScratchpadCloseResult[] =>
    this.#state.filesToAutoClose({ exchange: this.#exchange }).map((path) => this.#state.close({ path, cause: 'auto', exchange: this.#exchange }));

  /** Closes the least recently touched files (never `keep`) until the scratchpad fits its budget. */
  readonly evict = (options: { keep?: string | undefined } = {}): ScratchpadCloseResult[] =>
    this.#state.filesToEvict(options).map((path) => this.#state.close({ path, cause: 'evicted', exchange: this.#exchange }));

  /** Returns an open file, or `undefined` when `path` is not open. */
  readonly get = (path: string): OpenFile | undefined => this.#state.get(path);

  /** Tells whether `path` is open. */
  readonly has = (path: string): boolean => this.#state.has(path);

  /** Returns the open files, oldest first. */
  readonly files = (): readonly OpenFile[] => this.#state.files();

  /**
   * Returns the content a file was opened with and the unified patch of each edit since.
   * @throws {InvalidArgumentError} with code `UNKNOWN_FILE` when the file is not open.
   */
  readonly history = (path: string): ScratchpadFileHistory => this.#state.history(path);

  /** Tells whether `content` differs from what is held for `path`; `undefined` when it is not open. */
  readonly isStale = (options: { path: string; content: string }): boolean | undefined => this.#state.isStale(options);

  /** The tokens of the rendered sections, counted once per change. */
  readonly totalTokens = (): number => this.#state.totalTokens();

  /** Renders every open file as a section: a status line and its content (or a head/tail window). */
  readonly render = (): string => this.#state.render();

  /** Returns the serialisable state, for the `initial` option. */
  readonly toJSON = (): ScratchpadData => this.#state.toJSON();

  #position(options: ScratchpadPosition): { seq: number; exchange: number; at?: string } {
    this.#seq = Math.max(this.#seq + 1, options.seq ?? 0);
    if (options.exchange !== undefined) this.#exchange = Math.max(this.#exchange, options.exchange);
    return { seq: this.#seq, exchange: options.exchange ?? this.#exchange, ...(options.at === undefined ? {} : { at: options.at }) };
  }
}

// --- Internal helpers ---

const optionsSchema = z.strictObject({
  budget: z.number().int().positive().default(DEFAULTS.budgets.scratchpad),
  autoCloseAfter: z.number().int().positive().default(DEFAULTS.autoCloseAfter),
  maxDiffBytes: z.number().int().positive().default(DEFAULTS.maxDiffBytes),
  pathCase: z.enum(['sensitive', 'insensitive']).default(DEFAULTS.pathCase),
  tokenCounter: z.custom<TokenCounter>((value) => typeof (value as { count?: unknown } | null)?.count === 'function', 'expected an object with `count(text)`').optional(),
  initial: z.custom<ScratchpadData>((value) => typeof value === 'object' && value !== null && Array.isArray((value as { files?: unknown }).files), 'expected the object returned by toJSON()').optional(),
});

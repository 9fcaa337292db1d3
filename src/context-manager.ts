import { tierLimits, type TierLimits } from './graduation/tier-limits.js';
import { EventEmitter } from 'eventemitter3';
import { z } from 'zod';
import { createBoundaryDetector } from './boundaries/boundary-detector.js';
import type { BoundaryDetector } from './boundaries/boundary-detector.js';
import { defaultPatterns } from './boundaries/patterns/default.js';
import { matcherFor } from './boundaries/pattern-pack.js';
import type { PatternMatcher } from './boundaries/pattern-pack.js';
import type { BuiltContext } from './build/window-builder.js';
import { createWindowBuilder } from './build/window-builder.js';
import type { RecalledBlock } from './build/window-builder.js';
import { createBm25Retriever, recallDocumentOf } from './tiers/recall.js';
import type { RecallHit, Retriever } from './tiers/recall.js';
import { ConflictError, CorruptStateError, InvalidArgumentError, MobiusError, StorageError, describeValue } from './errors.js';
import { parse } from './validation.js';
import { MAX_JSON_DEPTH, findJsonProblem } from './json-value.js';
import type { AutoSaveReason, ContextEvents, GraduatedItem, GraduationReport, GraduationStallEvent, SecretRedactEvent } from './events.js';
import { createRedactionScope, resolveRedaction } from './redaction/redactor.js';
import type { RedactionScope } from './redaction/redactor.js';
import type { SecretRecord } from './redaction/secret-ledger.js';
import { MIN_SUMMARY_TOKENS, planChunk, restoreIdentifiers, summarizeSafely } from './graduation/graduator.js';
import type { SummarizeOutcome } from './graduation/graduator.js';
import type { ContextManagerOptions, ProjectMemory, ResolvedOptions, TokenBudget } from './options.js';
import {
  DEFAULTS,
  contextManagerOptionsSchema,
  contextWindowForModel,
  resolveBudget,
  sessionIdSchema,
  tokenBudgetSchema,
} from './options.js';
import type { SessionEvent } from './session-event.js';
import type { EventEffects, SessionView, SessionViewData } from './session-view.js';
import { createSessionView, renderSummary } from './session-view.js';
import { plainTextSections } from './summarizer/summary-sections.js';
import type { SessionSnapshot, Storage, VersionInfo } from './storage/storage.js';
import { isStorage } from './storage/storage.js';
import { createExtractiveSummarizer } from './summarizer/extractive.js';
import type { Summarizer } from './summarizer/summarizer.js';
import type { TokenCounter } from './tokens/token-counter.js';
import { createTokenCounter } from './tokens/token-counter.js';
import type {
  ArchivedItem,
  Entry,
  Fact,
  JsonValue,
  OpenFile,
  Pin,
  SequenceRange,
  Summary,
  Task,
  ToolCall,
} from './types.js';

/** Format version of snapshots written by `save()`. */
export const SNAPSHOT_FORMAT_VERSION = 1;

/** Input of {@link ContextManager.addMessage}. */
export interface MessageInput {
  /** Who said it. */
  role: 'user' | 'assistant';
  /** The text (may be empty for an assistant turn that only calls tools). */
  content: string;
  /** Tool calls made in this assistant turn; record each result with `addToolResult()`. */
  toolCalls?: readonly ToolCall[] | undefined;
  /** Timestamp (ISO-8601). @default clock() when a clock is configured */
  at?: string | undefined;
}

/** Input of {@link ContextManager.addToolResult}. */
export interface ToolResultInput {
  /** Id of the call this answers. */
  callId: string;
  /** The tool's output as text. */
  output: string;
  /** Whether the tool failed. @default false */
  isError?: boolean | undefined;
  /** Timestamp (ISO-8601). */
  at?: string | undefined;
}

/** Input of {@link ContextManager.openFile}. */
export interface OpenFileInput {
  /** The file's path. */
  path: string;
  /** Its full current content. */
  content: string;
  /** When a tool call read the file: its id, so that this record is the call's result. */
  callId?: string | undefined;
  /** Timestamp (ISO-8601). */
  at?: string | undefined;
}

/** Input of {@link ContextManager.updateFile}. */
export interface UpdateFileInput {
  /** The file's path; it must be open. */
  path: string;
  /** Its full new content. */
  content: string;
  /** Why it changed, appended to the diff record, e.g. `"null check"`. */
  reason?: string | undefined;
  /** When a tool call made the edit: its id, so that this record is the call's result. */
  callId?: string | undefined;
  /** Timestamp (ISO-8601). */
  at?: string | undefined;
}

/** Input of {@link ContextManager.closeFile}. */
export interface CloseFileInput {
  /** The file's path; it must be open. */
  path: string;
  /** When a tool call closed it: its id. */
  callId?: string | undefined;
  /** Timestamp (ISO-8601). */
  at?: string | undefined;
}

/** Options of {@link ContextManager.recall}. */
export interface RecallOptions {
  /** Most hits returned. @default 5 */
  limit?: number | undefined;
  /** Most tokens of hit text returned (and shown). @default 2_000 */
  maxTokens?: number | undefined;
  /** Also place the hits in a "recalled" block of the next `build()`. @default false */
  show?: boolean | undefined;
}

/** Options of {@link ContextManager.build}. */
export interface BuildOptions {
  /** Total tokens the window may use, or a fraction of the context window. @default the `budget` option */
  budget?: TokenBudget | undefined;
}

/** A read-only view of everything the manager holds. */
export interface SessionState {
  /** Sequence number of the last recorded event. */
  readonly lastSeq: number;
  /** Number of user turns recorded. */
  readonly exchange: number;
  /** T0 entries, oldest first. */
  readonly entries: readonly Entry[];
  /** T1 summaries, oldest first. */
  readonly summaries: readonly Summary[];
  /** T2 facts. */
  readonly facts: readonly Fact[];
  /** Tracked tasks. */
  readonly tasks: readonly Task[];
  /** Pins. */
  readonly pins: readonly Pin[];
  /** Open files. */
  readonly files: readonly OpenFile[];
  /** Everything that left the window, oldest first. */
  readonly archive: readonly ArchivedItem[];
  /** Seqs of every event that produced a T0 entry (each is in T0 or the archive). */
  readonly entrySeqs: readonly number[];
  /** Token totals of T0, T1 and the scratchpad. */
  readonly tokens: { readonly working: number; readonly summaries: number; readonly scratchpad: number };
}

/**
 * What `settle()` found once graduations and appends were done: whether every recorded event
 * reached storage. `settle()` never rejects for a storage failure; this result says what is not
 * durable, and `save()` throws instead.
 */
export interface SettleResult {
  /** Whether every recorded event is in storage. Always `false` without `storage`. */
  readonly isDurable: boolean;
  /** Recorded events not (yet) in storage: they stay in memory and are retried. 0 without `storage`. */
  readonly pendingEvents: number;
  /** Why the oldest pending events are not in storage: the last append failure, if any. */
  readonly error: StorageError | ConflictError | undefined;
}

/**
 * Manages an agent's context window: records messages, tool calls and file events, keeps open
 * files once in a scratchpad, graduates old history into summaries and facts, and builds a
 * window that never exceeds its budget.
 *
 * @example
 * ```ts
 * const manager = new ContextManager({ systemPrompt: 'You are a careful coding agent.' });
 * manager.addMessage({ role: 'user', content: 'Fix the null check in src/auth.py' });
 * manager.openFile({ path: 'src/auth.py', content: source });
 * manager.updateFile({ path: 'src/auth.py', content: fixed, reason: 'null check' });
 * await manager.settle();
 * const { messages, tokens } = manager.build({ budget: 28_000 });
 * ```
 */
export class ContextManager extends EventEmitter<ContextEvents> {
  #prefixTokens: number | undefined;
  readonly #options: ResolvedOptions;
  readonly #counter: TokenCounter;
  readonly #summarizer: Summarizer;
  readonly #fallback: Summarizer;
  readonly #detector: BoundaryDetector;
  #view: SessionView;
  readonly #retriever: Retriever;
  readonly #constructorOptions: ContextManagerOptions;
  readonly #matcher: PatternMatcher;
  #messagesSinceSave = 0;
  /** Serialised size of the events appended since the last snapshot (for the snapshot schedule). */
  #journalBytes = 0;
  /** Serialised size of the last snapshot written. */
  #snapshotBytes = 0;
  #isUnderPressure = false;
  #autoSave: Promise<void> = Promise.resolve();
  #isAutoSaving = false;
  #indexing: Promise<void> = Promise.resolve();
  readonly #recallItems = new Map<string, { item: ArchivedItem; text: string; source: SequenceRange; tokens?: number }>();
  #recalled: RecalledBlock | undefined;
  readonly #builder: ReturnType<typeof createWindowBuilder>;
  #graduation: Promise<void> = Promise.resolve();
  #isGraduating = false;
  #storageQueue: Promise<void> = Promise.resolve();
  #unsaved: SessionEvent[] = [];
  #lastReport: GraduationReport | undefined;
  /** `tier:reason` of the last `graduation-stall`, until a graduation commits. */
  #stall: string | undefined;
  #listenerErrors: unknown[] = [];
  /** The storage version this manager last loaded or saved (0: none), for optimistic concurrency. */
  #storageVersion = 0;
  #lastAppendError: unknown;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** Background retries made in the current round of failed appends. */
  #retryAttempt = 0;
  /** Appends that timed out so far (see `storageTimeoutMs`). */
  #appendTimeouts = 0;

  /**
   * Creates a manager. Does no I/O and starts no timers.
   * @throws {InvalidArgumentError} when an option is invalid; the message says which and how to fix it.
   */
  constructor(options: ContextManagerOptions = {}) {
    super();
    this.#options = resolveOptions(options);
    this.#counter = this.#options.tokenCounter ?? createTokenCounter({ model: this.#options.model });
    const patterns = this.#options.patterns ?? defaultPatterns;
    this.#fallback = createExtractiveSummarizer({ patterns });
    this.#summarizer = this.#options.summarizer ?? this.#fallback;
    this.#detector = createBoundaryDetector({ patterns });
    const { initialState, ...constructorOptions } = options as ContextManagerOptions & { initialState?: SessionViewData };
    this.#constructorOptions = constructorOptions;
    this.#view = this.#createView(initialState);
    this.#matcher = matcherFor(patterns);
    const memory = this.#options.projectMemory;
    if (memory !== undefined && initialState === undefined) {
      const scope = this.#redaction();
      const imported = redactProjectMemory(memory, scope);
      this.#record({ type: 'import', facts: imported.facts, pins: imported.pins, ...secretsOf(scope) });
      this.#reportRedaction('projectMemory', scope);
    }
    this.#retriever = this.#options.retriever ?? createBm25Retriever();
    this.#index(this.#view.tiers.archive.items());
    this.#builder = createWindowBuilder({
      counter: this.#counter,
      systemPrompt: this.#options.systemPrompt,
      budgets: this.#options.budgets,
      scoreGaps: (entries) => this.#detector.scoreGaps(entries),
    });
  }

  /**
   * Restores a session saved with `save()` (and any events appended after it) from `storage`.
   * @throws {CorruptStateError} when the snapshot or log cannot be read.
   * @throws {InvalidArgumentError} when an option is invalid.
   */
  static async load(options: ContextManagerOptions & { storage: Storage; sessionId?: string | undefined }): Promise<ContextManager> {
    const resolved = resolveOptions(options);
    const storage = resolved.storage as Storage;
    const sessionId = resolved.sessionId;
    let snapshot: SessionSnapshot | null;
    let events: readonly SessionEvent[];
    try {
      snapshot = await storage.loadSnapshot(sessionId);
    } catch (error) {
      if (MobiusError.isInstance(error)) throw error;
      throw storageError(storage, 'loadSnapshot', error);
    }
    const parsed = snapshotSchema.safeParse(snapshot ?? { formatVersion: SNAPSHOT_FORMAT_VERSION, seq: 0, state: null });
    if (!parsed.success || parsed.data.formatVersion !== SNAPSHOT_FORMAT_VERSION) {
      throw new CorruptStateError({
        version: parsed.success ? parsed.data.formatVersion : undefined,
        message: `load(): the snapshot of session ${describeValue(sessionId)} in storage "${storage.name}" is not a format-${SNAPSHOT_FORMAT_VERSION} snapshot${parsed.success ? '' : `:\n${z.prettifyError(parsed.error)}`}. Restore it from a backup or start a new session id.`,
        cause: parsed.success ? undefined : parsed.error,
      });
    }
    try {
      events = await storage.read(sessionId, { afterSeq: parsed.data.seq });
    } catch (error) {
      if (MobiusError.isInstance(error)) throw error;
      throw storageError(storage, 'read', error);
    }
    const manager = new ContextManager({
      ...options,
      ...(snapshot === null ? {} : { initialState: validateSnapshot(snapshot, sessionId, storage) }),
    } as ContextManagerOptions);
    manager.#storageVersion = parsed.data.version ?? 0;
    for (const event of events) {
      // A retried append may have stored an event twice: the first copy wins.
      if (event.seq <= manager.#view.lastSeq) continue;
      try {
        manager.#view.apply(event);
      } catch (error) {
        throw new CorruptStateError({
          version: parsed.data.formatVersion,
          message: `load(): event #${event.seq} of session ${describeValue(sessionId)} cannot be applied: ${error instanceof Error ? error.message : String(error)}. The log is inconsistent with the snapshot; roll back to an earlier snapshot.`,
          cause: error,
        });
      }
    }
    return manager;
  }

  /**
   * Records a user or assistant message (with the assistant's tool calls, if any). Tool calls still
   * waiting for their result after `orphanCallsAfter` messages, or whose id a new call reuses, are
   * first closed with a "no result" marker (`tool-call-orphan`).
   * @throws {InvalidArgumentError} when the input is invalid, e.g. a tool input that is not JSON
   * (the message names its path) or two calls of the message with the same id.
   */
  addMessage(input: MessageInput): Entry {
    const parsed = parse(messageSchema, input, 'addMessage', 'addMessage({ role: "user", content: "…" })');
    // Validated above: plain JSON of bounded depth, copied so later changes by the caller do not leak in.
    const toolCalls = parsed.toolCalls?.map((call) => ({ id: call.id, name: call.name, input: JSON.parse(JSON.stringify(call.input)) as JsonValue }));
    this.#orphanPendingCalls({ newIds: new Set((toolCalls ?? []).map((call) => call.id)), at: parsed.at });
    const scope = this.#redaction();
    const content = scope.text(parsed.content, 'content');
    const redactedCalls = toolCalls?.map((call, index) => ({ ...call, input: scope.json(call.input, `toolCalls[${index}].input`) }));
    const effects = this.#record({
      type: 'message',
      role: parsed.role,
      content,
      ...(redactedCalls === undefined || redactedCalls.length === 0 ? {} : { toolCalls: redactedCalls }),
      ...this.#timestamp(parsed.at),
      ...secretsOf(scope),
    });
    this.#reportRedaction('addMessage', scope);
    if (parsed.role === 'user') {
      for (const path of this.#view.scratchpad.filesToAutoClose({ exchange: this.#view.exchange })) {
        this.#record({ type: 'file-close', path, cause: 'auto', ...this.#timestamp(parsed.at) });
      }
    }
    this.#scheduleGraduation();
    this.#rethrowListenerErrors();
    return effects.entry as Entry;
  }

  /**
   * Records the result of a tool call made in an earlier assistant message; it answers the newest
   * call with that id. A result for a call already closed without one is kept as its late result:
   * the window shows it right after the call, or as a note once the call has left T0.
   * @throws {InvalidArgumentError} with code `UNKNOWN_TOOL_CALL` when no call has that id, or
   * `INVALID_ARGUMENT` when the call already has its result (the message names both events).
   */
  addToolResult(input: ToolResultInput): Entry {
    const parsed = parse(toolResultSchema, input, 'addToolResult', 'addToolResult({ callId, output })');
    const toolName = this.#view.toolCall(parsed.callId)?.name ?? '';
    const scope = this.#redaction();
    const output = scope.text(parsed.output, 'output');
    const effects = this.#record({
      type: 'tool-result',
      callId: parsed.callId,
      toolName,
      output,
      ...(parsed.isError === undefined ? {} : { isError: parsed.isError }),
      ...this.#timestamp(parsed.at),
      ...secretsOf(scope),
    });
    this.#reportRedaction('addToolResult', scope);
    this.#scheduleGraduation();
    this.#rethrowListenerErrors();
    return effects.entry as Entry;
  }

  /**
   * Opens a file in the scratchpad (or records a re-read when it is already open) and leaves a
   * one-line record in history. Files over the scratchpad budget are shown as a head/tail window.
   * @throws {InvalidArgumentError} when the input is invalid.
   */
  openFile(input: OpenFileInput): OpenFile {
    const parsed = parse(openFileSchema, input, 'openFile', 'openFile({ path: "src/auth.py", content })');
    const scope = this.#redaction();
    const content = this.#redactFileContent(scope, parsed.path, parsed.content);
    this.#record({
      type: 'file-open',
      path: parsed.path,
      content,
      ...(parsed.callId === undefined ? {} : { callId: parsed.callId }),
      ...this.#timestamp(parsed.at),
      ...secretsOf(scope),
    });
    this.#reportRedaction('openFile', scope);
    return this.#afterFileChange(parsed.path, parsed.at);
  }

  /**
   * Replaces an open file's content and records one compact diff line per hunk.
   * @throws {InvalidArgumentError} with code `UNKNOWN_FILE` when the file is not open.
   */
  updateFile(input: UpdateFileInput): OpenFile {
    const parsed = parse(updateFileSchema, input, 'updateFile', 'updateFile({ path, content, reason })');
    const scope = this.#redaction();
    const content = this.#redactFileContent(scope, parsed.path, parsed.content);
    const reason = parsed.reason === undefined ? undefined : scope.text(parsed.reason, 'reason');
    this.#record({
      type: 'file-update',
      path: parsed.path,
      content,
      ...(reason === undefined ? {} : { reason }),
      ...(parsed.callId === undefined ? {} : { callId: parsed.callId }),
      ...this.#timestamp(parsed.at),
      ...secretsOf(scope),
    });
    this.#reportRedaction('updateFile', scope);
    return this.#afterFileChange(parsed.path, parsed.at);
  }

  /**
   * Closes an open file and records `[closed path, N edits]`.
   * @throws {InvalidArgumentError} with code `UNKNOWN_FILE` when the file is not open.
   */
  closeFile(input: CloseFileInput): void {
    const parsed = parse(closeFileSchema, input, 'closeFile', 'closeFile({ path })');
    this.#record({
      type: 'file-close',
      path: parsed.path,
      cause: 'explicit',
      ...(parsed.callId === undefined ? {} : { callId: parsed.callId }),
      ...this.#timestamp(parsed.at),
    });
    this.#scheduleGraduation();
    this.#rethrowListenerErrors();
  }

  /**
   * Records a note in history, e.g. an observation from the harness.
   * @throws {InvalidArgumentError} when `content` is not a string.
   */
  addNote(input: { content: string; at?: string | undefined }): Entry {
    const parsed = parse(noteSchema, input, 'addNote', 'addNote({ content })');
    const scope = this.#redaction();
    const content = scope.text(parsed.content, 'content');
    const effects = this.#record({ type: 'note', content, ...this.#timestamp(parsed.at), ...secretsOf(scope) });
    this.#reportRedaction('addNote', scope);
    this.#scheduleGraduation();
    this.#rethrowListenerErrors();
    return effects.entry as Entry;
  }

  /**
   * Tells whether `content` differs from what the scratchpad holds for `path`, i.e. whether the
   * file changed outside the agent.
   * @throws {InvalidArgumentError} with code `UNKNOWN_FILE` when the file is not open.
   */
  isStale(input: { path: string; content: string }): boolean {
    const parsed = parse(staleSchema, input, 'isStale', 'isStale({ path, content })');
    // The scratchpad holds redacted content: compare like with like (nothing is recorded here).
    const stale = this.#view.scratchpad.isStale({ path: parsed.path, content: this.#redactFileContent(this.#redaction(), parsed.path, parsed.content) });
    if (stale === undefined) {
      throw new InvalidArgumentError({
        parameter: 'path',
        value: parsed.path,
        code: 'UNKNOWN_FILE',
        message: `isStale(): ${describeValue(parsed.path)} is not open in the scratchpad. Check the path against state().files.`,
      });
    }
    return stale;
  }

  /**
   * Redacts `text` as recording it would, with this session's placeholders (a secret seen before
   * gets its placeholder; a new one the number it would get if recorded now), and records
   * nothing. Use it to log or compare text the way the manager stores it. Returns `text`
   * unchanged with `redact: false`.
   * @throws {InvalidArgumentError} when `text` is not a string.
   */
  redact(text: string): string {
    const parsed = parse(redactSchema, { text }, 'redact', "redact('export TOKEN=…')");
    return this.#redaction().text(parsed.text, 'text');
  }

  /**
   * Returns what an open file was opened with and the unified patches of its edits since, in
   * order: applying them to `openContent` gives the current content.
   * @throws {InvalidArgumentError} with code `UNKNOWN_FILE` when the file is not open.
   */
  fileHistory(input: { path: string }): { readonly openContent: string; readonly patches: readonly string[] } {
    const parsed = parse(fileHistorySchema, input, 'fileHistory', 'fileHistory({ path })');
    if (!this.#view.scratchpad.has(parsed.path)) {
      throw new InvalidArgumentError({
        parameter: 'path',
        value: parsed.path,
        code: 'UNKNOWN_FILE',
        message: `fileHistory(): ${describeValue(parsed.path)} is not open in the scratchpad. Check the path against state().files.`,
      });
    }
    return this.#view.scratchpad.history(parsed.path);
  }

  /**
   * Pins text so that it is rendered in every window and never graduates away.
   * @throws {InvalidArgumentError} when `text` is empty.
   */
  pin(input: { text: string }): Pin {
    const parsed = parse(pinSchema, input, 'pin', 'pin({ text: "Never touch vendor/" })');
    const seq = this.#view.lastSeq + 1;
    const scope = this.#redaction();
    const text = scope.text(parsed.text, 'text');
    const cost = this.#counter.count(`- ${text}`) + 1;
    const used = this.#view.tiers.renderPins().tokens;
    if (used + cost > this.#options.budgets.pins) {
      throw new InvalidArgumentError({
        parameter: 'text',
        value: text,
        code: 'BUDGET_TOO_SMALL',
        message: `pin(): the pins would use ${used + cost} tokens, more than \`budgets.pins\` (${this.#options.budgets.pins}). Pins are always shown in full; unpin({ id }) one you no longer need, shorten the text, or raise budgets.pins.`,
      });
    }
    const effects = this.#record({ type: 'pin', pinId: `pin-${seq}`, text, ...secretsOf(scope) });
    this.#reportRedaction('pin', scope);
    this.#rethrowListenerErrors();
    return (effects.pin as { pin: Pin }).pin;
  }

  /**
   * Removes a pin (it is archived, not deleted).
   * @throws {InvalidArgumentError} when no pin has that id.
   */
  unpin(input: { id: string }): void {
    const parsed = parse(unpinSchema, input, 'unpin', 'unpin({ id })');
    if (!this.#view.tiers.pins().some((pin) => pin.id === parsed.id)) {
      throw new InvalidArgumentError({
        parameter: 'id',
        value: parsed.id,
        message: `unpin(): no pin has id ${describeValue(parsed.id)}. Use an id returned by pin().`,
      });
    }
    this.#record({ type: 'unpin', pinId: parsed.id });
    this.#rethrowListenerErrors();
  }

  /**
   * Builds the window: a system message (static prefix, T2 facts, pins, T1 summaries, open
   * files), then T0 as messages with tool calls intact, plus a per-block token breakdown. Never
   * exceeds the budget. Does not wait for a graduation in flight; `await settle()` first for the
   * most compact window.
   * @throws {InvalidArgumentError} with code `BUDGET_TOO_SMALL` when the budget cannot hold the static prefix.
   */
  build(options: BuildOptions = {}): BuiltContext {
    const parsed = parse(buildSchema, options, 'build', 'build({ budget: 28_000 })');
    let budget = this.#options.budget;
    if (parsed.budget !== undefined) {
      const resolved = resolveBudget({ budget: parsed.budget as TokenBudget, contextWindow: this.#options.contextWindow, name: 'build(): `budget`' });
      if (typeof resolved === 'string') {
        throw new InvalidArgumentError({ parameter: 'budget', value: parsed.budget, message: resolved });
      }
      budget = resolved;
    }
    const built = this.#builder.build(budget, this.#view.tiers, this.#view.scratchpad, this.#recalled);
    this.#recalled = undefined;
    const { omitted } = built;
    if (omitted.entries + omitted.summaries + omitted.facts + omitted.files > 0 || omitted.isPinsOmitted) {
      this.#emitSafely('window-trim', { budget, omitted });
      this.#rethrowListenerErrors();
    }
    return built;
  }

  /**
   * Waits until every scheduled graduation has committed and every recorded event was offered to
   * storage (failed appends are tried once more now), then says whether all of them are durable.
   * It does not reject when storage fails: check `isDurable` / `pendingEvents`, or call `save()`,
   * which throws.
   */
  async settle(): Promise<SettleResult> {
    for (;;) {
      await this.#settleWork();
      const autoSave = this.#autoSave;
      await autoSave;
      if (autoSave === this.#autoSave && !this.#isAutoSaving && !this.#isGraduating) return this.#durability();
    }
  }

  #durability(): SettleResult {
    const storage = this.#options.storage;
    const pendingEvents = storage === undefined ? 0 : this.#unsaved.length;
    const error = pendingEvents === 0 || storage === undefined ? undefined : this.#appendError(storage, this.#lastAppendError);
    return Object.freeze({ isDurable: storage !== undefined && pendingEvents === 0, pendingEvents, error });
  }

  #appendError(storage: Storage, error: unknown): StorageError | ConflictError {
    if (ConflictError.isInstance(error) || StorageError.isInstance(error)) return error;
    return storageError(storage, 'append', error ?? new Error('the append has not completed yet'));
  }

  // Graduations and appends, but not automatic saves (which themselves wait for this).
  async #settleWork(): Promise<void> {
    for (;;) {
      const graduation = this.#graduation;
      await graduation;
      await this.#flushStorage();
      if (graduation === this.#graduation && !this.#isGraduating) return;
    }
  }

  /**
   * Saves a snapshot of the folded view to storage (after `settle()`), so that `load()` does not
   * replay the whole log.
   * @throws {MobiusError} with code `UNSUPPORTED` when no storage is configured.
   * @throws {StorageError} when the storage fails; the in-memory state is intact.
   */
  async save(options: { label?: string | undefined } = {}): Promise<void> {
    const parsed = parse(saveSchema, options, 'save', "save({ label: 'after the refactor' })");
    this.#requireStorage('save');
    await this.#autoSave;
    await this.#saveNow({ reason: 'explicit', label: parsed.label });
  }

  async #saveNow(options: { reason: AutoSaveReason | 'explicit'; label?: string | undefined }): Promise<void> {
    const parsed = { label: options.label };
    const storage = this.#requireStorage('save');
    await this.#settleWork();
    if (this.#unsaved.length > 0) {
      if (ConflictError.isInstance(this.#lastAppendError)) throw this.#lastAppendError;
      throw new StorageError({ storage: storage.name, operation: 'append', message: `save(): ${this.#unsaved.length} events could not be appended to storage "${storage.name}"; the snapshot was not written so that the log stays complete. Fix the storage and call save() again.` });
    }
    // Every event is in the log now. A snapshot only makes loading faster, so an automatic save
    // writes one when the log has grown by the size of the last one: the bytes written over a
    // session stay proportional to the session instead of to its square.
    const autoSave = this.#options.autoSave;
    if (options.reason !== 'explicit' && options.reason !== 'leaving' && autoSave !== false && this.#journalBytes < this.#snapshotBytes * autoSave.snapshotGrowth) {
      this.#messagesSinceSave = 0;
      this.#emitSafely('session-save', { version: this.#storageVersion, reason: options.reason, isSnapshot: false });
      this.#listenerErrors = [];
      return;
    }
    const snapshot: SessionSnapshot = {
      formatVersion: SNAPSHOT_FORMAT_VERSION,
      seq: this.#view.lastSeq,
      state: this.#view.toJSON(),
      ...(parsed.label === undefined ? {} : { label: parsed.label }),
    };
    try {
      const serialized = JSON.stringify(snapshot);
      const version = await storage.saveSnapshot(this.#options.sessionId, JSON.parse(serialized) as SessionSnapshot, {
        expectedVersion: this.#storageVersion,
      });
      this.#storageVersion = typeof version === 'number' ? version : this.#storageVersion + 1;
      this.#messagesSinceSave = 0;
      this.#snapshotBytes = serialized.length;
      this.#journalBytes = 0;
      this.#emitSafely('session-save', { version: this.#storageVersion, reason: options.reason, isSnapshot: true });
      this.#listenerErrors = [];
    } catch (error) {
      if (ConflictError.isInstance(error)) {
        this.#emitSafely('storage-error', { error, operation: 'saveSnapshot', pendingEvents: this.#unsaved.length });
        this.#listenerErrors = [];
        throw error;
      }
      const wrapped = storageError(storage, 'saveSnapshot', error);
      this.#emitSafely('storage-error', { error: wrapped, operation: 'saveSnapshot', pendingEvents: this.#unsaved.length });
      this.#listenerErrors = [];
      throw wrapped;
    }
  }

  /**
   * Searches the archive (everything that left the window) and returns the best matches with the
   * sequence range each covers. With `show: true` the hits are also placed in a "recalled" block
   * of the next `build()`, within its budget.
   * @throws {InvalidArgumentError} when the query is empty or an option is invalid.
   */
  async recall(query: string, options: RecallOptions = {}): Promise<readonly RecallHit[]> {
    const parsed = parse(recallSchema, { query, ...options }, 'recall', "recall('db timeout', { limit: 5 })");
    const limit = parsed.limit ?? 5;
    const maxTokens = parsed.maxTokens ?? 2_000;
    await this.#indexing;
    const found = await this.#retriever.search({ query: parsed.query, limit: limit * 2 });
    const hits: RecallHit[] = [];
    let used = 0;
    for (const { id, score } of found) {
      const known = this.#recallItems.get(id);
      if (known === undefined) continue;
      known.tokens ??= this.#counter.count(known.text);
      if (used + known.tokens > maxTokens) continue;
      used += known.tokens;
      hits.push({ id, item: known.item, score, text: known.text, source: known.source });
      if (hits.length >= limit) break;
    }
    if (parsed.show === true && hits.length > 0) {
      const text = hits.map((hit) => `- [${hit.id}, #${hit.source.from}–${hit.source.to}] ${hit.text}`).join('\n');
      this.#recalled = { text, tokens: this.#counter.count(text) };
    }
    return hits;
  }

  /**
   * Re-expands an item into the original entries it came from (provenance): a summary id (T1 or
   * archived), a fact key (current or `fact:<key>@<seq>` from recall), or an entry id `e<seq>`.
   * @throws {InvalidArgumentError} when no item has that id.
   */
  expand(itemId: string): readonly Entry[] {
    const parsed = parse(expandSchema, { itemId }, 'expand', "expand('s42')");
    const id = parsed.itemId;
    const tiers = this.#view.tiers;
    const archive = tiers.archive.items();
    const all = (): Entry[] => [...archive.flatMap((item) => (item.type === 'entry' ? [item.entry] : [])), ...tiers.entries()];
    const inRange = (range: SequenceRange): Entry[] =>
      all().filter((entry) => entry.seq >= range.from && entry.seq <= range.to).sort((a, b) => a.seq - b.seq);
    const entryMatch = /^e(\d+)$/.exec(id);
    if (entryMatch !== null) return inRange({ from: Number(entryMatch[1]), to: Number(entryMatch[1]) });
    const summaryIds = new Set([id]);
    const isSummary = tiers.summaries().some((summary) => summary.id === id) || archive.some((item) => item.type === 'summary' && item.summary.id === id);
    if (isSummary) {
      // A consolidated summary stands for the summaries it merged, and so on down to entries.
      for (let isGrowing = true; isGrowing; ) {
        isGrowing = false;
        for (const item of archive) {
          if (item.type === 'summary' && summaryIds.has(item.summaryId) && !summaryIds.has(item.summary.id)) {
            summaryIds.add(item.summary.id);
            isGrowing = true;
          }
        }
      }
      return archive.flatMap((item) => (item.type === 'entry' && summaryIds.has(item.summaryId) ? [item.entry] : [])).sort((a, b) => a.seq - b.seq);
    }
    const factKey = id.startsWith('fact:') ? id.slice(5).replace(/@\d+$/, '') : id;
    const archivedFact = archive.find((item) => item.type === 'fact' && `fact:${item.key}@${item.archivedAt}` === id);
    if (archivedFact?.type === 'fact') return inRange(archivedFact.source);
    const fact = tiers.facts.get(factKey);
    if (fact !== undefined) return inRange(fact.source);
    throw new InvalidArgumentError({
      parameter: 'itemId',
      value: id,
      message: `expand(): no summary, fact or entry has id ${describeValue(id)}. Use an id from state().summaries, state().facts (its key), or recall().`,
    });
  }

  /**
   * Returns a recap of the session as text: `'brief'` (tasks and facts), `'full'` (plus every
   * summary, archived ones included, oldest first) or `{ topic }` (what the archive holds on it).
   * @throws {InvalidArgumentError} when the level is invalid.
   */
  async recap(level: 'brief' | 'full' | { readonly topic: string } = 'brief'): Promise<string> {
    const parsed = parse(recapSchema, level, 'recap', "recap('brief')");
    if (typeof parsed === 'object') {
      const hits = await this.recall(parsed.topic, { limit: 8, maxTokens: 3_000 });
      if (hits.length === 0) return `Nothing in the archive about "${parsed.topic}".`;
      return [`Recap on "${parsed.topic}":`, ...hits.map((hit) => `- [#${hit.source.from}–${hit.source.to}] ${hit.text}`)].join('\n');
    }
    const tiers = this.#view.tiers;
    const facts = tiers.facts.render({ maxTokens: this.#options.budgets.facts }).text;
    const parts = ['Recap (brief):', facts.length > 0 ? facts : '(no facts or tasks yet)'];
    if (parsed === 'full') {
      const archived = tiers.archive.items().flatMap((item) => (item.type === 'summary' ? [item.summary] : []));
      const summaries = [...archived, ...tiers.summaries()].sort((a, b) => a.source.from - b.source.from || a.level - b.level);
      parts[0] = 'Recap (full):';
      for (const summary of summaries) parts.push(renderSummary(summary));
    }
    return parts.join('\n\n');
  }

  /**
   * Lists the versions saved in storage, newest first.
   * @throws {MobiusError} with code `UNSUPPORTED` when the storage has no versions.
   */
  async listVersions(): Promise<readonly VersionInfo[]> {
    const storage = this.#requireStorage('listVersions');
    if (storage.listVersions === undefined) throw unsupported(storage, 'listVersions');
    try {
      return await storage.listVersions(this.#options.sessionId);
    } catch (error) {
      throw storageError(storage, 'listVersions', error);
    }
  }

  /**
   * Saves an immutable, named checkpoint of the session and returns its version.
   * @throws {StorageError} or {ConflictError} when saving fails; nothing changes.
   */
  async snapshot(label: string): Promise<VersionInfo> {
    const parsed = parse(labelSchema, { label }, 'snapshot', "snapshot('before refactor')");
    await this.save({ label: parsed.label });
    return { version: this.#storageVersion, seq: this.#view.lastSeq, label: parsed.label };
  }

  /**
   * Rolls the session back to a saved version: the tiers and open files become what they were,
   * and a new version is saved so that storage agrees. The events recorded since stay in the
   * log (nothing is deleted); new records continue after them.
   * @throws {InvalidArgumentError} when the version does not exist.
   */
  async rollback(version: number): Promise<void> {
    const parsed = parse(versionSchema, { version }, 'rollback', 'rollback(3)');
    const storage = this.#requireStorage('rollback');
    await this.settle();
    let snapshot: SessionSnapshot | null;
    try {
      snapshot = await storage.loadSnapshot(this.#options.sessionId, { version: parsed.version });
    } catch (error) {
      throw storageError(storage, 'loadSnapshot', error);
    }
    if (snapshot === null) {
      throw new InvalidArgumentError({ parameter: 'version', value: parsed.version, message: `rollback(): session ${describeValue(this.#options.sessionId)} has no version ${parsed.version}. Pick one from listVersions().` });
    }
    const data = validateSnapshot(snapshot, this.#options.sessionId, storage);
    const floor = this.#view.lastSeq;
    // Placeholders given since that version keep their numbers: a new secret never reuses one.
    this.#view = this.#createView({ ...data, lastSeq: Math.max(data.lastSeq, floor), secrets: [...(data.secrets ?? []), ...this.#view.secrets.toJSON()] });
    this.#recallItems.clear();
    this.#indexing = Promise.resolve();
    this.#index(this.#view.tiers.archive.items());
    await this.save({ label: `rollback to version ${parsed.version}` });
  }

  /**
   * Starts a new session from a saved version of this one (a fork); the original is untouched.
   * @throws {InvalidArgumentError} when the version does not exist or the new id is invalid.
   */
  async fork(options: { version?: number | undefined; sessionId: string }): Promise<ContextManager> {
    const parsed = parse(forkSchema, options, 'fork', "fork({ version: 3, sessionId: 'experiment' })");
    const storage = this.#requireStorage('fork');
    await this.settle();
    const snapshot = await storage.loadSnapshot(this.#options.sessionId, parsed.version === undefined ? {} : { version: parsed.version });
    if (snapshot === null) {
      throw new InvalidArgumentError({ parameter: 'version', value: parsed.version, message: `fork(): session ${describeValue(this.#options.sessionId)} has no saved version${parsed.version === undefined ? '' : ` ${parsed.version}`}. Call save() or snapshot() first.` });
    }
    const data = validateSnapshot(snapshot, this.#options.sessionId, storage);
    const forked = new ContextManager({ ...this.#constructorOptions, sessionId: parsed.sessionId, initialState: data } as ContextManagerOptions);
    await forked.save({ label: `fork of ${this.#options.sessionId} version ${snapshot.version ?? '?'}` });
    return forked;
  }

  /**
   * Returns the facts (with their history) and pins of this session, to carry into the next
   * session of the project through the `projectMemory` option.
   */
  projectMemory(): ProjectMemory {
    const tiers = this.#view.tiers;
    return JSON.parse(JSON.stringify({ formatVersion: 1, facts: tiers.facts.facts(), pins: tiers.pins().map((pin) => pin.text) })) as ProjectMemory;
  }

  /** Returns a read-only view of everything the manager holds. */
  state(): SessionState {
    const tiers = this.#view.tiers;
    return {
      lastSeq: this.#view.lastSeq,
      exchange: this.#view.exchange,
      entries: [...tiers.entries()],
      summaries: [...tiers.summaries()],
      facts: tiers.facts.facts(),
      tasks: tiers.facts.tasks(),
      pins: tiers.pins(),
      files: [...this.#view.scratchpad.files()],
      archive: [...tiers.archive.items()],
      entrySeqs: [...this.#view.entrySeqs()],
      tokens: {
        working: tiers.workingTokens,
        summaries: tiers.summaryTokens,
        scratchpad: this.#view.scratchpad.totalTokens(),
      },
    };
  }

  /** The report of the last graduation, or `undefined` when none has run. */
  get lastGraduation(): GraduationReport | undefined {
    return this.#lastReport;
  }

  /** The token counter in use (for counting text the same way the window does). */
  get tokenCounter(): TokenCounter {
    return this.#counter;
  }

  /** The resolved tier budgets, in tokens. */
  get budgets(): { readonly total: number } & ResolvedOptions['budgets'] {
    return { total: this.#options.budget, ...this.#options.budgets };
  }

  // --- Internal helpers ---

  #checkAutoSave(event: SessionEvent): void {
    const autoSave = this.#options.autoSave;
    if (autoSave === false || this.#options.storage === undefined) return;
    let reason: AutoSaveReason | undefined;
    if (event.type === 'message' && event.content.length > 0) {
      this.#messagesSinceSave += 1;
      const text = event.content.length > 4_000 ? event.content.slice(0, 4_000) : event.content;
      if (autoSave.onLeaving && event.role === 'user' && this.#matcher.test('leaving', text)) reason = 'leaving';
      else if (autoSave.onTaskDone && this.#matcher.test('completion', text)) reason = 'task-done';
      else if (autoSave.onDecision && this.#matcher.test('decision', text)) reason = 'decision';
      else if (autoSave.everyMessages > 0 && this.#messagesSinceSave >= autoSave.everyMessages) reason = 'every-messages';
    }
    if (autoSave.pressureThreshold > 0) {
      const tiers = this.#view.tiers;
      const tokens = tiers.workingTokens + tiers.summaryTokens + this.#view.scratchpad.totalTokens() + tiers.renderPins().tokens;
      const ratio = tokens / this.#options.budget;
      const isOver = ratio > autoSave.pressureThreshold;
      if (isOver && !this.#isUnderPressure) {
        this.#emitSafely('pressure', { tokens, budget: this.#options.budget, ratio });
        reason ??= 'pressure';
      }
      this.#isUnderPressure = isOver;
    }
    if (reason !== undefined) this.#scheduleSave(reason);
  }

  // Saving never blocks recording: it runs after the current call, one at a time.
  #scheduleSave(reason: AutoSaveReason): void {
    if (this.#isAutoSaving) return;
    this.#isAutoSaving = true;
    this.#autoSave = this.#autoSave
      .then(() => Promise.resolve())
      .then(() => this.#saveNow({ reason }))
      .catch(() => undefined)
      .finally(() => {
        this.#isAutoSaving = false;
      });
  }

  #createView(initial: SessionViewData | undefined): SessionView {
    return createSessionView({
      counter: this.#counter,
      maxEntryTokens: this.#options.maxEntryTokens,
      scratchpadBudget: this.#options.budgets.scratchpad,
      autoCloseAfter: this.#options.autoCloseAfter,
      maxDiffBytes: this.#options.maxDiffBytes,
      isPathCaseInsensitive: this.#options.pathCase === 'insensitive',
      initial,
    });
  }

  #index(items: readonly ArchivedItem[]): void {
    const documents = items.map((item) => ({ item, document: recallDocumentOf(item) }));
    for (const { item, document } of documents) {
      this.#recallItems.set(document.id, { item, text: document.text, source: document.source });
    }
    if (documents.length === 0) return;
    const retriever = this.#retriever;
    this.#indexing = this.#indexing
      .then(() => retriever.add(documents.map(({ document }) => ({ id: document.id, text: document.text }))))
      .catch(() => undefined);
  }

  #requireStorage(method: string): Storage {
    const storage = this.#options.storage;
    if (storage === undefined) {
      throw new MobiusError('UNSUPPORTED', `${method}(): no \`storage\` is configured. Pass one to the constructor, e.g. new ContextManager({ storage: createMemoryStorage() }).`);
    }
    return storage;
  }

  // Listeners run after the state change is committed. One that throws must not stop the rest of
  // the method (eviction, graduation scheduling), so its error is rethrown at the end.
  #emitSafely<K extends keyof ContextEvents>(name: K, payload: ContextEvents[K][0]): void {
    try {
      this.emit(name, ...([Object.freeze({ ...payload })] as unknown as EventEmitter.EventArgs<ContextEvents, K>));
    } catch (error) {
      this.#listenerErrors.push(error);
    }
  }

  #rethrowListenerErrors(): void {
    if (this.#listenerErrors.length === 0) return;
    const [first] = this.#listenerErrors;
    this.#listenerErrors = [];
    throw first;
  }

  #timestamp(at: string | undefined): { at?: string } {
    const value = at ?? this.#options.clock?.();
    return value === undefined ? {} : { at: value };
  }

  // One scope per recorded input: its new ledger records travel with the event, so the ledger
  // changes only if the event is committed.
  #redaction(): RedactionScope {
    return createRedactionScope({ config: this.#options.redact, ledger: this.#view.secrets });
  }

  // An open file's held content is already redacted: only the lines that changed (and their
  // surroundings) need a scan, so an edit of a large file costs what the edit costs.
  #redactFileContent(scope: RedactionScope, path: string, content: string): string {
    const previous = this.#view.scratchpad.get(path)?.content;
    return previous === undefined ? scope.text(content, 'content') : scope.update({ previous, next: content, field: 'content' });
  }

  #reportRedaction(method: SecretRedactEvent['method'], scope: RedactionScope): void {
    const redactions = scope.redactions;
    if (redactions.length > 0) this.#emitSafely('secret-redact', { method, seq: this.#view.lastSeq, redactions });
  }

  #record(event: DistributiveOmit<SessionEvent, 'seq'>): EventEffects {
    const full = { ...event, seq: this.#view.lastSeq + 1 } as SessionEvent;
    const effects = this.#view.apply(full);
    this.#persist(full);
    this.#emitEffects(effects);
    this.#checkAutoSave(full);
    return effects;
  }

  // Providers require a call's results right after it: a message recorded while calls are pending
  // means the agent moved on. Closing them (a logged marker) lets graduation cut after them.
  #orphanPendingCalls(options: { newIds: ReadonlySet<string>; at: string | undefined }): void {
    for (const call of this.#view.pendingToolCalls()) {
      const isReused = options.newIds.has(call.id);
      if (!isReused && call.messagesAfter + 1 < this.#options.orphanCallsAfter) continue;
      this.#record({
        type: 'tool-call-orphan',
        callId: call.id,
        callSeq: call.seq,
        toolName: call.name,
        reason: isReused ? 'id-reused' : 'later-message',
        ...this.#timestamp(options.at),
      });
    }
  }

  #afterFileChange(path: string, at: string | undefined): OpenFile {
    for (const evicted of this.#view.scratchpad.filesToEvict({ keep: path })) {
      this.#record({ type: 'file-close', path: evicted, cause: 'evicted', ...this.#timestamp(at) });
    }
    this.#scheduleGraduation();
    this.#rethrowListenerErrors();
    return this.#view.scratchpad.get(path) as OpenFile;
  }

  #emitEffects(effects: EventEffects): void {
    if (effects.entry !== undefined) this.#emitSafely('entry-add', { entry: effects.entry });
    if (effects.file !== undefined) {
      const payload = { file: effects.file.file, lines: effects.file.lines, isDiffSkipped: effects.file.isDiffSkipped };
      if (effects.file.kind === 'open') this.#emitSafely('file-open', payload);
      else this.#emitSafely('file-update', payload);
    }
    if (effects.closed !== undefined) this.#emitSafely('file-close', effects.closed);
    if (effects.orphan !== undefined) this.#emitSafely('tool-call-orphan', { ...effects.orphan, seq: this.#view.lastSeq });
    if (effects.pin !== undefined) {
      this.#emitSafely(effects.pin.kind === 'add' ? 'pin-add' : 'pin-remove', { pin: effects.pin.pin });
      if (effects.pin.kind === 'remove') {
        this.#index([{ type: 'pin', reason: 'unpinned', pin: effects.pin.pin, archivedAt: this.#view.lastSeq }]);
        this.#emitSafely('archive-add', { items: [{ type: 'pin', reason: 'unpinned', pin: effects.pin.pin, archivedAt: this.#view.lastSeq }] });
      }
    }
  }

  #needsGraduation(): boolean {
    const tiers = this.#view.tiers;
    const limits = this.#limits();
    return tiers.workingTokens > limits.working || tiers.summaryTokens > limits.summaries;
  }

  #limits(): TierLimits {
    const tiers = this.#view.tiers;
    this.#prefixTokens ??= this.#counter.count(this.#options.systemPrompt);
    let facts = 0;
    for (const fact of tiers.facts.facts()) facts += fact.tokens;
    return tierLimits({
      budget: this.#options.budget,
      budgets: this.#options.budgets,
      elastic: this.#options.elasticTiers,
      usage: {
        prefix: this.#prefixTokens,
        facts,
        pins: tiers.renderPins().tokens,
        scratchpad: this.#view.scratchpad.totalTokens(),
        summaries: tiers.summaryTokens,
      },
    });
  }

  #scheduleGraduation(): void {
    if (this.#isGraduating || !this.#needsGraduation()) return;
    this.#isGraduating = true;
    this.#graduation = this.#graduation.then(() => this.#graduationLoop());
  }

  async #graduationLoop(): Promise<void> {
    try {
      // Every step either commits a graduation that makes its tier smaller or marks the tier
      // stuck until the next record, so the loop ends after a bounded number of steps.
      const stuck = new Set<GraduationStallEvent['tier']>();
      for (;;) {
        const limits = this.#limits();
        const tiers = this.#view.tiers;
        const tier = tiers.workingTokens > limits.working && !stuck.has('working')
          ? 'working'
          : tiers.summaryTokens > limits.summaries && !stuck.has('summaries') ? 'summaries' : undefined;
        if (tier === undefined) break;
        const step = tier === 'working' ? await this.#graduateChunk() : await this.#consolidate();
        if (step === true) {
          this.#stall = undefined;
          continue;
        }
        stuck.add(tier);
        this.#reportStall(tier, step);
      }
    } catch (error) {
      const wrapped = MobiusError.isInstance(error)
        ? error
        : new MobiusError('SUMMARIZER_FAILED', `graduation failed and was abandoned; nothing left T0: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
      this.#emitSafely('graduation-error', { error: wrapped, isCommitted: false });
      this.#reportBackgroundListenerErrors();
    } finally {
      this.#isGraduating = false;
    }
  }

  // A tier that stays over budget is reported once per cause, not on every record.
  #reportStall(tier: GraduationStallEvent['tier'], reason: GraduationStallEvent['reason']): void {
    if (this.#stall === `${tier}:${reason}`) return;
    this.#stall = `${tier}:${reason}`;
    const tiers = this.#view.tiers;
    const limits = this.#limits();
    this.#emitSafely('graduation-stall', tier === 'working'
      ? { tier, reason, tokens: tiers.workingTokens, limit: limits.working }
      : { tier, reason, tokens: tiers.summaryTokens, limit: limits.summaries });
    this.#reportBackgroundListenerErrors();
  }

  async #graduateChunk(): Promise<GraduationStep> {
    const tiers = this.#view.tiers;
    const entries = [...tiers.entries()];
    const target = tiers.workingTokens - Math.floor(this.#limits().working * this.#options.graduationTarget);
    const plan = planChunk({ entries, scores: this.#detector.scoreGaps(entries), targetTokens: target });
    if (plan === undefined) return 'no-allowed-cut';
    const chunk = entries.slice(0, plan.count);
    const first = chunk[0] as Entry;
    const last = chunk[chunk.length - 1] as Entry;
    const source = { from: first.seq, to: last.seq };
    const maxSummaryTokens = this.#maxSummaryTokens({ tokens: plan.tokens, source, period: { from: first.at, to: last.at } });
    if (maxSummaryTokens < MIN_SUMMARY_TOKENS) return 'no-shrink';
    this.#emitSafely('graduation-start', { mode: 'chunk', source, tokens: plan.tokens });
    // Tool output compresses hard; what people said is kept near-verbatim where it carries content.
    const proseTokens = chunk.reduce((sum, entry) => sum + (entry.kind === 'user' || entry.kind === 'assistant' ? entry.tokens : 0), 0);
    const targetTokens = Math.max(64, Math.round(plan.tokens / 10), Math.round(proseTokens / 4));
    const countTokens = (text: string): number => this.#counter.count(text);
    const outcome = await summarizeSafely({
      summarizer: this.#summarizer,
      fallback: this.#fallback,
      request: { mode: 'chunk', entries: chunk, summaries: [], targetTokens, countTokens },
      timeoutMs: this.#options.summarizerTimeoutMs,
      retries: this.#options.summarizerRetries,
      maxSummaryTokens,
      source,
    });
    if (outcome.failure !== undefined) this.#emitSafely('summarizer-fallback', outcome.failure);
    // Identifiers added back must not make the summary larger than the ratio allows either.
    const room = maxSummaryTokens - countTokens(outcome.result.summary) - 1;
    const result = restoreIdentifiers({ entries: chunk, result: outcome.result, countTokens, maxTokens: Math.min(room, Math.max(32, Math.round(targetTokens / 4))) });
    const seq = this.#view.lastSeq + 1;
    const summaryId = `s${seq}`;
    const freed = this.#commitGraduation({
      type: 'graduation',
      seq,
      mode: 'chunk',
      source,
      entrySeqs: chunk.map((entry) => entry.seq),
      summaryIds: [],
      summary: { id: summaryId, text: result.summary, level: 1, sections: result.sections ?? plainTextSections({ text: result.summary, source }) },
      facts: result.facts ?? [],
      tasks: result.tasks ?? [],
      summarizer: outcome.summarizer,
      isFallback: outcome.isFallback,
    }, plan.boundary.reason);
    this.#reportTrim(summaryId, source, outcome, maxSummaryTokens);
    return freed > 0 ? true : 'no-shrink';
  }

  // Tokens a summary may have so that, rendered with its header, it stays within
  // `maxSummaryRatio` of what it replaces.
  #maxSummaryTokens(options: { tokens: number; source: SequenceRange; period: { from?: string | undefined; to?: string | undefined } }): number {
    const header = this.#counter.count(renderSummary({ source: options.source, text: '', period: options.period }));
    return Math.floor(options.tokens * this.#options.maxSummaryRatio) - header - 1;
  }

  #reportTrim(summaryId: string, source: SequenceRange, outcome: SummarizeOutcome, limit: number): void {
    if (outcome.trimmedFrom === undefined) return;
    this.#emitSafely('summary-trim', { summaryId, source, tokens: outcome.trimmedFrom, limit });
    this.#reportBackgroundListenerErrors();
  }

  async #consolidate(): Promise<GraduationStep> {
    const summaries = [...this.#view.tiers.summaries()];
    if (summaries.length === 0) return 'no-shrink';
    const count = summaries.length === 1 ? 1 : Math.max(2, Math.floor(summaries.length / 2));
    const oldest = summaries.slice(0, count);
    const tokens = oldest.reduce((sum, summary) => sum + summary.tokens, 0);
    if (count === 1 && (oldest[0]?.level ?? 0) > 8) return 'fully-consolidated';
    const source = { from: oldest[0]?.source.from ?? 0, to: oldest[oldest.length - 1]?.source.to ?? 0 };
    const maxSummaryTokens = this.#maxSummaryTokens({ tokens, source, period: { from: oldest[0]?.period?.from, to: oldest[oldest.length - 1]?.period?.to } });
    if (maxSummaryTokens < MIN_SUMMARY_TOKENS) return 'no-shrink';
    this.#emitSafely('graduation-start', { mode: 'consolidate', source, tokens });
    const targetTokens = Math.max(64, Math.round(tokens / 3));
    const outcome = await summarizeSafely({
      summarizer: this.#summarizer,
      fallback: this.#fallback,
      request: { mode: 'consolidate', entries: [], summaries: oldest, targetTokens, countTokens: (text) => this.#counter.count(text) },
      timeoutMs: this.#options.summarizerTimeoutMs,
      retries: this.#options.summarizerRetries,
      maxSummaryTokens,
      source,
    });
    if (outcome.failure !== undefined) this.#emitSafely('summarizer-fallback', outcome.failure);
    const seq = this.#view.lastSeq + 1;
    const level = Math.max(...oldest.map((summary) => summary.level)) + 1;
    const text = outcome.result.summary;
    const sections = outcome.result.sections ?? plainTextSections({ text, source });
    const freed = this.#commitGraduation({
      type: 'graduation',
      seq,
      mode: 'consolidate',
      source,
      entrySeqs: [],
      summaryIds: oldest.map((summary) => summary.id),
      summary: { id: `s${seq}`, text, level, sections },
      facts: outcome.result.facts ?? [],
      tasks: outcome.result.tasks ?? [],
      summarizer: outcome.summarizer,
      isFallback: outcome.isFallback,
    }, undefined);
    this.#reportTrim(`s${seq}`, source, outcome, maxSummaryTokens);
    return freed > 0 ? true : 'no-shrink';
  }

  // Returns the tokens the graduation took out of T0 + T1 (what left, less the new summary).
  #commitGraduation(event: Extract<SessionEvent, { type: 'graduation' }>, boundary: string | undefined): number {
    const effects = this.#view.apply(event);
    this.#persist(event);
    const graduation = effects.graduation;
    if (graduation === undefined) return 0;
    const removed: GraduatedItem[] = graduation.removed.map((item) =>
      item.type === 'entry'
        ? { id: item.entry.seq, kind: item.entry.kind, tokens: item.entry.tokens, archivedAs: graduation.summary.id }
        : item.type === 'summary'
          ? { id: item.summary.id, kind: 'summary', tokens: item.summary.tokens, archivedAs: graduation.summary.id }
          : { id: 'unknown', kind: item.type, tokens: 0, archivedAs: graduation.summary.id },
    );
    const tokensIn = removed.reduce((sum, item) => sum + item.tokens, 0);
    const tokensOut = graduation.summary.tokens + graduation.facts.added.reduce((sum, fact) => sum + fact.tokens, 0);
    const report: GraduationReport = {
      seq: event.seq,
      mode: event.mode,
      source: event.source,
      removed,
      summary: graduation.summary,
      factsAdded: graduation.facts.added.map((fact) => fact.key),
      factsSuperseded: graduation.facts.superseded.map((change) => change.fact.key),
      tasks: graduation.tasks,
      tokensIn,
      tokensOut,
      boundary,
      summarizer: event.summarizer,
      isFallback: event.isFallback,
    };
    this.#lastReport = report;
    this.#index([...graduation.removed, ...graduation.facts.archived]);
    this.#emitSafely('archive-add', { items: [...graduation.removed, ...graduation.facts.archived] });
    for (const fact of graduation.facts.added) this.#emitSafely('fact-add', { fact });
    for (const change of graduation.facts.superseded) this.#emitSafely('fact-supersede', { fact: change.fact, previous: change.previous });
    for (const task of graduation.tasks) this.#emitSafely('task-update', { task });
    this.#emitSafely('graduation-end', report);
    this.#reportBackgroundListenerErrors();
    return tokensIn - graduation.summary.tokens;
  }

  // Work that runs in the background has no caller to rethrow a listener's error to.
  #reportBackgroundListenerErrors(): void {
    const errors = this.#listenerErrors;
    this.#listenerErrors = [];
    for (const error of errors) {
      const wrapped = new MobiusError('INVALID_ARGUMENT', `a listener threw while Mobius reported background work (the change was committed): ${error instanceof Error ? error.message : String(error)}. Make event listeners catch their own errors.`, { cause: error });
      try {
        this.emit('graduation-error', Object.freeze({ error: wrapped, isCommitted: true }));
      } catch {
        // A graduation-error listener that throws has nowhere left to report to.
      }
    }
  }

  #persist(event: SessionEvent): void {
    if (this.#options.storage === undefined) return;
    this.#unsaved.push(event);
    // While a retry is scheduled, new events wait for it: failing storage is not hammered with
    // one attempt per record.
    if (this.#retryTimer !== undefined) return;
    this.#storageQueue = this.#storageQueue.then(() => this.#appendUnsaved());
  }

  // Bounded exponential backoff. The timer is unref'd so that it never keeps a process alive, and
  // a round ends after `retries` attempts; the next record starts a new one.
  #scheduleRetry(error: unknown): void {
    const policy = this.#options.storageRetry;
    if (policy === false || this.#retryTimer !== undefined || ConflictError.isInstance(error)) return;
    if (this.#retryAttempt >= policy.retries) {
      this.#retryAttempt = 0;
      return;
    }
    const delay = Math.min(policy.delayMs * 2 ** this.#retryAttempt, policy.maxDelayMs);
    this.#retryAttempt += 1;
    const timer = setTimeout(() => {
      this.#retryTimer = undefined;
      this.#storageQueue = this.#storageQueue.then(() => this.#appendUnsaved());
    }, delay);
    (timer as { unref?: () => unknown }).unref?.();
    this.#retryTimer = timer;
  }

  async #flushStorage(): Promise<void> {
    if (this.#options.storage === undefined) return;
    // An append that timed out while this flush waited for it already cost the caller the whole
    // timeout: report it rather than wait as long again (the backoff retries it).
    const timeouts = this.#appendTimeouts;
    this.#storageQueue = this.#storageQueue.then(() => (this.#appendTimeouts === timeouts ? this.#appendUnsaved() : undefined));
    await this.#storageQueue;
  }

  async #appendUnsaved(): Promise<void> {
    const storage = this.#options.storage;
    if (storage === undefined || this.#unsaved.length === 0) return;
    // A copy: events recorded while a slow append is in flight must stay unsaved until appended.
    const batch = [...this.#unsaved];
    try {
      const outcome = await withTimeout({ work: () => storage.append(this.#options.sessionId, batch), timeoutMs: this.#options.storageTimeoutMs });
      if (outcome === 'timeout') {
        this.#appendTimeouts += 1;
        throw new Error(`the append of ${batch.length} event(s) did not settle within ${this.#options.storageTimeoutMs} ms (storageTimeoutMs)`);
      }
      this.#unsaved = this.#unsaved.slice(batch.length);
      if (this.#options.autoSave !== false) this.#journalBytes += JSON.stringify(batch).length;
      this.#lastAppendError = undefined;
      this.#retryAttempt = 0;
      if (this.#retryTimer !== undefined) clearTimeout(this.#retryTimer);
      this.#retryTimer = undefined;
    } catch (error) {
      // Keep the batch: a retry, the next record, settle() or save() sends it again, so nothing
      // recorded is lost.
      const wrapped = this.#appendError(storage, error);
      this.#lastAppendError = wrapped;
      this.#scheduleRetry(error);
      this.#emitSafely('storage-error', { error: wrapped, operation: 'append', pendingEvents: this.#unsaved.length });
      this.#reportBackgroundListenerErrors();
    }
  }
}

// --- Internal helpers ---

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A graduation step: `true` when it committed and made its tier smaller, else why not. */
type GraduationStep = true | GraduationStallEvent['reason'];

const toolCallSchema = z.strictObject({ id: z.string().min(1), name: z.string().min(1), input: z.unknown() });
// Checked by hand rather than with z.json(): the error names the exact path of the bad value, and
// a cyclic or very deep input gives an InvalidArgumentError instead of a stack overflow.
const toolCallsSchema = z.array(toolCallSchema).superRefine((calls, context) => {
  const ids = new Set<string>();
  calls.forEach((call, index) => {
    const problem = findJsonProblem(call.input, { rootName: `toolCalls[${index}].input` });
    if (problem !== undefined) {
      context.addIssue({
        code: 'custom',
        path: [index, 'input', ...problem.path],
        params: { problem: problem.problem },
        message: `tool inputs must be JSON (strings, finite numbers, booleans, null, arrays and plain objects, at most ${MAX_JSON_DEPTH} levels deep, without cycles). Replace the value with plain data or leave it out.`,
      });
    }
    if (ids.has(call.id)) {
      context.addIssue({
        code: 'custom',
        path: [index, 'id'],
        params: { problem: `repeats the id ${describeValue(call.id)} of an earlier call of the same message` },
        message: 'give each call of a message its own id.',
      });
    }
    ids.add(call.id);
  });
});
const atSchema = z.iso.datetime({ offset: true }).optional();
const pathSchema = z.string().min(1).max(4_096).refine((value) => !value.includes('\u0000'), 'must not contain NUL');
const messageSchema = z.strictObject({
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  toolCalls: toolCallsSchema.optional(),
  at: atSchema,
}).refine((value) => value.role === 'assistant' || value.toolCalls === undefined || value.toolCalls.length === 0, {
  message: 'only assistant messages can carry toolCalls',
  path: ['toolCalls'],
});
const toolResultSchema = z.strictObject({ callId: z.string().min(1), output: z.string(), isError: z.boolean().optional(), at: atSchema });
const openFileSchema = z.strictObject({ path: pathSchema, content: z.string(), callId: z.string().min(1).optional(), at: atSchema });
const updateFileSchema = z.strictObject({
  path: pathSchema,
  content: z.string(),
  reason: z.string().max(500).optional(),
  callId: z.string().min(1).optional(),
  at: atSchema,
});
const closeFileSchema = z.strictObject({ path: pathSchema, callId: z.string().min(1).optional(), at: atSchema });
const noteSchema = z.strictObject({ content: z.string(), at: atSchema });
const fileHistorySchema = z.strictObject({ path: pathSchema });
const staleSchema = z.strictObject({ path: pathSchema, content: z.string() });
const redactSchema = z.strictObject({ text: z.string() });
const pinSchema = z.strictObject({ text: z.string().trim().min(1).max(2_000) });
const unpinSchema = z.strictObject({ id: z.string().min(1) });
const buildSchema = z.strictObject({ budget: tokenBudgetSchema.optional() });
const recallSchema = z.strictObject({
  query: z.string().trim().min(1),
  limit: z.number().int().positive().max(100).optional(),
  maxTokens: z.number().int().positive().optional(),
  show: z.boolean().optional(),
});
const expandSchema = z.strictObject({ itemId: z.string().min(1) });
const recapSchema = z.union([z.literal('brief'), z.literal('full'), z.strictObject({ topic: z.string().trim().min(1) })]);
const labelSchema = z.strictObject({ label: z.string().trim().min(1).max(200) });
const saveSchema = z.strictObject({ label: z.string().trim().min(1).max(200).optional() });
const versionSchema = z.strictObject({ version: z.number().int().positive() });
const forkSchema = z.strictObject({ version: z.number().int().positive().optional(), sessionId: sessionIdSchema });
const snapshotSchema = z.object({ formatVersion: z.number().int(), seq: z.number().int().min(0), state: z.unknown(), version: z.number().int().min(0).optional() });

function resolveOptions(options: ContextManagerOptions): ResolvedOptions {
  const { initialState: _ignored, ...rest } = options as ContextManagerOptions & { initialState?: unknown };
  const parsed = parse(contextManagerOptionsSchema, rest, 'new ContextManager', 'new ContextManager({ budget: 28_000, systemPrompt })') as ContextManagerOptions;
  if (parsed.storage !== undefined && !isStorage(parsed.storage)) {
    throw new InvalidArgumentError({ parameter: 'storage', value: parsed.storage, message: 'new ContextManager(): `storage` must implement append, read, saveSnapshot and loadSnapshot. Use createMemoryStorage() or see docs/storage.md.' });
  }
  if (parsed.sessionId !== undefined) sessionIdSchema.parse(parsed.sessionId);
  const contextWindow = parsed.contextWindow ?? contextWindowForModel(parsed.model);
  const resolve = (budget: TokenBudget | undefined, fallback: number, name: string): number => {
    if (budget === undefined) return fallback;
    const value = resolveBudget({ budget, contextWindow, name });
    if (typeof value === 'string') throw new InvalidArgumentError({ parameter: name, value: budget, message: `new ContextManager(): ${value}` });
    return value;
  };
  return {
    model: parsed.model,
    contextWindow,
    budget: resolve(parsed.budget, DEFAULTS.budget, '`budget`'),
    budgets: {
      facts: resolve(parsed.budgets?.facts, DEFAULTS.budgets.facts, '`budgets.facts`'),
      pins: resolve(parsed.budgets?.pins, DEFAULTS.budgets.pins, '`budgets.pins`'),
      summaries: resolve(parsed.budgets?.summaries, DEFAULTS.budgets.summaries, '`budgets.summaries`'),
      scratchpad: resolve(parsed.budgets?.scratchpad, DEFAULTS.budgets.scratchpad, '`budgets.scratchpad`'),
      working: resolve(parsed.budgets?.working, DEFAULTS.budgets.working, '`budgets.working`'),
    },
    elasticTiers: { working: parsed.budgets?.working === undefined, summaries: parsed.budgets?.summaries === undefined },
    systemPrompt: parsed.systemPrompt ?? DEFAULTS.systemPrompt,
    autoCloseAfter: parsed.autoCloseAfter ?? DEFAULTS.autoCloseAfter,
    orphanCallsAfter: parsed.orphanCallsAfter ?? DEFAULTS.orphanCallsAfter,
    maxEntryTokens: parsed.maxEntryTokens ?? DEFAULTS.maxEntryTokens,
    graduationTarget: parsed.graduationTarget ?? DEFAULTS.graduationTarget,
    summarizer: parsed.summarizer,
    summarizerTimeoutMs: parsed.summarizerTimeoutMs ?? DEFAULTS.summarizerTimeoutMs,
    summarizerRetries: parsed.summarizerRetries ?? DEFAULTS.summarizerRetries,
    maxSummaryRatio: parsed.maxSummaryRatio ?? DEFAULTS.maxSummaryRatio,
    maxDiffBytes: parsed.maxDiffBytes ?? DEFAULTS.maxDiffBytes,
    pathCase: parsed.pathCase ?? DEFAULTS.pathCase,
    tokenCounter: parsed.tokenCounter,
    patterns: parsed.patterns,
    retriever: parsed.retriever,
    autoSave:
      parsed.autoSave === false
        ? false
        : {
            onTaskDone: parsed.autoSave?.onTaskDone ?? true,
            onDecision: parsed.autoSave?.onDecision ?? true,
            everyMessages: parsed.autoSave?.everyMessages ?? 15,
            onLeaving: parsed.autoSave?.onLeaving ?? true,
            pressureThreshold: parsed.autoSave?.pressureThreshold ?? 0.8,
            snapshotGrowth: parsed.autoSave?.snapshotGrowth ?? 1,
          },
    projectMemory: parsed.projectMemory,
    storage: parsed.storage,
    storageRetry:
      parsed.storageRetry === false
        ? false
        : {
            retries: parsed.storageRetry?.retries ?? DEFAULTS.storageRetry.retries,
            delayMs: parsed.storageRetry?.delayMs ?? DEFAULTS.storageRetry.delayMs,
            maxDelayMs: parsed.storageRetry?.maxDelayMs ?? DEFAULTS.storageRetry.maxDelayMs,
          },
    storageTimeoutMs: parsed.storageTimeoutMs ?? DEFAULTS.storageTimeoutMs,
    sessionId: parsed.sessionId ?? DEFAULTS.sessionId,
    clock: parsed.clock,
    redact: parsed.redact === false ? false : resolveRedaction(parsed.redact ?? {}),
  };
}

function secretsOf(scope: RedactionScope): { secrets?: readonly SecretRecord[] } {
  return scope.records.length === 0 ? {} : { secrets: [...scope.records] };
}

// Memory from an earlier session (or an older version) may hold secrets: redact every text in it.
function redactProjectMemory(memory: ProjectMemory, scope: RedactionScope): { facts: Fact[]; pins: string[] } {
  const facts = memory.facts.map((fact, index) => ({
    ...fact,
    key: scope.text(fact.key, `facts[${index}].key`),
    value: scope.text(fact.value, `facts[${index}].value`),
    history: fact.history.map((version, at) => ({ ...version, value: scope.text(version.value, `facts[${index}].history[${at}].value`) })),
  }));
  return { facts, pins: memory.pins.map((pin, index) => scope.text(pin, `pins[${index}]`)) };
}

function unsupported(storage: Storage, method: string): MobiusError {
  return new MobiusError('UNSUPPORTED', `${method}(): storage "${storage.name}" does not keep versions. Use createMemoryStorage() or createFileStorage(), or implement listVersions().`);
}

const viewDataSchema = z.object({
  lastSeq: z.number().int().min(0),
  exchange: z.number().int().min(0),
  pendingCalls: z.array(z.tuple([z.string(), z.string()])),
  knownCalls: z.array(z.tuple([z.string(), z.string()])),
  toolCalls: z.array(z.object({
    id: z.string(),
    name: z.string(),
    seq: z.number().int().min(0),
    status: z.enum(['pending', 'answered', 'orphaned', 'late']),
    messagesAfter: z.number().int().min(0),
    resultSeq: z.number().int().min(0).optional(),
    orphanSeq: z.number().int().min(0).optional(),
  })).optional(),
  entrySeqs: z.array(z.number().int()),
  secrets: z.array(z.object({ digest: z.string().regex(/^[0-9a-f]{8}$/), kind: z.string().min(1), number: z.number().int().positive() })).optional(),
  tiers: z.object({ entries: z.array(z.unknown()), summaries: z.array(z.unknown()), pins: z.array(z.unknown()), facts: z.object({ facts: z.array(z.unknown()), tasks: z.array(z.unknown()) }), archive: z.array(z.unknown()) }),
  scratchpad: z.object({ files: z.array(z.unknown()) }).passthrough(),
});

/** Checks the shape and format of a snapshot and returns its folded view. */
function validateSnapshot(snapshot: SessionSnapshot, sessionId: string, storage: Storage): SessionViewData {
  const parsed = snapshotSchema.safeParse(snapshot);
  const state = parsed.success && parsed.data.formatVersion === SNAPSHOT_FORMAT_VERSION ? viewDataSchema.safeParse(parsed.data.state) : undefined;
  if (state === undefined || !state.success) {
    throw new CorruptStateError({
      version: parsed.success ? parsed.data.formatVersion : undefined,
      message: `the snapshot of session ${describeValue(sessionId)} in storage "${storage.name}" is not a valid format-${SNAPSHOT_FORMAT_VERSION} snapshot${state === undefined ? '' : `:\n${z.prettifyError(state.error)}`}. Roll back to another version (listVersions()) or start a new session id.`,
      cause: state?.error ?? (parsed.success ? undefined : parsed.error),
    });
  }
  return state.data as unknown as SessionViewData;
}

// Settles as `work()` does, or with `'timeout'` once `timeoutMs` passed. A late result of the work
// is ignored (and a late rejection swallowed): the caller has moved on. The timer is unref'd so
// that it never keeps a process alive.
async function withTimeout(options: { work: () => void | PromiseLike<void>; timeoutMs: number }): Promise<'done' | 'timeout'> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const work = Promise.resolve().then(options.work);
  const expiry = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), options.timeoutMs);
    (timer as { unref?: () => unknown }).unref?.();
  });
  try {
    return await Promise.race([work.then(() => 'done' as const), expiry]);
  } finally {
    clearTimeout(timer);
    work.catch(() => undefined);
  }
}

function storageError(storage: Storage, operation: string, error: unknown): StorageError {
  return new StorageError({
    storage: storage.name,
    operation,
    message: `storage "${storage.name}" failed in ${operation}(): ${error instanceof Error ? error.message : String(error)}. The in-memory state is intact; fix the storage and retry.`,
    cause: error,
  });
}

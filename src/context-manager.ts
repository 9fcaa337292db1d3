import { EventEmitter } from 'eventemitter3';
import { z } from 'zod';
import { createBoundaryDetector } from './boundaries/boundary-detector.js';
import type { BoundaryDetector } from './boundaries/boundary-detector.js';
import { defaultPatterns } from './boundaries/patterns/default.js';
import type { BuiltContext } from './build/window-builder.js';
import { createWindowBuilder } from './build/window-builder.js';
import { CorruptStateError, InvalidArgumentError, MobiusError, StorageError, describeValue } from './errors.js';
import { parse } from './validation.js';
import type { ContextEvents, GraduatedItem, GraduationReport } from './events.js';
import { planChunk, restoreIdentifiers, summarizeSafely } from './graduation/graduator.js';
import type { ContextManagerOptions, ResolvedOptions, TokenBudget } from './options.js';
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
import { createSessionView } from './session-view.js';
import type { SessionSnapshot, Storage } from './storage/storage.js';
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
  readonly #options: ResolvedOptions;
  readonly #counter: TokenCounter;
  readonly #summarizer: Summarizer;
  readonly #fallback: Summarizer;
  readonly #detector: BoundaryDetector;
  readonly #view: SessionView;
  readonly #builder: ReturnType<typeof createWindowBuilder>;
  #graduation: Promise<void> = Promise.resolve();
  #isGraduating = false;
  #storageQueue: Promise<void> = Promise.resolve();
  #unsaved: SessionEvent[] = [];
  #lastReport: GraduationReport | undefined;
  #listenerErrors: unknown[] = [];

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
    this.#view = createSessionView({
      counter: this.#counter,
      maxEntryTokens: this.#options.maxEntryTokens,
      scratchpadBudget: this.#options.budgets.scratchpad,
      autoCloseAfter: this.#options.autoCloseAfter,
      initial: (options as { initialState?: SessionViewData }).initialState,
    });
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
      throw storageError(storage, 'read', error);
    }
    const manager = new ContextManager({
      ...options,
      ...(parsed.data.state === null ? {} : { initialState: parsed.data.state as SessionViewData }),
    } as ContextManagerOptions);
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
   * Records a user or assistant message (with the assistant's tool calls, if any).
   * @throws {InvalidArgumentError} when the input is invalid or a tool-call id was already used.
   */
  addMessage(input: MessageInput): Entry {
    const parsed = parse(messageSchema, input, 'addMessage', 'addMessage({ role: "user", content: "…" })');
    const toolCalls = parsed.toolCalls?.map((call) => ({ id: call.id, name: call.name, input: call.input as JsonValue }));
    const effects = this.#record({
      type: 'message',
      role: parsed.role,
      content: parsed.content,
      ...(toolCalls === undefined || toolCalls.length === 0 ? {} : { toolCalls }),
      ...this.#timestamp(parsed.at),
    });
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
   * Records the result of a tool call made in an earlier assistant message.
   * @throws {InvalidArgumentError} with code `UNKNOWN_TOOL_CALL` when no pending call has that id.
   */
  addToolResult(input: ToolResultInput): Entry {
    const parsed = parse(toolResultSchema, input, 'addToolResult', 'addToolResult({ callId, output })');
    const toolName = this.#view.pendingCall(parsed.callId) ?? '';
    const effects = this.#record({
      type: 'tool-result',
      callId: parsed.callId,
      toolName,
      output: parsed.output,
      ...(parsed.isError === undefined ? {} : { isError: parsed.isError }),
      ...this.#timestamp(parsed.at),
    });
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
    this.#record({
      type: 'file-open',
      path: parsed.path,
      content: parsed.content,
      ...(parsed.callId === undefined ? {} : { callId: parsed.callId }),
      ...this.#timestamp(parsed.at),
    });
    return this.#afterFileChange(parsed.path, parsed.at);
  }

  /**
   * Replaces an open file's content and records one compact diff line per hunk.
   * @throws {InvalidArgumentError} with code `UNKNOWN_FILE` when the file is not open.
   */
  updateFile(input: UpdateFileInput): OpenFile {
    const parsed = parse(updateFileSchema, input, 'updateFile', 'updateFile({ path, content, reason })');
    this.#record({
      type: 'file-update',
      path: parsed.path,
      content: parsed.content,
      ...(parsed.reason === undefined ? {} : { reason: parsed.reason }),
      ...(parsed.callId === undefined ? {} : { callId: parsed.callId }),
      ...this.#timestamp(parsed.at),
    });
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
    const effects = this.#record({ type: 'note', content: parsed.content, ...this.#timestamp(parsed.at) });
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
    const stale = this.#view.scratchpad.isStale({ path: parsed.path, content: parsed.content });
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
    const cost = this.#counter.count(`- ${parsed.text}`) + 1;
    const used = this.#view.tiers.renderPins().tokens;
    if (used + cost > this.#options.budgets.pins) {
      throw new InvalidArgumentError({
        parameter: 'text',
        value: parsed.text,
        code: 'BUDGET_TOO_SMALL',
        message: `pin(): the pins would use ${used + cost} tokens, more than \`budgets.pins\` (${this.#options.budgets.pins}). Pins are always shown in full; unpin({ id }) one you no longer need, shorten the text, or raise budgets.pins.`,
      });
    }
    const effects = this.#record({ type: 'pin', pinId: `pin-${seq}`, text: parsed.text });
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
    const built = this.#builder.build(budget, this.#view.tiers, this.#view.scratchpad);
    const { omitted } = built;
    if (omitted.entries + omitted.summaries + omitted.facts + omitted.files > 0 || omitted.isPinsOmitted) {
      this.#emitSafely('window-trim', { budget, omitted });
      this.#rethrowListenerErrors();
    }
    return built;
  }

  /** Waits until every scheduled graduation has committed and every event reached storage. */
  async settle(): Promise<void> {
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
  async save(): Promise<void> {
    const storage = this.#options.storage;
    if (storage === undefined) {
      throw new MobiusError('UNSUPPORTED', 'save(): no `storage` is configured. Pass one to the constructor, e.g. new ContextManager({ storage: createMemoryStorage() }).');
    }
    await this.settle();
    if (this.#unsaved.length > 0) {
      throw new StorageError({ storage: storage.name, operation: 'append', message: `save(): ${this.#unsaved.length} events could not be appended to storage "${storage.name}"; the snapshot was not written so that the log stays complete. Fix the storage and call save() again.` });
    }
    const snapshot: SessionSnapshot = { formatVersion: SNAPSHOT_FORMAT_VERSION, seq: this.#view.lastSeq, state: this.#view.toJSON() };
    try {
      await storage.saveSnapshot(this.#options.sessionId, JSON.parse(JSON.stringify(snapshot)) as SessionSnapshot);
    } catch (error) {
      const wrapped = storageError(storage, 'saveSnapshot', error);
      this.#emitSafely('storage-error', { error: wrapped, operation: 'saveSnapshot' });
      this.#listenerErrors = [];
      throw wrapped;
    }
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

  #record(event: DistributiveOmit<SessionEvent, 'seq'>): EventEffects {
    const full = { ...event, seq: this.#view.lastSeq + 1 } as SessionEvent;
    const effects = this.#view.apply(full);
    this.#persist(full);
    this.#emitEffects(effects);
    return effects;
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
      const payload = { file: effects.file.file, lines: effects.file.lines };
      if (effects.file.kind === 'open') this.#emitSafely('file-open', payload);
      else this.#emitSafely('file-update', payload);
    }
    if (effects.closed !== undefined) this.#emitSafely('file-close', effects.closed);
    if (effects.pin !== undefined) {
      this.#emitSafely(effects.pin.kind === 'add' ? 'pin-add' : 'pin-remove', { pin: effects.pin.pin });
      if (effects.pin.kind === 'remove') {
        this.#emitSafely('archive-add', { items: [{ type: 'pin', reason: 'unpinned', pin: effects.pin.pin, archivedAt: this.#view.lastSeq }] });
      }
    }
  }

  #needsGraduation(): boolean {
    const tiers = this.#view.tiers;
    return tiers.workingTokens > this.#options.budgets.working || tiers.summaryTokens > this.#options.budgets.summaries;
  }

  #scheduleGraduation(): void {
    if (this.#isGraduating || !this.#needsGraduation()) return;
    this.#isGraduating = true;
    this.#graduation = this.#graduation.then(() => this.#graduationLoop());
  }

  async #graduationLoop(): Promise<void> {
    try {
      while (this.#needsGraduation()) {
        const isProgress =
          this.#view.tiers.workingTokens > this.#options.budgets.working
            ? await this.#graduateChunk()
            : await this.#consolidate();
        if (!isProgress) {
          // T0 may be over budget with no allowed cut (a tool call awaiting its result):
          // still consolidate T1 if needed, then wait for the next record.
          if (this.#view.tiers.summaryTokens > this.#options.budgets.summaries) await this.#consolidate();
          break;
        }
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

  async #graduateChunk(): Promise<boolean> {
    const tiers = this.#view.tiers;
    const entries = [...tiers.entries()];
    const target = tiers.workingTokens - Math.floor(this.#options.budgets.working * this.#options.graduationTarget);
    const plan = planChunk({ entries, scores: this.#detector.scoreGaps(entries), targetTokens: target });
    if (plan === undefined) return false;
    const chunk = entries.slice(0, plan.count);
    const first = chunk[0] as Entry;
    const last = chunk[chunk.length - 1] as Entry;
    const source = { from: first.seq, to: last.seq };
    this.#emitSafely('graduation-start', { mode: 'chunk', source, tokens: plan.tokens });
    const targetTokens = Math.max(64, Math.round(plan.tokens / 10));
    const countTokens = (text: string): number => this.#counter.count(text);
    const outcome = await summarizeSafely({
      summarizer: this.#summarizer,
      fallback: this.#fallback,
      request: { mode: 'chunk', entries: chunk, summaries: [], targetTokens, countTokens },
      timeoutMs: this.#options.summarizerTimeoutMs,
      retries: this.#options.summarizerRetries,
    });
    if (outcome.failure !== undefined) this.#emitSafely('summarizer-fallback', outcome.failure);
    const result = restoreIdentifiers({ entries: chunk, result: outcome.result, countTokens, maxTokens: Math.max(32, Math.round(targetTokens / 4)) });
    const seq = this.#view.lastSeq + 1;
    const summaryId = `s${seq}`;
    this.#commitGraduation({
      type: 'graduation',
      seq,
      mode: 'chunk',
      source,
      entrySeqs: chunk.map((entry) => entry.seq),
      summaryIds: [],
      summary: { id: summaryId, text: result.summary, level: 1 },
      facts: result.facts ?? [],
      tasks: result.tasks ?? [],
      summarizer: outcome.summarizer,
      isFallback: outcome.isFallback,
    }, plan.boundary.reason);
    return true;
  }

  async #consolidate(): Promise<boolean> {
    const summaries = [...this.#view.tiers.summaries()];
    if (summaries.length === 0) return false;
    const count = summaries.length === 1 ? 1 : Math.max(2, Math.floor(summaries.length / 2));
    const oldest = summaries.slice(0, count);
    const tokens = oldest.reduce((sum, summary) => sum + summary.tokens, 0);
    if (count === 1 && (oldest[0]?.level ?? 0) > 8) return false;
    const source = { from: oldest[0]?.source.from ?? 0, to: oldest[oldest.length - 1]?.source.to ?? 0 };
    this.#emitSafely('graduation-start', { mode: 'consolidate', source, tokens });
    const targetTokens = Math.max(64, Math.round(tokens / 3));
    const outcome = await summarizeSafely({
      summarizer: this.#summarizer,
      fallback: this.#fallback,
      request: { mode: 'consolidate', entries: [], summaries: oldest, targetTokens, countTokens: (text) => this.#counter.count(text) },
      timeoutMs: this.#options.summarizerTimeoutMs,
      retries: this.#options.summarizerRetries,
    });
    if (outcome.failure !== undefined) this.#emitSafely('summarizer-fallback', outcome.failure);
    const seq = this.#view.lastSeq + 1;
    const level = Math.max(...oldest.map((summary) => summary.level)) + 1;
    let text = outcome.result.summary;
    // A consolidation that does not shrink would loop forever: keep only its head.
    if (this.#counter.count(text) >= tokens) text = text.slice(0, Math.floor(text.length / 2)).trimEnd() + '\n…';
    this.#commitGraduation({
      type: 'graduation',
      seq,
      mode: 'consolidate',
      source,
      entrySeqs: [],
      summaryIds: oldest.map((summary) => summary.id),
      summary: { id: `s${seq}`, text, level },
      facts: outcome.result.facts ?? [],
      tasks: outcome.result.tasks ?? [],
      summarizer: outcome.summarizer,
      isFallback: outcome.isFallback,
    }, undefined);
    return true;
  }

  #commitGraduation(event: Extract<SessionEvent, { type: 'graduation' }>, boundary: string | undefined): void {
    const effects = this.#view.apply(event);
    this.#persist(event);
    const graduation = effects.graduation;
    if (graduation === undefined) return;
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
    this.#emitSafely('archive-add', { items: [...graduation.removed, ...graduation.facts.archived] });
    for (const fact of graduation.facts.added) this.#emitSafely('fact-add', { fact });
    for (const change of graduation.facts.superseded) this.#emitSafely('fact-supersede', { fact: change.fact, previous: change.previous });
    for (const task of graduation.tasks) this.#emitSafely('task-update', { task });
    this.#emitSafely('graduation-end', report);
    this.#reportBackgroundListenerErrors();
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
    this.#storageQueue = this.#storageQueue.then(() => this.#appendUnsaved());
  }

  async #flushStorage(): Promise<void> {
    if (this.#options.storage === undefined) return;
    this.#storageQueue = this.#storageQueue.then(() => this.#appendUnsaved());
    await this.#storageQueue;
  }

  async #appendUnsaved(): Promise<void> {
    const storage = this.#options.storage;
    if (storage === undefined || this.#unsaved.length === 0) return;
    const batch = this.#unsaved;
    try {
      await storage.append(this.#options.sessionId, batch);
      this.#unsaved = this.#unsaved.slice(batch.length);
    } catch (error) {
      // Keep the batch: the next append or save() retries it, so nothing recorded is lost.
      this.#emitSafely('storage-error', { error: storageError(storage, 'append', error), operation: 'append' });
      this.#reportBackgroundListenerErrors();
    }
  }
}

// --- Internal helpers ---

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

const toolCallSchema = z.strictObject({ id: z.string().min(1), name: z.string().min(1), input: z.json() });
const atSchema = z.iso.datetime({ offset: true }).optional();
const pathSchema = z.string().min(1).max(4_096).refine((value) => !value.includes('\u0000'), 'must not contain NUL');
const messageSchema = z.strictObject({
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  toolCalls: z.array(toolCallSchema).optional(),
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
const pinSchema = z.strictObject({ text: z.string().trim().min(1).max(2_000) });
const unpinSchema = z.strictObject({ id: z.string().min(1) });
const buildSchema = z.strictObject({ budget: tokenBudgetSchema.optional() });
const snapshotSchema = z.object({ formatVersion: z.number().int(), seq: z.number().int().min(0), state: z.unknown() });

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
    systemPrompt: parsed.systemPrompt ?? DEFAULTS.systemPrompt,
    autoCloseAfter: parsed.autoCloseAfter ?? DEFAULTS.autoCloseAfter,
    maxEntryTokens: parsed.maxEntryTokens ?? DEFAULTS.maxEntryTokens,
    graduationTarget: parsed.graduationTarget ?? DEFAULTS.graduationTarget,
    summarizer: parsed.summarizer,
    summarizerTimeoutMs: parsed.summarizerTimeoutMs ?? DEFAULTS.summarizerTimeoutMs,
    summarizerRetries: parsed.summarizerRetries ?? DEFAULTS.summarizerRetries,
    tokenCounter: parsed.tokenCounter,
    patterns: parsed.patterns,
    storage: parsed.storage,
    sessionId: parsed.sessionId ?? DEFAULTS.sessionId,
    clock: parsed.clock,
  };
}

function storageError(storage: Storage, operation: string, error: unknown): StorageError {
  return new StorageError({
    storage: storage.name,
    operation,
    message: `storage "${storage.name}" failed in ${operation}(): ${error instanceof Error ? error.message : String(error)}. The in-memory state is intact; fix the storage and retry.`,
    cause: error,
  });
}

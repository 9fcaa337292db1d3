import { EventEmitter } from 'eventemitter3';
import type { BuiltContext } from './build/window-builder.js';
import { buildWindow } from './build/window-request.js';
import { validateInput } from './context-manager-inputs.js';
import type { BuildOptions, CloseFileInput, MessageInput, OpenFileInput, RecallOptions, SessionState, ToolResultInput, UpdateFileInput } from './context-manager-inputs.js';
import { EventRelay } from './event-relay.js';
import type { ContextEvents, GraduationReport } from './events.js';
import type { ContextManagerOptions, ProjectMemory, ResolvedOptions } from './options.js';
import { resolveOptions } from './options-schema.js';
import type { SettleResult } from './persistence/session-persistence.js';
import { forkSession, readStoredSession, rollbackSession, snapshotSession } from './persistence/session-versions.js';
import { createSessionComponents, type SessionComponents } from './session-components.js';
import type { SessionViewData } from './session-view.js';
import type { Storage, VersionInfo } from './storage/storage.js';
import { readWholeArchive, recapSession } from './tiers/archive-access.js';
import { expandItem, expandItemAsync } from './tiers/provenance.js';
import type { RecallHit } from './tiers/recall.js';
import type { TokenCounter } from './tokens/token-counter.js';
import type { ArchivedItem, Entry, OpenFile, Pin } from './types.js';

/**
 * Manages an agent's context window: records messages, tool calls and file events, keeps open
 * files once in a scratchpad, graduates old history into summaries and facts, and builds a
 * window that never exceeds its budget. It composes the components (session view, Graduator,
 * window builder, persistence) and only validates, delegates and emits after each commit.
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
  readonly #constructorOptions: ContextManagerOptions;
  readonly #events = new EventRelay(this);
  readonly #session: SessionComponents;

  /**
   * Creates a manager. Does no I/O and starts no timers.
   * @throws {InvalidArgumentError} when an option is invalid; the message says which and how to fix it.
   */
  constructor(options: ContextManagerOptions = {}) {
    super();
    const { initialState, ...constructorOptions } = options as ContextManagerOptions & { initialState?: SessionViewData };
    this.#options = resolveOptions(options);
    this.#constructorOptions = constructorOptions;
    this.#session = createSessionComponents({ options: this.#options, events: this.#events, initialState });
  }

  /**
   * Restores a session saved with `save()` (and any events appended after it) from `storage`.
   * @throws {CorruptStateError} when the snapshot or log cannot be read.
   * @throws {InvalidArgumentError} when an option is invalid.
   */
  static async load(options: ContextManagerOptions & { storage: Storage; sessionId?: string | undefined }): Promise<ContextManager> {
    const stored = await readStoredSession(options);
    const manager = new ContextManager({ ...options, ...(stored.state === undefined ? {} : { initialState: stored.state }) } as ContextManagerOptions);
    manager.#session.persistence.resume({ stored, view: manager.#session.recorder.view });
    return manager;
  }

  /**
   * Records a user or assistant message (with the assistant's tool calls). Calls left unanswered
   * for `orphanCallsAfter` messages, or whose id a new call reuses, are closed first (`tool-call-orphan`).
   * @throws {InvalidArgumentError} when the input is invalid, e.g. a tool input that is not JSON.
   */
  addMessage(input: MessageInput): Entry {
    return this.#afterRecord(this.#session.recorder.addMessage(validateInput('addMessage', input)));
  }

  /**
   * Records the result of a tool call made in an earlier assistant message (the newest call with
   * that id). A result for a call already closed without one is kept as its late result.
   * @throws {InvalidArgumentError} with code `UNKNOWN_TOOL_CALL` when no call has that id.
   */
  addToolResult(input: ToolResultInput): Entry {
    return this.#afterRecord(this.#session.recorder.addToolResult(validateInput('addToolResult', input)));
  }

  /**
   * Opens a file in the scratchpad (or records a re-read) and leaves a one-line record in history.
   * @throws {InvalidArgumentError} when the input is invalid.
   */
  openFile(input: OpenFileInput): OpenFile {
    return this.#afterRecord(this.#session.recorder.openFile(validateInput('openFile', input)));
  }

  /**
   * Replaces an open file's content and records one compact diff line per hunk.
   * @throws {InvalidArgumentError} with code `UNKNOWN_FILE` when the file is not open.
   */
  updateFile(input: UpdateFileInput): OpenFile {
    return this.#afterRecord(this.#session.recorder.updateFile(validateInput('updateFile', input)));
  }

  /**
   * Closes an open file and records `[closed path, N edits]`.
   * @throws {InvalidArgumentError} with code `UNKNOWN_FILE` when the file is not open.
   */
  closeFile(input: CloseFileInput): void {
    this.#afterRecord(this.#session.recorder.closeFile(validateInput('closeFile', input)));
  }

  /**
   * Records a note in history, e.g. an observation from the harness.
   * @throws {InvalidArgumentError} when `content` is not a string.
   */
  addNote(input: { content: string; at?: string | undefined }): Entry {
    return this.#afterRecord(this.#session.recorder.addNote(validateInput('addNote', input)));
  }

  /**
   * Tells whether `content` differs from what the scratchpad holds for `path`.
   * @throws {InvalidArgumentError} with code `UNKNOWN_FILE` when the file is not open.
   */
  isStale(input: { path: string; content: string }): boolean {
    return this.#session.recorder.isStale(validateInput('isStale', input));
  }

  /**
   * Redacts `text` as recording it would, with this session's placeholders, and records nothing.
   * @throws {InvalidArgumentError} when `text` is not a string.
   */
  redact(text: string): string {
    return this.#session.recorder.redact(validateInput('redact', { text }).text);
  }

  /**
   * Returns what an open file was opened with and the unified patches of its edits since.
   * @throws {InvalidArgumentError} with code `UNKNOWN_FILE` when the file is not open.
   */
  fileHistory(input: { path: string }): { readonly openContent: string; readonly patches: readonly string[] } {
    return this.#session.recorder.fileHistory(validateInput('fileHistory', input).path);
  }

  /**
   * Pins text so that it is rendered in every window and never graduates away.
   * @throws {InvalidArgumentError} when `text` is empty or the pins would exceed `budgets.pins`.
   */
  pin(input: { text: string }): Pin {
    return this.#committed(this.#session.recorder.pin(validateInput('pin', input).text));
  }

  /**
   * Removes a pin (it is archived, not deleted).
   * @throws {InvalidArgumentError} when no pin has that id.
   */
  unpin(input: { id: string }): void {
    this.#committed(this.#session.recorder.unpin(validateInput('unpin', input).id));
  }

  /**
   * Builds the window — system message (prefix, T2 facts, pins, T1, open files), then T0 with tool
   * calls intact — and its per-block tokens, never over the budget. `await settle()` first to compact.
   * @throws {InvalidArgumentError} with code `BUDGET_TOO_SMALL` when the budget cannot hold the static prefix.
   */
  build(options: BuildOptions = {}): BuiltContext {
    return buildWindow({ input: options, options: this.#options, session: this.#session, events: this.#events });
  }

  /**
   * Waits until every scheduled graduation has committed and every recorded event was offered to
   * storage, then says whether all of them are durable. Never rejects for a storage failure.
   */
  async settle(): Promise<SettleResult> {
    this.#session.graduations.queueLaterSpeedUps();
    return this.#session.persistence.settle();
  }

  /**
   * Saves a snapshot of the folded view to storage (after `settle()`).
   * @throws {MobiusError} with code `UNSUPPORTED` when no storage is configured.
   * @throws {StorageError} when the storage fails; the in-memory state is intact.
   */
  async save(options: { label?: string | undefined } = {}): Promise<void> {
    return this.#session.persistence.save(validateInput('save', options));
  }

  /**
   * Searches the archive for the best matches, each with its sequence range; `show: true` also puts them in the next `build()`.
   * @throws {InvalidArgumentError} when the query is empty or an option is invalid.
   */
  async recall(query: string, options: RecallOptions = {}): Promise<readonly RecallHit[]> {
    return this.#session.recall.search(validateInput('recall', { query, ...options }));
  }

  /**
   * Re-expands a summary id, fact key (or `fact:<key>@<seq>`) or entry id `e<seq>` into its original entries.
   * @throws {InvalidArgumentError} when no item has that id.
   * @throws {MobiusError} with code `ARCHIVE_SPILLED` when it needs archived items spilled to storage: use `expandAsync()`.
   */
  expand(itemId: string): readonly Entry[] {
    return expandItem({ tiers: this.#session.recorder.view.tiers, id: validateInput('expand', { itemId }).itemId });
  }

  /**
   * Does what `expand()` does for every id, reading archived items spilled to storage (`archive.memoryItems`) back.
   * @throws {InvalidArgumentError} when no item has that id.
   * @throws {StorageError} when the storage fails to read them.
   */
  async expandAsync(itemId: string): Promise<readonly Entry[]> {
    return expandItemAsync({ tiers: this.#session.recorder.view.tiers, id: validateInput('expand', { itemId }).itemId, load: this.#session.loadSpilled, method: 'expandAsync' });
  }

  /**
   * Returns every archived item, oldest first, spilled ones read back from storage (`state().archive` holds only those in memory).
   * @throws {StorageError} when the storage fails to read them.
   */
  async readArchive(): Promise<readonly ArchivedItem[]> {
    return readWholeArchive({ tiers: this.#session.recorder.view.tiers, load: this.#session.loadSpilled });
  }

  /**
   * Returns a recap of the session as text: `'brief'`, `'full'` or `{ topic }`.
   * @throws {InvalidArgumentError} when the level is invalid.
   */
  async recap(level: 'brief' | 'full' | { readonly topic: string } = 'brief'): Promise<string> {
    return recapSession({ level: validateInput('recap', level), tiers: this.#session.recorder.view.tiers, factsBudget: this.#options.budgets.facts, load: this.#session.loadSpilled, recall: (query, options) => this.recall(query, options) });
  }

  /**
   * Lists the versions saved in storage, newest first.
   * @throws {MobiusError} with code `UNSUPPORTED` when the storage has no versions.
   */
  async listVersions(): Promise<readonly VersionInfo[]> {
    return this.#session.persistence.listVersions();
  }

  /**
   * Saves an immutable, named checkpoint of the session and returns its version.
   * @throws {StorageError} or {ConflictError} when saving fails; nothing changes.
   */
  async snapshot(label: string): Promise<VersionInfo> {
    return snapshotSession({ manager: this, session: this.#session, label: validateInput('snapshot', { label }).label });
  }

  /**
   * Rolls back to a saved version and saves it anew; events recorded since stay in the log.
   * @throws {InvalidArgumentError} when the version does not exist.
   */
  async rollback(version: number): Promise<void> {
    return rollbackSession({ manager: this, session: this.#session, sessionId: this.#options.sessionId, version: validateInput('rollback', { version }).version });
  }

  /**
   * Starts a new session from a saved version of this one (a fork); the original is untouched.
   * @throws {InvalidArgumentError} when the version does not exist or the new id is invalid.
   */
  async fork(options: { version?: number | undefined; sessionId: string }): Promise<ContextManager> {
    const { sessionId: toSessionId, version } = validateInput('fork', options);
    return forkSession({ manager: this, session: this.#session, constructorOptions: this.#constructorOptions, sessionId: this.#options.sessionId, toSessionId, version, create: (forkOptions) => new ContextManager(forkOptions) });
  }

  /** Returns the facts (with their history) and pins of this session, for the `projectMemory` option of the next. */
  projectMemory(): ProjectMemory {
    return this.#session.recorder.projectMemory();
  }

  /** Returns a read-only view of everything the manager holds. */
  state(): SessionState {
    return this.#session.recorder.state();
  }

  /** The report of the last graduation, or `undefined` when none has run. */
  get lastGraduation(): GraduationReport | undefined {
    return this.#session.recorder.lastReport;
  }

  /** The token counter in use (for counting text the same way the window does). */
  get tokenCounter(): TokenCounter {
    return this.#session.counter;
  }

  /** The resolved tier budgets, in tokens. */
  get budgets(): { readonly total: number } & ResolvedOptions['budgets'] {
    return { total: this.#options.budget, ...this.#options.budgets };
  }

  // --- Internal helpers ---

  // After a record: schedule graduation if a tier is over its limit, then rethrow a listener's error.
  #afterRecord<T>(result: T): T {
    // Boundary features, gap scores and T0 units are computed at the start of the next settle()
    // (or by build(), whichever comes first): the recording call only stores and counts.
    this.#session.prepareBuild();
    this.#session.graduations.schedule(this.#session.recorder.graduationSubject());
    return this.#committed(result);
  }

  // Listeners ran after the commit; the first error one threw reaches the caller now.
  #committed<T>(result: T): T {
    this.#events.rethrow();
    return result;
  }
}

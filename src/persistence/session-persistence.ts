import PQueue from 'p-queue';
import { ConflictError, InvalidArgumentError, MobiusError, StorageError } from '../errors.js';
import type { AutoSaveReason } from '../events.js';
import type { EventRelay } from '../event-relay.js';
import type { ResolvedOptions } from '../options.js';
import type { SessionEvent } from '../session-event.js';
import type { SessionView, SessionViewData } from '../session-view.js';
import type { SessionSnapshot, Storage, VersionInfo } from '../storage/storage.js';
import { isArchiveStorage } from '../storage/storage.js';
import type { Archive } from '../tiers/archive.js';
import { ARCHIVE_READ_BATCH } from '../tiers/archive-reader.js';
import type { AutoSavePolicy } from './auto-save-policy.js';
import { SNAPSHOT_FORMAT_VERSION, missingVersionMessage, replayError, snapshotHeader, storageError, storageRequired, unsupported, validateSnapshot } from './snapshot-format.js';

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

/** A stored session read back: its folded view (if a snapshot exists) and the events after it. @internal */
export interface StoredSession {
  readonly state: SessionViewData | undefined;
  readonly events: readonly SessionEvent[];
  readonly version: number;
  readonly formatVersion: number;
}

/**
 * Makes a session durable: appends every committed event to storage in order (one append at a
 * time, through a queue), retries failed appends with bounded backoff, writes snapshots (on
 * request, or by the auto-save policy as the log grows), and tells what is not durable yet.
 * Nothing recorded is dropped: a failed batch stays pending until an append succeeds.
 * @internal
 */
export class SessionPersistence {
  readonly #storage: Storage | undefined;
  readonly #options: Pick<ResolvedOptions, 'sessionId' | 'storageRetry' | 'storageTimeoutMs'>;
  readonly #events: EventRelay;
  readonly #policy: AutoSavePolicy | undefined;
  readonly #work: PQueue;
  readonly #snapshot: () => { readonly seq: number; readonly state: SessionViewData };
  readonly #appends = new PQueue({ concurrency: 1 });
  readonly #saves = new PQueue({ concurrency: 1 });
  #unsaved: SessionEvent[] = [];
  /** Serialised size of the events appended since the last snapshot (for the snapshot schedule). */
  #journalBytes = 0;
  /** Serialised size of the last snapshot written. */
  #snapshotBytes = 0;
  /** The storage version last loaded or saved (0: none), for optimistic concurrency. */
  version = 0;
  #lastAppendError: unknown;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  /** Background retries made in the current round of failed appends. */
  #retryAttempt = 0;
  /** Appends that timed out so far (see `storageTimeoutMs`). */
  #appendTimeouts = 0;
  /** What spills the archive to storage (the `archive` option), if anything. */
  readonly #spill: { readonly memoryItems: number; readonly keepEntryTokens: number; readonly archive: () => Archive } | undefined;
  /** Highest seq known to be in storage: archive groups up to it may spill. */
  #durableSeq = 0;
  #isSpillUnsupportedReported = false;

  constructor(options: {
    storage: Storage | undefined;
    options: Pick<ResolvedOptions, 'sessionId' | 'storageRetry' | 'storageTimeoutMs'>;
    events: EventRelay;
    policy: AutoSavePolicy | undefined;
    /** The session's graduation queue: saving waits for it. */
    work: PQueue;
    /** The folded view to snapshot. */
    snapshot: () => { readonly seq: number; readonly state: SessionViewData };
    /**
     * Spills the archive beyond `memoryItems` to storage (the `archive` option), keeping the newest
     * `keepEntryTokens` of graduated entries that `build()` may show again.
     */
    spill?: { readonly memoryItems: number; readonly keepEntryTokens: number; readonly archive: () => Archive } | undefined;
  }) {
    this.#spill = options.spill;
    this.#storage = options.storage;
    this.#options = options.options;
    this.#events = options.events;
    this.#policy = options.policy;
    this.#work = options.work;
    this.#snapshot = options.snapshot;
  }

  /** Reads a stored session: its snapshot (validated) and the events appended after it. */
  static async read(options: { storage: Storage; sessionId: string }): Promise<StoredSession> {
    const { storage, sessionId } = options;
    const snapshot = await call(storage, 'loadSnapshot', () => storage.loadSnapshot(sessionId), { isMobiusErrorKept: true });
    const header = snapshotHeader({ snapshot, sessionId, storage });
    const events = await call(storage, 'read', () => storage.read(sessionId, { afterSeq: header.seq }), { isMobiusErrorKept: true });
    return {
      state: snapshot === null ? undefined : validateSnapshot(snapshot, sessionId, storage),
      events,
      version: header.version ?? 0,
      formatVersion: header.formatVersion,
    };
  }

  /**
   * Continues a stored session: takes its storage version and replays the events after its
   * snapshot onto `view`, skipping copies that a retried append stored twice (the first wins).
   * @throws {CorruptStateError} when an event cannot be applied.
   */
  resume(options: { stored: StoredSession; view: Pick<SessionView, 'lastSeq' | 'apply'> }): void {
    const { stored, view } = options;
    this.version = stored.version;
    this.#durableSeq = Math.max(this.#durableSeq, stored.events[stored.events.length - 1]?.seq ?? 0, stored.state?.lastSeq ?? 0);
    for (const event of stored.events) {
      if (event.seq <= view.lastSeq) continue;
      try {
        view.apply(event);
      } catch (error) {
        throw replayError({ seq: event.seq, sessionId: this.#options.sessionId, formatVersion: stored.formatVersion, error });
      }
    }
    // What the load brought back over the limit leaves memory in the background (settle() waits).
    if (this.#spill !== undefined) void this.#appends.add(() => this.#spillArchive());
  }

  /** The storage, or an `UNSUPPORTED` error naming `method`. */
  requireStorage(method: string): Storage {
    if (this.#storage === undefined) throw storageRequired(method);
    return this.#storage;
  }

  /** Queues a committed event for appending. */
  persist(event: SessionEvent): void {
    if (this.#storage === undefined) return;
    this.#unsaved.push(event);
    // While a retry is scheduled, new events wait for it: failing storage is not hammered with
    // one attempt per record.
    if (this.#retryTimer !== undefined) return;
    // p-queue starts a task at once: yield first, so that the events the current call records
    // after this one travel in the same batch.
    void this.#appends.add(async () => {
      await Promise.resolve();
      await this.#appendUnsaved();
    });
  }

  /** Lets the auto-save policy see a committed event; saves in the background when it says so. */
  checkAutoSave(options: { event: SessionEvent; tokens: () => number; budget: number }): void {
    if (this.#policy === undefined || this.#storage === undefined) return;
    const decision = this.#policy.check(options);
    if (decision.pressure !== undefined) this.#events.emit('pressure', decision.pressure);
    if (decision.reason !== undefined) this.#scheduleSave(decision.reason);
  }

  /**
   * Waits until graduations are done and every event was offered to storage (including automatic
   * saves in flight), then says whether all of them are durable.
   */
  async settle(): Promise<SettleResult> {
    for (;;) {
      await this.#settleWork();
      await this.#saves.onIdle();
      if (this.#saves.size === 0 && this.#saves.pending === 0 && isIdle(this.#work)) return this.#durability();
    }
  }

  /** Saves a snapshot now (after automatic saves in flight), as `save()` does. */
  async save(options: { label?: string | undefined }): Promise<void> {
    this.requireStorage('save');
    await this.#saves.onIdle();
    await this.#saveNow({ reason: 'explicit', label: options.label });
  }

  /**
   * Loads a saved version's snapshot (the newest without `version`), validated.
   * @throws {InvalidArgumentError} when the version does not exist.
   */
  async loadVersion(options: { method: 'rollback' | 'fork'; version: number | undefined }): Promise<{ state: SessionViewData; version: number | undefined }> {
    const { method, version } = options;
    const storage = this.requireStorage(method);
    const sessionId = this.#options.sessionId;
    const snapshot = await call(storage, 'loadSnapshot', () => storage.loadSnapshot(sessionId, version === undefined ? {} : { version }));
    if (snapshot === null) throw new InvalidArgumentError({ parameter: 'version', value: version, message: missingVersionMessage({ method, sessionId, version }) });
    return { state: validateSnapshot(snapshot, sessionId, storage), version: snapshot.version };
  }

  /**
   * Copies the archive groups a saved state spilled to another session of the same storage (a
   * fork), a batch at a time, so that the new session holds everything its state refers to.
   * @throws {StorageError} when reading or writing fails.
   */
  async copySpilledArchive(options: { state: SessionViewData; toSessionId: string }): Promise<void> {
    const seqs = (options.state.tiers.archiveSpilled ?? []).map((group) => group.seq);
    if (seqs.length === 0) return;
    const storage = this.requireStorage('fork');
    if (!isArchiveStorage(storage)) throw unsupportedArchive(storage, 'fork');
    for (let start = 0; start < seqs.length; start += ARCHIVE_READ_BATCH) {
      const batch = seqs.slice(start, start + ARCHIVE_READ_BATCH);
      const groups = await call(storage, 'readArchive', () => storage.readArchive(this.#options.sessionId, { seqs: batch }));
      if (groups.length !== batch.length) throw storageError(storage, 'readArchive', new Error(`${batch.length - groups.length} spilled archive group(s) of session "${this.#options.sessionId}" are missing`));
      await call(storage, 'appendArchive', () => storage.appendArchive(options.toSessionId, groups), { isMobiusErrorKept: true });
    }
  }

  /** Lists the versions in storage, newest first. */
  async listVersions(): Promise<readonly VersionInfo[]> {
    const storage = this.requireStorage('listVersions');
    if (storage.listVersions === undefined) throw unsupported(storage, 'listVersions');
    const listVersions = storage.listVersions.bind(storage);
    return call(storage, 'listVersions', () => listVersions(this.#options.sessionId));
  }

  // Saving never blocks recording: it runs after the current call, one at a time, and a trigger
  // that fires while one is queued or running is covered by it.
  #scheduleSave(reason: AutoSaveReason): void {
    if (this.#saves.size > 0 || this.#saves.pending > 0) return;
    void this.#saves.add(async () => {
      await Promise.resolve();
      await this.#saveNow({ reason }).catch(() => undefined);
    });
  }

  // Graduations and appends, but not automatic saves (which themselves wait for this).
  async #settleWork(): Promise<void> {
    for (;;) {
      let isAdded = false;
      const onAdd = (): void => {
        isAdded = true;
      };
      this.#work.on('add', onAdd);
      try {
        await this.#work.onIdle();
        await this.#flush();
      } finally {
        this.#work.off('add', onAdd);
      }
      if (!isAdded && isIdle(this.#work)) return;
    }
  }

  async #saveNow(options: { reason: AutoSaveReason | 'explicit'; label?: string | undefined }): Promise<void> {
    const storage = this.requireStorage('save');
    await this.#settleWork();
    if (this.#unsaved.length > 0) {
      if (ConflictError.isInstance(this.#lastAppendError)) throw this.#lastAppendError;
      throw new StorageError({ storage: storage.name, operation: 'append', message: `save(): ${this.#unsaved.length} events could not be appended to storage "${storage.name}"; the snapshot was not written so that the log stays complete. Fix the storage and call save() again.` });
    }
    // Every event is in the log now. A snapshot only makes loading faster, so an automatic save
    // writes one when the log has grown by the size of the last one: the bytes written over a
    // session stay proportional to the session instead of to its square.
    const isAutomatic = options.reason !== 'explicit' && options.reason !== 'leaving';
    if (isAutomatic && this.#policy !== undefined && !this.#policy.isSnapshotDue({ journalBytes: this.#journalBytes, snapshotBytes: this.#snapshotBytes })) {
      this.#policy.saved();
      this.#events.emit('session-save', { version: this.version, reason: options.reason, isSnapshot: false });
      this.#events.clear();
      return;
    }
    const { seq, state } = this.#snapshot();
    const snapshot: SessionSnapshot = { formatVersion: SNAPSHOT_FORMAT_VERSION, seq, state, ...(options.label === undefined ? {} : { label: options.label }) };
    try {
      const serialized = JSON.stringify(snapshot);
      const version = await storage.saveSnapshot(this.#options.sessionId, JSON.parse(serialized) as SessionSnapshot, { expectedVersion: this.version });
      this.version = typeof version === 'number' ? version : this.version + 1;
      this.#durableSeq = Math.max(this.#durableSeq, seq);
      this.#policy?.saved();
      this.#snapshotBytes = serialized.length;
      this.#journalBytes = 0;
      this.#events.emit('session-save', { version: this.version, reason: options.reason, isSnapshot: true });
      this.#events.clear();
    } catch (error) {
      const wrapped = ConflictError.isInstance(error) ? error : storageError(storage, 'saveSnapshot', error);
      this.#events.emit('storage-error', { error: wrapped, operation: 'saveSnapshot', pendingEvents: this.#unsaved.length });
      this.#events.clear();
      throw wrapped;
    }
  }

  #durability(): SettleResult {
    const storage = this.#storage;
    const pendingEvents = storage === undefined ? 0 : this.#unsaved.length;
    const error = pendingEvents === 0 || storage === undefined ? undefined : appendError(storage, this.#lastAppendError);
    return Object.freeze({ isDurable: storage !== undefined && pendingEvents === 0, pendingEvents, error });
  }

  async #flush(): Promise<void> {
    if (this.#storage === undefined) return;
    // An append that timed out while this flush waited for it already cost the caller the whole
    // timeout: report it rather than wait as long again (the backoff retries it).
    const timeouts = this.#appendTimeouts;
    void this.#appends.add(async () => (this.#appendTimeouts === timeouts ? this.#appendUnsaved() : undefined));
    await this.#appends.onIdle();
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
      void this.#appends.add(() => this.#appendUnsaved());
    }, delay);
    (timer as { unref?: () => unknown }).unref?.();
    this.#retryTimer = timer;
  }

  async #appendUnsaved(): Promise<void> {
    const storage = this.#storage;
    if (storage === undefined || this.#unsaved.length === 0) return;
    // A copy: events recorded while a slow append is in flight must stay unsaved until appended.
    const batch = [...this.#unsaved];
    const timeoutMs = this.#options.storageTimeoutMs;
    try {
      const outcome = await withTimeout({ work: () => storage.append(this.#options.sessionId, batch), timeoutMs });
      if (outcome === 'timeout') {
        this.#appendTimeouts += 1;
        throw new Error(`the append of ${batch.length} event(s) did not settle within ${timeoutMs} ms (storageTimeoutMs)`);
      }
      this.#unsaved = this.#unsaved.slice(batch.length);
      if (this.#policy !== undefined) this.#journalBytes += JSON.stringify(batch).length;
      this.#lastAppendError = undefined;
      this.#retryAttempt = 0;
      if (this.#retryTimer !== undefined) clearTimeout(this.#retryTimer);
      this.#retryTimer = undefined;
      this.#durableSeq = Math.max(this.#durableSeq, batch[batch.length - 1]?.seq ?? 0);
    } catch (error) {
      // Keep the batch: a retry, the next record, settle() or save() sends it again, so nothing
      // recorded is lost.
      const wrapped = appendError(storage, error);
      this.#lastAppendError = wrapped;
      this.#scheduleRetry(error);
      this.#events.emit('storage-error', { error: wrapped, operation: 'append', pendingEvents: this.#unsaved.length });
      this.#events.reportBackground();
      return;
    }
    await this.#spillArchive();
  }

  // Runs on the append queue, after the appends: only groups whose archiving event is stored may
  // leave (a group never stands in storage for an event the log could lose), and they leave
  // memory only once the storage has them. A failure keeps them in memory for the next try.
  async #spillArchive(): Promise<void> {
    const spill = this.#spill;
    const storage = this.#storage;
    if (spill === undefined || storage === undefined) return;
    const archive = spill.archive();
    const groups = archive.spillable({ keep: spill.memoryItems, maxSeq: this.#durableSeq, keepEntryTokens: spill.keepEntryTokens });
    if (groups.length === 0) return;
    if (!isArchiveStorage(storage)) {
      if (this.#isSpillUnsupportedReported) return;
      this.#isSpillUnsupportedReported = true;
      this.#events.emit('archive-spill', { groups: 0, items: 0, memoryItems: archive.memorySize, spilledItems: archive.size - archive.memorySize, isUnsupported: true });
      this.#events.reportBackground();
      return;
    }
    const timeoutMs = this.#options.storageTimeoutMs;
    try {
      const outcome = await withTimeout({ work: () => storage.appendArchive(this.#options.sessionId, groups), timeoutMs });
      if (outcome === 'timeout') throw new Error(`the spill of ${groups.length} archive group(s) did not settle within ${timeoutMs} ms (storageTimeoutMs)`);
    } catch (error) {
      const wrapped = ConflictError.isInstance(error) || StorageError.isInstance(error) ? error : storageError(storage, 'appendArchive', error);
      this.#events.emit('storage-error', { error: wrapped, operation: 'appendArchive', pendingEvents: this.#unsaved.length });
      this.#events.reportBackground();
      return;
    }
    archive.markSpilled(groups);
    const items = groups.reduce((sum, group) => sum + group.items.length, 0);
    this.#events.emit('archive-spill', { groups: groups.length, items, memoryItems: archive.memorySize, spilledItems: archive.size - archive.memorySize, isUnsupported: false });
    this.#events.reportBackground();
  }
}

// --- Internal helpers ---

function unsupportedArchive(storage: Storage, method: string): MobiusError {
  return new MobiusError('UNSUPPORTED', `${method}(): the session spilled archive groups to storage, but storage "${storage.name}" has no appendArchive()/readArchive(). Use the storage that spilled them (createMemoryStorage(), createFileStorage() or a backend with appendArchiveRecords/readArchiveRecords).`);
}

function isIdle(queue: PQueue): boolean {
  return queue.size === 0 && queue.pending === 0;
}

function appendError(storage: Storage, error: unknown): StorageError | ConflictError {
  if (ConflictError.isInstance(error) || StorageError.isInstance(error)) return error;
  return storageError(storage, 'append', error ?? new Error('the append has not completed yet'));
}

// Wraps what the storage throws in a StorageError; when loading, a Mobius error it throws (e.g. a
// CorruptStateError of a backend that validates) passes through as it is.
async function call<T>(storage: Storage, operation: string, work: () => PromiseLike<T> | T, options: { isMobiusErrorKept?: boolean } = {}): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (options.isMobiusErrorKept === true && MobiusError.isInstance(error)) throw error;
    throw storageError(storage, operation, error);
  }
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

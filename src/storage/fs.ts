import { createHash, randomUUID } from 'node:crypto';
import type { Stats } from 'node:fs';
import { link, mkdir, open, readFile, readdir, rename, stat, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { z } from 'zod';
import { ConflictError, CorruptStateError, InvalidArgumentError, MobiusError, StorageError, describeValue } from '../errors.js';
import { sessionIdSchema } from '../options.js';
import type { SessionEvent } from '../session-event.js';
import { parse } from '../validation.js';
import type { SaveSnapshotOptions, SessionSnapshot, Storage, VersionInfo } from './storage.js';

/** Options for {@link createFileStorage}. */
export interface FileStorageOptions {
  /** Folder holding one sub-folder per session. Created on the first write, not before. */
  directory: string;
  /** Unlabelled state versions kept per session (labelled ones, from `snapshot(label)`, are all kept); older ones and their journals are deleted. @default 5 */
  versions?: number | undefined;
  /** Identifies the storage in errors and events. @default 'fs' */
  name?: string | undefined;
  /** Snapshot format this program reads (`SNAPSHOT_FORMAT_VERSION`); older files go through `migrate`. @default 1 */
  formatVersion?: number | undefined;
  /**
   * Upgrades a state file written in an older format: receives the parsed file and its
   * `formatVersion`, returns (or resolves to) a snapshot `{ formatVersion, seq, state, label? }` in
   * the current format. Without it, an older file makes `loadSnapshot()` throw `CORRUPT_STATE`.
   * @default undefined
   */
  migrate?: ((snapshot: unknown, formatVersion: number) => unknown) | undefined;
  /** Called for each unreadable state file that `loadSnapshot()` moved aside. @default undefined */
  onRecover?: ((info: FileStorageRecovery) => void) | undefined;
  /** Tries to take a session's lock held by another live process, with a growing delay (≤ 50 ms) between tries. @default 200 */
  lockRetries?: number | undefined;
}

/** Reports a state file that was unreadable and moved aside by `loadSnapshot()`. */
export interface FileStorageRecovery {
  /** The session whose state file was unreadable. */
  readonly sessionId: string;
  /** Absolute path of the unreadable file. */
  readonly file: string;
  /** Absolute path it was moved to (`…corrupt-<n>`); nothing is deleted. */
  readonly movedTo: string;
  /** Why the file could not be used, e.g. `not valid JSON`. */
  readonly reason: string;
  /**
   * The version loaded instead; `null` when none was left: then either the whole journal is
   * replayed (it still starts at the first event) or `loadSnapshot()` throws `CORRUPT_STATE`.
   */
  readonly loadedVersion: number | null;
}

/**
 * Creates a storage that keeps each session in its own folder under `directory`: the newest
 * `versions` state files (`state-<version>.json`) and an append-only journal per version
 * (`journal-<version>.jsonl`, the events after that version's seq). Every write is atomic (temp
 * file, fsync, rename, fsync of the folder), appends are fsynced before they return, and every
 * operation holds the session's lock file, so two processes can share a session safely: the
 * slower writer gets a `ConflictError`. An unreadable state file is moved aside and the newest
 * good version is loaded instead. Files it creates are readable by their owner only (mode
 * `0o600`, folders `0o700`; ignored on Windows). Does no I/O until a method is called.
 *
 * @example
 * ```ts
 * import { ContextManager } from 'mobius-context';
 * import { createFileStorage } from 'mobius-context/storage-fs';
 *
 * const storage = createFileStorage({ directory: '.mobius/sessions' });
 * const manager = await ContextManager.load({ storage, sessionId: 'ticket-142' });
 * ```
 * @throws {InvalidArgumentError} when an option is invalid.
 */
export function createFileStorage(options: FileStorageOptions): Storage {
  const parsed = parse(
    optionsSchema,
    options,
    'createFileStorage',
    "createFileStorage({ directory: '.mobius/sessions', versions: 5 })",
  );
  const name = parsed.name ?? 'fs';
  const root = resolve(parsed.directory);
  const keep = parsed.versions ?? 5;
  const formatVersion = parsed.formatVersion ?? 1;
  const lockRetries = parsed.lockRetries ?? 200;
  const migrate = parsed.migrate;
  const onRecover = parsed.onRecover;
  const host = hostname();
  const queues = new Map<string, Promise<void>>();
  // State files are immutable once committed (a new save makes a new version number), so what was
  // read from one can be cached by path. The journal cache lets an append skip re-reading the
  // journal when nothing but this instance wrote to it since.
  const stateInfos = new Map<string, { seq: number; label: string | undefined } | null>();
  const journalCache = new Map<string, { version: number; size: number; ino: number; mtimeMs: number; lastSeq: number }>();
  const verifiedSessions = new Set<string>();

  const context = (method: string, sessionId: unknown): Session => {
    const id = checkSessionId(method, sessionId);
    const directory = resolve(root, id);
    // Defence in depth: even a valid-looking id must name a direct child of the root.
    if (dirname(directory) !== root || relative(root, directory) !== id) {
      throw new InvalidArgumentError({
        parameter: 'sessionId',
        value: sessionId,
        message: `${method}(): \`sessionId\` must name a folder directly inside ${root}, got ${describeValue(sessionId)}. Use letters, digits, ".", "_" and "-", e.g. "ticket-142".`,
      });
    }
    return { id, directory, method };
  };

  const fail = (session: Session, error: unknown): never => {
    if (MobiusError.isInstance(error)) throw error;
    const code = (error as { code?: unknown } | null)?.code;
    const hint =
      code === 'EACCES' || code === 'EPERM' || code === 'EROFS'
        ? `Check that ${root} is writable by this process.`
        : code === 'ENOSPC' || code === 'EDQUOT'
          ? 'Free some disk space and retry.'
          : 'The previous version stays loadable; retry once the cause is fixed.';
    throw new StorageError({
      storage: name,
      operation: session.method,
      message: `storage "${name}" failed in ${session.method}() for session "${session.id}": ${error instanceof Error ? error.message : String(error)}. ${hint}`,
      cause: error,
    });
  };

  // Serialises the operations of this instance on a session; the lock file does the same across
  // instances and processes.
  const serialize = <T>(key: string, task: () => Promise<T>): Promise<T> => {
    const previous = queues.get(key) ?? Promise.resolve();
    const run = previous.then(task);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    queues.set(key, settled);
    void settled.then(() => {
      if (queues.get(key) === settled) queues.delete(key);
    });
    return run;
  };

  const withSession = <T>(session: Session, isCreating: boolean, empty: T, task: () => Promise<T>): Promise<T> =>
    serialize(session.directory, async () => {
      try {
        if (isCreating) await ensureDirectory(session.directory);
        else if (!(await isDirectory(session.directory))) return empty;
        const release = await acquireLock(session);
        try {
          await verifyOwner(session, isCreating);
          return await task();
        } finally {
          await release();
        }
      } catch (error) {
        return fail(session, error);
      }
    });

  const acquireLock = async (session: Session): Promise<() => Promise<void>> => {
    const token = randomUUID();
    const body = JSON.stringify({ pid: process.pid, hostname: host, started: PROCESS_STARTED, token });
    const lockPath = join(session.directory, LOCK);
    const candidate = join(session.directory, `${LOCK}.${process.pid}.${token}.candidate`);
    await writeFileSynced(candidate, body, false);
    let unreadable: string | undefined;
    try {
      for (let waits = 0; ; ) {
        if (await createExclusive(candidate, lockPath)) {
          return async () => {
            const current = await readText(lockPath);
            if (current === body) await unlinkQuietly(lockPath);
          };
        }
        const held = await readText(lockPath);
        if (held === undefined) continue;
        const owner = parseLockOwner(held);
        // An unreadable lock is debris of a crash, except on file systems without hard links,
        // where it may be a lock still being written: break it only when it stays the same.
        const isStale = owner === undefined ? held === unreadable : isOwnerGone(owner, host);
        unreadable = owner === undefined ? held : undefined;
        if (isStale) {
          await breakLock(lockPath, held, token);
        } else if (owner === undefined) {
          await delay(1);
        } else if (waits < lockRetries) {
          await delay(Math.min(50, 2 ** waits));
          waits += 1;
        } else {
          throw new StorageError({
            storage: name,
            operation: session.method,
            message: `storage "${name}" could not lock session "${session.id}" for ${session.method}(): ${lockPath} is held by process ${owner.pid} on ${owner.hostname}. If no process is using this session any more (e.g. it ran on another machine and crashed), delete that file and retry.`,
          });
        }
      }
    } finally {
      await unlinkQuietly(candidate);
    }
  };

  // A case-insensitive file system maps "Ticket" and "ticket" to one folder; the marker file keeps
  // two sessions from silently sharing it.
  const verifyOwner = async (session: Session, isCreating: boolean): Promise<void> => {
    if (verifiedSessions.has(session.id)) return;
    const markerPath = join(session.directory, MARKER_FILE);
    const text = await readText(markerPath);
    if (text === undefined) {
      if (!isCreating) return;
      await writeAtomic(markerPath, `${JSON.stringify({ sessionId: session.id })}\n`);
    } else {
      let owner: unknown;
      try {
        owner = (JSON.parse(text) as { sessionId?: unknown }).sessionId;
      } catch {
        owner = undefined;
      }
      if (typeof owner === 'string' && owner !== session.id) {
        throw new InvalidArgumentError({
          parameter: 'sessionId',
          value: session.id,
          message: `${session.method}(): session id ${describeValue(session.id)} maps to the folder of session ${describeValue(owner)} (${session.directory}) on this case-insensitive file system. Use session ids that differ in more than letter case.`,
        });
      }
    }
    verifiedSessions.add(session.id);
  };

  const stateInfo = async (session: Session, version: number): Promise<{ seq: number; label: string | undefined } | null> => {
    const path = statePath(session, version);
    const cached = stateInfos.get(path);
    if (cached !== undefined) return cached;
    const text = await readText(path);
    if (text === undefined) return null;
    let info: { seq: number; label: string | undefined } | null = null;
    try {
      const body = decodeRecord(text);
      const result = body === undefined ? undefined : stateInfoSchema.safeParse(JSON.parse(body));
      if (result?.success === true) info = { seq: result.data.seq, label: result.data.label };
    } catch {
      info = null;
    }
    stateInfos.set(path, info);
    return info;
  };

  const readState = async (session: Session, version: number): Promise<StateReading> => {
    const path = statePath(session, version);
    const text = await readText(path);
    if (text === undefined) return { kind: 'missing' };
    const body = decodeRecord(text);
    if (body === undefined) return { kind: 'corrupt', reason: 'checksum missing or wrong: the file was damaged or edited' };
    let raw: unknown;
    try {
      raw = JSON.parse(body);
    } catch (error) {
      return { kind: 'corrupt', reason: `not valid JSON (truncated or overwritten): ${error instanceof Error ? error.message : String(error)}` };
    }
    const header = headerSchema.safeParse(raw);
    if (!header.success) return { kind: 'corrupt', reason: `not a state file: ${z.prettifyError(header.error)}` };
    const found = header.data.formatVersion;
    if (found > formatVersion) {
      return {
        kind: 'format',
        error: new CorruptStateError({
          version: found,
          message: `storage "${name}": ${path} has snapshot format ${found}, newer than format ${formatVersion} that this program reads. It was written by a newer mobius-context: upgrade mobius-context to load session "${session.id}".`,
        }),
      };
    }
    let candidate: unknown = raw;
    if (found < formatVersion) {
      if (migrate === undefined) {
        return {
          kind: 'format',
          error: new CorruptStateError({
            version: found,
            message: `storage "${name}": ${path} has snapshot format ${found}, older than format ${formatVersion}, and no \`migrate\` option was given. Pass createFileStorage({ directory, migrate: (snapshot, formatVersion) => upgraded }) to convert it; the file was left in place.`,
          }),
        };
      }
      try {
        candidate = await migrate(raw, found);
      } catch (error) {
        return {
          kind: 'format',
          error: new CorruptStateError({
            version: found,
            message: `storage "${name}": \`migrate\` threw on ${path} (format ${found}): ${error instanceof Error ? error.message : String(error)}. Fix the migration; the file was left in place.`,
            cause: error,
          }),
        };
      }
      const migrated = stateSchema.safeParse(candidate);
      if (!migrated.success || migrated.data.formatVersion !== formatVersion) {
        return {
          kind: 'format',
          error: new CorruptStateError({
            version: found,
            message: `storage "${name}": \`migrate\` turned ${path} (format ${found}) into something that is not a format-${formatVersion} snapshot${migrated.success ? ` (it has format ${migrated.data.formatVersion})` : `:\n${z.prettifyError(migrated.error)}`}. Return { formatVersion: ${formatVersion}, seq, state } from migrate; the file was left in place.`,
            cause: migrated.success ? undefined : migrated.error,
          }),
        };
      }
      return { kind: 'ok', snapshot: toSnapshot(migrated.data, version) };
    }
    const result = stateSchema.safeParse(candidate);
    if (!result.success) return { kind: 'corrupt', reason: `wrong shape: ${z.prettifyError(result.error)}` };
    return { kind: 'ok', snapshot: toSnapshot(result.data, version) };
  };

  const moveAside = async (session: Session, version: number, layout: Layout): Promise<string> => {
    const fileName = stateName(version);
    let index = 1;
    for (const corrupt of layout.corrupt) {
      const match = CORRUPT_PATTERN.exec(corrupt);
      if (match?.[1] === String(version)) index = Math.max(index, Number(match[2]) + 1);
    }
    const movedTo = join(session.directory, `${fileName}.corrupt-${index}`);
    layout.corrupt.push(`${fileName}.corrupt-${index}`);
    await rename(join(session.directory, fileName), movedTo);
    await syncDirectory(session.directory);
    stateInfos.delete(statePath(session, version));
    return movedTo;
  };

  const report = (infos: readonly FileStorageRecovery[]): void => {
    if (onRecover === undefined) return;
    const errors: unknown[] = [];
    for (const info of infos) {
      try {
        onRecover(Object.freeze({ ...info }));
      } catch (error) {
        errors.push(error);
      }
    }
    // The recovery is done and on disk; a throwing callback must not hide the others.
    if (errors.length > 0) throw errors[0];
  };

  return {
    name,

    async append(sessionId, events) {
      const session = context('append', sessionId);
      const batch = checkEvents(events);
      if (batch.length === 0) return;
      await withSession(session, true, undefined, async () => {
        const layout = await scan(session.directory);
        const target = layout.states[0] ?? 0;
        const targetPath = journalPath(session, target);
        const info = await statQuietly(targetPath);
        const cached = journalCache.get(session.id);
        let log: Log | undefined;
        let lastSeq: number;
        let validEnd = info?.size ?? 0;
        if (
          cached !== undefined &&
          info !== undefined &&
          cached.version === target &&
          cached.size === info.size &&
          cached.ino === info.ino &&
          cached.mtimeMs === info.mtimeMs
        ) {
          lastSeq = cached.lastSeq;
        } else {
          log = await readLog(session, layout);
          lastSeq = Math.max(log.lastSeq, target === 0 ? 0 : ((await stateInfo(session, target))?.seq ?? 0));
          validEnd = log.validEnds.get(target) ?? 0;
        }
        const lines: string[] = [];
        let newest = lastSeq;
        for (const item of batch) {
          if (item.seq <= lastSeq) {
            log ??= await readLog(session, layout);
            if (log.texts.get(item.seq) === item.text) continue;
            throw new ConflictError({
              storage: name,
              expected: item.seq - 1,
              actual: lastSeq,
              message: `storage "${name}": event #${item.seq} of session "${session.id}" was already written by another writer. Load the session again and re-apply what this manager recorded since.`,
            });
          }
          lines.push(encodeRecord(item.text));
          newest = item.seq;
        }
        if (lines.length === 0) return;
        const written = await appendLines(targetPath, `${lines.join('\n')}\n`, info !== undefined && info.size > validEnd ? validEnd : undefined);
        if (info === undefined) await syncDirectory(session.directory);
        journalCache.set(session.id, { version: target, size: written.size, ino: written.ino, mtimeMs: written.mtimeMs, lastSeq: newest });
      });
    },

    async read(sessionId, readOptions) {
      const session = context('read', sessionId);
      const { afterSeq } = parse(readOptionsSchema, readOptions, 'read', "read('ticket-142', { afterSeq: 0 })");
      return withSession(session, false, [] as readonly SessionEvent[], async () => {
        const log = await readLog(session, await scan(session.directory));
        const events: SessionEvent[] = [];
        for (const [seq, text] of log.texts) if (seq > afterSeq) events.push(JSON.parse(text) as SessionEvent);
        return events;
      });
    },

    async saveSnapshot(sessionId, snapshot, saveOptions: SaveSnapshotOptions = {}) {
      const session = context('saveSnapshot', sessionId);
      const input = parse(snapshotInputSchema, snapshot, 'saveSnapshot', "saveSnapshot('ticket-142', { formatVersion: 1, seq: 42, state })");
      const { expectedVersion } = parse(saveOptionsSchema, saveOptions, 'saveSnapshot', "saveSnapshot('ticket-142', snapshot, { expectedVersion: 3 })");
      let text: string;
      try {
        text = encodeRecord(JSON.stringify({ formatVersion: input.formatVersion, seq: input.seq, ...(input.label === undefined ? {} : { label: input.label }), state: input.state }));
      } catch (error) {
        throw new InvalidArgumentError({
          parameter: 'snapshot.state',
          value: input.state,
          message: `saveSnapshot(): \`snapshot.state\` must be plain JSON: ${error instanceof Error ? error.message : String(error)}. Pass the value ContextManager produces, or convert BigInt and cyclic values first.`,
          cause: error,
        });
      }
      return withSession(session, true, 0, async () => {
        const layout = await scan(session.directory);
        const current = layout.states[0] ?? 0;
        if (expectedVersion !== undefined && expectedVersion !== current) throw conflict(session, expectedVersion, current);
        // Read the journals before committing, so that a damaged journal fails the save cleanly.
        const log = await readLog(session, layout);
        await removeLeftovers(session, layout);
        const version = layout.highest + 1;
        // The new version's journal comes first and starts with every stored event the snapshot
        // does not fold in: a state file never exists without the journal it needs, and no
        // event depends on an older journal that a later prune deletes. Both files are created
        // exclusively, so even a wrongly broken lock cannot overwrite a version.
        const carried = [...log.texts].filter(([seq]) => seq > input.seq).map(([, body]) => `${encodeRecord(body)}\n`);
        if (!(await writeAtomic(journalPath(session, version), carried.join(''), true))) throw conflict(session, expectedVersion ?? current, version);
        if (!(await writeAtomic(statePath(session, version), text, true))) throw conflict(session, expectedVersion ?? current, version);
        stateInfos.set(statePath(session, version), { seq: input.seq, label: input.label });
        await prune(session, layout, version, input.label !== undefined);
        await syncDirectory(session.directory);
        journalCache.delete(session.id);
        return version;
      });
    },

    async loadSnapshot(sessionId, loadOptions = {}) {
      const session = context('loadSnapshot', sessionId);
      const { version: wanted } = parse(loadOptionsSchema, loadOptions, 'loadSnapshot', "loadSnapshot('ticket-142', { version: 3 })");
      const recoveries: FileStorageRecovery[] = [];
      const moved: { file: string; movedTo: string; reason: string }[] = [];
      let loadedVersion: number | null = null;
      let result: SessionSnapshot | null = null;
      let failure: unknown;
      try {
        result = await withSession(session, false, null as SessionSnapshot | null, async () => {
          const layout = await scan(session.directory);
          const candidates = wanted === undefined ? layout.states : layout.states.filter((version) => version === wanted);
          let stranded: number[] = [];
          for (const [index, version] of candidates.entries()) {
            // An older version is a fallback only while its journal (the events after it) is kept.
            if (wanted === undefined && index > 0 && !layout.journals.includes(version)) {
              stranded = candidates.slice(index);
              break;
            }
            const reading = await readState(session, version);
            if (reading.kind === 'ok') {
              loadedVersion = version;
              return reading.snapshot;
            }
            if (reading.kind === 'format') throw reading.error;
            if (reading.kind === 'corrupt') {
              const file = statePath(session, version);
              moved.push({ file, movedTo: await moveAside(session, version, layout), reason: reading.reason });
            }
          }
          const movedList = moved.map((item) => `${item.file} (${item.reason.split('\n')[0] ?? ''}) → ${item.movedTo}`).join('; ');
          if (wanted !== undefined) {
            if (moved.length === 0) return null;
            throw new CorruptStateError({
              message: `storage "${name}": version ${wanted} of session "${session.id}" is unreadable and was moved aside: ${movedList}. Load another version (see listVersions()).`,
            });
          }
          // Without a good state the journal is enough only while it still starts at the first
          // event: journal-0 is kept until the save of version \`versions + 1\`.
          const hasFullLog = layout.journals.includes(0);
          const isFresh = layout.journals.length === 0 && layout.corrupt.length === 0 && layout.states.length === 0;
          if (hasFullLog || isFresh) return null;
          const kept = layout.corrupt.map((file) => join(session.directory, file)).filter((file) => !moved.some((item) => item.movedTo === file));
          throw new CorruptStateError({
            message: `storage "${name}": no readable state of session "${session.id}" is left in ${session.directory}${movedList === '' ? '' : `; moved aside now: ${movedList}`}${kept.length === 0 ? '' : `; unreadable files kept from before: ${kept.join(', ')}`}${stranded.length === 0 ? '' : `; versions ${stranded.join(', ')} are readable, but the journal after them was pruned, so loading one drops the events after it (loadSnapshot(id, { version }) or rollback() does so deliberately)`}. The journal only holds events after a lost version, so replaying it alone would be wrong. Restore a good state file from a backup as state-<version>.json in that folder, or start a new session id.`,
          });
        });
      } catch (error) {
        failure = error;
      }
      for (const item of moved) recoveries.push({ sessionId: session.id, ...item, loadedVersion });
      report(recoveries);
      if (failure !== undefined) throw failure;
      return result;
    },

    async listVersions(sessionId) {
      const session = context('listVersions', sessionId);
      try {
        if (!(await isDirectory(session.directory))) return [];
        const layout = await scan(session.directory);
        const versions: VersionInfo[] = [];
        for (const version of layout.states) {
          const info = await stateInfo(session, version);
          if (info === null) continue;
          versions.push({ version, seq: info.seq, ...(info.label === undefined ? {} : { label: info.label }) });
        }
        return versions;
      } catch (error) {
        return fail(session, error);
      }
    },

    dispose() {
      stateInfos.clear();
      journalCache.clear();
      verifiedSessions.clear();
    },
  };

  // --- Helpers that need the options ---

  function conflict(session: Session, expected: number, actual: number): ConflictError {
    return new ConflictError({
      storage: name,
      expected,
      actual,
      message: `storage "${name}": session "${session.id}" is at version ${actual}, but this writer expected ${expected}. Another writer saved it first; load it again and re-apply what this manager recorded since.`,
    });
  }

  // Keeps every labelled version (a named checkpoint) and the newest `keep` unlabelled ones, and
  // the journals from the oldest kept unlabelled version on (from journal-0 while version 1 is
  // kept, so that the whole log can still be replayed if every state file goes bad).
  async function prune(session: Session, layout: Layout, version: number, isLabelled: boolean): Promise<void> {
    const unlabelled = isLabelled ? [] : [version];
    for (const old of layout.states) {
      if ((await stateInfo(session, old))?.label === undefined) unlabelled.push(old);
    }
    const kept = unlabelled.slice(0, keep);
    for (const old of unlabelled.slice(keep)) {
      await unlinkQuietly(statePath(session, old));
      stateInfos.delete(statePath(session, old));
    }
    const floor = Math.min(version, ...kept);
    const journalFloor = floor <= 1 ? 0 : floor;
    for (const old of layout.journals) if (old < journalFloor) await unlinkQuietly(journalPath(session, old));
  }

  async function readLog(session: Session, layout: Layout): Promise<Log> {
    const texts = new Map<number, string>();
    const validEnds = new Map<number, number>();
    let lastSeq = 0;
    for (const version of layout.journals) {
      const path = journalPath(session, version);
      const segment = await readSegment(path);
      if (segment === undefined) continue;
      validEnds.set(version, segment.validEnd);
      for (const line of segment.lines) {
        const stored = texts.get(line.seq);
        if (stored !== undefined && stored !== line.text) {
          throw new CorruptStateError({
            message: `storage "${name}": the journals of session "${session.id}" disagree on event #${line.seq} (${path}). Another program edited them; keep the copy you trust and delete the other line.`,
          });
        }
        texts.set(line.seq, line.text);
        lastSeq = Math.max(lastSeq, line.seq);
      }
    }
    return { texts: new Map([...texts].sort((left, right) => left[0] - right[0])), validEnds, lastSeq };
  }

  async function readSegment(path: string): Promise<Segment | undefined> {
    let buffer: Buffer;
    try {
      buffer = await readFile(path);
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
    const lines: { seq: number; text: string }[] = [];
    let validEnd = 0;
    let start = 0;
    let lineNumber = 0;
    let firstBad: { lineNumber: number; reason: string } | undefined;
    let previousSeq = 0;
    while (start < buffer.length) {
      const newline = buffer.indexOf(0x0a, start);
      const end = newline === -1 ? buffer.length : newline;
      lineNumber += 1;
      const text = decodeRecord(buffer.toString('utf8', start, end));
      const checked = newline === -1 ? 'unterminated' : text === undefined ? 'checksum missing or wrong' : checkLine(text, previousSeq);
      if (typeof checked === 'number' && text !== undefined) {
        if (firstBad !== undefined) {
          throw new CorruptStateError({
            message: `storage "${name}": line ${firstBad.lineNumber} of ${path} is damaged (${firstBad.reason}) but later lines are not, so events were lost in the middle of the journal. Restore the file from a backup, or remove the damaged line if you accept losing that event.`,
          });
        }
        lines.push({ seq: checked, text });
        previousSeq = checked;
        validEnd = end + 1;
      } else {
        // A damaged tail is an append that a crash interrupted before it was acknowledged.
        firstBad ??= { lineNumber, reason: String(checked) };
      }
      start = end + 1;
    }
    return { lines, validEnd };
  }
}

// --- Internal helpers ---

const LOCK = 'lock';
// Owner-only: sessions hold what the agent saw, and redaction cannot catch every secret.
const FILE_MODE = 0o600;
const DIRECTORY_MODE = 0o700;
const MARKER_FILE = 'session.json';
const STATE_PATTERN = /^state-(\d+)\.json$/;
const CORRUPT_PATTERN = /^state-(\d+)\.json\.corrupt-(\d+)$/;
const JOURNAL_PATTERN = /^journal-(\d+)\.jsonl$/;
const TEMPORARY_PATTERN = /\.tmp-[0-9a-f-]+$/;
const CANDIDATE_PATTERN = /^lock\.(\d+)\.[0-9a-f-]+\.candidate$/;
// Identifies this process among all that ever had its pid: the time it started.
const PROCESS_STARTED: number = performance.timeOrigin;
const CHECKSUM_PATTERN = /,"checksum":"([0-9a-f]{16})"\}$/;
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;

interface Session {
  readonly id: string;
  readonly directory: string;
  readonly method: string;
}

interface Layout {
  /** Versions with a `state-<n>.json`, newest first. */
  readonly states: number[];
  /** Versions with a `journal-<n>.jsonl`, oldest first. */
  readonly journals: number[];
  /** Names of moved-aside state files. */
  readonly corrupt: string[];
  /** Names of temp files left by an interrupted write. */
  readonly temporary: string[];
  /** Names of lock candidates, with the pid that made them. */
  readonly candidates: { name: string; pid: number }[];
  /** The highest version number in any file name (0: none). */
  readonly highest: number;
}

interface LockOwner {
  readonly pid: number;
  readonly hostname: string;
  readonly started: number | undefined;
}

interface Segment {
  readonly lines: { seq: number; text: string }[];
  /** Byte offset just after the last good line; a damaged tail starts there. */
  readonly validEnd: number;
}

interface Log {
  /** Stored JSON line of each event, by seq, in seq order. */
  readonly texts: Map<number, string>;
  readonly validEnds: Map<number, number>;
  readonly lastSeq: number;
}

type StateReading =
  | { kind: 'ok'; snapshot: SessionSnapshot }
  | { kind: 'missing' }
  | { kind: 'corrupt'; reason: string }
  | { kind: 'format'; error: CorruptStateError };

const optionsSchema = z.strictObject({
  directory: z.string().min(1),
  versions: z.number().int().positive().optional(),
  name: z.string().min(1).optional(),
  formatVersion: z.number().int().min(0).optional(),
  migrate: z.custom<(snapshot: unknown, formatVersion: number) => unknown>((value) => typeof value === 'function', 'expected a function').optional(),
  onRecover: z.custom<(info: FileStorageRecovery) => void>((value) => typeof value === 'function', 'expected a function').optional(),
  lockRetries: z.number().int().min(0).optional(),
});

const readOptionsSchema = z.strictObject({ afterSeq: z.number().int().min(0) });
const loadOptionsSchema = z.strictObject({ version: z.number().int().positive().optional() });
const saveOptionsSchema = z.strictObject({ expectedVersion: z.number().int().min(0).optional() });

const isPresent = (value: unknown): boolean => value !== undefined;

const snapshotInputSchema = z.object({
  formatVersion: z.number().int().min(0),
  seq: z.number().int().min(0),
  state: z.unknown().refine(isPresent, 'required'),
  label: z.string().optional(),
  version: z.number().optional(),
});

const headerSchema = z.looseObject({ formatVersion: z.number().int().min(0) });

const stateSchema = z.object({
  formatVersion: z.number().int().min(0),
  seq: z.number().int().min(0),
  state: z.unknown().refine(isPresent, 'required'),
  label: z.string().optional(),
});

const stateInfoSchema = z.looseObject({ seq: z.number().int().min(0), label: z.string().optional() });

const eventSchema = z.looseObject({ seq: z.number().int().positive(), type: z.string() });

function checkSessionId(method: string, sessionId: unknown): string {
  const result = sessionIdSchema.safeParse(sessionId);
  const isReserved =
    result.success && process.platform === 'win32' && (WINDOWS_RESERVED.test(result.data) || result.data.endsWith('.'));
  if (result.success && !isReserved) return result.data;
  throw new InvalidArgumentError({
    parameter: 'sessionId',
    value: sessionId,
    message: `${method}(): \`sessionId\` must be 1–128 letters, digits, ".", "_" or "-", start with a letter or digit and not contain ".."${isReserved ? ' (nor be a reserved Windows name)' : ''}, got ${describeValue(sessionId)}${result.success ? '' : `:\n${z.prettifyError(result.error)}`}\nUse e.g. "ticket-142".`,
    cause: result.success ? undefined : result.error,
  });
}

function checkEvents(events: unknown): { seq: number; text: string }[] {
  const result = z.array(eventSchema).safeParse(events);
  if (!result.success) {
    throw new InvalidArgumentError({
      parameter: 'events',
      value: events,
      message: `append(): \`events\` must be an array of session events with a positive integer \`seq\` and a \`type\`:\n${z.prettifyError(result.error)}\nPass the events ContextManager records.`,
      cause: result.error,
    });
  }
  const batch: { seq: number; text: string }[] = [];
  for (const [index, event] of result.data.entries()) {
    const previous = batch[batch.length - 1];
    if (previous !== undefined && event.seq <= previous.seq) {
      throw new InvalidArgumentError({
        parameter: `events.${index}.seq`,
        value: event.seq,
        message: `append(): events must be in increasing \`seq\` order, got ${describeValue(event.seq)} after ${previous.seq}. Append them in the order they were recorded.`,
      });
    }
    let text: string;
    try {
      // Stored exactly as given (the parsed copy would reorder nothing, but could drop keys).
      text = JSON.stringify((events as readonly unknown[])[index]);
    } catch (error) {
      throw new InvalidArgumentError({
        parameter: `events.${index}`,
        value: event,
        message: `append(): event #${event.seq} is not plain JSON: ${error instanceof Error ? error.message : String(error)}. Pass the events ContextManager records.`,
        cause: error,
      });
    }
    batch.push({ seq: event.seq, text });
  }
  return batch;
}

/**
 * Adds a checksum to a JSON object's text, as a last `"checksum"` key, so that damage inside a
 * string (which would still parse) is detected. The checksum covers the text without it.
 */
function encodeRecord(body: string): string {
  return `${body.slice(0, -1)},"checksum":"${checksumOf(body)}"}`;
}

/** Returns the text without its checksum, or `undefined` when it has none or it does not match. */
function decodeRecord(text: string): string | undefined {
  const match = CHECKSUM_PATTERN.exec(text);
  if (match === null) return undefined;
  const body = `${text.slice(0, match.index)}}`;
  return checksumOf(body) === match[1] ? body : undefined;
}

function checksumOf(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16);
}

function checkLine(text: string, previousSeq: number): number | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not valid JSON';
  }
  const result = eventSchema.safeParse(value);
  if (!result.success) return 'not an event';
  if (result.data.seq <= previousSeq) return `seq ${result.data.seq} after ${previousSeq}`;
  return result.data.seq;
}

function toSnapshot(data: z.infer<typeof stateSchema>, version: number): SessionSnapshot {
  return {
    formatVersion: data.formatVersion,
    seq: data.seq,
    state: data.state,
    ...(data.label === undefined ? {} : { label: data.label }),
    version,
  };
}

function stateName(version: number): string {
  return `state-${version}.json`;
}

function statePath(session: Session, version: number): string {
  return join(session.directory, stateName(version));
}

function journalPath(session: Session, version: number): string {
  return join(session.directory, `journal-${version}.jsonl`);
}

async function scan(directory: string): Promise<Layout> {
  const names = await readdir(directory);
  const states: number[] = [];
  const journals: number[] = [];
  const corrupt: string[] = [];
  const temporary: string[] = [];
  const candidates: { name: string; pid: number }[] = [];
  let highest = 0;
  for (const entry of names) {
    let match = STATE_PATTERN.exec(entry);
    if (match !== null) {
      states.push(Number(match[1]));
    } else if ((match = CORRUPT_PATTERN.exec(entry)) !== null) {
      corrupt.push(entry);
    } else if ((match = JOURNAL_PATTERN.exec(entry)) !== null) {
      journals.push(Number(match[1]));
    } else if ((match = CANDIDATE_PATTERN.exec(entry)) !== null) {
      candidates.push({ name: entry, pid: Number(match[1]) });
      match = null;
    } else if (TEMPORARY_PATTERN.test(entry)) {
      temporary.push(entry);
    }
    if (match !== null) highest = Math.max(highest, Number(match[1]));
  }
  states.sort((left, right) => right - left);
  journals.sort((left, right) => left - right);
  return { states, journals, corrupt, temporary, candidates, highest };
}

// Runs under the lock: any temp file is left over from a writer that crashed; so is the lock
// candidate of a process that no longer exists.
async function removeLeftovers(session: Session, layout: Layout): Promise<void> {
  for (const entry of layout.temporary) await unlinkQuietly(join(session.directory, entry));
  for (const candidate of layout.candidates) {
    if (!isProcessAlive(candidate.pid)) await unlinkQuietly(join(session.directory, candidate.name));
  }
}

async function ensureDirectory(directory: string): Promise<void> {
  // Sessions hold what agents saw: only this user may list or read them.
  const created = await mkdir(directory, { recursive: true, mode: DIRECTORY_MODE });
  // A new folder is durable only once its parent's entry is.
  if (created !== undefined) await syncDirectory(dirname(created));
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
}

async function statQuietly(path: string): Promise<Stats | undefined> {
  try {
    return await stat(path);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

async function unlinkQuietly(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
}

async function writeFileSynced(path: string, data: string, isSynced: boolean): Promise<void> {
  const handle = await open(path, 'wx', FILE_MODE);
  try {
    await handle.writeFile(data, 'utf8');
    if (isSynced) await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Writes `data` to `path` atomically: a temp file, fsync, then rename (or, when `isExclusive`, a
 * hard link that fails if `path` exists), then fsync of the folder. Returns false when
 * `isExclusive` and `path` already existed.
 */
async function writeAtomic(path: string, data: string, isExclusive = false): Promise<boolean> {
  const temporary = `${path}.tmp-${randomUUID()}`;
  try {
    await writeFileSynced(temporary, data, true);
    if (isExclusive) {
      if (!(await createExclusive(temporary, path))) return false;
    } else {
      await rename(temporary, path);
    }
  } finally {
    await unlinkQuietly(temporary);
  }
  await syncDirectory(dirname(path));
  return true;
}

/** Gives `source`'s content the name `target` unless `target` exists; atomic where hard links work. */
async function createExclusive(source: string, target: string): Promise<boolean> {
  try {
    await link(source, target);
    return true;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
  }
  // File systems without hard links: exclusive create of the target, then copy the content in.
  try {
    const handle = await open(target, 'wx', FILE_MODE);
    try {
      await handle.writeFile(await readFile(source));
      await handle.sync();
    } finally {
      await handle.close();
    }
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'EEXIST') return false;
    throw error;
  }
}

async function appendLines(path: string, text: string, truncateTo: number | undefined): Promise<{ size: number; ino: number; mtimeMs: number }> {
  const handle = await open(path, 'a', FILE_MODE);
  try {
    // A journal written by an older version may be readable by others: close that now.
    if (process.platform !== 'win32' && ((await handle.stat()).mode & 0o077) !== 0) await handle.chmod(FILE_MODE);
    // Cut a damaged tail first, or the new lines would follow garbage and look damaged too.
    if (truncateTo !== undefined) await handle.truncate(truncateTo);
    await handle.appendFile(text, 'utf8');
    await handle.datasync();
    const info = await handle.stat();
    return { size: info.size, ino: info.ino, mtimeMs: info.mtimeMs };
  } finally {
    await handle.close();
  }
}

async function syncDirectory(directory: string): Promise<void> {
  // Windows cannot open a folder for fsync; NTFS journals renames itself.
  if (process.platform === 'win32') return;
  let handle;
  try {
    handle = await open(directory, 'r');
    await handle.sync();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code !== 'EISDIR' && code !== 'EINVAL' && code !== 'EPERM' && code !== 'ENOTSUP') throw error;
  } finally {
    await handle?.close();
  }
}

function parseLockOwner(text: string): LockOwner | undefined {
  try {
    const value = JSON.parse(text) as { pid?: unknown; hostname?: unknown; started?: unknown };
    if (typeof value.pid === 'number' && Number.isInteger(value.pid) && typeof value.hostname === 'string') {
      return { pid: value.pid, hostname: value.hostname, started: typeof value.started === 'number' ? value.started : undefined };
    }
  } catch {
    // Unreadable: see acquireLock().
  }
  return undefined;
}

/**
 * Tells whether the process that took a lock is gone. Only processes on this machine can be
 * checked. A lock with this process's pid but another start time was left by an earlier process
 * that had the same pid (common in containers, where the pid is the same at every start).
 */
function isOwnerGone(owner: LockOwner, host: string): boolean {
  if (owner.hostname !== host) return false;
  if (owner.pid === process.pid) return owner.started !== PROCESS_STARTED;
  return !isProcessAlive(owner.pid);
}

function isProcessAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === 'EPERM';
  }
}

/**
 * Removes a lock whose owner is gone. Renaming first makes the check-and-remove safe against a
 * second breaker: if the renamed file is not the stale lock we inspected (someone else broke it
 * and took the lock meanwhile), it is put back.
 */
async function breakLock(lockPath: string, staleText: string, token: string): Promise<void> {
  const aside = `${lockPath}.stale-${token}`;
  try {
    await rename(lockPath, aside);
  } catch (error) {
    if (isMissing(error)) return;
    throw error;
  }
  const moved = await readText(aside);
  if (moved !== staleText) {
    try {
      await link(aside, lockPath);
    } catch {
      // Another process took the lock in between; the live lock was ours to restore, not to own.
    }
  }
  await unlinkQuietly(aside);
}

function isMissing(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ENOENT';
}

function delay(milliseconds: number): Promise<void> {
  return new Promise((resolvePromise) => setTimeout(resolvePromise, milliseconds));
}

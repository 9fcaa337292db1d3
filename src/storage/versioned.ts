import { z } from 'zod';
import { ConflictError, CorruptStateError, InvalidArgumentError, MobiusError, StorageError, describeValue } from '../errors.js';
import { sessionIdSchema } from '../options.js';
import type { SessionEvent } from '../session-event.js';
import { parse } from '../validation.js';
import type { StorageBackend, StoredRecord, StoredVersion } from './backend.js';
import { isStorageBackend } from './backend.js';
import type { ArchiveGroup, SaveSnapshotOptions, SessionSnapshot, Storage, VersionInfo } from './storage.js';

/** Options of {@link createVersionedStorage}. */
export interface VersionedStorageOptions {
  /** Unlabelled versions kept per session; older ones are deleted (labelled ones are all kept). @default 5 */
  versions?: number | undefined;
  /**
   * Snapshot format this program reads (`SNAPSHOT_FORMAT_VERSION`); older ones go through
   * `migrate`, newer ones throw `CORRUPT_STATE`. Without it, snapshots load in whatever format
   * they were saved (`ContextManager.load()` checks the format itself). @default undefined
   */
  formatVersion?: number | undefined;
  /**
   * Upgrades a snapshot written in an older format: receives the stored snapshot and its
   * `formatVersion`, returns (or resolves to) `{ formatVersion, seq, state, label? }` in the
   * current format. Without it, an older snapshot makes `loadSnapshot()` throw `CORRUPT_STATE`.
   * @default undefined
   */
  migrate?: ((snapshot: unknown, formatVersion: number) => unknown) | undefined;
  /** Called for each damaged version that `loadSnapshot()` skipped. @default undefined */
  onRecover?: ((info: VersionRecovery) => void) | undefined;
}

/** Reports a damaged version that `loadSnapshot()` skipped (and moved aside, when the backend can). */
export interface VersionRecovery {
  /** The session whose version was damaged. */
  readonly sessionId: string;
  /** The damaged version. */
  readonly version: number;
  /** Why it could not be used, e.g. `not valid JSON`. */
  readonly reason: string;
  /** Where the backend moved it (`quarantineVersion()`), or `undefined` when it was left in place. */
  readonly movedTo: string | undefined;
  /**
   * The version loaded instead; `null` when none was left: then either the whole log is replayed
   * (it still starts at the first event) or `loadSnapshot()` throws `CORRUPT_STATE`.
   */
  readonly loadedVersion: number | null;
}

/**
 * Turns a {@link StorageBackend} into a {@link Storage}: validates every input, skips events
 * appended again with the same content and throws `ConflictError` for a stored seq with other
 * content, checks `expectedVersion`, numbers versions and prunes old ones, migrates snapshots of
 * older formats, and falls back past damaged versions. Written once, so every backend gets the
 * same behaviour and passes the same contract suite.
 *
 * @example
 * ```ts
 * // createVersionedStorage is exported by 'mobius-context'.
 * const storage = createVersionedStorage(createRedisBackend(client), { versions: 10 });
 * ```
 * @throws {InvalidArgumentError} when `backend` is not a backend or an option is invalid.
 */
export function createVersionedStorage(backend: StorageBackend, options: VersionedStorageOptions = {}): Storage {
  if (!isStorageBackend(backend)) {
    throw new InvalidArgumentError({
      parameter: 'backend',
      value: backend,
      message: `createVersionedStorage(): \`backend\` must have a \`name\` and the methods readRecords, appendRecords, listVersions, readVersion, writeVersion and deleteVersion, got ${describeValue(backend)}. See docs/storage.md, "Writing your own backend".`,
    });
  }
  const parsed = parse(optionsSchema, options, 'createVersionedStorage', 'createVersionedStorage(backend, { versions: 5 })');
  const name = backend.name;
  const keep = parsed.versions ?? 5;
  const formatVersion = parsed.formatVersion;
  const { migrate, onRecover } = parsed;
  const queues = new Map<string, Promise<void>>();

  // Serialises this instance's operations on a session; `withLock` does the same across processes.
  const serialize = <T>(sessionId: string, task: () => Promise<T>): Promise<T> => {
    const previous = queues.get(sessionId) ?? Promise.resolve();
    const run = previous.then(task);
    const settled = run.then(
      () => undefined,
      () => undefined,
    );
    queues.set(sessionId, settled);
    void settled.then(() => {
      if (queues.get(sessionId) === settled) queues.delete(sessionId);
    });
    return run;
  };

  const run = <T>(method: string, sessionId: string, isWriting: boolean, task: () => Promise<T>): Promise<T> =>
    serialize(sessionId, async () => {
      try {
        return backend.withLock === undefined ? await task() : await backend.withLock(sessionId, { isWriting }, task);
      } catch (error) {
        if (MobiusError.isInstance(error)) throw error;
        throw new StorageError({
          storage: name,
          operation: method,
          message: `storage "${name}" failed in ${method}() for session "${sessionId}": ${error instanceof Error ? error.message : String(error)}. ${backend.describeFailure?.(error) ?? 'The previous version stays loadable; retry once the cause is fixed.'}`,
          cause: error,
        });
      }
    });

  const sortedVersions = async (sessionId: string): Promise<StoredVersion[]> =>
    [...(await backend.listVersions(sessionId))].sort((left, right) => right.version - left.version);

  const readSnapshot = async (sessionId: string, version: number): Promise<Reading> => {
    const stored = await backend.readVersion(sessionId, version);
    if (stored === null) return { kind: 'missing' };
    if (typeof stored !== 'string') return { kind: 'damaged', reason: stored.damaged };
    return decodeSnapshot({ text: stored, version, where: `version ${version} of session "${sessionId}"` });
  };

  const decodeSnapshot = async ({ text, version, where }: { text: string; version: number; where: string }): Promise<Reading> => {
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      return { kind: 'damaged', reason: `not valid JSON (truncated or overwritten): ${error instanceof Error ? error.message : String(error)}` };
    }
    const header = headerSchema.safeParse(raw);
    if (!header.success) return { kind: 'damaged', reason: `not a snapshot: ${z.prettifyError(header.error)}` };
    const found = header.data.formatVersion;
    if (formatVersion === undefined || found === formatVersion) {
      const result = stateSchema.safeParse(raw);
      return result.success ? { kind: 'ok', snapshot: toSnapshot(result.data, version) } : { kind: 'damaged', reason: `wrong shape: ${z.prettifyError(result.error)}` };
    }
    if (found > formatVersion) {
      return formatError(found, `storage "${name}": ${where} has snapshot format ${found}, newer than format ${formatVersion} that this program reads. It was written by a newer mobius-context: upgrade mobius-context to load it.`);
    }
    if (migrate === undefined) {
      return formatError(found, `storage "${name}": ${where} has snapshot format ${found}, older than format ${formatVersion}, and no \`migrate\` option was given. Pass the storage a \`migrate: (snapshot, formatVersion) => upgraded\` option to convert it; it was left in place.`);
    }
    let candidate: unknown;
    try {
      candidate = await migrate(raw, found);
    } catch (error) {
      return formatError(found, `storage "${name}": \`migrate\` threw on ${where} (format ${found}): ${error instanceof Error ? error.message : String(error)}. Fix the migration; the snapshot was left in place.`, error);
    }
    const migrated = stateSchema.safeParse(candidate);
    if (!migrated.success || migrated.data.formatVersion !== formatVersion) {
      return formatError(
        found,
        `storage "${name}": \`migrate\` turned ${where} (format ${found}) into something that is not a format-${formatVersion} snapshot${migrated.success ? ` (it has format ${migrated.data.formatVersion})` : `:\n${z.prettifyError(migrated.error)}`}. Return { formatVersion: ${formatVersion}, seq, state } from migrate; the snapshot was left in place.`,
        migrated.success ? undefined : migrated.error,
      );
    }
    return { kind: 'ok', snapshot: toSnapshot(migrated.data, version) };
  };

  const report = (infos: readonly VersionRecovery[]): void => {
    if (onRecover === undefined) return;
    const errors: unknown[] = [];
    for (const info of infos) {
      try {
        onRecover(Object.freeze({ ...info }));
      } catch (error) {
        errors.push(error);
      }
    }
    // The recovery is done and stored; a throwing callback must not hide the others.
    if (errors.length > 0) throw errors[0];
  };

  const conflict = (sessionId: string, expected: number, actual: number): ConflictError =>
    new ConflictError({
      storage: name,
      expected,
      actual,
      message: `storage "${name}": session "${sessionId}" is at version ${actual}, but this writer expected ${expected}. Another writer saved it first; load it again and re-apply what this manager recorded since.`,
    });

  // Keeps every labelled version (a named checkpoint) and the newest `keep` unlabelled ones.
  const prune = async (sessionId: string): Promise<void> => {
    const unlabelled = (await sortedVersions(sessionId)).filter((info) => info.label === undefined);
    for (const old of unlabelled.slice(keep)) await backend.deleteVersion(sessionId, old.version);
  };

  const appendArchiveRecords = backend.appendArchiveRecords?.bind(backend);
  const readArchiveRecords = backend.readArchiveRecords?.bind(backend);
  // Only a backend with both methods can hold a spilled archive; the manager checks for them.
  const archive: Pick<Storage, 'appendArchive' | 'readArchive'> =
    appendArchiveRecords === undefined || readArchiveRecords === undefined
      ? {}
      : {
          async appendArchive(sessionId, groups) {
            const id = checkSessionId('appendArchive', sessionId);
            const batch = checkArchiveGroups(groups);
            if (batch.length === 0) return;
            await run('appendArchive', id, true, async () => {
              const stored = new Map((await readArchiveRecords(id, { seqs: batch.map((record) => record.seq) })).map((record) => [record.seq, record.text]));
              const fresh: StoredRecord[] = [];
              for (const record of batch) {
                const existing = stored.get(record.seq);
                if (existing === record.text) continue;
                if (existing !== undefined) {
                  throw new ConflictError({
                    storage: name,
                    expected: record.seq,
                    actual: record.seq,
                    message: `storage "${name}": archive group #${record.seq} of session "${id}" is already stored with other content. Another writer archived it; load the session again.`,
                  });
                }
                fresh.push(record);
              }
              if (fresh.length > 0) await appendArchiveRecords(id, fresh);
            });
          },
          async readArchive(sessionId, readOptions) {
            const id = checkSessionId('readArchive', sessionId);
            const { seqs } = parse(readArchiveOptionsSchema, readOptions, 'readArchive', "readArchive('ticket-142', { seqs: [12, 40] })");
            if (seqs.length === 0) return [];
            const records = await run('readArchive', id, false, async () => readArchiveRecords(id, { seqs: [...new Set(seqs)].sort((left, right) => left - right) }));
            return records.map((record) => decodeArchiveGroup({ record, name, sessionId: id }));
          },
        };

  return {
    name,
    ...archive,

    async append(sessionId, events) {
      const id = checkSessionId('append', sessionId);
      const batch = checkEvents(events);
      const first = batch[0];
      if (first === undefined) return;
      await run('append', id, true, async () => {
        const stored = new Map((await backend.readRecords(id, { afterSeq: first.seq - 1 })).map((record) => [record.seq, record.text]));
        let lastSeq = Math.max(0, ...stored.keys());
        // Events folded into a version whose records were discarded are still taken.
        const newest = (await sortedVersions(id))[0];
        if (newest?.seq !== undefined && newest.seq > lastSeq) lastSeq = newest.seq;
        const fresh: StoredRecord[] = [];
        for (const record of batch) {
          if (record.seq <= lastSeq) {
            if (stored.get(record.seq) === record.text) continue;
            throw new ConflictError({
              storage: name,
              expected: record.seq - 1,
              actual: lastSeq,
              message: `storage "${name}": event #${record.seq} of session "${id}" was already written by another writer. Load the session again and re-apply what this manager recorded since.`,
            });
          }
          fresh.push(record);
        }
        if (fresh.length > 0) await backend.appendRecords(id, fresh);
      });
    },

    async read(sessionId, readOptions) {
      const id = checkSessionId('read', sessionId);
      const { afterSeq } = parse(readOptionsSchema, readOptions, 'read', "read('ticket-142', { afterSeq: 0 })");
      return run('read', id, false, async () => (await backend.readRecords(id, { afterSeq })).map((record) => JSON.parse(record.text) as SessionEvent));
    },

    async saveSnapshot(sessionId, snapshot, saveOptions: SaveSnapshotOptions = {}) {
      const id = checkSessionId('saveSnapshot', sessionId);
      const input = parse(snapshotInputSchema, snapshot, 'saveSnapshot', "saveSnapshot('ticket-142', { formatVersion: 1, seq: 42, state })");
      const { expectedVersion } = parse(saveOptionsSchema, saveOptions, 'saveSnapshot', "saveSnapshot('ticket-142', snapshot, { expectedVersion: 3 })");
      const text = encodeSnapshot(input);
      return run('saveSnapshot', id, true, async () => {
        const current = (await sortedVersions(id))[0]?.version ?? 0;
        if (expectedVersion !== undefined && expectedVersion !== current) throw conflict(id, expectedVersion, current);
        const version = Math.max(current, ...((await backend.listQuarantined?.(id)) ?? []).map((item) => item.version)) + 1;
        const isWritten = await backend.writeVersion(id, { version, seq: input.seq, label: input.label, text });
        // The version exists already: another writer saved between our check and our write.
        if (!isWritten) throw conflict(id, expectedVersion ?? current, version);
        await prune(id);
        return version;
      });
    },

    async loadSnapshot(sessionId, loadOptions = {}) {
      const id = checkSessionId('loadSnapshot', sessionId);
      const { version: wanted } = parse(loadOptionsSchema, loadOptions, 'loadSnapshot', "loadSnapshot('ticket-142', { version: 3 })");
      const skipped: { version: number; reason: string; movedTo: string | undefined }[] = [];
      let loadedVersion: number | null = null;
      let result: SessionSnapshot | null = null;
      let failure: unknown;
      const setAside = async (version: number, reason: string): Promise<void> => {
        skipped.push({ version, reason, movedTo: await backend.quarantineVersion?.(id, version, reason) });
      };
      try {
        result = await run('loadSnapshot', id, false, async () => {
          const versions = await sortedVersions(id);
          const candidates = wanted === undefined ? versions : versions.filter((info) => info.version === wanted);
          let stranded: number[] = [];
          for (const [index, info] of candidates.entries()) {
            // An older version is a fallback only while the records after it are kept.
            if (wanted === undefined && index > 0 && info.hasRecordsAfter === false) {
              stranded = candidates.slice(index).map((item) => item.version);
              break;
            }
            const reading = await readSnapshot(id, info.version);
            if (reading.kind === 'ok') {
              loadedVersion = info.version;
              return reading.snapshot;
            }
            if (reading.kind === 'format') throw reading.error;
            if (reading.kind === 'damaged') await setAside(info.version, reading.reason);
          }
          const skippedList = skipped.map((item) => `version ${item.version} (${item.reason.split('\n')[0] ?? ''})${item.movedTo === undefined ? '' : ` → ${item.movedTo}`}`).join('; ');
          if (wanted !== undefined) {
            if (skipped.length === 0) return null;
            throw new CorruptStateError({
              message: `storage "${name}": version ${wanted} of session "${id}" is unreadable${skipped[0]?.movedTo === undefined ? '' : ' and was moved aside'}: ${skippedList}. Load another version (see listVersions()).`,
            });
          }
          // Without a good snapshot the log is enough only while it still starts at the first event.
          const records = await backend.readRecords(id, { afterSeq: 0 });
          const earlier = (await backend.listQuarantined?.(id)) ?? [];
          if (records[0]?.seq === 1) return null;
          if (records.length === 0 && versions.length === 0 && earlier.length === 0) return null;
          const kept = earlier.map((item) => item.movedTo).filter((movedTo) => !skipped.some((entry) => entry.movedTo === movedTo));
          throw new CorruptStateError({
            message: `storage "${name}": no readable snapshot of session "${id}" is left${skippedList === '' ? '' : `; moved aside now: ${skippedList}`}${kept.length === 0 ? '' : `; unreadable versions kept from before: ${kept.join(', ')}`}${stranded.length === 0 ? '' : `; versions ${stranded.join(', ')} are readable, but the log after them was pruned, so loading one drops the events after it (loadSnapshot(id, { version }) or rollback() does so deliberately)`}. The log only holds events after a lost version, so replaying it alone would be wrong. Restore a good state file from a backup (for the file storage: state-<version>.json in the session folder), or start a new session id.`,
          });
        });
      } catch (error) {
        failure = error;
      }
      report(skipped.map((item) => ({ sessionId: id, ...item, loadedVersion })));
      if (failure !== undefined) throw failure;
      return result;
    },

    async listVersions(sessionId) {
      const id = checkSessionId('listVersions', sessionId);
      return run('listVersions', id, false, async () =>
        (await sortedVersions(id)).flatMap((info): VersionInfo[] =>
          info.seq === undefined ? [] : [{ version: info.version, seq: info.seq, ...(info.label === undefined ? {} : { label: info.label }) }],
        ),
      );
    },

    async dispose() {
      await backend.dispose?.();
    },
  };
}

// --- Internal helpers ---

type Reading =
  | { kind: 'ok'; snapshot: SessionSnapshot }
  | { kind: 'missing' }
  | { kind: 'damaged'; reason: string }
  | { kind: 'format'; error: CorruptStateError };

const optionsSchema = z.strictObject({
  versions: z.number().int().positive().optional(),
  formatVersion: z.number().int().min(0).optional(),
  migrate: z.custom<(snapshot: unknown, formatVersion: number) => unknown>((value) => typeof value === 'function', 'expected a function').optional(),
  onRecover: z.custom<(info: VersionRecovery) => void>((value) => typeof value === 'function', 'expected a function').optional(),
});

const readOptionsSchema = z.strictObject({ afterSeq: z.number().int().min(0) });
const readArchiveOptionsSchema = z.strictObject({ seqs: z.array(z.number().int().positive()) });
const archivedItemSchema = z.looseObject({ type: z.enum(['entry', 'summary', 'fact', 'pin']), archivedAt: z.number().int().min(0) });
const archiveGroupSchema = z.strictObject({ seq: z.number().int().positive(), items: z.array(archivedItemSchema) });
const archiveGroupsSchema = z.array(archiveGroupSchema);
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

const eventSchema = z.looseObject({ seq: z.number().int().positive(), type: z.string() });
const eventsSchema = z.array(eventSchema);

function formatError(version: number, message: string, cause?: unknown): Reading {
  return { kind: 'format', error: new CorruptStateError({ version, message, cause }) };
}

function checkSessionId(method: string, sessionId: unknown): string {
  const result = sessionIdSchema.safeParse(sessionId);
  if (result.success) return result.data;
  throw new InvalidArgumentError({
    parameter: 'sessionId',
    value: sessionId,
    message: `${method}(): \`sessionId\` must be 1–128 letters, digits, ".", "_" or "-", start with a letter or digit and not contain "..", got ${describeValue(sessionId)}:\n${z.prettifyError(result.error)}\nUse e.g. "ticket-142".`,
    cause: result.error,
  });
}

function checkEvents(events: unknown): StoredRecord[] {
  const result = eventsSchema.safeParse(events);
  if (!result.success) {
    throw new InvalidArgumentError({
      parameter: 'events',
      value: events,
      message: `append(): \`events\` must be an array of session events with a positive integer \`seq\` and a \`type\`:\n${z.prettifyError(result.error)}\nPass the events ContextManager records.`,
      cause: result.error,
    });
  }
  const batch: StoredRecord[] = [];
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

function checkArchiveGroups(groups: unknown): StoredRecord[] {
  const result = archiveGroupsSchema.safeParse(groups);
  if (!result.success) {
    throw new InvalidArgumentError({
      parameter: 'groups',
      value: groups,
      message: `appendArchive(): \`groups\` must be an array of { seq, items } with a positive integer \`seq\` and archived items:\n${z.prettifyError(result.error)}\nPass the groups ContextManager spills.`,
      cause: result.error,
    });
  }
  const batch: StoredRecord[] = [];
  for (const [index, group] of result.data.entries()) {
    const previous = batch[batch.length - 1];
    if (previous !== undefined && group.seq <= previous.seq) {
      throw new InvalidArgumentError({
        parameter: `groups.${index}.seq`,
        value: group.seq,
        message: `appendArchive(): groups must be in increasing \`seq\` order, got ${describeValue(group.seq)} after ${previous.seq}. Send them in archive order.`,
      });
    }
    // Stored exactly as given (the parsed copy would drop nothing, but keys could move).
    batch.push({ seq: group.seq, text: JSON.stringify((groups as readonly ArchiveGroup[])[index]?.items) });
  }
  return batch;
}

function decodeArchiveGroup(options: { record: StoredRecord; name: string; sessionId: string }): ArchiveGroup {
  const { record, name, sessionId } = options;
  let items: unknown;
  try {
    items = JSON.parse(record.text);
  } catch (error) {
    items = error;
  }
  const result = z.array(archivedItemSchema).safeParse(items);
  if (!result.success) {
    throw new CorruptStateError({
      message: `storage "${name}": archive group #${record.seq} of session "${sessionId}" is not a list of archived items. Restore it from a backup, or roll back to a version saved before it was spilled.`,
      cause: result.error,
    });
  }
  return { seq: record.seq, items: items as ArchiveGroup['items'] };
}

function encodeSnapshot(input: z.infer<typeof snapshotInputSchema>): string {
  try {
    return JSON.stringify({ formatVersion: input.formatVersion, seq: input.seq, ...(input.label === undefined ? {} : { label: input.label }), state: input.state });
  } catch (error) {
    throw new InvalidArgumentError({
      parameter: 'snapshot.state',
      value: input.state,
      message: `saveSnapshot(): \`snapshot.state\` must be plain JSON: ${error instanceof Error ? error.message : String(error)}. Pass the value ContextManager produces, or convert BigInt and cyclic values first.`,
      cause: error,
    });
  }
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

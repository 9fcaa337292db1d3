import { z } from 'zod';
import { CorruptStateError, MobiusError, StorageError, describeValue } from '../errors.js';
import type { SessionViewData } from '../session-view.js';
import type { SessionSnapshot, Storage } from '../storage/storage.js';

/** Format version of snapshots written by `save()`. */
export const SNAPSHOT_FORMAT_VERSION = 1;

/**
 * Reads the header of a stored snapshot (or of an empty session when there is none): its format
 * version, the seq it covers and its storage version.
 * @throws {CorruptStateError} when it is not a snapshot of the current format.
 * @internal
 */
export function snapshotHeader(options: { snapshot: SessionSnapshot | null; sessionId: string; storage: Storage }): { readonly formatVersion: number; readonly seq: number; readonly version: number | undefined } {
  const { sessionId, storage } = options;
  const parsed = snapshotSchema.safeParse(options.snapshot ?? { formatVersion: SNAPSHOT_FORMAT_VERSION, seq: 0, state: null });
  if (!parsed.success || parsed.data.formatVersion !== SNAPSHOT_FORMAT_VERSION) {
    throw new CorruptStateError({
      version: parsed.success ? parsed.data.formatVersion : undefined,
      message: `load(): the snapshot of session ${describeValue(sessionId)} in storage "${storage.name}" is not a format-${SNAPSHOT_FORMAT_VERSION} snapshot${parsed.success ? '' : `:\n${z.prettifyError(parsed.error)}`}. Restore it from a backup or start a new session id.`,
      cause: parsed.success ? undefined : parsed.error,
    });
  }
  return { formatVersion: parsed.data.formatVersion, seq: parsed.data.seq, version: parsed.data.version };
}

/** Checks the shape and format of a snapshot and returns its folded view. @internal */
export function validateSnapshot(snapshot: SessionSnapshot, sessionId: string, storage: Storage): SessionViewData {
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

/** A failed event replay while loading, as a {@link CorruptStateError}. @internal */
export function replayError(options: { seq: number; sessionId: string; formatVersion: number; error: unknown }): CorruptStateError {
  const { error } = options;
  return new CorruptStateError({
    version: options.formatVersion,
    message: `load(): event #${options.seq} of session ${describeValue(options.sessionId)} cannot be applied: ${error instanceof Error ? error.message : String(error)}. The log is inconsistent with the snapshot; roll back to an earlier snapshot.`,
    cause: error,
  });
}

/** Wraps what a storage threw in a {@link StorageError} (a Mobius error passes through). @internal */
export function storageError(storage: Storage, operation: string, error: unknown): StorageError {
  return new StorageError({
    storage: storage.name,
    operation,
    message: `storage "${storage.name}" failed in ${operation}(): ${error instanceof Error ? error.message : String(error)}. The in-memory state is intact; fix the storage and retry.`,
    cause: error,
  });
}

/** The error of a method that needs versions from a storage that keeps none. @internal */
export function unsupported(storage: Storage, method: string): MobiusError {
  return new MobiusError('UNSUPPORTED', `${method}(): storage "${storage.name}" does not keep versions. Use createMemoryStorage() or createFileStorage(), or implement listVersions().`);
}

/** The error of a method that needs storage on a manager without one. @internal */
export function storageRequired(method: string): MobiusError {
  return new MobiusError('UNSUPPORTED', `${method}(): no \`storage\` is configured. Pass one to the constructor, e.g. new ContextManager({ storage: createMemoryStorage() }).`);
}

/** Rollback and fork errors for a version that does not exist. @internal */
export function missingVersionMessage(options: { method: 'rollback' | 'fork'; sessionId: string; version: number | undefined }): string {
  const { method, sessionId, version } = options;
  return method === 'rollback'
    ? `rollback(): session ${describeValue(sessionId)} has no version ${version}. Pick one from listVersions().`
    : `fork(): session ${describeValue(sessionId)} has no saved version${version === undefined ? '' : ` ${version}`}. Call save() or snapshot() first.`;
}

/** The label of the version that a rollback or fork saves. @internal */
export function versionLabel(options: { method: 'rollback' | 'fork'; sessionId: string; version: number | undefined }): string {
  return options.method === 'rollback' ? `rollback to version ${options.version}` : `fork of ${options.sessionId} version ${options.version ?? '?'}`;
}

// --- Internal helpers ---

const snapshotSchema = z.object({ formatVersion: z.number().int(), seq: z.number().int().min(0), state: z.unknown(), version: z.number().int().min(0).optional() });

const spilledGroupSchema = z.object({
  seq: z.number().int().positive(),
  count: z.number().int().min(0),
  from: z.number().int().min(0),
  to: z.number().int().min(0),
  ids: z.array(z.string()),
});

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
  tiers: z.object({ entries: z.array(z.unknown()), summaries: z.array(z.unknown()), pins: z.array(z.unknown()), facts: z.object({ facts: z.array(z.unknown()), tasks: z.array(z.unknown()) }), archive: z.array(z.unknown()), archiveSpilled: z.array(spilledGroupSchema).optional() }),
  scratchpad: z.object({ files: z.array(z.unknown()) }).passthrough(),
});


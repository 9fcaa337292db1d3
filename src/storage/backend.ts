import type { Awaitable } from '../types.js';

/** One stored event: its sequence number and its JSON text, kept exactly as given. */
export interface StoredRecord {
  /** Sequence number of the event (positive, increasing within a session). */
  readonly seq: number;
  /** The event as JSON text. Store and return it unchanged. */
  readonly text: string;
}

/** One stored snapshot version, as a backend lists it. */
export interface StoredVersion {
  /** Version number (1, 2, 3…); higher is newer. */
  readonly version: number;
  /**
   * Sequence number of the last event folded into it, as given to `writeVersion()`. `undefined`
   * when the backend cannot read it (a damaged version): the versioned layer then reads the
   * version, finds the damage and quarantines it or skips it.
   */
  readonly seq: number | undefined;
  /** Label given to `writeVersion()`, if any. */
  readonly label?: string | undefined;
  /**
   * `false` when the records after this version's `seq` were discarded, so that loading it as a
   * fallback would drop events (it can still be loaded by number). @default true
   */
  readonly hasRecordsAfter?: boolean | undefined;
}

/** A damaged version that `quarantineVersion()` moved aside. */
export interface QuarantinedVersion {
  /** The version it held; a new version never reuses its number. */
  readonly version: number;
  /** Where it is now, as `quarantineVersion()` returned it. */
  readonly movedTo: string;
}

/** What `readVersion()` found: the text written, `null` when absent, or the damage found in it. */
export type VersionText = string | null | { readonly damaged: string };

/**
 * The minimal interface a storage backend implements (Redis, SQL, a key-value store…): plain
 * reads and writes of event records and snapshot texts, per session. Everything else — input
 * validation, duplicate and conflicting appends, `expectedVersion` checks, pruning of old
 * versions, snapshot format migration and recovery from damaged versions — is done once by
 * {@link createVersionedStorage}, which turns a backend into a {@link Storage}.
 *
 * Session ids reach the backend already validated (letters, digits, `.`, `_`, `-`).
 */
export interface StorageBackend {
  /** Identifies the backend in errors and events, e.g. `"redis"`. */
  readonly name: string;
  /** Returns the session's records with `seq > afterSeq`, in `seq` order (`[]` for an unknown session). */
  readRecords(sessionId: string, options: { afterSeq: number }): Awaitable<readonly StoredRecord[]>;
  /**
   * Stores records after the stored ones (the layer checked that every `seq` is new). Must store
   * the whole batch or nothing: a retried batch is sent again in full.
   */
  appendRecords(sessionId: string, records: readonly StoredRecord[]): Awaitable<void>;
  /** Lists the session's snapshot versions, in any order (`[]` for an unknown session). */
  listVersions(sessionId: string): Awaitable<readonly StoredVersion[]>;
  /** Returns the text written for `version`, or `null` when there is none. */
  readVersion(sessionId: string, version: number): Awaitable<VersionText>;
  /**
   * Creates `version` with `text`, atomically, keeping `seq` and `label` for `listVersions()`.
   * Must never overwrite: return `false` when the version already exists (another writer made
   * it), `true` once it is stored.
   */
  writeVersion(sessionId: string, version: StoredVersion & { readonly seq: number; readonly text: string }): Awaitable<boolean>;
  /** Deletes a version the layer pruned. A backend may also discard records only it needed. */
  deleteVersion(sessionId: string, version: number): Awaitable<void>;
  /**
   * Runs `task` while holding the session's lock across processes. Optional: without it, the
   * layer serialises the operations of one instance only, so one writer per session is assumed.
   * `isWriting` is `false` for reads, which should not create anything.
   */
  withLock?<T>(sessionId: string, options: { isWriting: boolean }, task: () => Promise<T>): Promise<T>;
  /**
   * Moves a damaged version out of the way (never deletes it) and says where it went. Optional:
   * without it a damaged version is left in place and skipped.
   */
  quarantineVersion?(sessionId: string, version: number, reason: string): Awaitable<string>;
  /** What `quarantineVersion()` moved aside, kept from earlier loads. Optional. */
  listQuarantined?(sessionId: string): Awaitable<readonly QuarantinedVersion[]>;
  /**
   * Stores archive records (one per archiving event: `seq` is the event's, `text` its items as
   * JSON). The layer sends only seqs it did not find stored. Must store the whole batch or
   * nothing. Optional, together with `readArchiveRecords`: without both, the archive stays in memory.
   */
  appendArchiveRecords?(sessionId: string, records: readonly StoredRecord[]): Awaitable<void>;
  /** Returns the stored archive records among `seqs`, in `seq` order (unknown seqs left out). Optional. */
  readArchiveRecords?(sessionId: string, options: { seqs: readonly number[] }): Awaitable<readonly StoredRecord[]>;
  /** Explains a failure of this backend to the user, e.g. what to check. Optional. */
  describeFailure?(error: unknown): string | undefined;
  /** Releases handles. Optional. */
  dispose?(): Awaitable<void>;
}

/** Tells whether `value` looks like a {@link StorageBackend}. */
export function isStorageBackend(value: unknown): value is StorageBackend {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return (
    typeof candidate['name'] === 'string' &&
    ['readRecords', 'appendRecords', 'listVersions', 'readVersion', 'writeVersion', 'deleteVersion'].every((method) => typeof candidate[method] === 'function')
  );
}

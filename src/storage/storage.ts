import type { SessionEvent } from '../session-event.js';
import type { ArchivedItem, Awaitable } from '../types.js';

/** A saved, folded view of a session, so that a long session loads without a full replay. */
export interface SessionSnapshot {
  /** Format of `state`; `load()` throws `CORRUPT_STATE` for a format it does not know. */
  readonly formatVersion: number;
  /** Sequence number of the last event folded into `state`. */
  readonly seq: number;
  /** The folded view, as produced by the core. Treat it as opaque JSON. */
  readonly state: unknown;
  /** Storage-assigned version (1, 2, 3…), set on the snapshots `loadSnapshot()` returns. */
  readonly version?: number | undefined;
  /** Optional label, e.g. the name given to `snapshot(label)`. */
  readonly label?: string | undefined;
}

/** One saved version of a session, as listed by `listVersions()`. */
export interface VersionInfo {
  /** Storage-assigned version number; higher is newer. */
  readonly version: number;
  /** Sequence number of the last event folded into that version. */
  readonly seq: number;
  /** Label given when it was saved, if any. */
  readonly label?: string | undefined;
}

/** Options of {@link Storage.saveSnapshot}. */
export interface SaveSnapshotOptions {
  /**
   * The version this writer last loaded or saved (0 when it never saw one). When the stored
   * newest version differs, the storage throws `ConflictError` and saves nothing.
   */
  readonly expectedVersion?: number | undefined;
}

/**
 * Archived items that one event moved out of the window (a graduation, an unpin), stored together
 * under that event's `seq` when the archive spills to storage (the `archive.memoryItems` option).
 */
export interface ArchiveGroup {
  /** Sequence number of the event that archived the items (their `archivedAt`). */
  readonly seq: number;
  /** The items, in archive order. */
  readonly items: readonly ArchivedItem[];
}

/** Persists a session. Implement it to back Mobius with Redis, Postgres, SQLite… */
export interface Storage {
  /** Identifies this storage in errors and events, e.g. `"memory"`. */
  readonly name: string;
  /**
   * Appends events to the session's log, in order. Never rewrites earlier events. After a failed
   * call the same events may be sent again: an event whose seq is already stored with the same
   * content is skipped; one stored with different content (another writer) throws `ConflictError`.
   */
  append(sessionId: string, events: readonly SessionEvent[]): Awaitable<void>;
  /** Returns the session's events with `seq > afterSeq`, oldest first. */
  read(sessionId: string, options: { afterSeq: number }): Awaitable<readonly SessionEvent[]>;
  /**
   * Saves a snapshot as a new version, atomically; on failure the previous version stays
   * loadable. Returns the new version number.
   */
  saveSnapshot(sessionId: string, snapshot: SessionSnapshot, options?: SaveSnapshotOptions): Awaitable<number | void>;
  /** Returns the newest snapshot (or the given version), or `null` when there is none. */
  loadSnapshot(sessionId: string, options?: { version?: number | undefined }): Awaitable<SessionSnapshot | null>;
  /** Lists saved versions, newest first. Optional: without it `listVersions()`/`rollback()` throw `UNSUPPORTED`. */
  listVersions?(sessionId: string): Awaitable<readonly VersionInfo[]>;
  /**
   * Stores archive groups so that the manager can drop them from memory. Never rewrites a stored
   * group: one sent again with the same content is skipped, one with other content throws
   * `ConflictError`. Optional, together with `readArchive`: without both, the archive stays in
   * memory (`archive-spill` reports `isUnsupported`).
   */
  appendArchive?(sessionId: string, groups: readonly ArchiveGroup[]): Awaitable<void>;
  /** Returns the stored archive groups among `seqs`, in `seq` order; unknown seqs are left out. Optional. */
  readArchive?(sessionId: string, options: { seqs: readonly number[] }): Awaitable<readonly ArchiveGroup[]>;
  /** Releases handles. Optional. */
  dispose?(): Awaitable<void>;
}

/** Tells whether `storage` can hold spilled archive groups (`appendArchive` and `readArchive`). */
export function isArchiveStorage(storage: Storage): storage is Storage & Required<Pick<Storage, 'appendArchive' | 'readArchive'>> {
  return typeof storage.appendArchive === 'function' && typeof storage.readArchive === 'function';
}

/** Tells whether `value` looks like a {@link Storage}. */
export function isStorage(value: unknown): value is Storage {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return (
    typeof candidate['name'] === 'string' &&
    typeof candidate['append'] === 'function' &&
    typeof candidate['read'] === 'function' &&
    typeof candidate['saveSnapshot'] === 'function' &&
    typeof candidate['loadSnapshot'] === 'function'
  );
}

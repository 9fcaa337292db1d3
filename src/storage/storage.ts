import type { SessionEvent } from '../session-event.js';
import type { Awaitable } from '../types.js';

/** A saved, folded view of a session, so that a long session loads without a full replay. */
export interface SessionSnapshot {
  /** Format of `state`; `load()` throws `CORRUPT_STATE` for a format it does not know. */
  readonly formatVersion: number;
  /** Sequence number of the last event folded into `state`. */
  readonly seq: number;
  /** The folded view, as produced by the core. Treat it as opaque JSON. */
  readonly state: unknown;
}

/** Persists a session. Implement it to back Mobius with Redis, Postgres, SQLite… */
export interface Storage {
  /** Identifies this storage in errors and events, e.g. `"memory"`. */
  readonly name: string;
  /**
   * Appends events to the session's log, in order. Never rewrites earlier events. After a failed
   * call the same events may be sent again: storing a seq twice is harmless (load keeps the first).
   */
  append(sessionId: string, events: readonly SessionEvent[]): Awaitable<void>;
  /** Returns the session's events with `seq > afterSeq`, oldest first. */
  read(sessionId: string, options: { afterSeq: number }): Awaitable<readonly SessionEvent[]>;
  /** Saves a snapshot atomically; on failure the previous snapshot stays loadable. */
  saveSnapshot(sessionId: string, snapshot: SessionSnapshot): Awaitable<void>;
  /** Returns the newest snapshot, or `null` when none was saved. */
  loadSnapshot(sessionId: string): Awaitable<SessionSnapshot | null>;
  /** Releases handles. Optional. */
  dispose?(): Awaitable<void>;
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

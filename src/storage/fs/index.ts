import { resolve } from 'node:path';
import { z } from 'zod';
import { parse } from '../../validation.js';
import type { Storage } from '../storage.js';
import { createVersionedStorage } from '../versioned.js';
import { createFileBackend } from './file-backend.js';
import { sessionFolder, statePath } from './layout.js';

export { createFileBackend } from './file-backend.js';
export type { FileBackendOptions } from './file-backend.js';

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
 * It is {@link createFileBackend} under the same versioned layer as every other storage.
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
  const parsed = parse(optionsSchema, options, 'createFileStorage', "createFileStorage({ directory: '.mobius/sessions', versions: 5 })");
  const backend = createFileBackend({ directory: parsed.directory, name: parsed.name, lockRetries: parsed.lockRetries });
  const onRecover = parsed.onRecover;
  const root = resolve(parsed.directory);
  return createVersionedStorage(backend, {
    versions: parsed.versions,
    formatVersion: parsed.formatVersion ?? 1,
    migrate: parsed.migrate,
    onRecover:
      onRecover === undefined
        ? undefined
        : (info) => {
            const file = statePath(sessionFolder(root, info.sessionId), info.version);
            onRecover({ sessionId: info.sessionId, file, movedTo: info.movedTo ?? file, reason: info.reason, loadedVersion: info.loadedVersion });
          },
  });
}

// --- Internal helpers ---

const optionsSchema = z.strictObject({
  directory: z.string().min(1),
  versions: z.number().int().positive().optional(),
  name: z.string().min(1).optional(),
  formatVersion: z.number().int().min(0).optional(),
  migrate: z.custom<(snapshot: unknown, formatVersion: number) => unknown>((value) => typeof value === 'function', 'expected a function').optional(),
  onRecover: z.custom<(info: FileStorageRecovery) => void>((value) => typeof value === 'function', 'expected a function').optional(),
  lockRetries: z.number().int().min(0).optional(),
});

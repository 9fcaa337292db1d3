import type { ContextManagerOptions } from '../options.js';
import { resolveOptions } from '../options-schema.js';
import type { SessionComponents } from '../session-components.js';
import type { SessionViewData } from '../session-view.js';
import type { Storage, VersionInfo } from '../storage/storage.js';
import { notifyViewRestore } from '../view-restore.js';
import { SessionPersistence } from './session-persistence.js';
import type { SettleResult, StoredSession } from './session-persistence.js';
import { versionLabel } from './snapshot-format.js';

/** The public calls of a manager that version operations go through. @internal */
export interface VersionedManager {
  /** Waits for scheduled work and pending appends. */
  settle(): Promise<SettleResult>;
  /** Saves a snapshot of the folded view. */
  save(options: { label?: string | undefined }): Promise<void>;
}

/**
 * Reads what `ContextManager.load()` restores: the newest snapshot of the session and the events
 * appended after it.
 * @throws {InvalidArgumentError} when an option is invalid.
 * @internal
 */
export async function readStoredSession(options: ContextManagerOptions & { storage: Storage }): Promise<StoredSession> {
  const resolved = resolveOptions(options);
  return SessionPersistence.read({ storage: resolved.storage as Storage, sessionId: resolved.sessionId });
}

/**
 * Saves a named checkpoint through `manager.save()` and returns the version it got.
 * @internal
 */
export async function snapshotSession(options: { manager: VersionedManager; session: SessionComponents; label: string }): Promise<VersionInfo> {
  const { session, label } = options;
  await options.manager.save({ label });
  return { version: session.persistence.version, seq: session.recorder.view.lastSeq, label };
}

/**
 * Restores the view from a saved version and saves it anew, once scheduled work has settled.
 * Whoever keeps a picture of the manager's history (the adapters) re-derives it from the view.
 * @internal
 */
export async function rollbackSession(options: { manager: VersionedManager; session: SessionComponents; sessionId: string; version: number }): Promise<void> {
  const { manager, session, sessionId, version } = options;
  await manager.settle();
  session.recorder.restore((await session.persistence.loadVersion({ method: 'rollback', version })).state);
  notifyViewRestore(manager);
  await manager.save({ label: versionLabel({ method: 'rollback', sessionId, version }) });
}

/**
 * Starts a new session (made by `create`) from a saved version, copies the archive groups it
 * spilled to the new session id, and saves it; the original session is untouched.
 * @internal
 */
export async function forkSession<M extends VersionedManager>(options: {
  manager: VersionedManager;
  session: SessionComponents;
  /** Options the original manager was constructed with. */
  constructorOptions: ContextManagerOptions;
  sessionId: string;
  toSessionId: string;
  version: number | undefined;
  create: (options: ContextManagerOptions & { initialState: SessionViewData }) => M;
}): Promise<M> {
  const { session } = options;
  await options.manager.settle();
  const loaded = await session.persistence.loadVersion({ method: 'fork', version: options.version });
  await session.persistence.copySpilledArchive({ state: loaded.state, toSessionId: options.toSessionId });
  const forked = options.create({ ...options.constructorOptions, sessionId: options.toSessionId, initialState: loaded.state });
  await forked.save({ label: versionLabel({ method: 'fork', sessionId: options.sessionId, version: loaded.version }) });
  return forked;
}

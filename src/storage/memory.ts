import { z } from 'zod';
import { ConflictError } from '../errors.js';
import type { SessionEvent } from '../session-event.js';
import { parse } from '../validation.js';
import type { SessionSnapshot, Storage, VersionInfo } from './storage.js';

/** Options for {@link createMemoryStorage}. */
export interface MemoryStorageOptions {
  /** Identifies the storage in events and errors. @default 'memory' */
  name?: string | undefined;
  /** Unlabelled snapshot versions kept per session (older ones are dropped; labelled ones are kept). @default 5 */
  versions?: number | undefined;
}

/**
 * Creates a storage that keeps sessions in memory. Events and snapshots are copied through JSON
 * so that later mutations by the caller cannot change what was stored.
 */
export function createMemoryStorage(options: MemoryStorageOptions = {}): Storage {
  const parsed = parse(
    z.strictObject({ name: z.string().min(1).optional(), versions: z.number().int().positive().optional() }),
    options,
    'createMemoryStorage',
    "createMemoryStorage({ name: 'memory' })",
  );
  const name = parsed.name ?? 'memory';
  const keep = parsed.versions ?? 5;
  const logs = new Map<string, { seq: number; text: string }[]>();
  const snapshots = new Map<string, { version: number; seq: number; label?: string | undefined; text: string }[]>();
  return {
    name,
    append(sessionId, events) {
      const log = logs.get(sessionId) ?? [];
      const lastSeq = log[log.length - 1]?.seq ?? 0;
      const fresh: { seq: number; text: string }[] = [];
      for (const event of events) {
        const text = JSON.stringify(event);
        if (event.seq <= lastSeq) {
          const stored = log.find((item) => item.seq === event.seq);
          if (stored?.text === text) continue;
          throw new ConflictError({
            storage: name,
            expected: event.seq - 1,
            actual: lastSeq,
            message: `storage "${name}": event #${event.seq} of session "${sessionId}" was already written by another writer. Load the session again and re-apply what this manager recorded since.`,
          });
        }
        fresh.push({ seq: event.seq, text });
      }
      // In place: copying the whole log on every append would make a session quadratic.
      if (!logs.has(sessionId)) logs.set(sessionId, log);
      for (const item of fresh) log.push(item);
    },
    read(sessionId, { afterSeq }) {
      const log = logs.get(sessionId) ?? [];
      return log.filter((item) => item.seq > afterSeq).map((item) => JSON.parse(item.text) as SessionEvent);
    },
    saveSnapshot(sessionId, snapshot, saveOptions = {}) {
      const list = snapshots.get(sessionId) ?? [];
      const current = list[list.length - 1]?.version ?? 0;
      if (saveOptions.expectedVersion !== undefined && saveOptions.expectedVersion !== current) {
        throw new ConflictError({
          storage: name,
          expected: saveOptions.expectedVersion,
          actual: current,
          message: `storage "${name}": session "${sessionId}" is at version ${current}, but this writer expected ${saveOptions.expectedVersion}. Another writer saved it first; load it again and re-apply what this manager recorded since.`,
        });
      }
      const version = current + 1;
      const { version: _ignored, ...rest } = snapshot;
      list.push({ version, seq: snapshot.seq, label: snapshot.label, text: JSON.stringify(rest) });
      // Labelled versions are named checkpoints: only unlabelled ones are pruned.
      const unlabelled = list.filter((item) => item.label === undefined);
      const dropped = new Set(unlabelled.slice(0, Math.max(0, unlabelled.length - keep)));
      snapshots.set(sessionId, list.filter((item) => !dropped.has(item)));
      return version;
    },
    loadSnapshot(sessionId, loadOptions = {}) {
      const list = snapshots.get(sessionId) ?? [];
      const item = loadOptions.version === undefined ? list[list.length - 1] : list.find((candidate) => candidate.version === loadOptions.version);
      return item === undefined ? null : { ...(JSON.parse(item.text) as SessionSnapshot), version: item.version };
    },
    listVersions(sessionId) {
      const list = snapshots.get(sessionId) ?? [];
      return list
        .map((item): VersionInfo => ({ version: item.version, seq: item.seq, ...(item.label === undefined ? {} : { label: item.label }) }))
        .reverse();
    },
    dispose() {
      logs.clear();
      snapshots.clear();
    },
  };
}

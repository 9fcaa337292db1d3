import { z } from 'zod';
import { parse } from '../validation.js';
import type { StorageBackend, StoredRecord, StoredVersion } from './backend.js';
import type { Storage } from './storage.js';
import { createVersionedStorage } from './versioned.js';

/** Options for {@link createMemoryStorage}. */
export interface MemoryStorageOptions {
  /** Identifies the storage in events and errors. @default 'memory' */
  name?: string | undefined;
  /** Unlabelled snapshot versions kept per session (older ones are dropped; labelled ones are kept). @default 5 */
  versions?: number | undefined;
}

/**
 * Creates a storage that keeps sessions in memory: {@link createMemoryBackend} under the shared
 * versioned layer. Events and snapshots are kept as JSON text, so later mutations by the caller
 * cannot change what was stored.
 */
export function createMemoryStorage(options: MemoryStorageOptions = {}): Storage {
  const parsed = parse(
    z.strictObject({ name: z.string().min(1).optional(), versions: z.number().int().positive().optional() }),
    options,
    'createMemoryStorage',
    "createMemoryStorage({ name: 'memory' })",
  );
  return createVersionedStorage(createMemoryBackend({ name: parsed.name ?? 'memory' }), { versions: parsed.versions });
}

/** Creates the in-memory {@link StorageBackend}: a list of records, a map of versions and one of archive groups per session. */
export function createMemoryBackend(options: { name?: string | undefined } = {}): StorageBackend {
  const records = new Map<string, StoredRecord[]>();
  const versions = new Map<string, Map<number, StoredVersion & { text: string }>>();
  const archives = new Map<string, Map<number, string>>();
  return {
    name: options.name ?? 'memory',
    readRecords: (sessionId, { afterSeq }) => {
      const log = records.get(sessionId) ?? [];
      return log.slice(firstAfter(log, afterSeq));
    },
    appendRecords: (sessionId, batch) => {
      // In place: copying the whole log on every append would make a session quadratic.
      const log = records.get(sessionId) ?? [];
      records.set(sessionId, log);
      log.push(...batch);
    },
    listVersions: (sessionId) => [...(versions.get(sessionId)?.values() ?? [])].map(({ text: _text, ...info }) => info),
    readVersion: (sessionId, version) => versions.get(sessionId)?.get(version)?.text ?? null,
    writeVersion: (sessionId, version) => {
      const stored = versions.get(sessionId) ?? new Map<number, StoredVersion & { text: string }>();
      versions.set(sessionId, stored);
      if (stored.has(version.version)) return false;
      stored.set(version.version, { version: version.version, seq: version.seq, label: version.label, text: version.text });
      return true;
    },
    deleteVersion: (sessionId, version) => {
      versions.get(sessionId)?.delete(version);
    },
    appendArchiveRecords: (sessionId, batch) => {
      const stored = archives.get(sessionId) ?? new Map<number, string>();
      archives.set(sessionId, stored);
      for (const record of batch) stored.set(record.seq, record.text);
    },
    readArchiveRecords: (sessionId, { seqs }) => {
      const stored = archives.get(sessionId);
      if (stored === undefined) return [];
      return [...new Set(seqs)].sort((left, right) => left - right).flatMap((seq) => {
        const text = stored.get(seq);
        return text === undefined ? [] : [{ seq, text }];
      });
    },
    dispose: () => {
      records.clear();
      versions.clear();
      archives.clear();
    },
  };
}

// --- Internal helpers ---

/** Index of the first record with `seq > afterSeq` (the log is in seq order). */
function firstAfter(log: readonly StoredRecord[], afterSeq: number): number {
  let low = 0;
  let high = log.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((log[middle]?.seq ?? 0) <= afterSeq) low = middle + 1;
    else high = middle;
  }
  return low;
}

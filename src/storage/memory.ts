import type { SessionEvent } from '../session-event.js';
import type { SessionSnapshot, Storage } from './storage.js';
import { parse } from '../validation.js';
import { z } from 'zod';

/** Options for {@link createMemoryStorage}. */
export interface MemoryStorageOptions {
  /** Identifies the storage in events and errors. @default 'memory' */
  name?: string | undefined;
}

/**
 * Creates a storage that keeps sessions in memory. Events and snapshots are deep-copied through
 * JSON so that later mutations by the caller cannot change what was stored.
 */
export function createMemoryStorage(options: MemoryStorageOptions = {}): Storage {
  const parsed = parse(z.strictObject({ name: z.string().min(1).optional() }), options, 'createMemoryStorage', "createMemoryStorage({ name: 'memory' })");
  const logs = new Map<string, SessionEvent[]>();
  const snapshots = new Map<string, string>();
  return {
    name: parsed.name ?? 'memory',
    append(sessionId, events) {
      const log = logs.get(sessionId) ?? [];
      const copies = events.map((event) => clone(event));
      for (const copy of copies) log.push(copy);
      logs.set(sessionId, log);
    },
    read(sessionId, { afterSeq }) {
      const log = logs.get(sessionId) ?? [];
      return log.filter((event) => event.seq > afterSeq).map((event) => clone(event));
    },
    saveSnapshot(sessionId, snapshot) {
      snapshots.set(sessionId, JSON.stringify(snapshot));
    },
    loadSnapshot(sessionId) {
      const text = snapshots.get(sessionId);
      return text === undefined ? null : (JSON.parse(text) as SessionSnapshot);
    },
    dispose() {
      logs.clear();
      snapshots.clear();
    },
  };
}

// --- Internal helpers ---

function clone<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

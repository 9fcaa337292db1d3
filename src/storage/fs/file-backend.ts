import { rename } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { z } from 'zod';
import { InvalidArgumentError, describeValue } from '../../errors.js';
import type { QuarantinedVersion, StorageBackend, StoredRecord, StoredVersion } from '../backend.js';
import { createAtomic, ensureDirectory, isDirectory, readText, replaceAtomic, statQuietly, syncDirectory, unlinkQuietly } from './files.js';
import { appendLines, decodeRecord, encodeRecord, readLog, readSegment } from './journal.js';
import type { Layout, SessionFolder } from './layout.js';
import { CORRUPT_PATTERN, MARKER_FILE, archivePath, journalPath, scan, sessionFolder, statePath } from './layout.js';
import { LockHeldError, acquireLock, isProcessAlive } from './lock.js';

/** Options of {@link createFileBackend}. */
export interface FileBackendOptions {
  /** Folder holding one sub-folder per session. Created on the first write, not before. */
  readonly directory: string;
  /** Identifies the backend in errors and events. @default 'fs' */
  readonly name?: string | undefined;
  /** Tries to take a session's lock held by another live process. @default 200 */
  readonly lockRetries?: number | undefined;
}

/**
 * Creates the file-system {@link StorageBackend}: one folder per session with checksummed,
 * immutable `state-<version>.json` files and a fsynced journal per version
 * (`journal-<version>.jsonl`, the events after that version's seq), under a per-session lock
 * file. `createFileStorage()` puts the versioned layer on top of it.
 */
export function createFileBackend(options: FileBackendOptions): StorageBackend {
  const name = options.name ?? 'fs';
  const root = resolve(options.directory);
  const lockRetries = options.lockRetries ?? 200;
  // State files are immutable once committed (a new save makes a new version number), so what was
  // read from one can be cached by path. The journal cache lets an append skip re-reading the
  // journal when nothing but this instance wrote to it since.
  const stateInfos = new Map<string, { seq: number; label: string | undefined } | null>();
  const journalCache = new Map<string, { version: number; size: number; ino: number; mtimeMs: number; lastSeq: number }>();
  const verifiedSessions = new Set<string>();

  const folder = (sessionId: string): SessionFolder => sessionFolder(root, sessionId);

  // A case-insensitive file system maps "Ticket" and "ticket" to one folder; the marker file keeps
  // two sessions from silently sharing it.
  const verifyOwner = async (session: SessionFolder, isCreating: boolean): Promise<void> => {
    if (verifiedSessions.has(session.id)) return;
    const markerPath = join(session.directory, MARKER_FILE);
    const text = await readText(markerPath);
    if (text === undefined) {
      if (!isCreating) return;
      await replaceAtomic(markerPath, `${JSON.stringify({ sessionId: session.id })}\n`);
    } else {
      let owner: unknown;
      try {
        owner = (JSON.parse(text) as { sessionId?: unknown }).sessionId;
      } catch {
        owner = undefined;
      }
      if (typeof owner === 'string' && owner !== session.id) {
        throw new InvalidArgumentError({
          parameter: 'sessionId',
          value: session.id,
          message: `session id ${describeValue(session.id)} maps to the folder of session ${describeValue(owner)} (${session.directory}) on this case-insensitive file system. Use session ids that differ in more than letter case.`,
        });
      }
    }
    verifiedSessions.add(session.id);
  };

  const stateInfo = async (session: SessionFolder, version: number): Promise<{ seq: number; label: string | undefined } | null> => {
    const path = statePath(session, version);
    const cached = stateInfos.get(path);
    if (cached !== undefined) return cached;
    const text = await readText(path);
    if (text === undefined) return null;
    let info: { seq: number; label: string | undefined } | null = null;
    try {
      const body = decodeRecord(text);
      const result = body === undefined ? undefined : stateInfoSchema.safeParse(JSON.parse(body));
      if (result?.success === true) info = { seq: result.data.seq, label: result.data.label };
    } catch {
      info = null;
    }
    stateInfos.set(path, info);
    return info;
  };

  // The journal that appends go to: the one of the newest state file, readable or not.
  const appendTarget = async (session: SessionFolder, layout: Layout) => {
    const version = layout.states[0] ?? 0;
    const path = journalPath(session, version);
    const info = await statQuietly(path);
    const cached = journalCache.get(session.id);
    const isCached =
      cached !== undefined && info !== undefined && cached.version === version && cached.size === info.size && cached.ino === info.ino && cached.mtimeMs === info.mtimeMs;
    return { version, path, info, lastSeq: isCached ? cached.lastSeq : undefined };
  };

  // Runs under the lock: any temp file is left over from a writer that crashed; so is the lock
  // candidate of a process that no longer exists.
  const removeLeftovers = async (session: SessionFolder, layout: Layout): Promise<void> => {
    for (const entry of layout.temporary) await unlinkQuietly(join(session.directory, entry));
    for (const candidate of layout.candidates) {
      if (!isProcessAlive(candidate.pid)) await unlinkQuietly(join(session.directory, candidate.name));
    }
  };

  return {
    name,

    async withLock(sessionId, { isWriting }, task) {
      const session = folder(sessionId);
      if (isWriting) await ensureDirectory(session.directory);
      // Reads of a session that does not exist create nothing; the task finds no files.
      else if (!(await isDirectory(session.directory))) return task();
      const release = await acquireLock({ directory: session.directory, retries: lockRetries });
      try {
        await verifyOwner(session, isWriting);
        return await task();
      } finally {
        await release();
      }
    },

    async readRecords(sessionId, { afterSeq }) {
      const session = folder(sessionId);
      const layout = await scan(session.directory);
      const target = await appendTarget(session, layout);
      if (target.lastSeq !== undefined && afterSeq >= target.lastSeq) return [];
      const log = await readLog({ storage: name, session, layout });
      const records: StoredRecord[] = [];
      for (const [seq, text] of log.texts) if (seq > afterSeq) records.push({ seq, text });
      return records;
    },

    async appendRecords(sessionId, records) {
      const session = folder(sessionId);
      const target = await appendTarget(session, await scan(session.directory));
      let validEnd = target.info?.size ?? 0;
      if (target.lastSeq === undefined && target.info !== undefined) validEnd = (await readSegment({ storage: name, path: target.path }))?.validEnd ?? 0;
      const text = `${records.map((record) => encodeRecord(record.text)).join('\n')}\n`;
      const truncateTo = target.info !== undefined && target.info.size > validEnd ? validEnd : undefined;
      const written = await appendLines({ path: target.path, text, truncateTo });
      if (target.info === undefined) await syncDirectory(session.directory);
      journalCache.set(session.id, { version: target.version, ...written, lastSeq: records[records.length - 1]?.seq ?? 0 });
    },

    // One immutable, checksummed file per archive group, created like a state file: a crash leaves
    // either the whole group or none, and a group is never overwritten.
    async appendArchiveRecords(sessionId, records) {
      const session = folder(sessionId);
      for (const record of records) {
        const path = archivePath(session, record.seq);
        await ensureDirectory(dirname(path));
        // The record's text is kept as a JSON string inside a checksummed object.
        const body = JSON.stringify({ seq: record.seq, text: record.text });
        if (!(await createAtomic(path, encodeRecord(body)))) {
          const existing = await readText(path);
          if (existing === undefined || decodeRecord(existing) !== body) throw new Error(`archive group file ${path} exists with other content`);
        }
      }
    },

    async readArchiveRecords(sessionId, { seqs }) {
      const session = folder(sessionId);
      const records: StoredRecord[] = [];
      for (const seq of [...new Set(seqs)].sort((left, right) => left - right)) {
        const path = archivePath(session, seq);
        const text = await readText(path);
        if (text === undefined) continue;
        const body = decodeRecord(text);
        const parsed = body === undefined ? undefined : archiveFileSchema.safeParse(JSON.parse(body));
        if (parsed?.success !== true || parsed.data.seq !== seq) throw new Error(`archive group file ${path} is damaged (checksum missing or wrong)`);
        records.push({ seq, text: parsed.data.text });
      }
      return records;
    },

    async listVersions(sessionId) {
      const session = folder(sessionId);
      const layout = await scan(session.directory);
      const versions: StoredVersion[] = [];
      for (const version of layout.states) {
        const info = await stateInfo(session, version);
        versions.push({ version, seq: info?.seq, label: info?.label, hasRecordsAfter: layout.journals.includes(version) });
      }
      return versions;
    },

    async readVersion(sessionId, version) {
      const text = await readText(statePath(folder(sessionId), version));
      if (text === undefined) return null;
      return decodeRecord(text) ?? { damaged: 'checksum missing or wrong: the file was damaged or edited' };
    },

    async writeVersion(sessionId, { version, seq, label, text }) {
      const session = folder(sessionId);
      const layout = await scan(session.directory);
      if (layout.states.includes(version)) return false;
      // Read the journals before committing, so that a damaged journal fails the save cleanly.
      const log = await readLog({ storage: name, session, layout });
      await removeLeftovers(session, layout);
      // The new version's journal comes first and starts with every stored event the snapshot
      // does not fold in: a state file never exists without the journal it needs, and no event
      // depends on an older journal that a later prune deletes. A journal without its state file
      // is debris of a save that crashed in between: it is replaced.
      const carried = [...log.texts].filter(([eventSeq]) => eventSeq > seq).map(([, body]) => `${encodeRecord(body)}\n`);
      if (!(await createAtomic(journalPath(session, version), carried.join('')))) await replaceAtomic(journalPath(session, version), carried.join(''));
      // The state file is created exclusively, so even a wrongly broken lock cannot overwrite a version.
      if (!(await createAtomic(statePath(session, version), encodeRecord(text)))) return false;
      stateInfos.set(statePath(session, version), { seq, label });
      journalCache.delete(session.id);
      return true;
    },

    // Keeps the journals from the oldest kept unlabelled version on (from journal-0 while version 1
    // is kept, so that the whole log can still be replayed if every state file goes bad).
    async deleteVersion(sessionId, version) {
      const session = folder(sessionId);
      await unlinkQuietly(statePath(session, version));
      stateInfos.delete(statePath(session, version));
      const layout = await scan(session.directory);
      const unlabelled: number[] = [];
      for (const kept of layout.states) if ((await stateInfo(session, kept))?.label === undefined) unlabelled.push(kept);
      const floor = Math.min(...(unlabelled.length > 0 ? unlabelled : layout.states));
      const journalFloor = floor <= 1 ? 0 : floor;
      for (const old of layout.journals) if (old < journalFloor) await unlinkQuietly(journalPath(session, old));
      await syncDirectory(session.directory);
    },

    async quarantineVersion(sessionId, version) {
      const session = folder(sessionId);
      const layout = await scan(session.directory);
      let index = 1;
      for (const corrupt of layout.corrupt) {
        const match = CORRUPT_PATTERN.exec(corrupt);
        if (match?.[1] === String(version)) index = Math.max(index, Number(match[2]) + 1);
      }
      const movedTo = `${statePath(session, version)}.corrupt-${index}`;
      await rename(statePath(session, version), movedTo);
      await syncDirectory(session.directory);
      stateInfos.delete(statePath(session, version));
      return movedTo;
    },

    async listQuarantined(sessionId) {
      const session = folder(sessionId);
      return (await scan(session.directory)).corrupt.map((entry): QuarantinedVersion => ({ version: Number(CORRUPT_PATTERN.exec(entry)?.[1] ?? 0), movedTo: join(session.directory, entry) }));
    },

    describeFailure(error) {
      if (error instanceof LockHeldError) return 'If no process is using this session any more (e.g. it ran on another machine and crashed), delete that file and retry.';
      const code = (error as { code?: unknown } | null)?.code;
      if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return `Check that ${root} is writable by this process.`;
      if (code === 'ENOSPC' || code === 'EDQUOT') return 'Free some disk space and retry.';
      return undefined;
    },

    dispose() {
      stateInfos.clear();
      journalCache.clear();
      verifiedSessions.clear();
    },
  };
}

// --- Internal helpers ---

const archiveFileSchema = z.object({ seq: z.number().int(), text: z.string() });
const stateInfoSchema = z.looseObject({ seq: z.number().int().min(0), label: z.string().optional() });

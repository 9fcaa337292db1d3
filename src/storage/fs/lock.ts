import { randomUUID } from 'node:crypto';
import { link, rename } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { createExclusive, isMissing, readText, unlinkQuietly, writeFileSynced } from './files.js';
import { LOCK_FILE } from './layout.js';

/** Thrown when another live process kept a session's lock through every retry. */
export class LockHeldError extends Error {
  override name = 'LockHeldError';
  /** The lock file to delete if its owner is known to be gone. */
  readonly lockPath: string;
  constructor(options: { lockPath: string; owner: { pid: number; hostname: string } }) {
    super(`could not take the lock: ${options.lockPath} is held by process ${options.owner.pid} on ${options.owner.hostname}`);
    this.lockPath = options.lockPath;
  }
}

/**
 * Takes the lock of a session folder and returns its release. The lock file is created whole
 * (a hard link of a complete file) and names its owner: pid, host and process start time. A lock
 * whose owner is gone from this machine — or was an earlier process with the same pid, as in a
 * restarted container — is broken at once, so a crashed writer never blocks the session. A lock
 * held by a live process (or by another machine) is waited for, `retries` times with a growing
 * delay of at most 50 ms.
 *
 * Why not a lock library: mkdir-based locks (proper-lockfile) cannot carry their owner atomically
 * and detect staleness by age only, so after a crash the next writer waits for the stale timeout
 * (at least 2 s) instead of breaking the lock at once; the crash-injection test kills writers
 * 200 times per run and the contract suite checks the immediate break.
 * @throws {LockHeldError} when a live owner keeps the lock through every retry.
 */
export async function acquireLock(options: { directory: string; retries: number }): Promise<() => Promise<void>> {
  const token = randomUUID();
  const body = JSON.stringify({ pid: process.pid, hostname: HOST, started: PROCESS_STARTED, token });
  const lockPath = join(options.directory, LOCK_FILE);
  const candidate = join(options.directory, `${LOCK_FILE}.${process.pid}.${token}.candidate`);
  await writeFileSynced(candidate, body, false);
  let unreadable: string | undefined;
  try {
    for (let waits = 0; ; ) {
      if (await createExclusive(candidate, lockPath)) {
        return async () => {
          if ((await readText(lockPath)) === body) await unlinkQuietly(lockPath);
        };
      }
      const held = await readText(lockPath);
      if (held === undefined) continue;
      const owner = parseLockOwner(held);
      // An unreadable lock is debris of a crash, except on file systems without hard links,
      // where it may be a lock still being written: break it only when it stays the same.
      const isStale = owner === undefined ? held === unreadable : isOwnerGone(owner);
      unreadable = owner === undefined ? held : undefined;
      if (isStale) {
        await breakLock({ lockPath, staleText: held, token });
      } else if (owner === undefined) {
        await delay(1);
      } else if (waits < options.retries) {
        await delay(Math.min(50, 2 ** waits));
        waits += 1;
      } else {
        throw new LockHeldError({ lockPath, owner });
      }
    }
  } finally {
    await unlinkQuietly(candidate);
  }
}

/** Tells whether a process with this pid runs on this machine. */
export function isProcessAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: unknown }).code === 'EPERM';
  }
}

// --- Internal helpers ---

// Identifies this process among all that ever had its pid: the time it started.
const PROCESS_STARTED: number = performance.timeOrigin;
const HOST = hostname();

interface LockOwner {
  readonly pid: number;
  readonly hostname: string;
  readonly started: number | undefined;
}

function parseLockOwner(text: string): LockOwner | undefined {
  try {
    const value = JSON.parse(text) as { pid?: unknown; hostname?: unknown; started?: unknown };
    if (typeof value.pid === 'number' && Number.isInteger(value.pid) && typeof value.hostname === 'string') {
      return { pid: value.pid, hostname: value.hostname, started: typeof value.started === 'number' ? value.started : undefined };
    }
  } catch {
    // Unreadable: see acquireLock().
  }
  return undefined;
}

/**
 * Tells whether the process that took a lock is gone. Only processes on this machine can be
 * checked. A lock with this process's pid but another start time was left by an earlier process
 * that had the same pid (common in containers, where the pid is the same at every start).
 */
function isOwnerGone(owner: LockOwner): boolean {
  if (owner.hostname !== HOST) return false;
  if (owner.pid === process.pid) return owner.started !== PROCESS_STARTED;
  return !isProcessAlive(owner.pid);
}

/**
 * Removes a lock whose owner is gone. Renaming first makes the check-and-remove safe against a
 * second breaker: if the renamed file is not the stale lock we inspected (someone else broke it
 * and took the lock meanwhile), it is put back.
 */
async function breakLock(options: { lockPath: string; staleText: string; token: string }): Promise<void> {
  const aside = `${options.lockPath}.stale-${options.token}`;
  try {
    await rename(options.lockPath, aside);
  } catch (error) {
    if (isMissing(error)) return;
    throw error;
  }
  if ((await readText(aside)) !== options.staleText) {
    try {
      await link(aside, options.lockPath);
    } catch {
      // Another process took the lock in between; the live lock was ours to restore, not to own.
    }
  }
  await unlinkQuietly(aside);
}

function delay(milliseconds: number): Promise<void> {
  return new Promise((resolvePromise) => setTimeout(resolvePromise, milliseconds));
}

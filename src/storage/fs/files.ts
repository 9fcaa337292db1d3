import { randomUUID } from 'node:crypto';
import type { Stats } from 'node:fs';
import { link, mkdir, open, readFile, stat, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import writeFileAtomic from 'write-file-atomic';

// Owner-only: sessions hold what the agent saw, and redaction cannot catch every secret.
/** Mode of every file the file storage creates. */
export const FILE_MODE = 0o600;
/** Mode of every folder the file storage creates. */
export const DIRECTORY_MODE = 0o700;
/** Matches the temp files of {@link createAtomic} and of write-file-atomic (`<name>.<number>`). */
export const TEMPORARY_PATTERN: RegExp = /\.tmp-[0-9a-f-]+$|^session\.json\.\d+$/;

/** Creates `directory` (mode 700) and makes its entry durable. */
export async function ensureDirectory(directory: string): Promise<void> {
  const created = await mkdir(directory, { recursive: true, mode: DIRECTORY_MODE });
  // A new folder is durable only once its parent's entry is.
  if (created !== undefined) await syncDirectory(dirname(created));
}

/** Tells whether `path` is a folder (`false` when it does not exist). */
export async function isDirectory(path: string): Promise<boolean> {
  return (await statQuietly(path))?.isDirectory() ?? false;
}

/** `stat()`, or `undefined` when `path` does not exist. */
export async function statQuietly(path: string): Promise<Stats | undefined> {
  try {
    return await stat(path);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/** Reads a UTF-8 file, or `undefined` when it does not exist. */
export async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

/** Deletes a file; a missing one is fine. */
export async function unlinkQuietly(path: string): Promise<void> {
  try {
    await unlink(path);
  } catch (error) {
    if (!isMissing(error)) throw error;
  }
}

/** Creates `path` exclusively (mode 600) with `data`, fsynced when `isSynced`. */
export async function writeFileSynced(path: string, data: string, isSynced: boolean): Promise<void> {
  const handle = await open(path, 'wx', FILE_MODE);
  try {
    await handle.writeFile(data, 'utf8');
    if (isSynced) await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Creates `path` with `data`, atomically and never over an existing file: a temp file, fsync, a
 * hard link that fails if `path` exists, then fsync of the folder. Returns `false` when `path`
 * already existed. (Libraries that write atomically replace the target with a rename; a version
 * must never be replaced, so this one links.)
 */
export async function createAtomic(path: string, data: string): Promise<boolean> {
  const temporary = `${path}.tmp-${randomUUID()}`;
  try {
    await writeFileSynced(temporary, data, true);
    if (!(await createExclusive(temporary, path))) return false;
  } finally {
    await unlinkQuietly(temporary);
  }
  await syncDirectory(dirname(path));
  return true;
}

/** Replaces `path` with `data` atomically (temp file, fsync, rename), then fsyncs the folder. */
export async function replaceAtomic(path: string, data: string): Promise<void> {
  await writeFileAtomic(path, data, { encoding: 'utf8', mode: FILE_MODE });
  // write-file-atomic makes the content durable, not the name: that takes an fsync of the folder.
  await syncDirectory(dirname(path));
}

/** Gives `source`'s content the name `target` unless `target` exists; atomic where hard links work. */
export async function createExclusive(source: string, target: string): Promise<boolean> {
  try {
    await link(source, target);
    return true;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
  }
  // File systems without hard links: exclusive create of the target, then copy the content in.
  try {
    const handle = await open(target, 'wx', FILE_MODE);
    try {
      await handle.writeFile(await readFile(source));
      await handle.sync();
    } finally {
      await handle.close();
    }
    return true;
  } catch (error) {
    if ((error as { code?: unknown }).code === 'EEXIST') return false;
    throw error;
  }
}

/** fsyncs a folder, so that the names created or removed in it are durable. */
export async function syncDirectory(directory: string): Promise<void> {
  // Windows cannot open a folder for fsync; NTFS journals renames itself.
  if (process.platform === 'win32') return;
  let handle;
  try {
    handle = await open(directory, 'r');
    await handle.sync();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code !== 'EISDIR' && code !== 'EINVAL' && code !== 'EPERM' && code !== 'ENOTSUP') throw error;
  } finally {
    await handle?.close();
  }
}

/** Tells whether a file-system error says that the path does not exist. */
export function isMissing(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'ENOENT';
}

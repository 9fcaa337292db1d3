import { readdir } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { InvalidArgumentError, describeValue } from '../../errors.js';
import { TEMPORARY_PATTERN, isMissing } from './files.js';

/** The files of one session folder, by kind, as {@link scan} found them. */
export interface Layout {
  /** Versions with a `state-<n>.json`, newest first. */
  readonly states: number[];
  /** Versions with a `journal-<n>.jsonl`, oldest first. */
  readonly journals: number[];
  /** Names of moved-aside state files (`state-<n>.json.corrupt-<k>`). */
  readonly corrupt: string[];
  /** Names of temp files left by an interrupted write. */
  readonly temporary: string[];
  /** Names of lock candidates, with the pid that made them. */
  readonly candidates: { name: string; pid: number }[];
}

/** Where a session lives: its id and its folder. */
export interface SessionFolder {
  readonly id: string;
  readonly directory: string;
}

/** Name of the file that records which session id owns a folder. */
export const MARKER_FILE = 'session.json';
/** Name of the session's lock file. */
export const LOCK_FILE = 'lock';
/** Matches a moved-aside state file: version, then the counter. */
export const CORRUPT_PATTERN: RegExp = /^state-(\d+)\.json\.corrupt-(\d+)$/;

/**
 * Resolves the folder of `sessionId` under `root`. The id was checked by the versioned layer;
 * this adds the file-system rules: no reserved Windows names, and the folder must be a direct
 * child of `root`.
 * @throws {InvalidArgumentError} when the id cannot name a folder safely.
 */
export function sessionFolder(root: string, sessionId: string): SessionFolder {
  const isReserved = process.platform === 'win32' && (WINDOWS_RESERVED.test(sessionId) || sessionId.endsWith('.'));
  const directory = resolve(root, sessionId);
  // Defence in depth: even a valid-looking id must name a direct child of the root.
  if (isReserved || dirname(directory) !== root || relative(root, directory) !== sessionId) {
    throw new InvalidArgumentError({
      parameter: 'sessionId',
      value: sessionId,
      message: `\`sessionId\` must name a folder directly inside ${root}${isReserved ? ' and not be a reserved Windows name' : ''}, got ${describeValue(sessionId)}. Use letters, digits, ".", "_" and "-", e.g. "ticket-142".`,
    });
  }
  return { id: sessionId, directory };
}

/** Path of version `version`'s state file. */
export function statePath(session: SessionFolder, version: number): string {
  return join(session.directory, `state-${version}.json`);
}

/** Path of the journal of the events after version `version` (0: from the first event). */
export function journalPath(session: SessionFolder, version: number): string {
  return join(session.directory, `journal-${version}.jsonl`);
}

/** Path of the archive group spilled by event `seq` (in the session's `archive` folder). */
export function archivePath(session: SessionFolder, seq: number): string {
  return join(session.directory, 'archive', `group-${seq}.json`);
}

/** Lists a session folder by kind of file; an absent folder is empty. */
export async function scan(directory: string): Promise<Layout> {
  let names: string[];
  try {
    names = await readdir(directory);
  } catch (error) {
    if (!isMissing(error)) throw error;
    names = [];
  }
  const layout: Layout = { states: [], journals: [], corrupt: [], temporary: [], candidates: [] };
  for (const entry of names) {
    let match: RegExpExecArray | null;
    if ((match = STATE_PATTERN.exec(entry)) !== null) layout.states.push(Number(match[1]));
    else if (CORRUPT_PATTERN.test(entry)) layout.corrupt.push(entry);
    else if ((match = JOURNAL_PATTERN.exec(entry)) !== null) layout.journals.push(Number(match[1]));
    else if ((match = CANDIDATE_PATTERN.exec(entry)) !== null) layout.candidates.push({ name: entry, pid: Number(match[1]) });
    else if (TEMPORARY_PATTERN.test(entry)) layout.temporary.push(entry);
  }
  layout.states.sort((left, right) => right - left);
  layout.journals.sort((left, right) => left - right);
  return layout;
}

// --- Internal helpers ---

const STATE_PATTERN = /^state-(\d+)\.json$/;
const JOURNAL_PATTERN = /^journal-(\d+)\.jsonl$/;
const CANDIDATE_PATTERN = /^lock\.(\d+)\.[0-9a-f-]+\.candidate$/;
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;

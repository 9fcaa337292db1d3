import { createHash } from 'node:crypto';
import { open, readFile } from 'node:fs/promises';
import { z } from 'zod';
import { CorruptStateError } from '../../errors.js';
import type { StoredRecord } from '../backend.js';
import { FILE_MODE, isMissing } from './files.js';
import type { Layout, SessionFolder } from './layout.js';
import { journalPath } from './layout.js';

/** Every event stored in a session's journals, merged. */
export interface Log {
  /** Stored JSON text of each event, by seq, in seq order. */
  readonly texts: Map<number, string>;
  /** Per journal version: the byte offset just after its last good line. */
  readonly validEnds: Map<number, number>;
  /** Highest stored seq (0: none). */
  readonly lastSeq: number;
}

/** One journal file read: its good lines, and where a damaged tail starts. */
export interface Segment {
  readonly lines: StoredRecord[];
  /** Byte offset just after the last good line; a damaged tail starts there. */
  readonly validEnd: number;
}

/**
 * Adds a checksum to a JSON object's text, as a last `"checksum"` key, so that damage inside a
 * string (which would still parse) is detected. The checksum covers the text without it.
 */
export function encodeRecord(body: string): string {
  return `${body.slice(0, -1)},"checksum":"${checksumOf(body)}"}`;
}

/** Returns the text without its checksum, or `undefined` when it has none or it does not match. */
export function decodeRecord(text: string): string | undefined {
  const match = CHECKSUM_PATTERN.exec(text);
  if (match === null) return undefined;
  const body = `${text.slice(0, match.index)}}`;
  return checksumOf(body) === match[1] ? body : undefined;
}

/**
 * Reads one journal. A damaged tail (an append a crash interrupted before it was acknowledged)
 * is left out; a damaged line followed by good ones means acknowledged events were lost.
 * @throws {CorruptStateError} when good lines follow a damaged one.
 */
export async function readSegment(options: { storage: string; path: string }): Promise<Segment | undefined> {
  let buffer: Buffer;
  try {
    buffer = await readFile(options.path);
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
  const lines: StoredRecord[] = [];
  let validEnd = 0;
  let start = 0;
  let lineNumber = 0;
  let firstBad: { lineNumber: number; reason: string } | undefined;
  let previousSeq = 0;
  while (start < buffer.length) {
    const newline = buffer.indexOf(0x0a, start);
    const end = newline === -1 ? buffer.length : newline;
    lineNumber += 1;
    const text = decodeRecord(buffer.toString('utf8', start, end));
    const checked = newline === -1 ? 'unterminated' : text === undefined ? 'checksum missing or wrong' : checkLine(text, previousSeq);
    if (typeof checked === 'number' && text !== undefined) {
      if (firstBad !== undefined) {
        throw new CorruptStateError({
          message: `storage "${options.storage}": line ${firstBad.lineNumber} of ${options.path} is damaged (${firstBad.reason}) but later lines are not, so events were lost in the middle of the journal. Restore the file from a backup, or remove the damaged line if you accept losing that event.`,
        });
      }
      lines.push({ seq: checked, text });
      previousSeq = checked;
      validEnd = end + 1;
    } else {
      firstBad ??= { lineNumber, reason: String(checked) };
    }
    start = end + 1;
  }
  return { lines, validEnd };
}

/**
 * Reads and merges every journal of a session.
 * @throws {CorruptStateError} when a journal is damaged in the middle, or two disagree on an event.
 */
export async function readLog(options: { storage: string; session: SessionFolder; layout: Layout }): Promise<Log> {
  const texts = new Map<number, string>();
  const validEnds = new Map<number, number>();
  let lastSeq = 0;
  for (const version of options.layout.journals) {
    const path = journalPath(options.session, version);
    const segment = await readSegment({ storage: options.storage, path });
    if (segment === undefined) continue;
    validEnds.set(version, segment.validEnd);
    for (const line of segment.lines) {
      const stored = texts.get(line.seq);
      if (stored !== undefined && stored !== line.text) {
        throw new CorruptStateError({
          message: `storage "${options.storage}": the journals of session "${options.session.id}" disagree on event #${line.seq} (${path}). Another program edited them; keep the copy you trust and delete the other line.`,
        });
      }
      texts.set(line.seq, line.text);
      lastSeq = Math.max(lastSeq, line.seq);
    }
  }
  return { texts: new Map([...texts].sort((left, right) => left[0] - right[0])), validEnds, lastSeq };
}

/**
 * Appends lines to a journal and fdatasyncs it before returning; `truncateTo` first cuts a
 * damaged tail, or the new lines would follow garbage and look damaged too.
 */
export async function appendLines(options: { path: string; text: string; truncateTo: number | undefined }): Promise<{ size: number; ino: number; mtimeMs: number }> {
  const handle = await open(options.path, 'a', FILE_MODE);
  try {
    // A journal written by an older version may be readable by others: close that now.
    if (process.platform !== 'win32' && ((await handle.stat()).mode & 0o077) !== 0) await handle.chmod(FILE_MODE);
    if (options.truncateTo !== undefined) await handle.truncate(options.truncateTo);
    await handle.appendFile(options.text, 'utf8');
    await handle.datasync();
    const info = await handle.stat();
    return { size: info.size, ino: info.ino, mtimeMs: info.mtimeMs };
  } finally {
    await handle.close();
  }
}

// --- Internal helpers ---

const CHECKSUM_PATTERN = /,"checksum":"([0-9a-f]{16})"\}$/;

const eventSchema = z.looseObject({ seq: z.number().int().positive(), type: z.string() });

function checksumOf(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 16);
}

function checkLine(text: string, previousSeq: number): number | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not valid JSON';
  }
  const result = eventSchema.safeParse(value);
  if (!result.success) return 'not an event';
  if (result.data.seq <= previousSeq) return `seq ${result.data.seq} after ${previousSeq}`;
  return result.data.seq;
}

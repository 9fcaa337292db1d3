import type { DiffHunk, DiffRecord } from './diff-record.js';
import { formatCount } from '../format.js';

/** Why a file left the scratchpad. */
export type FileCloseCause = 'explicit' | 'auto' | 'evicted';

/** Options for {@link renderDiffLines}. */
export interface RenderDiffOptions {
  /** Hunks rendered as their own line; the rest are summarised in one final line. @default 8 */
  maxHunks?: number | undefined;
  /** Longest code excerpt, in characters, before it is cut with `…`. @default 100 */
  excerptLength?: number | undefined;
}

/** Options for {@link renderOpenLine}. */
export interface RenderOpenLineOptions {
  /** The file's path. */
  path: string;
  /** Lines in the opened content. */
  lineCount: number;
  /** UTF-8 size of the opened content. */
  bytes: number;
  /** Whether the content is binary and therefore not shown. */
  isBinary: boolean;
  /** Whether the content is shown as a head/tail window because it exceeds the budget. */
  isWindowed: boolean;
}

/** Options for {@link renderReReadLine}. */
export interface RenderReReadLineOptions {
  /** The file's path. */
  path: string;
  /** Lines in the content that was read again. */
  lineCount: number;
  /** Whether the content differs from the content held in the scratchpad. */
  isChanged: boolean;
}

/** Options for {@link renderCloseLine}. */
export interface RenderCloseLineOptions {
  /** The file's path. */
  path: string;
  /** Content-changing updates since the file was opened. */
  edits: number;
  /** Why the file was closed. */
  cause: FileCloseCause;
  /** For `cause: 'auto'`: user turns since the last touch. */
  untouchedExchanges?: number | undefined;
}

/**
 * Renders one compact history line per hunk of a change, e.g.
 * ``[src/auth.py:50] `if user:` → `if user and user.active:` (null check)``. Line numbers are
 * 1-based in the new version. A near-total rewrite is one line
 * (`[src/auth.py] rewritten: +200/-180 lines, now 245 lines`); beyond `maxHunks` hunks the
 * rest are summarised as `… and N more hunks (+A/-R lines)`. The reason, when given, follows
 * the first line. Returns an empty array when nothing changed.
 */
export function renderDiffLines(record: DiffRecord, options: RenderDiffOptions = {}): string[] {
  if (record.isSkipped) {
    const line =
      `[${displayPath(record.path)}] changed: +${formatCount(record.addedLines)}/-${formatCount(record.removedLines)}` +
      ` lines, now ${formatCount(record.newLineCount)} ${plural(record.newLineCount, 'line')}` +
      ` (no line diff: the changed region is over \`maxDiffBytes\`)`;
    const reason = record.reason === undefined ? '' : clip(record.reason.replace(/\s+/g, ' ').trim(), options.excerptLength ?? DEFAULT_EXCERPT_LENGTH);
    return [reason === '' ? line : `${line} (${reason})`];
  }
  if (record.hunks.length === 0) return [];
  const maxHunks = options.maxHunks ?? DEFAULT_MAX_HUNKS;
  const excerptLength = options.excerptLength ?? DEFAULT_EXCERPT_LENGTH;
  const path = displayPath(record.path);
  const lines: string[] = [];
  if (record.isBinary) {
    lines.push(
      `[${path}] binary content changed: ${formatCount(record.oldBytes)} → ` +
        `${formatCount(record.newBytes)} bytes`,
    );
  } else if (record.isRewrite) {
    lines.push(
      `[${path}] rewritten: +${formatCount(record.addedLines)}/-${formatCount(record.removedLines)}` +
        ` lines, now ${formatCount(record.newLineCount)} ${plural(record.newLineCount, 'line')}`,
    );
  } else {
    const shown = record.hunks.slice(0, Math.max(0, maxHunks));
    for (const hunk of shown) {
      lines.push(renderHunk({ hunk, path, hasFinalNewline: record.hasFinalNewline, excerptLength }));
    }
    const rest = record.hunks.slice(shown.length);
    if (rest.length > 0) {
      let added = 0;
      let removed = 0;
      for (const hunk of rest) {
        added += hunk.added.length;
        removed += hunk.removed.length;
      }
      lines.push(
        `[${path}] … and ${formatCount(rest.length)} more ${plural(rest.length, 'hunk')}` +
          ` (+${formatCount(added)}/-${formatCount(removed)} lines)`,
      );
    }
  }
  if (record.reason !== undefined && lines[0] !== undefined) {
    const reason = clip(record.reason.replace(/\s+/g, ' ').trim(), excerptLength);
    if (reason !== '') lines[0] = `${lines[0]} (${reason})`;
  }
  return lines;
}

/**
 * Renders the history line of an open, e.g. `[opened src/auth.py, 245 lines]`; binary and
 * windowed files say so.
 */
export function renderOpenLine(options: RenderOpenLineOptions): string {
  const path = displayPath(options.path);
  if (options.isBinary) {
    return `[opened ${path}, binary, ${formatCount(options.bytes)} bytes, not shown]`;
  }
  const size = `${formatCount(options.lineCount)} ${plural(options.lineCount, 'line')}`;
  if (options.isWindowed) {
    return `[opened ${path}, ${size}, exceeds the scratchpad budget: shown as a head/tail window]`;
  }
  return `[opened ${path}, ${size}]`;
}

/**
 * Renders the history line of opening a file that is already open, e.g.
 * `[re-read src/auth.py, unchanged, 245 lines]`.
 */
export function renderReReadLine(options: RenderReReadLineOptions): string {
  const state = options.isChanged ? 'changed' : 'unchanged';
  const size = `${formatCount(options.lineCount)} ${plural(options.lineCount, 'line')}`;
  return `[re-read ${displayPath(options.path)}, ${state}, ${size}]`;
}

/**
 * Renders the history line of a close, e.g. `[closed src/auth.py, 6 edits]`,
 * `[closed src/auth.py, 6 edits, untouched for 10 turns]` or
 * `[closed src/auth.py, 2 edits, evicted: scratchpad over budget]`.
 */
export function renderCloseLine(options: RenderCloseLineOptions): string {
  const base = `[closed ${displayPath(options.path)}, ${formatCount(options.edits)} ${plural(options.edits, 'edit')}`;
  switch (options.cause) {
    case 'explicit':
      return `${base}]`;
    case 'auto': {
      const turns = options.untouchedExchanges;
      return turns === undefined
        ? `${base}, auto-closed: untouched]`
        : `${base}, untouched for ${formatCount(turns)} ${plural(turns, 'turn')}]`;
    }
    case 'evicted':
      return `${base}, evicted: scratchpad over budget]`;
  }
}

/** Renders the history line shown when an update makes a file exceed the scratchpad budget. */
export function renderWindowedLine(options: { path: string; lineCount: number }): string {
  return (
    `[${displayPath(options.path)}] now ${formatCount(options.lineCount)} ` +
    `${plural(options.lineCount, 'line')}, exceeds the scratchpad budget: shown as a head/tail window`
  );
}

/**
 * Returns the path as shown in records and headers: as given, or JSON-quoted when it contains
 * control characters (so that a record stays on one line and distinct paths stay distinct).
 */
export function displayPath(path: string): string {
  return /[\u0000-\u001f\u007f]/.test(path) ? JSON.stringify(path) : path;
}

/** Returns `1 line` / `2 lines`-style nouns: the noun, plural unless `count` is 1. */
export function plural(count: number, noun: string): string {
  return count === 1 ? noun : `${noun}s`;
}

// --- Internal helpers ---

const DEFAULT_MAX_HUNKS = 8;
const DEFAULT_EXCERPT_LENGTH = 100;
// Shown before the first difference when two long lines share a long common prefix.
const CHANGE_LEAD = 20;
// Hunks of up to this many purely added (or removed) lines get the `added 3 lines:` form.
const FEW_LINES = 3;

function renderHunk(options: {
  hunk: DiffHunk;
  path: string;
  hasFinalNewline: boolean;
  excerptLength: number;
}): string {
  const { hunk, path, excerptLength } = options;
  const added = hunk.added.length;
  const removed = hunk.removed.length;
  const location = (count: number): string =>
    count <= 1
      ? `[${path}:${formatCount(hunk.newStart)}]`
      : `[${path}:${formatCount(hunk.newStart)}-${formatCount(hunk.newStart + count - 1)}]`;

  if (added === removed && hunk.added.every((line, index) => line === hunk.removed[index])) {
    // Same lines on both sides: only the newline at the end of the file changed.
    const verb = options.hasFinalNewline ? 'added' : 'removed';
    return `${location(1)} ${verb} newline at end of file`;
  }
  if (added === 1 && removed === 1) {
    const before = hunk.removed[0] ?? '';
    const after = hunk.added[0] ?? '';
    if (before.trim() === after.trim()) {
      return `${location(1)} whitespace changed: ${excerpt(after, excerptLength)}`;
    }
    const [shownBefore, shownAfter] = changePair(before.trim(), after.trim(), excerptLength);
    return `${location(1)} ${shownBefore} → ${shownAfter}`;
  }
  if (removed === 0 && added <= FEW_LINES) {
    return added === 1
      ? `${location(1)} added ${excerpt(hunk.added[0] ?? '', excerptLength)}`
      : `${location(added)} added ${added} lines${firstExcerpt(hunk.added, excerptLength)}`;
  }
  if (added === 0 && removed <= FEW_LINES) {
    return removed === 1
      ? `${location(1)} removed ${excerpt(hunk.removed[0] ?? '', excerptLength)}`
      : `${location(1)} removed ${removed} lines${firstExcerpt(hunk.removed, excerptLength)}`;
  }
  const first = firstExcerpt(hunk.added, excerptLength) || firstExcerpt(hunk.removed, excerptLength);
  return `${location(added)} +${formatCount(added)}/-${formatCount(removed)} lines${first}`;
}

// `: \`first non-blank line\`` or '' when every line is blank.
function firstExcerpt(lines: readonly string[], excerptLength: number): string {
  const line = lines.find((candidate) => candidate.trim() !== '');
  return line === undefined ? '' : `: ${inlineCode(clip(line.trim(), excerptLength))}`;
}

function excerpt(line: string, excerptLength: number): string {
  const trimmed = line.trim();
  return trimmed === '' ? '(blank line)' : inlineCode(clip(trimmed, excerptLength));
}

// Both sides of a one-line change. When long lines share a long prefix, the shared part is
// elided so that the difference itself stays visible after clipping.
function changePair(before: string, after: string, excerptLength: number): [string, string] {
  let shownBefore = before;
  let shownAfter = after;
  if (before.length > excerptLength || after.length > excerptLength) {
    let prefix = 0;
    const shorter = Math.min(before.length, after.length);
    while (prefix < shorter && before.charCodeAt(prefix) === after.charCodeAt(prefix)) prefix += 1;
    if (prefix > CHANGE_LEAD + 10) {
      const start = safeCut(before, prefix - CHANGE_LEAD);
      shownBefore = `…${before.slice(start)}`;
      shownAfter = `…${after.slice(start)}`;
    }
  }
  const side = (text: string): string =>
    text === '' ? '(blank line)' : inlineCode(clip(text, excerptLength));
  return [side(shownBefore), side(shownAfter)];
}

// Cuts to at most `length` characters, ending in `…`, without splitting a surrogate pair.
function clip(text: string, length: number): string {
  if (text.length <= length) return text;
  return `${text.slice(0, safeCut(text, Math.max(0, length - 1)))}…`;
}

// Moves a cut index back by one when it would separate a surrogate pair.
function safeCut(text: string, index: number): number {
  const code = text.charCodeAt(index - 1);
  return code >= 0xd800 && code <= 0xdbff ? index - 1 : index;
}

// Markdown inline code that survives backticks in the text (CommonMark: a longer delimiter run,
// padded with spaces when the text starts or ends with a backtick).
function inlineCode(text: string): string {
  let longest = 0;
  for (const match of text.matchAll(/`+/g)) longest = Math.max(longest, match[0].length);
  if (longest === 0) return `\`${text}\``;
  const fence = '`'.repeat(longest + 1);
  const padding = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${padding}${text}${padding}${fence}`;
}

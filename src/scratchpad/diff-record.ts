import { applyPatch, formatPatch, OMIT_HEADERS } from 'diff';
import type { StructuredPatch, StructuredPatchHunk } from 'diff';
import { commonPrefixLength, commonSuffixLength } from '../common-runs.js';
import { describeValue, InvalidArgumentError } from '../errors.js';
import { linePatchOfEdit, NO_NEWLINE_MARKER, splitLinesKeepingBreaks } from './line-diff.js';
import type { HunkLines } from './line-diff.js';

/** One contiguous run of changed lines between two versions of a file. */
export interface DiffHunk {
  /**
   * 1-based line in the new version where the hunk starts. For a pure removal, the line that now
   * follows the removed lines (one past the end when they were at the end of the file).
   */
  readonly newStart: number;
  /** 1-based line in the old version where the hunk starts; for a pure addition, the line it precedes. */
  readonly oldStart: number;
  /** Lines removed, without their line terminators (a `\r` of CRLF files is kept). */
  readonly removed: readonly string[];
  /** Lines added, without their line terminators (a `\r` of CRLF files is kept). */
  readonly added: readonly string[];
}

/** The structured result of diffing two versions of a file; plain, serialisable data. */
export interface DiffRecord {
  /** The file's path, as given. */
  readonly path: string;
  /** Why the change was made, as given by the caller. */
  readonly reason?: string | undefined;
  /** The changed runs, in file order; empty when the content did not change. */
  readonly hunks: readonly DiffHunk[];
  /** Total lines added over all hunks. */
  readonly addedLines: number;
  /** Total lines removed over all hunks. */
  readonly removedLines: number;
  /** Lines in the old version. */
  readonly oldLineCount: number;
  /** Lines in the new version. */
  readonly newLineCount: number;
  /** UTF-8 size of the old version. */
  readonly oldBytes: number;
  /** UTF-8 size of the new version. */
  readonly newBytes: number;
  /** Whether the new version ends with a line terminator (describes end-of-file newline edits). */
  readonly hasFinalNewline: boolean;
  /** Whether more than 60% of the old lines were removed from a file of more than 5 lines. */
  readonly isRewrite: boolean;
  /** Whether either version is binary (contains a NUL character). */
  readonly isBinary: boolean;
  /**
   * Whether the diff was too expensive for a minimal diff (more edits than `maxEditLength`, or
   * binary content), so that it was aligned on lines that occur once on each side instead: the
   * patch is still exact, but hunks may be larger than necessary.
   */
  readonly isApproximate: boolean;
  /**
   * Whether the changed region (the lines between what both versions share at their start and
   * end) was larger than `maxDiffBytes`, so that no line diff was computed: `hunks` is empty,
   * `addedLines` / `removedLines` count the lines of that region, and `patch` is empty (a
   * scratchpad restarts the file's history at the new version).
   */
  readonly isSkipped: boolean;
  /**
   * Unified patch (hunks only, no file headers, no context lines) that turns the old version
   * into the new one with `applyPatch` from `diff`; `''` when nothing changed.
   */
  readonly patch: string;
}

/** Options for {@link computeDiffRecord}. */
export interface ComputeDiffRecordOptions {
  /** The file's path; copied into the record. */
  path: string;
  /** The content held before the change. */
  before: string;
  /** The new content. */
  after: string;
  /** Why the change was made; shown after the first history line. @default undefined */
  reason?: string | undefined;
  /**
   * Largest edit distance (in lines) for a minimal diff; beyond it the diff falls back to a
   * linear-time alignment on unique lines, because a minimal diff of a large rewrite is
   * quadratic (seconds for 5,000 lines). @default 1000
   */
  maxEditLength?: number | undefined;
  /**
   * Size (characters of both versions together) above which the lines the versions share at
   * their start and end are set aside before diffing, so that an edit of a large file costs time
   * in proportion to the changed region, not to the file. The patch stays exact. @default 262_144
   */
  trimCommonLinesAbove?: number | undefined;
  /**
   * Largest changed region (UTF-8 bytes of both versions' changed lines together) that is diffed
   * line by line; above it the record only says how many lines changed (`isSkipped`), so that a
   * rewrite of a huge file costs no more than reading it. @default Infinity
   */
  maxDiffBytes?: number | undefined;
  /**
   * UTF-8 size of `before` when the caller knows it (`oldBytes`), so that a large file's new size
   * is counted from the changed region only. @default undefined (counted)
   */
  beforeBytes?: number | undefined;
  /**
   * Lines of `before` when the caller knows them (`oldLineCount`), so that a large file's new
   * line count is counted from the changed region only. @default undefined (counted)
   */
  beforeLineCount?: number | undefined;
  /** {@link commonLines} of `before` and `after` when the caller has it already. @default undefined (found) */
  shared?: CommonLines | undefined;
  /** Whether `before` is binary ({@link isBinaryContent}), when the caller knows it. @default undefined (checked) */
  isBinaryBefore?: boolean | undefined;
  /** Whether `after` is binary ({@link isBinaryContent}), when the caller knows it. @default undefined (checked) */
  isBinaryAfter?: boolean | undefined;
}

/** The whole lines two versions of a text share at their start and at their end. @internal */
export interface CommonLines {
  /** Characters of the shared leading lines. */
  readonly prefixChars: number;
  /** How many lines they are. */
  readonly prefixLines: number;
  /** Characters of the shared trailing lines (not overlapping the leading ones). */
  readonly suffixChars: number;
}

/**
 * Diffs two versions of a file line by line with `diff` and returns the changed hunks (no
 * context lines), their totals, whether the change is a near-total rewrite, and an exact
 * unified patch for replay.
 *
 * @example
 * ```ts
 * const record = computeDiffRecord({ path: 'src/auth.py', before, after, reason: 'null check' });
 * record.hunks[0]?.newStart; // 1-based line in the new version
 * ```
 */
export function computeDiffRecord(options: ComputeDiffRecordOptions): DiffRecord {
  const { path, before, after } = options;
  const oldLineCount = options.beforeLineCount ?? countLines(before);
  const isBinary = (options.isBinaryBefore ?? isBinaryContent(before)) || (options.isBinaryAfter ?? isBinaryContent(after));
  const oldBytes = options.beforeBytes ?? utf8ByteLength(before);
  const baseWith = (newBytes: number, newLineCount: number) => ({
    path,
    ...(options.reason === undefined ? {} : { reason: options.reason }),
    oldLineCount,
    newLineCount,
    oldBytes,
    newBytes,
    hasFinalNewline: after.endsWith('\n'),
    isBinary,
  });
  if (before === after) {
    const base = baseWith(oldBytes, oldLineCount);
    return {
      ...base,
      hunks: [],
      addedLines: 0,
      removedLines: 0,
      isRewrite: false,
      isApproximate: false,
      isSkipped: false,
      patch: '',
    };
  }
  const maxDiffBytes = options.maxDiffBytes ?? Number.POSITIVE_INFINITY;
  // The lines both versions share at their start and end are found by a few native comparisons.
  // Sizes and line counts come from the changed region alone whatever the size of the file.
  const shared = options.shared ?? commonLines(before, after);
  const isLarge = before.length + after.length > Math.min(options.trimCommonLinesAbove ?? DEFAULT_TRIM_ABOVE, maxDiffBytes);
  const oldChanged = before.slice(shared.prefixChars, before.length - shared.suffixChars);
  const newChanged = after.slice(shared.prefixChars, after.length - shared.suffixChars);
  // The shared lines are cut at line starts, so no UTF-16 surrogate pair is split: their bytes
  // are the same on both sides.
  const isKnown = options.beforeBytes !== undefined && options.beforeLineCount !== undefined;
  // From the changed regions when they are shorter than the new version (an edit), else in one
  // pass over it (a rewrite): the same size either way.
  const newBytes = isKnown && oldChanged.length + newChanged.length < after.length ? oldBytes - utf8ByteLength(oldChanged) + utf8ByteLength(newChanged) : utf8ByteLength(after);
  const base = baseWith(
    newBytes,
    // Line breaks add up over the parts; a last line without one counts as a line too.
    isKnown
      ? breaksIn(before, oldLineCount) - countBreaks(oldChanged) + countBreaks(newChanged) + (after === '' || after.endsWith('\n') ? 0 : 1)
      : countLines(after),
  );
  // A small file is diffed whole (a diff that sets its shared end aside may align a change
  // differently); a large one without its shared lines, so that it costs what the change costs.
  const oldMiddle = isLarge ? oldChanged : before;
  const newMiddle = isLarge ? newChanged : after;
  // A UTF-16 unit is at least one UTF-8 byte: only a region short in units needs its bytes counted.
  if (
    oldMiddle.length + newMiddle.length > maxDiffBytes ||
    (isLarge ? utf8ByteLength(oldMiddle) + utf8ByteLength(newMiddle) : oldBytes + newBytes) > maxDiffBytes
  ) {
    const removedLines = countLines(oldMiddle);
    return {
      ...base,
      hunks: [],
      addedLines: countLines(newMiddle),
      removedLines,
      isRewrite: oldLineCount > REWRITE_MIN_OLD_LINES && removedLines / oldLineCount > REWRITE_RATIO,
      isApproximate: false,
      isSkipped: true,
      patch: '',
    };
  }
  // The shared leading lines are set aside in every case: the line diff takes them greedily
  // first, so its result without them is the same, shifted; the edit length is the same too.
  const diffStart = isLarge ? 0 : shared.prefixChars;
  const oldDiffed = diffStart === 0 ? oldMiddle : oldMiddle.slice(diffStart);
  const newDiffed = diffStart === 0 ? newMiddle : newMiddle.slice(diffStart);
  const maxEditLength = options.maxEditLength ?? DEFAULT_MAX_EDIT_LENGTH;
  // Cut into lines once: the line diff reads them, and its patch is made of them. A small file is
  // diffed with its shared trailing lines, which the search need not compare: they are cut once,
  // and both sides end with the same strings (the changed parts end where a line ends).
  const tailLines = isLarge || isBinary ? NO_LINES : splitLinesKeepingBreaks(before.slice(before.length - shared.suffixChars));
  const oldLines = isBinary ? [] : withLines(splitLinesKeepingBreaks(tailLines.length === 0 ? oldDiffed : oldChanged), tailLines);
  const newLines = isBinary ? [] : withLines(splitLinesKeepingBreaks(tailLines.length === 0 ? newDiffed : newChanged), tailLines);
  const sharedTail = tailLines.length;
  // Beyond `maxEditLength`, a rewrite whose changed lines occur nowhere on the other side is
  // aligned on no line: the patch the alignment on unique lines gives, without looking for them.
  const edit = isBinary ? undefined : linePatchOfEdit({ oldLines, newLines, maxEditLength, sharedTail });
  const structured =
    edit !== undefined
      ? shiftHunks(edit.patch, shared.prefixLines)
      : shiftHunks(anchoredPatch(oldMiddle, newMiddle), isLarge ? shared.prefixLines : 0);
  // The line diff gives each hunk's lines as they are; only the fallback's are read off its patch.
  const hunks = edit === undefined ? structured.hunks.map(toDiffHunk) : structured.hunks.map((hunk, index) => withLinesOf(hunk, edit.lines[index] as HunkLines));
  let addedLines = 0;
  let removedLines = 0;
  for (const hunk of hunks) {
    addedLines += hunk.added.length;
    removedLines += hunk.removed.length;
  }
  return {
    ...base,
    hunks,
    addedLines,
    removedLines,
    isRewrite:
      oldLineCount > REWRITE_MIN_OLD_LINES && removedLines / oldLineCount > REWRITE_RATIO,
    isApproximate: edit?.isMinimal !== true,
    isSkipped: false,
    patch: formatPatch(structured, OMIT_HEADERS),
  };
}

/**
 * Applies patches from {@link DiffRecord.patch} in order to the content a file was opened
 * with, and returns the resulting content (equal to the current content for a complete
 * history, see `Scratchpad.history()`).
 *
 * @throws {InvalidArgumentError} when a patch does not apply to the content it is given.
 */
export function replayPatches(openContent: string, patches: readonly string[]): string {
  let content = openContent;
  for (const [index, patch] of patches.entries()) {
    if (patch === '') continue;
    // Line endings are part of the content: never let `diff` convert them.
    const next = applyPatch(content, patch, { autoConvertLineEndings: false });
    if (next === false) {
      throw new InvalidArgumentError({
        parameter: `patches[${index}]`,
        value: patch,
        message:
          `replayPatches(): patch ${index} does not apply to the content produced by the ` +
          `patches before it, got ${describeValue(patch)}. Pass the patches of one file's ` +
          'history, in order, starting from the content it was opened with.',
      });
    }
    content = next;
  }
  return content;
}

/** Counts lines the way `diff` does: a final line terminator does not start a new line. */
export function countLines(content: string): number {
  if (content === '') return 0;
  let count = 1;
  let index = content.indexOf('\n');
  while (index !== -1) {
    if (index < content.length - 1) count += 1;
    index = content.indexOf('\n', index + 1);
  }
  return count;
}

/** Tells whether content is binary, i.e. contains a NUL character. */
export function isBinaryContent(content: string): boolean {
  return content.includes('\u0000');
}

/** Returns the size of `content` encoded as UTF-8 (lone surrogates count as U+FFFD). */
export function utf8ByteLength(content: string): number {
  if (content.length < ENCODE_MIN_CHARS) return utf8ByteLengthByLoop(content);
  // The platform's encoder (native, many characters a step) on pieces of ENCODE_CHUNK units, into
  // one buffer that three bytes per unit always fit; a piece never ends between the halves of a
  // surrogate pair, and the encoder writes a lone surrogate as U+FFFD, as the loop counts it.
  encodeBuffer ??= new Uint8Array(3 * ENCODE_CHUNK);
  encoder ??= new TextEncoder();
  let bytes = 0;
  for (let start = 0; start < content.length; ) {
    let end = Math.min(content.length, start + ENCODE_CHUNK);
    if (end < content.length && isHighSurrogate(content.charCodeAt(end - 1))) end -= 1;
    bytes += encoder.encodeInto(start === 0 && end === content.length ? content : content.slice(start, end), encodeBuffer).written;
    start = end;
  }
  return bytes;
}

/**
 * {@link utf8ByteLength} by a loop over the UTF-16 units, the reference of its faster path.
 * @internal
 */
export function utf8ByteLengthByLoop(content: string): number {
  let bytes = 0;
  for (let index = 0; index < content.length; index += 1) {
    const code = content.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(content.charCodeAt(index + 1))) {
      bytes += 4;
      index += 1;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * The longest run of whole lines the two versions start with, and the longest run of whole lines
 * they end with that does not overlap it. Both cut at line starts, so each middle part keeps its
 * own end-of-file newline (or lack of one).
 * @internal
 */
export function commonLines(before: string, after: string): CommonLines {
  const shorter = Math.min(before.length, after.length);
  const mismatch = commonPrefixLength({ left: before, leftStart: 0, right: after, rightStart: 0, limit: shorter });
  const prefixChars = mismatch === 0 ? 0 : before.lastIndexOf('\n', mismatch - 1) + 1;
  let prefixLines = 0;
  for (let index = before.indexOf('\n'); index !== -1 && index < prefixChars; index = before.indexOf('\n', index + 1)) prefixLines += 1;
  const common = commonSuffixLength({ left: before, right: after, limit: shorter - prefixChars });
  // The suffix starts after the first line break inside the common tail: there both versions
  // are at the start of a line.
  const tail = before.length - common;
  const firstBreak = before.indexOf('\n', tail);
  const suffixChars = firstBreak === -1 ? 0 : before.length - firstBreak - 1;
  return { prefixChars, prefixLines, suffixChars };
}

/**
 * A linear-time patience-style diff: lines that occur exactly once on each side anchor the
 * alignment (longest increasing run), and each gap between anchors becomes one hunk after its
 * common leading and trailing lines are trimmed. Exact, not always minimal. Follows
 * `structuredPatch`'s conventions: 1-based starts even for an empty side (`formatPatch` applies
 * the unified-format adjustment).
 * @internal
 */
export function anchoredPatch(before: string, after: string): StructuredPatch {
  const oldLines = splitLinesKeepingBreaks(before);
  const newLines = splitLinesKeepingBreaks(after);
  const hunks: StructuredPatchHunk[] = [];
  const emit = (oldFrom: number, oldTo: number, newFrom: number, newTo: number): void => {
    while (oldFrom < oldTo && newFrom < newTo && oldLines[oldFrom] === newLines[newFrom]) {
      oldFrom += 1;
      newFrom += 1;
    }
    while (oldTo > oldFrom && newTo > newFrom && oldLines[oldTo - 1] === newLines[newTo - 1]) {
      oldTo -= 1;
      newTo -= 1;
    }
    if (oldFrom === oldTo && newFrom === newTo) return;
    const removed = oldLines.slice(oldFrom, oldTo);
    const added = newLines.slice(newFrom, newTo);
    hunks.push({
      oldStart: oldFrom + 1,
      oldLines: removed.length,
      newStart: newFrom + 1,
      newLines: added.length,
      lines: [...toPatchLines('-', removed), ...toPatchLines('+', added)],
    });
  };
  let oldIndex = 0;
  let newIndex = 0;
  for (const [oldAnchor, newAnchor] of uniqueAnchors(oldLines, newLines)) {
    emit(oldIndex, oldAnchor, newIndex, newAnchor);
    oldIndex = oldAnchor + 1;
    newIndex = newAnchor + 1;
  }
  emit(oldIndex, oldLines.length, newIndex, newLines.length);
  return {
    oldFileName: '',
    newFileName: '',
    oldHeader: undefined,
    newHeader: undefined,
    hunks,
  };
}

// --- Internal helpers ---

const DEFAULT_MAX_EDIT_LENGTH = 1000;
const DEFAULT_TRIM_ABOVE = 262_144;
// Old files with at most this many lines are never reported as rewritten.
const REWRITE_MIN_OLD_LINES = 5;
// Share of the old lines that must be removed for a change to count as a rewrite.
const REWRITE_RATIO = 0.6;
// Texts shorter than this are measured by the loop (a call into the encoder costs more).
const ENCODE_MIN_CHARS = 256;
// UTF-16 units encoded at a time, so that the buffer stays small whatever the text's size.
const ENCODE_CHUNK = 16_384;
let encoder: InstanceType<typeof TextEncoder> | undefined;
let encodeBuffer: Uint8Array | undefined;

const NO_LINES: readonly string[] = [];

// `lines` with `more` appended (in place).
function withLines(lines: string[], more: readonly string[]): string[] {
  for (const line of more) lines.push(line);
  return lines;
}

function countBreaks(text: string): number {
  let count = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) count += 1;
  return count;
}

// Line breaks in a text of `lineCount` lines (see countLines).
function breaksIn(text: string, lineCount: number): number {
  return text === '' || text.endsWith('\n') ? lineCount : lineCount - 1;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function shiftHunks(patch: StructuredPatch, lines: number): StructuredPatch {
  if (lines === 0) return patch;
  return {
    ...patch,
    hunks: patch.hunks.map((hunk) => ({ ...hunk, oldStart: hunk.oldStart + lines, newStart: hunk.newStart + lines })),
  };
}

function withLinesOf(hunk: StructuredPatchHunk, lines: HunkLines): DiffHunk {
  return { newStart: hunk.newStart, oldStart: hunk.oldStart, removed: lines.removed, added: lines.added };
}

function toDiffHunk(hunk: StructuredPatchHunk): DiffHunk {
  const removed: string[] = [];
  const added: string[] = [];
  for (const line of hunk.lines) {
    if (line.startsWith('-')) removed.push(line.slice(1));
    else if (line.startsWith('+')) added.push(line.slice(1));
  }
  return { newStart: hunk.newStart, oldStart: hunk.oldStart, removed, added };
}

// Pairs (old index, new index) of lines unique on both sides, increasing on both sides: the
// longest increasing subsequence of new indexes in old order, O(n log n).
function uniqueAnchors(
  oldLines: readonly string[],
  newLines: readonly string[],
): (readonly [number, number])[] {
  const oldCounts = new Map<string, number>();
  for (const line of oldLines) oldCounts.set(line, (oldCounts.get(line) ?? 0) + 1);
  const newPositions = new Map<string, number>();
  for (const [index, line] of newLines.entries()) {
    newPositions.set(line, newPositions.has(line) ? -1 : index);
  }
  const pairs: (readonly [number, number])[] = [];
  for (const [index, line] of oldLines.entries()) {
    const position = newPositions.get(line);
    if (oldCounts.get(line) === 1 && position !== undefined && position >= 0) {
      pairs.push([index, position]);
    }
  }
  // Patience sorting: tailValues[k] is the smallest new index ending an increasing run of
  // length k + 1, tailPairs[k] the pair it belongs to; `previous` links each pair to the run
  // it extends.
  const tailValues: number[] = [];
  const tailPairs: number[] = [];
  const previous: number[] = [];
  for (const [index, pair] of pairs.entries()) {
    let low = 0;
    let high = tailValues.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((tailValues[middle] ?? Infinity) < pair[1]) low = middle + 1;
      else high = middle;
    }
    previous.push(low > 0 ? (tailPairs[low - 1] ?? -1) : -1);
    tailValues[low] = pair[1];
    tailPairs[low] = index;
  }
  const anchors: (readonly [number, number])[] = [];
  for (let index = tailPairs.at(-1) ?? -1; index >= 0; index = previous[index] ?? -1) {
    const pair = pairs[index];
    if (pair !== undefined) anchors.push(pair);
  }
  return anchors.reverse();
}

function toPatchLines(sign: '-' | '+', lines: readonly string[]): string[] {
  const result: string[] = [];
  for (const line of lines) {
    if (line.endsWith('\n')) result.push(`${sign}${line.slice(0, -1)}`);
    else result.push(`${sign}${line}`, NO_NEWLINE_MARKER);
  }
  return result;
}

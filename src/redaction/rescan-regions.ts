import { commonPrefixLength, commonSuffixLength } from '../common-runs.js';

/** A part of a text to scan for secrets: whole lines, from `start` up to (not including) `end`. @internal */
export interface RescanRegion {
  /** Offset of the first character (the start of a line). */
  readonly start: number;
  /** Offset just past the last character (the start of a line, or the end of the text). */
  readonly end: number;
}

/**
 * Non-blank lines kept around each changed region. The built-in detectors that can cross a line
 * break (`Authorization` / `:` / `Bearer` / token, `"password"` / `:` / `"value"`) have at most
 * four parts separated by whitespace, so three lines on each side hold any secret that touches
 * a changed line. @internal
 */
export const RESCAN_MARGIN_LINES = 3;

/**
 * Finds the parts of `next` that must be scanned for secrets when `previous` is its predecessor
 * as already redacted: the lines that differ from `previous`, each widened by
 * {@link RESCAN_MARGIN_LINES} non-blank lines on both sides and to the whole of any private-key
 * block (`-----BEGIN … PRIVATE KEY-----` … `-----END`) it touches or sits in. Lines outside the
 * regions are equal to lines of `previous` in the same surroundings, and redacted text has no
 * secrets left to find, so scanning only the regions redacts `next` exactly as a whole scan does.
 * Returns the regions in order, merged; none when the texts are equal. `lookaheadLines` (for
 * tests) bounds how far past a difference the texts are searched for a shared line. @internal
 */
export function rescanRegions(options: { previous: string; next: string; lookaheadLines?: number | undefined }): RescanRegion[] {
  const { previous, next } = options;
  if (previous === next) return [];
  let core = changedRegions({ previous, next, lookaheadLines: Math.max(1, options.lookaheadLines ?? LOOKAHEAD_LINES) });
  const blocks = privateKeyBlocks(next);
  // A block reached by a margin counts as changed in turn and gets its own margin.
  for (;;) {
    const margined = mergeRegions(core.map((region) => withMargin(next, region)));
    const widened = mergeRegions(margined.map((region) => widenToBlocks(region, blocks)));
    if (widened.length === margined.length && widened.every((region, index) => isSameRegion(region, margined[index]))) return widened;
    core = widened;
  }
}

// --- Internal helpers ---

// How many lines past a difference are searched for a line both texts share; when there is
// none, everything up to the common tail is scanned (a rewrite).
const LOOKAHEAD_LINES = 1_024;
// A block without an END line is taken as this much text after its BEGIN line (the detector
// looks no further for the key material).
const BLOCK_WITHOUT_END_CHARS = 64_000;
const BEGIN_MARKER = /-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY(?: BLOCK)?-----/g;

// The regions of `next` whose lines differ from `previous`, in order. A region is empty
// (`start === end`) where lines were only removed: the lines around it now meet, so it still
// needs its margin. Walks both texts comparing characters; after a difference it looks a few
// lines ahead on both sides for the nearest line they share and resumes there, so a changed line
// costs a few lines of work and the unchanged text one character comparison each.
function changedRegions(options: { previous: string; next: string; lookaheadLines: number }): RescanRegion[] {
  const { previous, next } = options;
  const regions: RescanRegion[] = [];
  let newPosition = 0;
  let oldPosition = 0;
  for (;;) {
    const room = Math.min(next.length - newPosition, previous.length - oldPosition);
    const common = commonPrefixLength({ left: next, leftStart: newPosition, right: previous, rightStart: oldPosition, limit: room });
    if (common === next.length - newPosition && common === previous.length - oldPosition) return regions;
    // Back to the start of the line that differs, which is a line start in both texts.
    const gapNew = common === 0 ? newPosition : Math.max(newPosition, next.lastIndexOf('\n', newPosition + common - 1) + 1);
    const gapOld = oldPosition + (gapNew - newPosition);
    const resume = nearestSharedLine({ previous, next, gapOld, gapNew, lookaheadLines: options.lookaheadLines });
    if (resume === undefined) {
      regions.push({ start: gapNew, end: next.length - commonTailLines({ previous, next, gapOld, gapNew }) });
      return regions;
    }
    regions.push({ start: gapNew, end: resume.newStart });
    newPosition = resume.newStart;
    oldPosition = resume.oldStart;
  }
}

// The closest pair of equal whole lines (fewest lines skipped on both sides together) after the
// line starts `gapNew` and `gapOld`, looking ahead 4, then 64, … up to `lookaheadLines` lines.
// Lines are told apart by a digest and compared only when their digests are equal, so that no
// line is cut out of its text (a rewrite cut up to 2,048 lines out of the two texts per look); a wider
// look reads only the lines the narrower one did not.
function nearestSharedLine(options: {
  previous: string;
  next: string;
  gapOld: number;
  gapNew: number;
  lookaheadLines: number;
}): { newStart: number; oldStart: number } | undefined {
  const oldLines = createLineRun(options.previous, options.gapOld);
  const newLines = createLineRun(options.next, options.gapNew);
  // The old lines by digest, in order: `firstOld` holds the first line with a digest,
  // `sameDigest[line]` the next old line with the same digest (-1: none), `lastOld` the last one.
  const firstOld = new Map<number, number>();
  const lastOld = new Map<number, number>();
  const sameDigest: number[] = [];
  // The first old line whose text is that of new line `index`; -1 when there is none.
  const firstOldMatch = (index: number): number => {
    for (let line = firstOld.get(newLines.digests[index] as number) ?? -1; line !== -1; line = sameDigest[line] as number) {
      if (isSameLine(oldLines, line, newLines, index)) return line;
    }
    return -1;
  };
  for (let window = Math.min(4, options.lookaheadLines); ; window = Math.min(window * 16, options.lookaheadLines)) {
    const indexed = oldLines.digests.length;
    oldLines.extend(window);
    newLines.extend(window);
    for (let line = indexed; line < oldLines.digests.length; line += 1) {
      const digest = oldLines.digests[line] as number;
      const last = lastOld.get(digest);
      if (last === undefined) firstOld.set(digest, line);
      else sameDigest[last] = line;
      sameDigest[line] = -1;
      lastOld.set(digest, line);
    }
    let best: { index: number; match: number } | undefined;
    // A pair costs at least its new line's index: past the best cost no pair does better.
    for (let index = 0; index < newLines.digests.length && (best === undefined || index < best.index + best.match); index += 1) {
      const match = firstOldMatch(index);
      // The first lines are the ones that differ: a pair of them is no place to resume.
      if (match === -1 || (match === 0 && index === 0)) continue;
      if (best === undefined || index + match < best.index + best.match) best = { index, match };
    }
    if (best !== undefined) return { newStart: newLines.starts[best.index] as number, oldStart: oldLines.starts[best.match] as number };
    if (window >= options.lookaheadLines) return undefined;
  }
}

/** Whole lines of a text from a line start on, each with its line break, read as far as asked. */
interface LineRun {
  readonly text: string;
  /** Where each line read starts, then where the last one ends. */
  readonly starts: number[];
  /** A digest of each line read ({@link lineDigest}). */
  readonly digests: number[];
  /** Reads lines until `count` are read or the text ends. */
  extend(count: number): void;
}

function createLineRun(text: string, start: number): LineRun {
  const starts = [start];
  const digests: number[] = [];
  return {
    text,
    starts,
    digests,
    extend(count) {
      for (let position = starts[digests.length] as number; position < text.length && digests.length < count; ) {
        const lineBreak = text.indexOf('\n', position);
        const end = lineBreak === -1 ? text.length : lineBreak + 1;
        digests.push(lineDigest(text, position, end));
        starts.push(end);
        position = end;
      }
    },
  };
}

function isSameLine(left: LineRun, leftLine: number, right: LineRun, rightLine: number): boolean {
  const leftStart = left.starts[leftLine] as number;
  const rightStart = right.starts[rightLine] as number;
  const length = (left.starts[leftLine + 1] as number) - leftStart;
  if (length !== (right.starts[rightLine + 1] as number) - rightStart) return false;
  return commonPrefixLength({ left: left.text, leftStart, right: right.text, rightStart, limit: length }) === length;
}

// FNV-1a over the UTF-16 units of text[start, end).
function lineDigest(text: string, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let index = start; index < end; index += 1) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193);
  return hash;
}

// Characters of the longest run of whole lines both texts end with, after the gap starts.
function commonTailLines(options: { previous: string; next: string; gapOld: number; gapNew: number }): number {
  const { previous, next } = options;
  const room = Math.min(next.length - options.gapNew, previous.length - options.gapOld);
  const common = commonSuffixLength({ left: previous, right: next, limit: room });
  // The common tail starts at a line start in both texts only after a line break inside it.
  const lineBreak = common === 0 ? -1 : next.indexOf('\n', next.length - common);
  return lineBreak === -1 ? 0 : next.length - lineBreak - 1;
}

// Extends a region over whole lines until it includes `RESCAN_MARGIN_LINES` non-blank lines
// before it and after it (or reaches an end of the text); blank lines in between come along,
// since a pattern's whitespace may span them.
function withMargin(text: string, region: RescanRegion): RescanRegion {
  let start = region.start;
  for (let found = 0; start > 0 && found < RESCAN_MARGIN_LINES; ) {
    const lineStart = start < 2 ? 0 : text.lastIndexOf('\n', start - 2) + 1;
    if (!isBlank(text, lineStart, start)) found += 1;
    start = lineStart;
  }
  let end = region.end;
  for (let found = 0; end < text.length && found < RESCAN_MARGIN_LINES; ) {
    const lineBreak = text.indexOf('\n', end);
    const lineEnd = lineBreak === -1 ? text.length : lineBreak + 1;
    if (!isBlank(text, end, lineEnd)) found += 1;
    end = lineEnd;
  }
  return { start, end };
}

// Every possible private-key block of `text`, as whole lines: from its BEGIN line to its END
// line, or to the limit the detector looks within when the END line is missing or too far.
function privateKeyBlocks(text: string): RescanRegion[] {
  if (!text.includes('PRIVATE KEY')) return [];
  const blocks: RescanRegion[] = [];
  const begin = new RegExp(BEGIN_MARKER.source, 'g');
  for (let match = begin.exec(text); match !== null; match = begin.exec(text)) {
    const bodyStart = match.index + match[0].length;
    const endIndex = text.indexOf(`-----END ${match[1] ?? ''}PRIVATE KEY`, bodyStart);
    const last = endIndex !== -1 && endIndex - bodyStart < BLOCK_WITHOUT_END_CHARS ? endIndex : Math.min(text.length, bodyStart + BLOCK_WITHOUT_END_CHARS);
    const lineBreak = text.indexOf('\n', last);
    blocks.push({ start: text.lastIndexOf('\n', match.index - 1) + 1, end: lineBreak === -1 ? text.length : lineBreak + 1 });
  }
  return blocks;
}

function widenToBlocks(region: RescanRegion, blocks: readonly RescanRegion[]): RescanRegion {
  let { start, end } = region;
  for (const block of blocks) {
    if (block.start <= end && start <= block.end) {
      start = Math.min(start, block.start);
      end = Math.max(end, block.end);
    }
  }
  return { start, end };
}

// Sorts and joins regions that overlap or touch.
function mergeRegions(regions: readonly RescanRegion[]): RescanRegion[] {
  const sorted = [...regions].sort((left, right) => left.start - right.start || left.end - right.end);
  const merged: RescanRegion[] = [];
  for (const region of sorted) {
    const last = merged.at(-1);
    if (last !== undefined && region.start <= last.end) merged[merged.length - 1] = { start: last.start, end: Math.max(last.end, region.end) };
    else merged.push(region);
  }
  return merged;
}

function isSameRegion(left: RescanRegion, right: RescanRegion | undefined): boolean {
  return right !== undefined && left.start === right.start && left.end === right.end;
}

function isBlank(text: string, start: number, end: number): boolean {
  // The same whitespace as the detectors' `\s`, Unicode spaces included.
  return !/\S/.test(text.slice(start, end));
}

import type { StructuredPatch, StructuredPatchHunk } from 'diff';

/**
 * The line diff of `diff`'s `structuredPatch(…, { context: 0, maxEditLength })`, computed the same
 * way (its Myers search with its pruning and tie-breaking, step for step) and returning the same
 * hunks, or `undefined` when the edit is longer than `maxEditLength`. Lines are compared as
 * numbers (one per distinct line) and the search keeps its paths in typed arrays instead of an
 * object per step, so a large rewrite costs a fraction of the time.
 * @internal
 */
export function structuredLinePatch(before: string, after: string, maxEditLength: number): StructuredPatch | undefined {
  return structuredLinePatchOfLines(splitLinesKeepingBreaks(before), splitLinesKeepingBreaks(after), maxEditLength);
}

/**
 * {@link structuredLinePatch} of two texts already cut into lines by {@link splitLinesKeepingBreaks},
 * for a caller that needs the lines too.
 * @internal
 */
export function structuredLinePatchOfLines(oldTokens: readonly string[], newTokens: readonly string[], maxEditLength: number): StructuredPatch | undefined {
  const moves = searchMoves(idsOf(oldTokens, newTokens, 0), maxEditLength, 0);
  return moves === undefined ? undefined : toPatch(moves, oldTokens, newTokens).patch;
}

/**
 * {@link structuredLinePatchOfLines} of two versions that end with the same `sharedTail` lines
 * (the caller knows them equal), tried first on the lines themselves for a short edit: the search
 * compares lines as strings, and slides along the shared tail without comparing it, so that a small
 * edit of a file costs no pass that looks up every line. A longer edit is searched as
 * {@link structuredLinePatchOfLines} does, unless the lines both versions hold show that it
 * certainly takes more than `maxEditLength` (where the search would give up after trying all of
 * it). The same search either way: the same hunks, or `undefined`.
 * @internal
 */
export function structuredLinePatchOfEdit(options: {
  oldLines: readonly string[];
  newLines: readonly string[];
  maxEditLength: number;
  sharedTail: number;
}): StructuredPatch | undefined {
  const result = linePatchOfEdit(options);
  return result?.isMinimal === true ? result.patch : undefined;
}

/** The lines a hunk removes and adds, without their line breaks, in order. @internal */
export interface HunkLines {
  readonly removed: readonly string[];
  readonly added: readonly string[];
}

/**
 * {@link structuredLinePatchOfEdit}, and beyond `maxEditLength` the {@link disjointRewritePatch}
 * when the edit is such a rewrite (`isMinimal: false`), from one pass that looks up the lines.
 * `lines` holds what each hunk of the patch removes and adds, without the patch's `-` and `+`.
 * @internal
 */
export function linePatchOfEdit(options: {
  oldLines: readonly string[];
  newLines: readonly string[];
  maxEditLength: number;
  sharedTail: number;
}): { patch: StructuredPatch; lines: HunkLines[]; isMinimal: boolean } | undefined {
  const { oldLines, newLines, maxEditLength, sharedTail } = options;
  // Lines before the shared tail bound the edit; a rewrite of many of them is searched on ids at once.
  const changedLines = oldLines.length + newLines.length - 2 * sharedTail;
  let isBeyondLimit = false;
  if (changedLines <= SHORT_SEARCH_LINES || maxEditLength <= SHORT_EDIT_LENGTH) {
    const quick = searchMoves({ old: oldLines, new: newLines }, Math.min(maxEditLength, SHORT_EDIT_LENGTH), sharedTail);
    if (quick !== undefined) return { ...toPatch(quick, oldLines, newLines), isMinimal: true };
    isBeyondLimit = maxEditLength <= SHORT_EDIT_LENGTH;
  }
  const ids = idsOf(oldLines, newLines, sharedTail);
  // A rewrite whose changed lines occur nowhere on the other side (line endings converted, a file
  // rewritten whole) is found without the search, which would try every edit length up to it.
  const isRewrite = isDisjointRewrite(ids, sharedTail);
  if (isBeyondLimit || exceedsEditLength(ids, maxEditLength)) {
    return isRewrite ? { ...toPatch(rewriteMoves(ids, sharedTail), oldLines, newLines), isMinimal: false } : undefined;
  }
  const moves = isRewrite ? rewriteMoves(ids, sharedTail) : searchMoves(ids, maxEditLength, sharedTail);
  return moves === undefined ? undefined : { ...toPatch(moves, oldLines, newLines), isMinimal: true };
}

/**
 * The patch of a rewrite whose lines before the last `sharedTail` (equal on both sides) occur
 * nowhere on the other side: one hunk that removes all those old lines and adds all those new
 * ones, whatever its length; `undefined` for any other edit. Within `maxEditLength` it is the
 * patch of {@link structuredLinePatchOfEdit}. Beyond it, it is also the patch an alignment on
 * the lines that occur once on each side gives for the whole texts (with any shared leading
 * lines): such lines can only lie in the shared lines, at the same place on both sides, so the
 * changed lines form one gap, whose ends differ.
 * @internal
 */
export function disjointRewritePatch(options: { oldLines: readonly string[]; newLines: readonly string[]; sharedTail: number }): StructuredPatch | undefined {
  const { oldLines, newLines, sharedTail } = options;
  const ids = idsOf(oldLines, newLines, sharedTail);
  return isDisjointRewrite(ids, sharedTail) ? toPatch(rewriteMoves(ids, sharedTail), oldLines, newLines).patch : undefined;
}

/**
 * `diff`'s line tokens: each line with its `\n` (a `\r\n` line keeps both), the last one without
 * when the text does not end with a line break; none for `''`.
 * @internal
 */
export function splitLinesKeepingBreaks(value: string): string[] {
  const lines: string[] = [];
  let start = 0;
  // The same tokens as splitting on /(\n|\r\n)/ and gluing each separator to its line: a `\r`
  // before a `\n` ends up in the line either way.
  for (let lineBreak = value.indexOf('\n'); lineBreak !== -1; lineBreak = value.indexOf('\n', start)) {
    lines.push(value.slice(start, lineBreak + 1));
    start = lineBreak + 1;
  }
  if (start < value.length) lines.push(value.slice(start));
  return lines;
}

/** The line a unified patch puts after a last line that has no line break. @internal */
export const NO_NEWLINE_MARKER = '\\ No newline at end of file';

// --- Internal helpers ---

const COMMON = 0;
const ADDED = 1;
const REMOVED = 2;
// Where a line occurs, for isDisjointRewrite (0: nowhere yet).
const OLD_SIDE = 1;
const NEW_SIDE = 2;
const TAIL = 4;
// Longest edit (lines removed and added) searched on the lines as strings: each comparison then
// reads the lines, which a long search on a large file would do many times over.
const SHORT_EDIT_LENGTH = 32;
// Most lines before the shared tail (both sides) for which the short search is tried first: with
// more, a short edit is unlikely (a rewrite), and the short search would be time lost.
const SHORT_SEARCH_LINES = 4 * SHORT_EDIT_LENGTH;

/** The lines of both versions as the search compares them: strings, or numbers (one per distinct line). */
interface SearchKeys {
  readonly old: ArrayLike<string | number>;
  readonly new: ArrayLike<string | number>;
}

/** {@link SearchKeys} as numbers, with how many distinct lines there are. */
interface LineIds {
  readonly old: Int32Array;
  readonly new: Int32Array;
  readonly distinct: number;
}

// One number per distinct line, the same on both sides; the last `sharedTail` lines of the new
// side are those of the old side, given their numbers without looking them up.
function idsOf(oldTokens: readonly string[], newTokens: readonly string[], sharedTail: number): LineIds {
  const ids = new Map<string, number>();
  const idsOfSide = (tokens: readonly string[], end: number): Int32Array => {
    const result = new Int32Array(tokens.length);
    for (let index = 0; index < end; index += 1) {
      const token = tokens[index] as string;
      let id = ids.get(token);
      if (id === undefined) {
        id = ids.size;
        ids.set(token, id);
      }
      result[index] = id;
    }
    return result;
  };
  const oldIds = idsOfSide(oldTokens, oldTokens.length);
  const newIds = idsOfSide(newTokens, newTokens.length - sharedTail);
  newIds.set(oldIds.subarray(oldTokens.length - sharedTail), newTokens.length - sharedTail);
  return { old: oldIds, new: newIds, distinct: ids.size };
}

// Whether a minimal diff certainly needs more than `maxEditLength` line insertions and removals,
// so that the search would try up to that length only to give up (hundreds of milliseconds for a
// rewritten file of a few hundred lines). Each line occurring n times on one side and m times on
// the other can be kept at most min(n, m) times, which bounds the common subsequence from above
// and the edit length from below.
function exceedsEditLength(ids: LineIds, maxEditLength: number): boolean {
  const total = ids.old.length + ids.new.length;
  if (total <= maxEditLength) return false;
  const counts = new Int32Array(ids.distinct);
  for (const id of ids.old) counts[id] = (counts[id] as number) + 1;
  let kept = 0;
  for (const id of ids.new) {
    const left = counts[id] as number;
    if (left > 0) {
      counts[id] = left - 1;
      kept += 1;
    }
  }
  return total - 2 * kept > maxEditLength;
}

// Whether no line before the shared tail of one side occurs anywhere on the other side (before
// or in the tail). Then every common subsequence of the two sides lies in the tail, the longest is
// the tail itself, and each minimal edit removes all the old lines before it and adds all the new
// ones: the search (which prefers an add where both moves reach as far) takes the removals first.
function isDisjointRewrite(ids: LineIds, sharedTail: number): boolean {
  const oldEnd = ids.old.length - sharedTail;
  const newEnd = ids.new.length - sharedTail;
  // Where each distinct line occurs: OLD_SIDE, NEW_SIDE or TAIL; a line in two places answers no.
  const places = new Uint8Array(ids.distinct);
  for (let index = 0; index < oldEnd; index += 1) places[ids.old[index] as number] = OLD_SIDE;
  for (let index = 0; index < newEnd; index += 1) {
    const id = ids.new[index] as number;
    if (places[id] === OLD_SIDE) return false;
    places[id] = NEW_SIDE;
  }
  for (let index = oldEnd; index < ids.old.length; index += 1) {
    const id = ids.old[index] as number;
    if (places[id] === OLD_SIDE || places[id] === NEW_SIDE) return false;
    places[id] = TAIL;
  }
  return true;
}

// The moves of {@link isDisjointRewrite}'s edit: every old line before the tail removed, every new
// one added, then the tail kept.
function rewriteMoves(ids: LineIds, sharedTail: number): Uint8Array {
  const removed = ids.old.length - sharedTail;
  const added = ids.new.length - sharedTail;
  const moves = new Uint8Array(removed + added + sharedTail);
  moves.fill(REMOVED, 0, removed);
  moves.fill(ADDED, removed, removed + added);
  moves.fill(COMMON, removed + added);
  return moves;
}

// Grows as paths are made: path `p` came from path `parent[p]` by one move (`move[p]`) and then
// followed `common[p]` equal lines. Path 0 is the start: `common[0]` equal lines from the top.
interface PathStore {
  parent: Int32Array;
  move: Uint8Array;
  common: Int32Array;
  size: number;
}

function addPath(store: PathStore, parent: number, move: number): number {
  if (store.size === store.parent.length) {
    const capacity = store.parent.length * 2;
    const parents = new Int32Array(capacity);
    parents.set(store.parent);
    const movesMade = new Uint8Array(capacity);
    movesMade.set(store.move);
    const commons = new Int32Array(capacity);
    commons.set(store.common);
    store.parent = parents;
    store.move = movesMade;
    store.common = commons;
  }
  const path = store.size;
  store.parent[path] = parent;
  store.move[path] = move;
  store.common[path] = 0;
  store.size += 1;
  return path;
}

// The search of `diff`'s `Diff.diffWithOptionsObj`: `bestPath[k]` (here `present`, `oldPositions`
// and `paths` at `k + offset`) is the furthest path on diagonal k, cleared where `diff` clears it.
// Returns the moves of the first path to reach the end, one per line: COMMON, ADDED or REMOVED.
// The last `sharedTail` lines are equal on both sides: a path on the diagonal of the end that
// reaches them slides to the end, as comparing them would find.
function searchMoves(keys: SearchKeys, maxEditLengthOption: number, sharedTail: number): Uint8Array | undefined {
  const oldIds = keys.old;
  const newIds = keys.new;
  const oldLength = oldIds.length;
  const newLength = newIds.length;
  const maxEditLength = Math.min(newLength + oldLength, maxEditLengthOption);
  const offset = maxEditLength + 2;
  const size = 2 * offset + 1;
  const present = new Uint8Array(size);
  const oldPositions = new Int32Array(size);
  const paths = new Int32Array(size);
  const store: PathStore = { parent: new Int32Array(1024), move: new Uint8Array(1024), common: new Int32Array(1024), size: 0 };
  // Follows equal lines from (oldPosition + 1, oldPosition - diagonal + 1); returns the new position.
  const endDiagonal = oldLength - newLength;
  const tailStart = oldLength - sharedTail;
  const extractCommon = (slot: number, diagonal: number): number => {
    let oldPosition = oldPositions[slot] as number;
    let newPosition = oldPosition - diagonal;
    let count = 0;
    if (diagonal === endDiagonal && oldPosition + 1 >= tailStart) {
      count = oldLength - 1 - oldPosition;
      oldPosition = oldLength - 1;
      newPosition = newLength - 1;
    }
    while (newPosition + 1 < newLength && oldPosition + 1 < oldLength && oldIds[oldPosition + 1] === newIds[newPosition + 1]) {
      newPosition += 1;
      oldPosition += 1;
      count += 1;
    }
    store.common[paths[slot] as number] = count;
    oldPositions[slot] = oldPosition;
    return newPosition;
  };

  present[offset] = 1;
  oldPositions[offset] = -1;
  paths[offset] = addPath(store, -1, COMMON);
  let newPosition = extractCommon(offset, 0);
  if ((oldPositions[offset] as number) + 1 >= oldLength && newPosition + 1 >= newLength) return movesOf(store, paths[offset] as number, oldLength + newLength);
  let minDiagonal = Number.NEGATIVE_INFINITY;
  let maxDiagonal = Number.POSITIVE_INFINITY;
  for (let editLength = 1; editLength <= maxEditLength; editLength += 1) {
    for (let diagonal = Math.max(minDiagonal, -editLength); diagonal <= Math.min(maxDiagonal, editLength); diagonal += 2) {
      const slot = diagonal + offset;
      const hasRemovePath = present[slot - 1] === 1;
      const removeOld = oldPositions[slot - 1] as number;
      const removePath = paths[slot - 1] as number;
      if (hasRemovePath) present[slot - 1] = 0;
      const hasAddPath = present[slot + 1] === 1;
      const addOld = oldPositions[slot + 1] as number;
      let canAdd = false;
      if (hasAddPath) {
        const addNew = addOld - diagonal;
        canAdd = addNew >= 0 && addNew < newLength;
      }
      const canRemove = hasRemovePath && removeOld + 1 < oldLength;
      if (!canAdd && !canRemove) {
        present[slot] = 0;
        continue;
      }
      if (!canRemove || (canAdd && removeOld < addOld)) {
        paths[slot] = addPath(store, paths[slot + 1] as number, ADDED);
        oldPositions[slot] = addOld;
      } else {
        paths[slot] = addPath(store, removePath, REMOVED);
        oldPositions[slot] = removeOld + 1;
      }
      present[slot] = 1;
      newPosition = extractCommon(slot, diagonal);
      const oldPosition = oldPositions[slot] as number;
      if (oldPosition + 1 >= oldLength && newPosition + 1 >= newLength) return movesOf(store, paths[slot] as number, oldLength + newLength);
      if (oldPosition + 1 >= oldLength) maxDiagonal = Math.min(maxDiagonal, diagonal - 1);
      if (newPosition + 1 >= newLength) minDiagonal = Math.max(minDiagonal, diagonal + 1);
    }
  }
  return undefined;
}

// The moves of a path from the start, in order.
function movesOf(store: PathStore, last: number, capacity: number): Uint8Array {
  const reversed = new Uint8Array(capacity);
  let length = 0;
  for (let path = last; path !== -1; path = store.parent[path] as number) {
    for (let count = store.common[path] as number; count > 0; count -= 1) reversed[length++] = COMMON;
    if (store.parent[path] !== -1) reversed[length++] = store.move[path] as number;
  }
  const moves = new Uint8Array(length);
  for (let index = 0; index < length; index += 1) moves[index] = reversed[length - 1 - index] as number;
  return moves;
}

// `structuredPatch`'s hunks with no context lines: each run of changes between equal lines is a
// hunk, its lines in the order of the changes, the line break cut off each line (a line without
// one gets the "\ No newline at end of file" marker after it); with each hunk's removed and added
// lines as they are, cut once for both.
function toPatch(moves: Uint8Array, oldTokens: readonly string[], newTokens: readonly string[]): { patch: StructuredPatch; lines: HunkLines[] } {
  const hunks: StructuredPatchHunk[] = [];
  const lines: HunkLines[] = [];
  let oldLine = 1;
  let newLine = 1;
  let oldIndex = 0;
  let newIndex = 0;
  let hunk: { oldStart: number; newStart: number; lines: string[]; removed: string[]; added: string[] } | undefined;
  const close = (): void => {
    if (hunk === undefined) return;
    hunks.push({ oldStart: hunk.oldStart, oldLines: oldLine - hunk.oldStart, newStart: hunk.newStart, newLines: newLine - hunk.newStart, lines: hunk.lines });
    lines.push({ removed: hunk.removed, added: hunk.added });
    hunk = undefined;
  };
  for (const move of moves) {
    if (move === COMMON) {
      close();
      oldLine += 1;
      newLine += 1;
      oldIndex += 1;
      newIndex += 1;
      continue;
    }
    hunk ??= { oldStart: oldLine, newStart: newLine, lines: [], removed: [], added: [] };
    const token = move === ADDED ? (newTokens[newIndex++] as string) : (oldTokens[oldIndex++] as string);
    const isEnded = token.endsWith('\n');
    const line = isEnded ? token.slice(0, -1) : token;
    hunk.lines.push(`${move === ADDED ? '+' : '-'}${line}`);
    if (!isEnded) hunk.lines.push(NO_NEWLINE_MARKER);
    if (move === ADDED) {
      hunk.added.push(line);
      newLine += 1;
    } else {
      hunk.removed.push(line);
      oldLine += 1;
    }
  }
  close();
  return { patch: { oldFileName: '', newFileName: '', oldHeader: undefined, newHeader: undefined, hunks }, lines };
}

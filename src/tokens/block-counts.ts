import { hasWideCharacter } from './one-byte.js';
import { BLOCK_SPLIT_MIN, blockCounterOf, isBlockEnd, isBlockStart, isCountedWhole } from './token-counter.js';
import type { CountBlock, TokenCounter } from './token-counter.js';

/**
 * A text's token count kept block by block, as a counter from `createTokenCounter` cuts it, so
 * that the count of an edited version can take the blocks the edit did not reach as they are.
 * @internal
 */
export interface BlockCounts {
  /** The text counted. */
  readonly text: string;
  /** Where each block ends, in order; the last one is the text's length. */
  readonly ends: readonly number[];
  /** Tokens of each block. */
  readonly tokens: readonly number[];
  /** Tokens of the whole text (the sum), equal to `counter.count(text)`. */
  readonly total: number;
}

/** What an edited text shares with the text of earlier {@link BlockCounts}. @internal */
export interface SharedEnds {
  /** The counts of the earlier version. */
  readonly previous: BlockCounts;
  /** Characters both versions start with (any number up to their common prefix). */
  readonly prefix: number;
  /** Characters both versions end with (any number up to their common suffix), not overlapping `prefix`. */
  readonly suffix: number;
}

/**
 * Counts `text` with a counter from `createTokenCounter` block by block, the same blocks and the
 * same total as `counter.count(text)`. With `shared`, the blocks that lie in the part both
 * versions start with, and those in the part they end with, are taken from the earlier counts
 * without reading them again: only the blocks around the edit are cut and counted, so an edit of
 * a large text costs what the edit costs. Returns `undefined` for any other counter, whose count
 * is not a sum of blocks.
 * @internal
 */
export function countBlocks(counter: TokenCounter, text: string, shared?: SharedEnds | undefined): BlockCounts | undefined {
  const countBlock = blockCounterOf(counter);
  if (countBlock === undefined) return undefined;
  if (text.length < BLOCK_SPLIT_MIN) {
    const tokens = counter.count(text);
    return { text, ends: [text.length], tokens: [tokens], total: tokens };
  }
  const ends: number[] = [];
  const tokens: number[] = [];
  let total = 0;
  const push = (end: number, count: number): void => {
    ends.push(end);
    tokens.push(count);
    total += count;
  };
  const previous = shared !== undefined && shared.previous.text.length >= BLOCK_SPLIT_MIN ? shared.previous : undefined;
  let blockStart = 0;
  let kept = 0;
  if (previous !== undefined && shared !== undefined) {
    // Blocks whose end was decided inside the shared start: the line before the end and the line
    // after it (which the decision reads up to its first non-space) both lie in that start.
    const oldEnds = previous.ends;
    while (kept < oldEnds.length - 1) {
      const end = oldEnds[kept] as number;
      const lineBreak = text.indexOf('\n', end);
      if (lineBreak === -1 || lineBreak >= shared.prefix) break;
      push(end, previous.tokens[kept] as number);
      blockStart = end;
      kept += 1;
    }
  }
  // From here on the ends are decided on this text, up to an end inside the shared end of both
  // versions that the earlier text has too (shifted): every later end is decided on lines that
  // start there or later, the same lines in both, so the earlier ends from there on are the same.
  const shift = previous === undefined ? 0 : text.length - previous.text.length;
  const sameFrom = previous === undefined || shared === undefined ? Number.POSITIVE_INFINITY : text.length - shared.suffix;
  // The first block cut here starts where the earlier block `kept` started: when it also ends
  // where that block ended (shifted), it holds the whole edit, and its count is derived from
  // that block's (see countEditedBlock).
  const editStart = blockStart;
  // Asked only for blocks not cached (see CountBlock).
  let hasWide: boolean | undefined;
  const isWide = (): boolean => (hasWide ??= hasWideCharacter(text));
  const countNew = (end: number): number => {
    const block = blockStart === 0 && end === text.length ? text : text.slice(blockStart, end);
    const cutFrom = block === text ? undefined : isWide;
    if (previous === undefined || shared === undefined || blockStart !== editStart || end < sameFrom || previous.ends[kept] !== end - shift) return countBlock(block, undefined, cutFrom);
    return countBlock(block, () => countEditedBlock({ text, block, start: blockStart, end, previous, index: kept, shared, countBlock, isWide }), cutFrom);
  };
  let lineStart = blockStart;
  for (let lineBreak = text.indexOf('\n', blockStart); lineBreak !== -1; lineBreak = text.indexOf('\n', lineBreak + 1)) {
    const next = lineBreak + 1;
    if (isBlockEnd(text, lineStart, next)) {
      push(next, countNew(next));
      blockStart = next;
      if (next >= sameFrom && previous !== undefined) {
        const index = indexOf(previous.ends, next - shift, kept);
        if (index !== -1) {
          for (let rest = index + 1; rest < previous.ends.length; rest += 1) push((previous.ends[rest] as number) + shift, previous.tokens[rest] as number);
          return { text, ends, tokens, total };
        }
      }
    }
    lineStart = next;
  }
  if (blockStart < text.length) push(text.length, countNew(text.length));
  return { text, ends, tokens, total };
}

// --- Internal helpers ---

// The count of `block`, the new text's [start, end), from the count of the earlier block `index`
// that spans the same shared text around the edit: minus the earlier text's changed lines, plus
// this text's. The changed lines run from a cut at or before the shared start to a cut in the
// shared end (cuts the tokenizer always makes, see isBlockStart), so the parts before and after them
// are the same text in both blocks, counted the same. `undefined` (count the block itself) when
// either block is not counted in one piece (a long run is counted in slices, which do not add up).
function countEditedBlock(options: { text: string; block: string; start: number; end: number; previous: BlockCounts; index: number; shared: SharedEnds; countBlock: CountBlock; isWide: () => boolean }): number | undefined {
  const { text, start, end, previous, index } = options;
  const before = previous.text;
  const shift = text.length - before.length;
  const oldBlock = before.slice(start, end - shift);
  if (!isCountedWhole(options.block) || !isCountedWhole(oldBlock)) return undefined;
  // The last line start at or before the shared start where both texts are cut (the block's own
  // start always is): lines before it lie in the shared start, the same in both.
  const prefix = Math.min(options.shared.prefix, before.length);
  let from = prefix === 0 ? 0 : Math.max(start, before.lastIndexOf('\n', prefix - 1) + 1);
  while (from > start && !(isBlockStart(text, from) && isBlockStart(before, from))) from = from < 2 ? 0 : before.lastIndexOf('\n', from - 2) + 1;
  if (from < start) from = start;
  // The first line start in the shared end where both are cut (after a line break in the shared
  // end, so a line start in both), else the block's end, which ends the earlier block too.
  let to = end;
  for (let lineBreak = text.indexOf('\n', text.length - options.shared.suffix); lineBreak !== -1 && lineBreak + 1 < end; lineBreak = text.indexOf('\n', lineBreak + 1)) {
    if (isBlockStart(text, lineBreak + 1)) {
      to = lineBreak + 1;
      break;
    }
  }
  // Worth it only when the changed lines of both are shorter than the block (else count it).
  if (to < from || to - from + (to - shift - from) >= options.block.length) return undefined;
  const removed = before.slice(from, to - shift);
  const added = text.slice(from, to);
  const isBeforeWide = (): boolean => hasWideCharacter(before);
  return (previous.tokens[index] as number) - (removed === '' ? 0 : options.countBlock(removed, undefined, isBeforeWide)) + (added === '' ? 0 : options.countBlock(added, undefined, options.isWide));
}

// Binary search for `value` in the increasing `values`, from `from` on; -1 when absent.
function indexOf(values: readonly number[], value: number, from: number): number {
  let low = from;
  let high = values.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const at = values[middle] as number;
    if (at === value) return middle;
    if (at < value) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

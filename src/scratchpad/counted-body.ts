import type { BlockCounts, SharedEnds } from '../tokens/block-counts.js';

/**
 * The code block of a file's section (opening fence, content, closing fence) with its token
 * count kept block by block, so that a touch reuses it whole and an edit re-counts only the
 * blocks around the changed lines.
 * @internal
 */
export interface CountedBody {
  /** The file content the block shows. */
  readonly content: string;
  /** The opening fence line (fence, language, line break). */
  readonly opening: string;
  /** The closing fence. */
  readonly closing: string;
  /** The code block: `opening`, `content` with a final line break, `closing`. */
  readonly body: string;
  /** The counts of `body`. */
  readonly blocks: BlockCounts;
}

/**
 * What the code block of `content` shares with `previous` at its start and at its end, from what
 * the contents share (`shared`, in characters of the contents); `undefined` when the fences differ
 * or nothing is known.
 * @internal
 */
export function sharedBodyEnds(options: {
  previous: CountedBody;
  opening: string;
  closing: string;
  content: string;
  shared: { prefix: number; suffix: number } | undefined;
}): SharedEnds | undefined {
  const { previous, shared } = options;
  if (shared === undefined || previous.opening !== options.opening || previous.closing !== options.closing) return undefined;
  // A content without a final line break gets one in the block: both ends then share it (or, when
  // only one version lacks it, only the closing fence is known to be shared).
  const isEndedBefore = endsWithBreak(previous.content);
  const isEnded = endsWithBreak(options.content);
  const suffix = isEndedBefore !== isEnded ? options.closing.length : shared.suffix + (isEnded ? 0 : 1) + options.closing.length;
  return { previous: previous.blocks, prefix: options.opening.length + shared.prefix, suffix };
}

// --- Internal helpers ---

function endsWithBreak(content: string): boolean {
  return content === '' || content.endsWith('\n');
}

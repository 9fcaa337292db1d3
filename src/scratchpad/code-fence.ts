/**
 * The fence of a file's code block: a run of backticks longer than any in the content (and at
 * least three), so that the content cannot close it.
 * @internal
 */
export function fenceFor(content: string): string {
  return fenceOfLongest(longestRun(content, 0, content.length));
}

/**
 * The fence of `content` (as {@link fenceFor} returns it) from `previous`, the fence of the
 * content it was edited from, looking only at the edited part: `shared` says how many characters
 * both contents start with and end with. Backtick runs outside the edit are the same in both, so
 * unless the earlier content's longest run was in the edited part (then the whole content is
 * looked at again), the longest run is the earlier one or one in the edited part.
 * @internal
 */
export function fenceAfterEdit(options: { before: string; previous: string; content: string; shared: { prefix: number; suffix: number } }): string {
  const { before, content, previous } = options;
  const { prefix, suffix } = options.shared;
  if (prefix < 0 || suffix < 0 || prefix + suffix > Math.min(before.length, content.length)) return fenceFor(content);
  // The edited part of each, widened over the backticks next to it, so that a run crossing its
  // edge is looked at whole in both (the characters widened over are shared: the same in both).
  let start = prefix;
  while (start > 0 && content.charCodeAt(start - 1) === BACKTICK) start -= 1;
  let end = content.length - suffix;
  let widened = 0;
  while (end + widened < content.length && content.charCodeAt(end + widened) === BACKTICK) widened += 1;
  end += widened;
  // A rewrite (most lines changed) is looked at whole at once.
  if ((end - start) * 2 > content.length) return fenceFor(content);
  const added = longestRun(content, start, end);
  if (previous.length === MIN_FENCE) return fenceOfLongest(added);
  // The earlier longest run, known from its fence, is still outside the edit when none in the
  // edited part of the earlier content was as long.
  const longestBefore = previous.length - 1;
  const removed = longestRun(before, start, before.length - suffix + widened);
  if (removed >= longestBefore) return fenceFor(content);
  return fenceOfLongest(Math.max(longestBefore, added));
}

// --- Internal helpers ---

const BACKTICK = 96;
const MIN_FENCE = 3;

function fenceOfLongest(longest: number): string {
  return '`'.repeat(Math.max(MIN_FENCE, longest + 1));
}

// The longest run of backticks in `text[start, end)`. indexOf, not a RegExp: no match object per
// run, several times faster on a large file.
function longestRun(text: string, start: number, end: number): number {
  let longest = 0;
  for (let from = text.indexOf('`', start); from !== -1 && from < end; ) {
    let to = from + 1;
    while (to < end && text.charCodeAt(to) === BACKTICK) to += 1;
    longest = Math.max(longest, to - from);
    from = text.indexOf('`', to);
  }
  return longest;
}

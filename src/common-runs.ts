/**
 * Returns how many characters `left` (from `leftStart`) and `right` (from `rightStart`) have in
 * common at the start, looking at no more than `limit` characters. Compares slices (a native
 * comparison) of growing size, then halves into the first slice that differs, so that two
 * multi-megabyte texts that share almost everything cost a few native passes, not one loop
 * iteration per character.
 * @internal
 */
export function commonPrefixLength(options: { left: string; leftStart: number; right: string; rightStart: number; limit: number }): number {
  const { left, right, leftStart, rightStart } = options;
  const limit = Math.max(0, Math.min(options.limit, left.length - leftStart, right.length - rightStart));
  let common = 0;
  // Above SMALL_RUN: a first step of SMALL_RUN would go straight to the loop over characters.
  let step = 2 * SMALL_RUN;
  while (common < limit) {
    const size = Math.min(step, limit - common);
    if (size <= SMALL_RUN) {
      while (common < limit && left.charCodeAt(leftStart + common) === right.charCodeAt(rightStart + common)) common += 1;
      return common;
    }
    if (isSameSlice(left, leftStart + common, right, rightStart + common, size)) {
      common += size;
      step *= 2;
    } else {
      // The first difference lies within the next `size` characters.
      step = size >> 1;
    }
  }
  return common;
}

/**
 * Returns how many characters `left` and `right` have in common at the end, looking at no more
 * than `limit` characters (see {@link commonPrefixLength}).
 * @internal
 */
export function commonSuffixLength(options: { left: string; right: string; limit: number }): number {
  const { left, right } = options;
  const limit = Math.max(0, Math.min(options.limit, left.length, right.length));
  let common = 0;
  let step = 2 * SMALL_RUN;
  while (common < limit) {
    const size = Math.min(step, limit - common);
    if (size <= SMALL_RUN) {
      while (common < limit && left.charCodeAt(left.length - 1 - common) === right.charCodeAt(right.length - 1 - common)) common += 1;
      return common;
    }
    if (isSameSlice(left, left.length - common - size, right, right.length - common - size, size)) {
      common += size;
      step *= 2;
    } else {
      step = size >> 1;
    }
  }
  return common;
}

// --- Internal helpers ---

// Below this many characters a plain loop is cheaper than slicing.
const SMALL_RUN = 32;

function isSameSlice(left: string, leftStart: number, right: string, rightStart: number, size: number): boolean {
  return left.slice(leftStart, leftStart + size) === right.slice(rightStart, rightStart + size);
}

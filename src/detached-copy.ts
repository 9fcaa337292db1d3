/**
 * Returns a flat copy of `text` that keeps no larger string alive (V8 shares the characters of a
 * slice with the string it was cut from), for a cache that keeps texts as keys. The copy made
 * last is handed out again for the same text: a recorded text goes into the clean-text cache of
 * redaction and into the token-count cache one after the other, and with one key between them
 * V8 copies and hashes it once instead of twice. A text shorter than {@link SLICE_COPY_MIN} is
 * returned as it is (V8 copies short slices anyway). Only texts of at most 65,536 characters are
 * remembered.
 * @internal
 */
export function detachedCopy(text: string): string {
  if (text.length < SLICE_COPY_MIN) return text;
  if (text === lastText) return lastCopy;
  const copy = ` ${text}`.slice(1);
  if (text.length <= MAX_REMEMBERED) {
    lastText = text;
    lastCopy = copy;
  }
  return copy;
}

/** Slices shorter than this are copies in V8; longer ones point into the text they were cut from. @internal */
export const SLICE_COPY_MIN = 13;

// --- Internal helpers ---

/** Longest text whose copy is remembered: a long one may be a slice of a far longer string, kept alive while remembered. */
const MAX_REMEMBERED = 65_536;
// The last text copied and its copy (one text held at most).
let lastText: string | undefined;
let lastCopy = '';

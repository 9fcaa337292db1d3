/**
 * A map from text to a value computed from it, remembering the texts used last: up to `size`
 * texts in the young generation and as many in the old one; a text found in the old one moves to
 * the young one, and when the young one is full the old one is dropped. For results asked for
 * again a few calls later (one sentence read by several passes), not for a cache of everything.
 * @internal
 */
export interface RecentMemo<Value> {
  /** The value remembered for `text`, or `undefined`. */
  get(text: string): Value | undefined;
  /** Remembers `value` for `text` (kept under the key `keyOf` makes of it). */
  set(text: string, value: Value): void;
}

/**
 * Creates a {@link RecentMemo} of two generations of `size` texts each. `keyOf` makes the key a
 * text is kept under (e.g. `detachedCopy`, so that a remembered slice keeps no larger text alive).
 * @internal
 */
export function createRecentMemo<Value>(options: { size: number; keyOf?: ((text: string) => string) | undefined }): RecentMemo<Value> {
  const { size, keyOf } = options;
  let young = new Map<string, Value>();
  let old = new Map<string, Value>();
  const set = (text: string, value: Value): void => {
    if (young.size >= size) {
      old = young;
      young = new Map();
    }
    young.set(keyOf === undefined ? text : keyOf(text), value);
  };
  return {
    get(text) {
      const value = young.get(text);
      if (value !== undefined) return value;
      const older = old.get(text);
      if (older !== undefined) set(text, older);
      return older;
    },
    set,
  };
}

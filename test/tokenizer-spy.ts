import type * as PretokenCount from '../src/tokens/pretoken-count.js';

/**
 * For a `vi.mock` factory of `src/tokens/pretoken-count.js`: the module with `exactCounter` (the
 * tokenizer behind the count cache, pre-token by pre-token) wrapped so that every text it counts
 * is pushed to `texts`. Imports nothing at run time, so the factory can load it while the module
 * it mocks is still being resolved.
 */
export function spyOnExactCounter(actual: typeof PretokenCount, texts: string[]): typeof PretokenCount {
  return {
    ...actual,
    exactCounter: (...args: Parameters<typeof actual.exactCounter>): ((text: string) => number) => {
      const count = actual.exactCounter(...args);
      return (text) => {
        texts.push(text);
        return count(text);
      };
    },
  };
}

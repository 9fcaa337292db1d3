/**
 * Returns one RegExp per source and flags for the whole process. V8 runs a regular expression in
 * its bytecode interpreter until that compiled object has been used enough to earn machine code,
 * so a RegExp built afresh for every manager (or every call) may never leave the interpreter,
 * several times slower on a long text. A caller of a `g` or `y` RegExp from here sets `lastIndex`
 * before each search and keeps no search open across a `yield` or a callback that could search
 * with it again.
 * @internal
 */
export function compiledPattern(source: string, flags: string): RegExp {
  const key = `${flags}/${source}`;
  const known = compiled.get(key);
  if (known !== undefined) return known;
  // Bounded, for applications that make managers with ever new extra patterns.
  if (compiled.size >= MAX_PATTERNS) compiled.clear();
  const pattern = new RegExp(source, flags);
  compiled.set(key, pattern);
  return pattern;
}

// --- Internal helpers ---

/** Patterns kept at most (the built-in detectors need about twenty). */
const MAX_PATTERNS = 1_024;
const compiled = new Map<string, RegExp>();

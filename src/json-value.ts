/** Deepest nesting of arrays and objects accepted in a tool-call input. */
export const MAX_JSON_DEPTH = 100;

/** The first value that keeps an input from being JSON, with its path. @internal */
export interface JsonProblem {
  /** Path from the checked value to the bad one, e.g. `['path']` or `[2, 'args']`. */
  readonly path: readonly (string | number)[];
  /** What is wrong, as the end of a sentence: `is undefined`, `is a cycle back to input.a`. */
  readonly problem: string;
  /** The bad value. */
  readonly value: unknown;
}

/**
 * Finds the first value in `value` that JSON cannot carry as is: `undefined`, functions, symbols,
 * bigints, non-finite numbers, class instances (`Date`, `Map`…), cycles, or nesting deeper than
 * `maxDepth`. Iterative, so a cyclic or very deep input cannot overflow the stack.
 * @internal
 */
export function findJsonProblem(value: unknown, options: JsonCheckOptions = {}): JsonProblem | undefined {
  // Most inputs are small plain JSON: one allocation-free walk says so before the full one.
  if ((options.maxDepth ?? MAX_JSON_DEPTH) >= SMALL_JSON_DEPTH && isSmallJson(value)) return undefined;
  return walkForJsonProblem(value, options);
}

/** Options of {@link findJsonProblem}. @internal */
export interface JsonCheckOptions {
  /** Deepest nesting accepted (default {@link MAX_JSON_DEPTH}). */
  readonly maxDepth?: number | undefined;
  /** Name of the checked value in problem texts (default `input`). */
  readonly rootName?: string | undefined;
}

/**
 * {@link findJsonProblem} without its quick first check: walks every value, keeping the path of
 * each and the objects on it.
 * @internal
 */
export function walkForJsonProblem(value: unknown, options: JsonCheckOptions = {}): JsonProblem | undefined {
  const maxDepth = options.maxDepth ?? MAX_JSON_DEPTH;
  const rootName = options.rootName ?? 'input';
  // Depth-first, with the objects on the current path (cycles) and the heights of objects
  // already checked (shared, acyclic references are checked once).
  const onPath = new Map<object, readonly (string | number)[]>();
  const heights = new Map<object, number>();
  const stack: Frame[] = [];
  const visit = (child: unknown, path: readonly (string | number)[]): JsonProblem | undefined => {
    const scalar = scalarProblem(child);
    if (scalar !== undefined) return { path, problem: scalar, value: child };
    if (typeof child !== 'object' || child === null) return undefined;
    const cyclePath = onPath.get(child);
    if (cyclePath !== undefined) return { path, problem: `is a cycle back to ${formatValuePath(rootName, cyclePath)}`, value: child };
    const depth = path.length + 1;
    const height = heights.get(child);
    if (height !== undefined) {
      return depth + height - 1 > maxDepth ? { path, problem: `nests more than ${maxDepth} levels deep`, value: child } : undefined;
    }
    if (depth > maxDepth) return { path, problem: `nests more than ${maxDepth} levels deep`, value: child };
    if (!Array.isArray(child)) {
      const prototype = Object.getPrototypeOf(child) as unknown;
      if (prototype !== Object.prototype && prototype !== null) {
        const name = (child as { constructor?: { name?: unknown } }).constructor?.name;
        return { path, problem: `is ${typeof name === 'string' && name.length > 0 ? `a ${name}` : 'a class instance'}, not a plain object`, value: child };
      }
    }
    onPath.set(child, path);
    const keys: (string | number)[] = Array.isArray(child) ? Array.from({ length: child.length }, (_, index) => index) : Object.keys(child);
    stack.push({ object: child, path, keys, next: 0, height: 1 });
    return undefined;
  };

  const rootProblem = visit(value, []);
  if (rootProblem !== undefined) return rootProblem;
  while (stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    if (frame.next >= frame.keys.length) {
      stack.pop();
      onPath.delete(frame.object);
      heights.set(frame.object, frame.height);
      const parent = stack[stack.length - 1];
      if (parent !== undefined) parent.height = Math.max(parent.height, frame.height + 1);
      continue;
    }
    const key = frame.keys[frame.next] as string | number;
    frame.next += 1;
    const child = (frame.object as Record<string | number, unknown>)[key];
    const depthBefore = stack.length;
    const problem = visit(child, [...frame.path, key]);
    if (problem !== undefined) return problem;
    // A shared object checked before adds its height without being walked again.
    if (stack.length === depthBefore && typeof child === 'object' && child !== null) {
      frame.height = Math.max(frame.height, (heights.get(child) ?? 0) + 1);
    }
  }
  return undefined;
}

/**
 * Tells quickly that `value` is JSON as {@link walkForJsonProblem} sees it, for the small inputs of
 * tool calls ({@link findJsonProblem} tries it first): `true` only when the walk finds no problem;
 * `false` when it would, and also for inputs more than {@link SMALL_JSON_DEPTH} levels deep or of
 * more than {@link SMALL_JSON_VALUES} values (a cycle is always too deep), which are left to the
 * walk. Allocates nothing.
 * @internal
 */
export function isSmallJson(value: unknown): boolean {
  return smallJsonLeft(value, 1, SMALL_JSON_VALUES) >= 0;
}

/**
 * Formats a value path the way JavaScript would read it: `toolCalls[0].input.path`, with keys that
 * are not identifiers quoted (`input["a b"]`). Long paths keep their first and last segments.
 * @internal
 */
export function formatValuePath(root: string, path: readonly (string | number | symbol)[]): string {
  const segments = path.map((key) =>
    typeof key === 'number' ? `[${key}]`
    : typeof key === 'symbol' ? `[${String(key)}]`
    : IDENTIFIER.test(key) ? `.${key}`
    : `[${JSON.stringify(key)}]`,
  );
  const shown = segments.length > MAX_SHOWN_SEGMENTS
    ? [...segments.slice(0, 6), `…(${segments.length - 10} more)…`, ...segments.slice(-4)]
    : segments;
  const text = `${root}${shown.join('')}`;
  return root.length === 0 && text.startsWith('.') ? text.slice(1) : text;
}

// --- Internal helpers ---

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/u;
/** Deepest nesting {@link isSmallJson} follows (well under MAX_JSON_DEPTH). */
const SMALL_JSON_DEPTH = 32;
/** Most values {@link isSmallJson} looks at (shared objects count each time they are reached). */
const SMALL_JSON_VALUES = 1_000;

// How many of `left` values are left after `value`, at `depth` (the root object is at 1), or -1
// when it is not JSON within the limits of isSmallJson.
function smallJsonLeft(value: unknown, depth: number, left: number): number {
  if (left <= 0) return -1;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return left - 1;
    case 'number':
      return Number.isFinite(value) ? left - 1 : -1;
    case 'object': {
      if (value === null) return left - 1;
      if (depth > SMALL_JSON_DEPTH) return -1;
      let rest = left - 1;
      if (Array.isArray(value)) {
        for (let index = 0; index < value.length && rest >= 0; index += 1) rest = smallJsonLeft(value[index], depth + 1, rest);
        return rest;
      }
      const prototype: unknown = Object.getPrototypeOf(value);
      if (prototype !== Object.prototype && prototype !== null) return -1;
      for (const key of Object.keys(value)) {
        rest = smallJsonLeft((value as Record<string, unknown>)[key], depth + 1, rest);
        if (rest < 0) return -1;
      }
      return rest;
    }
    default:
      return -1;
  }
}
const MAX_SHOWN_SEGMENTS = 12;

interface Frame {
  readonly object: object;
  readonly path: readonly (string | number)[];
  readonly keys: readonly (string | number)[];
  next: number;
  height: number;
}

function scalarProblem(value: unknown): string | undefined {
  switch (typeof value) {
    case 'undefined':
      return 'is undefined';
    case 'function':
      return 'is a function';
    case 'symbol':
      return 'is a symbol';
    case 'bigint':
      return 'is a bigint';
    case 'number':
      return Number.isFinite(value) ? undefined : `is ${String(value)}`;
    default:
      return undefined;
  }
}

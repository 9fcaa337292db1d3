import { z } from 'zod';
import { InvalidArgumentError, describeValue } from './errors.js';
import { formatValuePath } from './json-value.js';

/**
 * Validates the input of a public entry point, or throws an {@link InvalidArgumentError} that
 * names the method, the offending path and value, zod's explanation and a corrected example.
 * @internal
 */
export function parse<T>(schema: z.ZodType<T>, input: unknown, method: string, example: string): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const first = result.error.issues[0];
  const path = formatValuePath('', first?.path ?? []);
  const value = path === '' ? input : getPath(input, first?.path ?? []);
  // A check that names the bad value itself reads as a sentence: `toolCalls[0].input.path is undefined: …`.
  const problem = first?.code === 'custom' ? (first.params as { problem?: unknown } | undefined)?.problem : undefined;
  if (typeof problem === 'string') {
    throw new InvalidArgumentError({
      parameter: path === '' ? 'input' : path,
      value,
      message: `${method}(): ${path === '' ? 'the input' : path} ${problem}: ${first?.message ?? 'invalid'}\nExample: ${example}.`,
      cause: result.error,
    });
  }
  throw new InvalidArgumentError({
    parameter: path === '' ? 'input' : path,
    value,
    message: `${method}(): invalid input${path === '' ? '' : ` at \`${path}\``}, got ${describeValue(value)}:\n${z.prettifyError(result.error)}\nExample: ${example}.`,
    cause: result.error,
  });
}

function getPath(input: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = input;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

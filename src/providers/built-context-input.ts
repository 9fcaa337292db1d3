import { z } from 'zod';
import type { BuiltContext } from '../build/window-builder.js';
import { parse } from '../validation.js';

/**
 * Checks that `input` has the shape of a `build()` result (system text, system blocks, history
 * messages), or throws an `InvalidArgumentError` naming `method`. Only the fields the provider
 * formats read are checked; the history's message shapes are `build()`'s own contract.
 * @internal
 */
export function parseBuiltContext(input: unknown, method: string): BuiltContext {
  parse(builtContextSchema, input, method, `${method}(manager.build({ budget: 28_000 }))`);
  return input as BuiltContext;
}

// --- Internal helpers ---

const builtContextSchema = z.looseObject({
  system: z.string(),
  systemBlocks: z.array(z.looseObject({ name: z.string(), text: z.string(), isStablePrefix: z.boolean() })),
  history: z.array(z.looseObject({ role: z.enum(['system', 'user', 'assistant', 'tool']), content: z.string() })),
});

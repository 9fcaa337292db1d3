import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isProse } from '../../src/language/prose.js';
import { MAX_TOOL_INPUT_STRING, createEntry, toolCallTokens } from '../../src/tiers/entry.js';
import { createTokenCounter } from '../../src/tokens/token-counter.js';
import type { JsonValue, ToolCall } from '../../src/types.js';
import { PROPERTY_RUNS } from '../helpers.js';

// Strings on both sides of the length a tool input is shortened at, code-like and prose-like.
const sentence = 'The cache helper retries twice, then it reports the failure to the caller. ';
const text = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.nat({ max: 900 }).map((length) => 'x=1; '.repeat(Math.ceil(length / 5)).slice(0, length)),
  fc.nat({ max: 900 }).map((length) => sentence.repeat(Math.ceil(length / sentence.length) + 1).slice(0, length)),
  fc.constantFrom(MAX_TOOL_INPUT_STRING, MAX_TOOL_INPUT_STRING + 1).map((length) => 'y'.repeat(length)),
);
const json: fc.Arbitrary<JsonValue> = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    text,
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom('path', 'command', 'content', 'plan', 'old', 'new'), tie('value'), { maxKeys: 3 }),
  ),
})).value;
const calls = fc.array(fc.record({ id: fc.constantFrom('c1', 'c2', 'c3'), name: fc.constantFrom('bash', 'write_file'), input: json }), { minLength: 1, maxLength: 3 });

describe('an entry with tool calls', () => {
  it('shows and counts the calls as shortened one by one, and keeps them apart only when one changed', () => {
    const counter = createTokenCounter();
    fc.assert(
      fc.property(calls, (toolCalls: ToolCall[]) => {
        const entry = createEntry({ seq: 3, kind: 'assistant', role: 'assistant', text: 'Running it now.', counter, maxEntryTokens: 2_000, exchange: 1, toolCalls });
        const shown = toolCalls.map((call) => ({ id: call.id, name: call.name, input: shortened(call.input) }));
        const isChanged = shown.some((call, index) => call.input !== toolCalls[index]?.input);
        expect(entry.displayToolCalls).toEqual(isChanged ? shown : undefined);
        expect(entry.tokens).toBe(counter.count('Running it now.') + 4 + shown.reduce((sum, call) => sum + toolCallTokens(call, counter), 0));
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });
});

// --- Internal helpers ---

// The shortening of a tool input as the window shows it, every value rebuilt and compared.
function shortened(value: JsonValue): JsonValue {
  if (typeof value === 'string') {
    if (value.length <= MAX_TOOL_INPUT_STRING || (value.length <= 4_000 && isProse(value))) return value;
    return `${value.slice(0, MAX_TOOL_INPUT_STRING / 2)}…[${value.length - MAX_TOOL_INPUT_STRING / 2} more characters not shown]`;
  }
  if (Array.isArray(value)) {
    const items = value.map((item: JsonValue) => shortened(item));
    return items.every((item, index) => item === value[index]) ? value : items;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(([key, item]) => [key, shortened(item)] as const);
    return entries.every(([key, item]) => item === (value as Record<string, JsonValue>)[key]) ? value : Object.fromEntries(entries);
  }
  return value;
}

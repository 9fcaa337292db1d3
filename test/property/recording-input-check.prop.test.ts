import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isTimestamp, validateInputWithSchema } from '../../src/context-manager-inputs.js';
import type { ValidatedInputs } from '../../src/context-manager-inputs.js';
import { checkRecordingInput } from '../../src/recording-input-check.js';
import { PROPERTY_RUNS } from '../helpers.js';

type RecordingMethod = 'addMessage' | 'addToolResult' | 'openFile' | 'updateFile' | 'closeFile' | 'addNote';

// The schema's answer: what it returns, or that it rejects.
function bySchema(method: RecordingMethod, input: unknown): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: validateInputWithSchema(method as keyof ValidatedInputs, input) };
  } catch {
    return { ok: false };
  }
}

function isTimestampBySchema(value: string): boolean {
  return bySchema('addNote', { content: '', at: value }).ok;
}

// Values of every kind the schemas see, most of them close to valid.
const timestamp = fc.oneof(
  fc.constantFrom('2026-01-02T03:04:05Z', '2026-01-02T03:04:05.123+02:00', '2026-01-02T03:04Z', '2026-13-02T03:04:05Z', '2026-01-02 03:04:05Z', '', 'yesterday'),
  fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
);
const text = fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('', 'a\u0000b', 'x'.repeat(501), 'y'.repeat(4_097)));
const json = fc.oneof(fc.jsonValue({ maxDepth: 3 }), fc.constantFrom(undefined, Number.NaN, new Date(0), () => 1));
const anyValue = fc.oneof(text, timestamp, fc.boolean(), fc.integer(), fc.constant(null), fc.constant(undefined), json, fc.array(fc.string(), { maxLength: 2 }));
const toolCall = fc.record(
  { id: fc.oneof(fc.constantFrom('c1', 'c2', ''), anyValue), name: fc.oneof(fc.constantFrom('bash', ''), anyValue), input: json, extra: anyValue },
  { requiredKeys: [] },
);
const fields = {
  role: fc.oneof(fc.constantFrom('user', 'assistant', 'system'), anyValue),
  content: fc.oneof(text, anyValue),
  toolCalls: fc.oneof(fc.array(toolCall, { maxLength: 3 }), anyValue),
  at: fc.oneof(timestamp, anyValue),
  callId: fc.oneof(fc.constantFrom('c1', ''), anyValue),
  output: fc.oneof(text, anyValue),
  isError: fc.oneof(fc.boolean(), anyValue),
  path: fc.oneof(fc.constantFrom('src/a.ts', '', 'a\u0000b', 'p'.repeat(4_097)), anyValue),
  reason: fc.oneof(text, anyValue),
  unknown: anyValue,
};
// Each method's own keys are likely, the others (and an unknown one) rare.
const inputFor = (keys: readonly (keyof typeof fields)[]): fc.Arbitrary<unknown> =>
  fc.oneof(
    { weight: 8, arbitrary: fc.record(Object.fromEntries(keys.map((key) => [key, fields[key]])), { requiredKeys: [] }) },
    { weight: 1, arbitrary: fc.record(fields, { requiredKeys: [] }) },
    { weight: 1, arbitrary: anyValue },
  );
const inputs: Record<RecordingMethod, fc.Arbitrary<unknown>> = {
  addMessage: inputFor(['role', 'content', 'toolCalls', 'at']),
  addToolResult: inputFor(['callId', 'output', 'isError', 'at']),
  openFile: inputFor(['path', 'content', 'callId', 'at']),
  updateFile: inputFor(['path', 'content', 'reason', 'callId', 'at']),
  closeFile: inputFor(['path', 'callId', 'at']),
  addNote: inputFor(['content', 'at']),
};

describe('checkRecordingInput()', () => {
  for (const [method, arbitrary] of Object.entries(inputs) as [RecordingMethod, fc.Arbitrary<unknown>][]) {
    it(`accepts only what the ${method} schema accepts, and returns what the schema returns`, () => {
      fc.assert(
        fc.property(arbitrary, (input) => {
          const checked = checkRecordingInput(method, input, isTimestampBySchema);
          if (checked === undefined) return;
          const schema = bySchema(method, input);
          expect(schema.ok).toBe(true);
          if (schema.ok) {
            expect(checked).toStrictEqual(schema.value);
            // Keys in the schema's order too: the recorded event keeps them as they come.
            expect(keyOrder(checked)).toEqual(keyOrder(schema.value));
          }
        }),
        { numRuns: PROPERTY_RUNS * 4 },
      );
    });
  }

  it('takes the shapes the recording path sees on every step, so that zod runs only for the rest', () => {
    const at = '2026-01-02T03:04:05Z';
    const common: [RecordingMethod, unknown][] = [
      ['addMessage', { role: 'user', content: 'fix the bug', at }],
      ['addMessage', { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'bash', input: { command: 'ls' } }], at }],
      ['addToolResult', { callId: 'c1', output: 'ok', isError: false, at }],
      ['openFile', { path: 'src/a.ts', content: 'x', at }],
      ['updateFile', { path: 'src/a.ts', content: 'y', reason: 'rename', at }],
      ['closeFile', { path: 'src/a.ts' }],
      ['addNote', { content: 'note' }],
    ];
    for (const [method, input] of common) {
      const checked = checkRecordingInput(method, input, isTimestampBySchema);
      expect(checked, method).toBeDefined();
      expect(checked).toStrictEqual((bySchema(method, input) as { value: unknown }).value);
      expect(checked).not.toBe(input);
    }
    // Left to the schema: a repeated call id, a user message with calls, a tool input that is not JSON.
    expect(checkRecordingInput('addMessage', { role: 'assistant', content: '', toolCalls: [{ id: 'c', name: 'a', input: 1 }, { id: 'c', name: 'b', input: 2 }] }, isTimestampBySchema)).toBeUndefined();
    expect(checkRecordingInput('addMessage', { role: 'user', content: '', toolCalls: [{ id: 'c', name: 'a', input: 1 }] }, isTimestampBySchema)).toBeUndefined();
    expect(checkRecordingInput('addMessage', { role: 'assistant', content: '', toolCalls: [{ id: 'c', name: 'a', input: { at: new Date(0) } }] }, isTimestampBySchema)).toBeUndefined();
  });
});

// The keys of every plain object and array in `value`, in order, as one list of paths.
function keyOrder(value: unknown, path = ''): string[] {
  if (typeof value !== 'object' || value === null) return [];
  return Object.keys(value).flatMap((key) => [`${path}/${key}`, ...keyOrder((value as Record<string, unknown>)[key], `${path}/${key}`)]);
}

describe('isTimestamp()', () => {
  // Timestamps put together from parts each valid or just out of range: dates (leap days
  // included), times with and without seconds and fractions, `Z`, offsets, separators, spaces.
  const digits = (length: number): fc.Arbitrary<string> => fc.stringMatching(new RegExp(`^\\d{${length}}$`));
  const datePart = fc.oneof(
    fc.constantFrom('2024-02-29', '2023-02-29', '2000-02-29', '1900-02-29', '2026-04-31', '2026-12-31', '2026-00-10', '0000-01-01', '2026-1-02'),
    fc.tuple(digits(4), digits(2), digits(2)).map(([year, month, day]) => `${year}-${month}-${day}`),
  );
  const timePart = fc.oneof(
    fc.constantFrom('23:59:59', '24:00:00', '00:00', '12:60:00', '12:00:60', '3:04:05'),
    fc.tuple(digits(2), digits(2), fc.option(digits(2)), fc.option(fc.stringMatching(/^\.\d{0,9}$/))).map(([hour, minute, second, fraction]) => `${hour}:${minute}${second === null ? '' : `:${second}`}${fraction ?? ''}`),
  );
  const zone = fc.constantFrom('', 'Z', 'z', '+02:00', '-23:59', '+24:00', '+0200', '+02', ' Z', 'Z ');
  const separator = fc.constantFrom('T', 'T', 'T', ' ', 't');
  const candidate = fc.oneof(
    { weight: 8, arbitrary: fc.tuple(datePart, separator, timePart, zone).map((parts) => parts.join('')) },
    { weight: 1, arbitrary: fc.date({ noInvalidDate: true }).map((date) => date.toISOString()) },
    { weight: 1, arbitrary: fc.string({ maxLength: 30 }) },
  );

  it('answers as the `at` schema does', () => {
    fc.assert(
      fc.property(candidate, (value) => {
        expect(isTimestamp(value)).toBe(isTimestampBySchema(value));
      }),
      { numRuns: PROPERTY_RUNS * 4 },
    );
  });
});

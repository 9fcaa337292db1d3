import { findJsonProblem } from './json-value.js';

/**
 * Checks the input of a recording method (`addMessage`, `addToolResult`, `openFile`,
 * `updateFile`, `closeFile`, `addNote`) without zod, for the shapes agents send on every step.
 * It accepts only inputs its method's zod schema accepts, and returns what the schema would
 * return (a copy with the schema's keys in the schema's order); for anything else it returns
 * `undefined` and the caller parses with the schema, which stays the one source of the answer and
 * of every error message. A zod parse costs more than counting the tokens of a short message, and
 * the recording path runs once per event.
 * `isTimestamp` is the schema's own test of an `at` value.
 * @internal
 */
export function checkRecordingInput(method: string, input: unknown, isTimestamp: (value: string) => boolean): object | undefined {
  if (!isPlainRecord(input)) return undefined;
  // Each value is read once, into the copy, and the copy is checked: a getter cannot answer twice.
  const copy = (keys: readonly string[]): PlainRecord | undefined => (hasOnlyKeys(input, keys) ? pick(input, keys) : undefined);
  switch (method) {
    case 'addMessage':
      return checkMessage(copy(MESSAGE_KEYS), isTimestamp);
    case 'addToolResult': {
      const value = copy(TOOL_RESULT_KEYS);
      return value !== undefined &&
        isNonEmptyString(value['callId']) &&
        typeof value['output'] === 'string' &&
        isOptional(value, 'isError', (item) => typeof item === 'boolean') &&
        isOptionalTimestamp(value, isTimestamp)
        ? value
        : undefined;
    }
    case 'openFile': {
      const value = copy(OPEN_FILE_KEYS);
      return value !== undefined && isPath(value['path']) && typeof value['content'] === 'string' && isOptional(value, 'callId', isNonEmptyString) && isOptionalTimestamp(value, isTimestamp)
        ? value
        : undefined;
    }
    case 'updateFile': {
      const value = copy(UPDATE_FILE_KEYS);
      return value !== undefined &&
        isPath(value['path']) &&
        typeof value['content'] === 'string' &&
        isOptional(value, 'reason', (item) => typeof item === 'string' && item.length <= MAX_REASON) &&
        isOptional(value, 'callId', isNonEmptyString) &&
        isOptionalTimestamp(value, isTimestamp)
        ? value
        : undefined;
    }
    case 'closeFile': {
      const value = copy(CLOSE_FILE_KEYS);
      return value !== undefined && isPath(value['path']) && isOptional(value, 'callId', isNonEmptyString) && isOptionalTimestamp(value, isTimestamp) ? value : undefined;
    }
    case 'addNote': {
      const value = copy(NOTE_KEYS);
      return value !== undefined && typeof value['content'] === 'string' && isOptionalTimestamp(value, isTimestamp) ? value : undefined;
    }
    default:
      return undefined;
  }
}

// --- Internal helpers ---

// Each list is its schema's keys in the schema's order: zod returns them in that order.
const MESSAGE_KEYS = ['role', 'content', 'toolCalls', 'at'] as const;
const TOOL_CALL_KEYS = ['id', 'name', 'input'] as const;
const TOOL_RESULT_KEYS = ['callId', 'output', 'isError', 'at'] as const;
const OPEN_FILE_KEYS = ['path', 'content', 'callId', 'at'] as const;
const UPDATE_FILE_KEYS = ['path', 'content', 'reason', 'callId', 'at'] as const;
const CLOSE_FILE_KEYS = ['path', 'callId', 'at'] as const;
const NOTE_KEYS = ['content', 'at'] as const;
const MAX_PATH = 4_096;
const MAX_REASON = 500;

type PlainRecord = Record<string, unknown>;

function checkMessage(value: PlainRecord | undefined, isTimestamp: (value: string) => boolean): object | undefined {
  if (value === undefined) return undefined;
  const role = value['role'];
  if ((role !== 'user' && role !== 'assistant') || typeof value['content'] !== 'string' || !isOptionalTimestamp(value, isTimestamp)) return undefined;
  const calls = value['toolCalls'];
  if (calls === undefined) return value;
  if (!Array.isArray(calls) || (calls.length > 0 && role !== 'assistant')) return undefined;
  const copies: PlainRecord[] = [];
  const ids = new Set<string>();
  for (let index = 0; index < calls.length; index += 1) {
    if (!(index in calls)) return undefined;
    const item: unknown = calls[index];
    if (!isPlainRecord(item) || !hasOnlyKeys(item, TOOL_CALL_KEYS) || !Object.hasOwn(item, 'input')) return undefined;
    const call = pick(item, TOOL_CALL_KEYS);
    const id = call['id'];
    if (!isNonEmptyString(id) || !isNonEmptyString(call['name']) || ids.has(id) || findJsonProblem(call['input']) !== undefined) return undefined;
    ids.add(id);
    copies.push(call);
  }
  value['toolCalls'] = copies;
  return value;
}

// Objects made by a literal or `Object.create(null)`: an inherited or exotic key is the schema's to judge.
function isPlainRecord(value: unknown): value is PlainRecord {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

function hasOnlyKeys(input: PlainRecord, keys: readonly string[]): boolean {
  for (const key in input) if (!keys.includes(key)) return false;
  return true;
}

// What a strict object schema returns: its keys in its order, each one the input has. The key
// lists of the two commonest inputs (a message and its calls) are written out, so that every
// store names its key (a store under a key read from a list goes through V8's generic path).
function pick(input: PlainRecord, keys: readonly string[]): PlainRecord {
  const result: PlainRecord = {};
  if (keys === MESSAGE_KEYS) {
    if (Object.hasOwn(input, 'role')) result['role'] = input['role'];
    if (Object.hasOwn(input, 'content')) result['content'] = input['content'];
    if (Object.hasOwn(input, 'toolCalls')) result['toolCalls'] = input['toolCalls'];
    if (Object.hasOwn(input, 'at')) result['at'] = input['at'];
    return result;
  }
  if (keys === TOOL_CALL_KEYS) {
    if (Object.hasOwn(input, 'id')) result['id'] = input['id'];
    if (Object.hasOwn(input, 'name')) result['name'] = input['name'];
    if (Object.hasOwn(input, 'input')) result['input'] = input['input'];
    return result;
  }
  for (const key of keys) if (Object.hasOwn(input, key)) result[key] = input[key];
  return result;
}

function isOptional(input: PlainRecord, key: string, test: (value: unknown) => boolean): boolean {
  const value = input[key];
  return value === undefined || test(value);
}

function isOptionalTimestamp(input: PlainRecord, isTimestamp: (value: string) => boolean): boolean {
  const value = input['at'];
  return value === undefined || (typeof value === 'string' && isTimestamp(value));
}

function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

function isPath(value: unknown): boolean {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_PATH && !value.includes('\u0000');
}

import { z } from 'zod';
import { describeValue } from './errors.js';
import { MAX_JSON_DEPTH, findJsonProblem } from './json-value.js';
import type { TokenBudget } from './options.js';
import { sessionIdSchema, tokenBudgetSchema } from './options.js';
import type { Entry, Fact, OpenFile, Pin, Summary, Task, ToolCall, ArchivedItem } from './types.js';
import { checkRecordingInput } from './recording-input-check.js';
import { parse } from './validation.js';

/** Input of {@link ContextManager.addMessage}. */
export interface MessageInput {
  /** Who said it. */
  role: 'user' | 'assistant';
  /** The text (may be empty for an assistant turn that only calls tools). */
  content: string;
  /** Tool calls made in this assistant turn; record each result with `addToolResult()`. */
  toolCalls?: readonly ToolCall[] | undefined;
  /** Timestamp (ISO-8601). @default clock() when a clock is configured */
  at?: string | undefined;
}

/** Input of {@link ContextManager.addToolResult}. */
export interface ToolResultInput {
  /** Id of the call this answers. */
  callId: string;
  /** The tool's output as text. */
  output: string;
  /** Whether the tool failed. @default false */
  isError?: boolean | undefined;
  /** Timestamp (ISO-8601). */
  at?: string | undefined;
}

/** Input of {@link ContextManager.openFile}. */
export interface OpenFileInput {
  /** The file's path. */
  path: string;
  /** Its full current content. */
  content: string;
  /** When a tool call read the file: its id, so that this record is the call's result. */
  callId?: string | undefined;
  /** Timestamp (ISO-8601). */
  at?: string | undefined;
}

/** Input of {@link ContextManager.updateFile}. */
export interface UpdateFileInput {
  /** The file's path; it must be open. */
  path: string;
  /** Its full new content. */
  content: string;
  /** Why it changed, appended to the diff record, e.g. `"null check"`. */
  reason?: string | undefined;
  /** When a tool call made the edit: its id, so that this record is the call's result. */
  callId?: string | undefined;
  /** Timestamp (ISO-8601). */
  at?: string | undefined;
}

/** Input of {@link ContextManager.closeFile}. */
export interface CloseFileInput {
  /** The file's path; it must be open. */
  path: string;
  /** When a tool call closed it: its id. */
  callId?: string | undefined;
  /** Timestamp (ISO-8601). */
  at?: string | undefined;
}

/** Options of {@link ContextManager.recall}. */
export interface RecallOptions {
  /** Most hits returned. @default 5 */
  limit?: number | undefined;
  /** Most tokens of hit text returned (and shown). @default 2_000 */
  maxTokens?: number | undefined;
  /** Also place the hits in a "recalled" block of the next `build()`. @default false */
  show?: boolean | undefined;
}

/** Options of {@link ContextManager.build}. */
export interface BuildOptions {
  /** Total tokens the window may use, or a fraction of the context window. @default the `budget` option */
  budget?: TokenBudget | undefined;
}

/** A read-only view of everything the manager holds. */
export interface SessionState {
  /** Sequence number of the last recorded event. */
  readonly lastSeq: number;
  /** Number of user turns recorded. */
  readonly exchange: number;
  /** T0 entries, oldest first. */
  readonly entries: readonly Entry[];
  /** T1 summaries, oldest first. */
  readonly summaries: readonly Summary[];
  /** T2 facts. */
  readonly facts: readonly Fact[];
  /** Tracked tasks. */
  readonly tasks: readonly Task[];
  /** Pins. */
  readonly pins: readonly Pin[];
  /** Open files. */
  readonly files: readonly OpenFile[];
  /**
   * Everything that left the window, oldest first — the part held in memory when the archive
   * spills (`archive.memoryItems`); `await readArchive()` returns all of it.
   */
  readonly archive: readonly ArchivedItem[];
  /** Archived items held only in storage, older than every item of `archive` (0 without spilling). */
  readonly spilledArchiveItems: number;
  /** Seqs of every event that produced a T0 entry (each is in T0 or the archive). */
  readonly entrySeqs: readonly number[];
  /** Token totals of T0, T1 and the scratchpad. */
  readonly tokens: { readonly working: number; readonly summaries: number; readonly scratchpad: number };
}


/**
 * Manages an agent's context window: records messages, tool calls and file events, keeps open
 * files once in a scratchpad, graduates old history into summaries and facts, and builds a
 * window that never exceeds its budget.
 *
 * @example
 * ```ts

/** Inputs of the public methods of {@link ContextManager}, as validated. @internal */
export interface ValidatedInputs {
  addMessage: MessageInput;
  addToolResult: ToolResultInput;
  openFile: OpenFileInput;
  updateFile: UpdateFileInput;
  closeFile: CloseFileInput;
  addNote: { content: string; at?: string | undefined };
  fileHistory: { path: string };
  isStale: { path: string; content: string };
  redact: { text: string };
  pin: { text: string };
  unpin: { id: string };
  build: BuildOptions;
  recall: { query: string; limit: number; maxTokens: number; show: boolean };
  expand: { itemId: string };
  recap: 'brief' | 'full' | { readonly topic: string };
  snapshot: { label: string };
  save: { label?: string | undefined };
  rollback: { version: number };
  fork: { version?: number | undefined; sessionId: string };
}

/**
 * Validates the input of a public method of {@link ContextManager}, or throws an
 * InvalidArgumentError that names the method, the path, the value and a corrected example.
 * @internal
 */
export function validateInput<M extends keyof ValidatedInputs>(method: M, input: unknown): ValidatedInputs[M] {
  // Recording methods run once per event: their common shapes skip zod (see checkRecordingInput).
  const checked = checkRecordingInput(method, input, isTimestamp);
  if (checked !== undefined) return checked as ValidatedInputs[M];
  return validateInputWithSchema(method, input);
}

/**
 * Validates like {@link validateInput}, always with the method's zod schema (no fast path).
 * @internal
 */
export function validateInputWithSchema<M extends keyof ValidatedInputs>(method: M, input: unknown): ValidatedInputs[M] {
  const { schema, example } = INPUTS[method];
  return parse(schema, input, method, example) as ValidatedInputs[M];
}

/**
 * Validates the input of `build()`, which runs before every model call: the common shapes (`{}`
 * or `{ budget: <positive integer> }`) are checked by hand, anything else by the schema, so the
 * answer and the errors are those of {@link validateInput}.
 * @internal
 */
export function validateBuildInput(input: unknown): ValidatedInputs['build'] {
  if (typeof input === 'object' && input !== null && Object.getPrototypeOf(input) === Object.prototype) {
    let keys = 0;
    for (const key in input) {
      if (key !== 'budget') return validateInput('build', input);
      keys += 1;
    }
    if (keys === 0) return {};
    const { budget } = input as { budget?: unknown };
    if (typeof budget === 'number' && Number.isSafeInteger(budget) && budget > 0) return { budget };
  }
  return validateInput('build', input);
}

// --- Internal helpers ---

const toolCallSchema = z.strictObject({ id: z.string().min(1), name: z.string().min(1), input: z.unknown() });
// Checked by hand rather than with z.json(): the error names the exact path of the bad value, and
// a cyclic or very deep input gives an InvalidArgumentError instead of a stack overflow.
const toolCallsSchema = z.array(toolCallSchema).superRefine((calls, context) => {
  const ids = new Set<string>();
  calls.forEach((call, index) => {
    const problem = findJsonProblem(call.input, { rootName: `toolCalls[${index}].input` });
    if (problem !== undefined) {
      context.addIssue({
        code: 'custom',
        path: [index, 'input', ...problem.path],
        params: { problem: problem.problem },
        message: `tool inputs must be JSON (strings, finite numbers, booleans, null, arrays and plain objects, at most ${MAX_JSON_DEPTH} levels deep, without cycles). Replace the value with plain data or leave it out.`,
      });
    }
    if (ids.has(call.id)) {
      context.addIssue({
        code: 'custom',
        path: [index, 'id'],
        params: { problem: `repeats the id ${describeValue(call.id)} of an earlier call of the same message` },
        message: 'give each call of a message its own id.',
      });
    }
    ids.add(call.id);
  });
});
const timestampSchema = z.iso.datetime({ offset: true });
const atSchema = timestampSchema.optional();
// The pattern the schema tests a string with (its whole check): testing it directly costs a
// fraction of a parse. Without one (another zod release), the schema parses.
const timestampPattern: RegExp | undefined = timestampSchema._zod.def.pattern;
// The schema's own answer for an `at` value, remembered for the last one: an agent's events of
// one step share their timestamp.
let lastTimestamp: string | undefined;
/** Whether `value` is a timestamp the `at` field accepts: the answer of its zod schema. @internal */
export function isTimestamp(value: string): boolean {
  if (value === lastTimestamp) return true;
  if (!(timestampPattern === undefined ? atSchema.safeParse(value).success : timestampPattern.test(value))) return false;
  lastTimestamp = value;
  return true;
}
const pathSchema = z.string().min(1).max(4_096).refine((value) => !value.includes('\u0000'), 'must not contain NUL');
const messageSchema = z.strictObject({
  role: z.enum(['user', 'assistant']),
  content: z.string(),
  toolCalls: toolCallsSchema.optional(),
  at: atSchema,
}).refine((value) => value.role === 'assistant' || value.toolCalls === undefined || value.toolCalls.length === 0, {
  message: 'only assistant messages can carry toolCalls',
  path: ['toolCalls'],
});
const toolResultSchema = z.strictObject({ callId: z.string().min(1), output: z.string(), isError: z.boolean().optional(), at: atSchema });
const openFileSchema = z.strictObject({ path: pathSchema, content: z.string(), callId: z.string().min(1).optional(), at: atSchema });
const updateFileSchema = z.strictObject({
  path: pathSchema,
  content: z.string(),
  reason: z.string().max(500).optional(),
  callId: z.string().min(1).optional(),
  at: atSchema,
});
const closeFileSchema = z.strictObject({ path: pathSchema, callId: z.string().min(1).optional(), at: atSchema });
const noteSchema = z.strictObject({ content: z.string(), at: atSchema });
const fileHistorySchema = z.strictObject({ path: pathSchema });
const staleSchema = z.strictObject({ path: pathSchema, content: z.string() });
const redactSchema = z.strictObject({ text: z.string() });
const pinSchema = z.strictObject({ text: z.string().trim().min(1).max(2_000) });
const unpinSchema = z.strictObject({ id: z.string().min(1) });
const buildSchema = z.strictObject({ budget: tokenBudgetSchema.optional() });
const recallSchema = z.strictObject({
  query: z.string().trim().min(1),
  limit: z.number().int().positive().max(100).default(5),
  maxTokens: z.number().int().positive().default(2_000),
  show: z.boolean().default(false),
});
const expandSchema = z.strictObject({ itemId: z.string().min(1) });
const recapSchema = z.union([z.literal('brief'), z.literal('full'), z.strictObject({ topic: z.string().trim().min(1) })]);
const labelSchema = z.strictObject({ label: z.string().trim().min(1).max(200) });
const saveSchema = z.strictObject({ label: z.string().trim().min(1).max(200).optional() });
const versionSchema = z.strictObject({ version: z.number().int().positive() });
const forkSchema = z.strictObject({ version: z.number().int().positive().optional(), sessionId: sessionIdSchema });

const INPUTS: Record<keyof ValidatedInputs, { schema: z.ZodType<unknown>; example: string }> = {
  addMessage: { schema: messageSchema, example: 'addMessage({ role: "user", content: "…" })' },
  addToolResult: { schema: toolResultSchema, example: 'addToolResult({ callId, output })' },
  openFile: { schema: openFileSchema, example: 'openFile({ path: "src/auth.py", content })' },
  updateFile: { schema: updateFileSchema, example: 'updateFile({ path, content, reason })' },
  closeFile: { schema: closeFileSchema, example: 'closeFile({ path })' },
  addNote: { schema: noteSchema, example: 'addNote({ content })' },
  fileHistory: { schema: fileHistorySchema, example: 'fileHistory({ path })' },
  isStale: { schema: staleSchema, example: 'isStale({ path, content })' },
  redact: { schema: redactSchema, example: "redact('export TOKEN=…')" },
  pin: { schema: pinSchema, example: 'pin({ text: "Never touch vendor/" })' },
  unpin: { schema: unpinSchema, example: 'unpin({ id })' },
  build: { schema: buildSchema, example: 'build({ budget: 28_000 })' },
  recall: { schema: recallSchema, example: "recall('db timeout', { limit: 5 })" },
  expand: { schema: expandSchema, example: "expand('s42')" },
  recap: { schema: recapSchema, example: "recap('brief')" },
  snapshot: { schema: labelSchema, example: "snapshot('before refactor')" },
  save: { schema: saveSchema, example: "save({ label: 'after the refactor' })" },
  rollback: { schema: versionSchema, example: 'rollback(3)' },
  fork: { schema: forkSchema, example: "fork({ version: 3, sessionId: 'experiment' })" },
};

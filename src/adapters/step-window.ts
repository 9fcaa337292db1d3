import { z } from 'zod';
import type { BuiltContext } from '../build/window-builder.js';
import type { ContextManager } from '../context-manager.js';
import { InvalidArgumentError, describeValue } from '../errors.js';
import { tokenBudgetSchema } from '../options.js';
import type { TokenBudget } from '../options.js';
import { CONTINUATION_TOKENS, normalizeWindow } from '../providers/normalize.js';
import type { NormalizedWindow } from '../providers/normalize.js';
import type { JsonValue } from '../types.js';
import { parse } from '../validation.js';

/** Options shared by the LangChain.js and Mastra adapters. */
export interface FrameworkAdapterOptions {
  /** The manager that records the conversation and builds each step's window. */
  manager: ContextManager;
  /** Tokens each window may use (the continuation turn a window may need included). @default the manager's `budget` */
  budget?: TokenBudget | undefined;
  /**
   * Waits for graduations in flight (`manager.settle()`) before each build, so the model gets the
   * most compact window. Turn it off to never wait for a slow (LLM) summarizer. @default true
   */
  settle?: boolean | undefined;
}

/** Adapter options after validation. @internal */
export interface ResolvedAdapterOptions {
  readonly manager: ContextManager;
  readonly budget: TokenBudget | undefined;
  readonly settle: boolean;
}

/** A step's window: what `build()` returned and its normalized, provider-valid form. @internal */
export interface StepWindow {
  /** The built context the window came from. */
  readonly built: BuiltContext;
  /** The normalized window handed to the model. */
  readonly window: NormalizedWindow;
  /** The budget the window is held within, in tokens. */
  readonly budget: number;
}

/**
 * Validates the options of an adapter factory, or throws an `InvalidArgumentError` naming
 * `method`. `extra` declares the adapter's own options (validated, returned untouched).
 * @internal
 */
export function parseAdapterOptions<Extra extends z.ZodRawShape>(
  input: unknown,
  options: { method: string; example: string; extra: Extra },
): ResolvedAdapterOptions & z.infer<z.ZodObject<Extra>> {
  const schema = z.strictObject({
    manager: z.custom<ContextManager>(isContextManager, 'expected a ContextManager (`new ContextManager({ … })`)'),
    budget: tokenBudgetSchema.optional(),
    settle: z.boolean().optional(),
    ...options.extra,
  });
  const parsed = parse(schema, input, options.method, options.example) as Record<string, unknown>;
  return { ...parsed, settle: parsed['settle'] !== false } as ResolvedAdapterOptions & z.infer<z.ZodObject<Extra>>;
}

/**
 * Builds the window for the next model call and normalizes it (history starts with a user turn,
 * roles alternate, each tool call answered right after it), after waiting for graduations in
 * flight unless `settle` is off.
 * @internal
 */
export async function buildStepWindow(options: ResolvedAdapterOptions & StepReserve): Promise<StepWindow> {
  if (options.settle) await options.manager.settle();
  return composeStepWindow(options);
}

/** Room a step's window leaves for what the adapter adds to it (the newest turn's media). @internal */
export interface StepReserve {
  /** Tokens kept free of the built window, and what they are for (e.g. `2 media parts (…)`), for errors. @default none */
  readonly reserve?: { readonly tokens: number; readonly what: string } | undefined;
}

/**
 * Builds and normalizes the window now, without waiting. When normalizing adds the continuation
 * turn and the window has no room for it, it is built again with that much less, so what the
 * model receives stays within the budget.
 * @throws {InvalidArgumentError} with code `BUDGET_TOO_SMALL` when the budget cannot hold the
 * system prompt and the newest turn (the message the model must answer): a window without it
 * would have the model answer something else.
 * @internal
 */
export function composeStepWindow(options: Pick<ResolvedAdapterOptions, 'manager' | 'budget'> & StepReserve): StepWindow {
  const { manager } = options;
  const reserve = options.reserve?.tokens ?? 0;
  const media = options.reserve?.what;
  let built = buildOrExplain(manager, options.budget);
  const budget = built.tokens.budget;
  let window = normalizeWindow(built);
  // A smaller window may start with an assistant turn and need the continuation turn: twice at most.
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const extra = reserve + (window.isContinuationInserted ? CONTINUATION_TOKENS : 0);
    if (built.tokens.total + extra <= budget) break;
    built = buildOrExplain(manager, budget - extra, budget, media === undefined ? '' : ` and the newest turn's ${media}`);
    window = normalizeWindow(built);
  }
  if (built.omitted.isNewestTurnOmitted) throw budgetTooSmall(budget, `the system prompt (${built.tokens.blocks.prefix} tokens) and the newest turn${media === undefined ? '' : ` with its ${media}`}`);
  return { built, window, budget };
}

/**
 * Turns a framework's tool-call arguments into JSON the manager accepts: `undefined` members
 * are dropped and values JSON cannot hold (functions, symbols, cycles) become their text.
 * @internal
 */
export function toJsonInput(value: unknown): JsonValue {
  if (value === undefined) return {};
  try {
    const text = JSON.stringify(value);
    return text === undefined ? String(value) : (JSON.parse(text) as JsonValue);
  } catch {
    return String(value);
  }
}

// --- Internal helpers ---

// Builds with `budget`; the core's BUDGET_TOO_SMALL is reworded for the adapter's `budget` option.
function buildOrExplain(manager: ContextManager, budget: number | TokenBudget | undefined, shown?: number, what = ''): BuiltContext {
  // What is reserved may leave nothing to build with.
  if (typeof budget === 'number' && budget < 1) throw budgetTooSmall(shown ?? budget, `the system prompt${what}`);
  try {
    return manager.build(budget === undefined ? {} : { budget });
  } catch (error) {
    if (!InvalidArgumentError.isInstance(error) || error.code !== 'BUDGET_TOO_SMALL') throw error;
    throw budgetTooSmall(shown ?? error.value, `the system prompt${what}`, error);
  }
}

function budgetTooSmall(budget: unknown, what: string, cause?: unknown): InvalidArgumentError {
  return new InvalidArgumentError({
    parameter: 'budget',
    value: budget,
    code: 'BUDGET_TOO_SMALL',
    message: `the adapter's \`budget\` ${describeValue(budget)} cannot hold ${what}, so the model would not see the message it must answer. Pass a larger \`budget\` (e.g. 28_000) or a shorter \`systemPrompt\` to the ContextManager.`,
    cause,
  });
}

function isContextManager(value: unknown): value is ContextManager {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as Record<string, unknown>;
  return ['addMessage', 'addToolResult', 'addNote', 'build', 'settle'].every((method) => typeof candidate[method] === 'function');
}

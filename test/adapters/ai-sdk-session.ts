import { beforeAll, describe, expect, it, vi } from 'vitest';
import { createMobiusMiddleware, createMobiusPrepareStep } from '../../src/adapters/ai-sdk/index.js';
import type { MobiusMiddleware, MobiusPrepareStep } from '../../src/adapters/ai-sdk/index.js';
import type { BuiltContext } from '../../src/build/window-builder.js';
import { ContextManager } from '../../src/context-manager.js';
import { CONTINUATION_TOKENS, normalizeWindow } from '../../src/providers/normalize.js';
import { findProviderProblems } from '../../src/testing/provider-validity.js';
import { BUDGET, FACT_MARKERS, FACT_STEP, STEP_COUNT, STEPS_PER_TURN, SYSTEM_PROMPT, modelReply, toolOutput, userMessage } from './scripted-session.js';
import type { ScriptedCall } from './scripted-session.js';

// Setup and checks shared by the AI SDK suites (ai@5, ai@6 and ai@7): the scripted model and
// tools, the two scripted sessions, and what a faithful adapter records and hands the model.

/** A message of a language-model prompt, as any AI SDK version's mock model receives it. */
export interface PromptMessage {
  readonly role: string;
  readonly content: unknown;
}

/** What the mock model received at one step, and the window the adapter built for it. */
export interface StepRecord {
  readonly prompt: readonly PromptMessage[];
  readonly built: BuiltContext;
}

/** Spies on what the adapter records, as one line per record. */
export function spyOnRecords(manager: ContextManager): string[] {
  const records: string[] = [];
  const addMessage = manager.addMessage.bind(manager);
  const addToolResult = manager.addToolResult.bind(manager);
  vi.spyOn(manager, 'addMessage').mockImplementation((input) => {
    records.push(`${input.role}:${input.content.slice(0, 60)}:${(input.toolCalls ?? []).map((call) => call.id).join(',')}`);
    return addMessage(input);
  });
  vi.spyOn(manager, 'addToolResult').mockImplementation((input) => {
    records.push(`tool:${input.callId}:${input.isError === true ? 'error' : 'ok'}`);
    return addToolResult(input);
  });
  vi.spyOn(manager, 'addNote');
  return records;
}

/** The records a faithful adapter makes for the scripted session, in order. */
export function expectedRecords(): string[] {
  const records: string[] = [];
  for (let step = 0; step < STEP_COUNT; step += 1) {
    if (step % STEPS_PER_TURN === 0) records.push(`user:${userMessage(step / STEPS_PER_TURN).slice(0, 60)}:`);
    const scripted = modelReply(step);
    records.push(`assistant:${scripted.text.slice(0, 60)}:${scripted.toolCalls.map((call) => call.id).join(',')}`);
    for (const call of scripted.toolCalls) records.push(`tool:${call.id}:${toolOutput(call).isError ? 'error' : 'ok'}`);
  }
  return records;
}

/** The prompt a model should receive for a built window: the system message, then the history. */
export function expectedPrompt(built: BuiltContext): unknown[] {
  const window = normalizeWindow(built);
  return [
    { role: 'system', content: window.system },
    ...window.messages.map((message) => {
      if (message.role === 'user') return { role: 'user', content: [{ type: 'text', text: message.content }] };
      if (message.role === 'assistant') {
        return {
          role: 'assistant',
          content: [
            ...(message.content.length > 0 ? [{ type: 'text', text: message.content }] : []),
            ...message.toolCalls.map((call) => ({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: call.input })),
          ],
        };
      }
      return {
        role: 'tool',
        content: message.results.map((result) => ({ type: 'tool-result', toolCallId: result.toolCallId, toolName: result.toolName, output: { type: result.isError ? 'error-text' : 'text', value: result.content } })),
      };
    }),
  ];
}

/** Drops the SDK's optional bookkeeping fields so prompts compare by content. */
export function strip(prompt: readonly PromptMessage[]): unknown[] {
  return JSON.parse(JSON.stringify(prompt, (key, value: unknown) => (key === 'providerOptions' ? undefined : value))) as unknown[];
}

/** Checks that every tool call in a prompt is answered by the tool message right after it. */
function pairingProblems(prompt: readonly PromptMessage[]): string[] {
  const problems: string[] = [];
  const idsOf = (message: PromptMessage | undefined, type: string): string[] =>
    Array.isArray(message?.content) ? (message.content as { type: string; toolCallId?: string }[]).flatMap((part) => (part.type === type ? [part.toolCallId ?? ''] : [])) : [];
  prompt.forEach((message, index) => {
    if (message.role !== 'assistant') return;
    const ids = idsOf(message, 'tool-call');
    if (ids.length === 0) return;
    const next = prompt[index + 1];
    const answered = next?.role === 'tool' ? idsOf(next, 'tool-result') : [];
    if (JSON.stringify(answered) !== JSON.stringify(ids)) problems.push(`${index}: calls ${ids.join(',')} answered by ${answered.join(',')}`);
  });
  return problems;
}

function windowText(built: BuiltContext): string {
  return [built.system, ...built.history.map((message) => message.content)].join('\n');
}

export function assertSession(options: { steps: readonly StepRecord[]; records: readonly string[]; lastWindow: BuiltContext | undefined }): void {
  const { steps, records } = options;
  expect(steps).toHaveLength(STEP_COUNT);
  steps.forEach(({ prompt, built }, step) => {
    // The model received the built window, and nothing else.
    expect(strip(prompt), `step ${step}`).toEqual(expectedPrompt(built));
    // Within budget, the continuation turn included.
    expect(built.tokens.total + (normalizeWindow(built).isContinuationInserted ? CONTINUATION_TOKENS : 0), `step ${step}`).toBeLessThanOrEqual(BUDGET);
    // Tool pairing valid, in the window and in what the model got.
    expect(findProviderProblems(built.messages), `step ${step}`).toEqual([]);
    expect(pairingProblems(prompt), `step ${step}`).toEqual([]);
    expect(prompt[1]?.role, `step ${step}: history begins with a user turn`).toBe('user');
  });
  // Every message recorded exactly once, in order.
  expect(records).toEqual(expectedRecords());
  // The facts stated at step 5 are still in the window at step 200.
  const last = steps[STEP_COUNT - 1]?.built as BuiltContext;
  expect(steps[FACT_STEP + 1]?.prompt.some((message) => JSON.stringify(message.content).includes(FACT_MARKERS[0] as string))).toBe(true);
  for (const marker of FACT_MARKERS) expect(windowText(last), marker).toContain(marker);
  // The session outgrew its window: history was graduated, so the check above is not trivial.
  expect(last.omitted.entries + last.tokens.blocks.summaries + last.tokens.blocks.facts).toBeGreaterThan(0);
  expect(options.lastWindow).toBe(last);
}


/** A scripted reply, as the parts every AI SDK version's mock model returns. */
export interface ScriptedReply {
  readonly content: ({ type: 'text'; text: string } | { type: 'tool-call'; toolCallId: string; toolName: string; input: string })[];
  /** Whether the reply calls tools (its finish reason is then `tool-calls`). */
  readonly isToolCalls: boolean;
}

/**
 * The model side of the scripted session, for any version's mock model: records each prompt with
 * the window the adapter built for it, and returns the next scripted reply.
 */
export function scriptedGenerate(options: { windowAt: () => BuiltContext | undefined; steps: StepRecord[] }): (call: { prompt: readonly PromptMessage[] }) => ScriptedReply {
  return (call) => {
    const step = options.steps.length;
    const built = options.windowAt();
    if (built === undefined) throw new Error(`step ${step}: the model was called without a built window`);
    options.steps.push({ prompt: call.prompt, built });
    const scripted = modelReply(step);
    const content: ScriptedReply['content'] = [];
    if (scripted.text.length > 0) content.push({ type: 'text', text: scripted.text });
    for (const toolCall of scripted.toolCalls) content.push({ type: 'tool-call', toolCallId: toolCall.id, toolName: toolCall.name, input: JSON.stringify(toolCall.args) });
    return { content, isToolCalls: scripted.toolCalls.length > 0 };
  };
}

/** Runs a scripted tool, as `execute` of the version's `tool()`. */
export type ScriptedExecute = (args: Record<string, string>, options: { toolCallId: string }) => Promise<string>;

/** The scripted tools, each made by `define` (the version's `tool()` with a description and schema). */
export function scriptedTools<T>(define: (tool: { name: string; description: string; schema: { type: 'object'; additionalProperties: { type: 'string' } }; execute: ScriptedExecute }) => T): Record<string, T> {
  return Object.fromEntries(
    (['read_file', 'run_tests', 'search_code'] as const).map((name) => [
      name,
      define({
        name,
        description: `The ${name} tool.`,
        schema: { type: 'object', additionalProperties: { type: 'string' } },
        execute: async (args, { toolCallId }) => {
          const { output, isError } = toolOutput({ id: toolCallId, name, args } satisfies ScriptedCall);
          if (isError) throw new Error(output);
          return output;
        },
      }),
    ]),
  );
}

/** What the scripted sessions need of one AI SDK version. */
export interface ScriptedSdk<Model> {
  /** The version, for the suite names, e.g. `ai@6`. */
  readonly version: string;
  /** The version's mock model, answering with `generate`. */
  model(generate: (call: { prompt: readonly PromptMessage[] }) => ScriptedReply): Model;
  /** `wrapLanguageModel()` of the version. */
  wrap(model: Model, middleware: MobiusMiddleware): Model;
  /** One turn of `generateText()` with the scripted tools, stopping after `maxSteps`; resolves to the response messages. */
  generate(options: {
    model: Model;
    maxSteps: number;
    messages?: readonly unknown[] | undefined;
    prompt?: string | undefined;
    system?: string | undefined;
    prepareStep?: MobiusPrepareStep['prepareStep'] | undefined;
    onStepFinish?: MobiusPrepareStep['onStepFinish'] | undefined;
  }): Promise<readonly unknown[]>;
}

/**
 * Describes the scripted 200-step session twice for one AI SDK version: through
 * `createMobiusPrepareStep()` in a chat that resends the conversation each turn, and through
 * `createMobiusMiddleware()` with only each new user message; both with {@link assertSession}.
 */
export function describeScriptedSessions<Model>(sdk: ScriptedSdk<Model>): void {
  describe(`createMobiusPrepareStep() with ${sdk.version}: a scripted ${STEP_COUNT}-step tool-calling session`, () => {
    const steps: StepRecord[] = [];
    let records: string[] = [];
    let lastWindow: BuiltContext | undefined;

    beforeAll(async () => {
      const manager = new ContextManager({ systemPrompt: SYSTEM_PROMPT });
      records = spyOnRecords(manager);
      const mobius = createMobiusPrepareStep({ manager, budget: BUDGET });
      const model = sdk.model(scriptedGenerate({ windowAt: mobius.lastWindow, steps }));
      // A chat: each turn resends the conversation so far, as AI SDK apps do.
      let conversation: readonly unknown[] = [];
      for (let turn = 0; turn < STEP_COUNT / STEPS_PER_TURN; turn += 1) {
        conversation = [...conversation, { role: 'user', content: userMessage(turn) }];
        const response = await sdk.generate({ model, messages: conversation, prepareStep: mobius.prepareStep, onStepFinish: mobius.onStepFinish, maxSteps: STEPS_PER_TURN + 1 });
        conversation = [...conversation, ...response];
      }
      lastWindow = mobius.lastWindow();
    }, 300_000);

    it('hands the model the built window at every step, records each message once, stays within budget and keeps step 5 facts', () => {
      assertSession({ steps, records, lastWindow });
    });
  });

  describe(`createMobiusMiddleware() with ${sdk.version}: a scripted ${STEP_COUNT}-step tool-calling session through wrapLanguageModel`, () => {
    const steps: StepRecord[] = [];
    let records: string[] = [];
    let middleware: MobiusMiddleware;

    beforeAll(async () => {
      const manager = new ContextManager({ systemPrompt: SYSTEM_PROMPT });
      records = spyOnRecords(manager);
      middleware = createMobiusMiddleware({ manager, budget: BUDGET });
      const model = sdk.wrap(sdk.model(scriptedGenerate({ windowAt: middleware.lastWindow, steps })), middleware);
      for (let turn = 0; turn < STEP_COUNT / STEPS_PER_TURN; turn += 1) {
        // Only the new user message: the manager holds the history.
        const response = await sdk.generate({ model, system: 'Replaced by the window.', prompt: userMessage(turn), maxSteps: STEPS_PER_TURN + 1 });
        middleware.record(response as Parameters<MobiusMiddleware['record']>[0]);
      }
    }, 300_000);

    it('hands the model the built window at every call, records each message once, stays within budget and keeps step 5 facts', () => {
      assertSession({ steps, records, lastWindow: middleware.lastWindow() });
    });
  });
}

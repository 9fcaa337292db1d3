import { generateText, jsonSchema, stepCountIs, tool, wrapLanguageModel } from 'ai-v5';
import type { ModelMessage, PrepareStepFunction, ToolSet } from 'ai-v5';
import { MockLanguageModelV2 } from 'ai-v5/test';
import { beforeAll, describe, expect, it } from 'vitest';
import { createMobiusMiddleware, createMobiusPrepareStep } from '../../src/adapters/ai-sdk/index.js';
import type { MobiusMiddleware } from '../../src/adapters/ai-sdk/index.js';
import type { BuiltContext } from '../../src/build/window-builder.js';
import { ContextManager } from '../../src/context-manager.js';
import { assertSession, spyOnRecords } from './ai-sdk-session.js';
import type { StepRecord } from './ai-sdk-session.js';
import { BUDGET, STEP_COUNT, STEPS_PER_TURN, SYSTEM_PROMPT, modelReply, toolOutput, userMessage } from './scripted-session.js';
import type { ScriptedCall } from './scripted-session.js';

// The same scripted 200-step session on ai@5 (installed as the `ai-v5` alias), whose models and
// middleware are `v2` and whose mock is `MockLanguageModelV2`: one adapter build serves both.

type GenerateResult = Awaited<ReturnType<MockLanguageModelV2['doGenerate']>>;

function scriptedModel(options: { windowAt: () => BuiltContext | undefined; steps: StepRecord[] }): MockLanguageModelV2 {
  return new MockLanguageModelV2({
    doGenerate: async (call) => {
      const step = options.steps.length;
      const built = options.windowAt();
      if (built === undefined) throw new Error(`step ${step}: the model was called without a built window`);
      options.steps.push({ prompt: call.prompt, built });
      const scripted = modelReply(step);
      const content: GenerateResult['content'] = [];
      if (scripted.text.length > 0) content.push({ type: 'text', text: scripted.text });
      for (const toolCall of scripted.toolCalls) content.push({ type: 'tool-call', toolCallId: toolCall.id, toolName: toolCall.name, input: JSON.stringify(toolCall.args) });
      return { content, finishReason: scripted.toolCalls.length > 0 ? 'tool-calls' : 'stop', usage: { inputTokens: 100, outputTokens: 10, totalTokens: 110 }, warnings: [] };
    },
  });
}

const tools: ToolSet = Object.fromEntries(
  (['read_file', 'run_tests', 'search_code'] as const).map((name) => [
    name,
    tool({
      description: `The ${name} tool.`,
      inputSchema: jsonSchema<Record<string, string>>({ type: 'object', additionalProperties: { type: 'string' } }),
      execute: async (args: Record<string, string>, { toolCallId }: { toolCallId: string }) => {
        const { output, isError } = toolOutput({ id: toolCallId, name, args } satisfies ScriptedCall);
        if (isError) throw new Error(output);
        return output;
      },
    }),
  ]),
);

describe('the AI SDK adapter with ai@5', () => {
  describe('createMobiusPrepareStep(): a scripted 200-step session with MockLanguageModelV2', () => {
    const steps: StepRecord[] = [];
    let records: string[] = [];
    let lastWindow: BuiltContext | undefined;

    beforeAll(async () => {
      const manager = new ContextManager({ systemPrompt: SYSTEM_PROMPT });
      records = spyOnRecords(manager);
      const mobius = createMobiusPrepareStep({ manager, budget: BUDGET });
      const model = scriptedModel({ windowAt: mobius.lastWindow, steps });
      let conversation: ModelMessage[] = [];
      for (let turn = 0; turn < STEP_COUNT / STEPS_PER_TURN; turn += 1) {
        conversation = [...conversation, { role: 'user', content: userMessage(turn) }];
        const result = await generateText({ model, tools, messages: conversation, prepareStep: mobius.prepareStep, onStepFinish: mobius.onStepFinish, stopWhen: stepCountIs(STEPS_PER_TURN + 1) });
        conversation = [...conversation, ...result.response.messages];
      }
      lastWindow = mobius.lastWindow();
    }, 300_000);

    it('hands the model the built window at every step, records each message once, stays within budget and keeps step 5 facts', () => {
      assertSession({ steps, records, lastWindow });
    });
  });

  describe('createMobiusMiddleware(): a scripted 200-step session through wrapLanguageModel', () => {
    const steps: StepRecord[] = [];
    let records: string[] = [];
    let middleware: MobiusMiddleware;

    beforeAll(async () => {
      const manager = new ContextManager({ systemPrompt: SYSTEM_PROMPT });
      records = spyOnRecords(manager);
      middleware = createMobiusMiddleware({ manager, budget: BUDGET });
      const model = wrapLanguageModel({ model: scriptedModel({ windowAt: middleware.lastWindow, steps }), middleware });
      for (let turn = 0; turn < STEP_COUNT / STEPS_PER_TURN; turn += 1) {
        const result = await generateText({ model, tools, prompt: userMessage(turn), stopWhen: stepCountIs(STEPS_PER_TURN + 1) });
        middleware.record(result.response.messages);
      }
    }, 300_000);

    it('hands the model the built window at every call, records each message once, stays within budget and keeps step 5 facts', () => {
      assertSession({ steps, records, lastWindow: middleware.lastWindow() });
    });
  });

  it('type-checks as the prepareStep of ai@5', () => {
    const prepareStep: PrepareStepFunction = createMobiusPrepareStep({ manager: new ContextManager() }).prepareStep;
    expect(typeof prepareStep).toBe('function');
  });
});

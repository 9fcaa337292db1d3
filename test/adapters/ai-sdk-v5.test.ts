import { generateText, jsonSchema, stepCountIs, tool, wrapLanguageModel } from 'ai-v5';
import type { ModelMessage, PrepareStepFunction, ToolSet } from 'ai-v5';
import { MockLanguageModelV2 } from 'ai-v5/test';
import { describe, expect, it } from 'vitest';
import { createMobiusPrepareStep } from '../../src/adapters/ai-sdk/index.js';
import { ContextManager } from '../../src/context-manager.js';
import { describeScriptedSessions, scriptedTools } from './ai-sdk-session.js';

// The same scripted 200-step session on ai@5 (installed as the `ai-v5` alias), whose models and
// middleware are `v2` and whose mock is `MockLanguageModelV2`: one adapter build serves both.

const tools: ToolSet = scriptedTools(({ description, schema, execute }) => tool({ description, inputSchema: jsonSchema<Record<string, string>>(schema), execute }));

describe('the AI SDK adapter with ai@5', () => {
  describeScriptedSessions<MockLanguageModelV2 | ReturnType<typeof wrapLanguageModel>>({
    version: 'ai@5 and MockLanguageModelV2',
    model: (generate) =>
      new MockLanguageModelV2({
        doGenerate: async (call) => {
          const { content, isToolCalls } = generate(call);
          return { content, finishReason: isToolCalls ? 'tool-calls' : 'stop', usage: { inputTokens: 100, outputTokens: 10, totalTokens: 110 }, warnings: [] };
        },
      }),
    wrap: (model, middleware) => wrapLanguageModel({ model: model as MockLanguageModelV2, middleware }),
    generate: async ({ model, maxSteps, messages, prompt, system, prepareStep, onStepFinish }) => {
      const step = { ...(prepareStep === undefined ? {} : { prepareStep }), ...(onStepFinish === undefined ? {} : { onStepFinish }) };
      const input = messages === undefined ? { prompt: prompt ?? '' } : { messages: messages as ModelMessage[] };
      const result = await generateText({ model, tools, ...input, ...(system === undefined ? {} : { system }), ...step, stopWhen: stepCountIs(maxSteps) });
      return result.response.messages;
    },
  });

  it('type-checks as the prepareStep of ai@5', () => {
    const prepareStep: PrepareStepFunction = createMobiusPrepareStep({ manager: new ContextManager() }).prepareStep;
    expect(typeof prepareStep).toBe('function');
  });
});

import { generateText, jsonSchema, stepCountIs, tool, wrapLanguageModel } from 'ai-v7';
import type { ModelMessage, PrepareStepFunction, ToolSet } from 'ai-v7';
import { MockLanguageModelV4 } from 'ai-v7/test';
import { describe, expect, it } from 'vitest';
import { createMobiusPrepareStep } from '../../src/adapters/ai-sdk/index.js';
import { ContextManager } from '../../src/context-manager.js';
import { describeScriptedSessions, scriptedTools } from './ai-sdk-session.js';

// The same scripted 200-step session on ai@7 (installed as the `ai-v7` alias; it needs Node 22),
// whose mock is `MockLanguageModelV4` and whose result has `responseMessages`: one adapter build serves all.

const tools: ToolSet = scriptedTools(({ description, schema, execute }) => tool({ description, inputSchema: jsonSchema<Record<string, string>>(schema), execute }));

describe('the AI SDK adapter with ai@7', () => {
  describeScriptedSessions<MockLanguageModelV4 | ReturnType<typeof wrapLanguageModel>>({
    version: 'ai@7 and MockLanguageModelV4',
    model: (generate) =>
      new MockLanguageModelV4({
        doGenerate: async (call) => {
          const { content, isToolCalls } = generate(call);
          return {
            content,
            finishReason: { unified: isToolCalls ? 'tool-calls' : 'stop', raw: undefined },
            usage: { inputTokens: { total: 100, noCache: 100, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 10, text: 10, reasoning: undefined } },
            warnings: [],
          };
        },
      }),
    wrap: (model, middleware) => wrapLanguageModel({ model: model as MockLanguageModelV4, middleware }),
    generate: async ({ model, maxSteps, messages, prompt, system, prepareStep, onStepFinish }) => {
      const step = { ...(prepareStep === undefined ? {} : { prepareStep }), ...(onStepFinish === undefined ? {} : { onStepFinish }) };
      const input = messages === undefined ? { prompt: prompt ?? '' } : { messages: messages as ModelMessage[] };
      const result = await generateText({ model, tools, ...input, ...(system === undefined ? {} : { system }), ...step, stopWhen: stepCountIs(maxSteps) });
      return result.responseMessages;
    },
  });

  it('type-checks as the prepareStep of ai@7', () => {
    const prepareStep: PrepareStepFunction<ToolSet> = createMobiusPrepareStep({ manager: new ContextManager() }).prepareStep;
    expect(typeof prepareStep).toBe('function');
  });
});

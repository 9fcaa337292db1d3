import { ToolLoopAgent, generateText, jsonSchema, simulateReadableStream, stepCountIs, streamText, tool, wrapLanguageModel } from 'ai';
import type { ModelMessage, PrepareStepFunction, ToolSet } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { createMobiusPrepareStep } from '../../src/adapters/ai-sdk/index.js';
import { ContextManager } from '../../src/context-manager.js';
import { InvalidArgumentError } from '../../src/errors.js';
import type { BuiltContext } from '../../src/build/window-builder.js';
import { describeScriptedSessions, expectedPrompt, expectedRecords, scriptedGenerate, scriptedTools, spyOnRecords, strip } from './ai-sdk-session.js';
import type { PromptMessage, ScriptedReply, StepRecord } from './ai-sdk-session.js';
import { BUDGET, STEPS_PER_TURN, SYSTEM_PROMPT, modelReply, userMessage } from './scripted-session.js';

// The provider-level types, as the mock model uses them (`ai` does not re-export them).
type LanguageModelV3GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
type LanguageModelV3StreamPart = Awaited<ReturnType<MockLanguageModelV3['doStream']>>['stream'] extends ReadableStream<infer Part> ? Part : never;

/** A mock model that replays the scripted session, one reply per call, and records each prompt. */
function scriptedModel(options: { windowAt: () => BuiltContext | undefined; steps: StepRecord[] }): MockLanguageModelV3 {
  return mockModel(scriptedGenerate(options));
}

function mockModel(generate: (call: { prompt: readonly PromptMessage[] }) => ScriptedReply): MockLanguageModelV3 {
  return new MockLanguageModelV3({ doGenerate: async (call) => v3Result(generate(call)) });
}

function v3Result({ content, isToolCalls }: ScriptedReply): LanguageModelV3GenerateResult {
  return {
    content,
    finishReason: { unified: isToolCalls ? 'tool-calls' : 'stop', raw: undefined },
    usage: { inputTokens: { total: 100, noCache: 100, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 10, text: 10, reasoning: undefined } },
    warnings: [],
  };
}

const tools: ToolSet = scriptedTools(({ description, schema, execute }) => tool({ description, inputSchema: jsonSchema<Record<string, string>>(schema), execute }));

describeScriptedSessions<MockLanguageModelV3 | ReturnType<typeof wrapLanguageModel>>({
  version: 'ai@6 and MockLanguageModelV3',
  model: mockModel,
  wrap: (model, middleware) => wrapLanguageModel({ model: model as MockLanguageModelV3, middleware }),
  generate: async ({ model, maxSteps, messages, prompt, system, prepareStep, onStepFinish }) => {
    const step = { ...(prepareStep === undefined ? {} : { prepareStep }), ...(onStepFinish === undefined ? {} : { onStepFinish }) };
    const input = messages === undefined ? { prompt: prompt ?? '' } : { messages: messages as ModelMessage[] };
    const result = await generateText({ model, tools, ...input, ...(system === undefined ? {} : { system }), ...step, stopWhen: stepCountIs(maxSteps) });
    return result.response.messages;
  },
});

describe('createMobiusPrepareStep() with ai@6', () => {
  it('works with streamText and ToolLoopAgent, recording the final answer through onStepFinish', async () => {
    for (const run of ['stream', 'agent'] as const) {
      const manager = new ContextManager({ systemPrompt: SYSTEM_PROMPT });
      const records = spyOnRecords(manager);
      const mobius = createMobiusPrepareStep({ manager, budget: BUDGET });
      const steps: StepRecord[] = [];
      const generating = scriptedModel({ windowAt: mobius.lastWindow, steps });
      const model = new MockLanguageModelV3({
        doGenerate: generating.doGenerate,
        doStream: async (call) => {
          const result = await generating.doGenerate(call);
          const parts: LanguageModelV3StreamPart[] = result.content.flatMap((part): LanguageModelV3StreamPart[] =>
            part.type === 'text' ? [{ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: part.text }, { type: 'text-end', id: 't' }] : part.type === 'tool-call' ? [part] : [],
          );
          parts.push({ type: 'finish', finishReason: result.finishReason, usage: result.usage });
          return { stream: simulateReadableStream({ chunks: parts, initialDelayInMs: null, chunkDelayInMs: null }) };
        },
      });
      if (run === 'stream') {
        const result = streamText({ model, tools, prompt: userMessage(0), prepareStep: mobius.prepareStep, onStepFinish: mobius.onStepFinish, stopWhen: stepCountIs(STEPS_PER_TURN) });
        await result.consumeStream();
      } else {
        const agent = new ToolLoopAgent({ model, tools, prepareStep: mobius.prepareStep, onStepFinish: mobius.onStepFinish, stopWhen: stepCountIs(STEPS_PER_TURN) });
        await agent.generate({ prompt: userMessage(0) });
      }
      expect(steps, run).toHaveLength(STEPS_PER_TURN);
      expect(records, run).toEqual(expectedRecords().slice(0, records.length));
      // The last reply (the answer of step 9) reached the manager through onStepFinish.
      expect(records.at(-1), run).toBe(`assistant:${modelReply(STEPS_PER_TURN - 1).text.slice(0, 60)}:`);
      steps.forEach(({ prompt, built }) => expect(strip(prompt)).toEqual(expectedPrompt(built)));
    }
  });

  it('records a resent conversation once, and skips system messages', async () => {
    const manager = new ContextManager({ systemPrompt: SYSTEM_PROMPT });
    const records = spyOnRecords(manager);
    const mobius = createMobiusPrepareStep({ manager });
    const history: ModelMessage[] = [
      { role: 'system', content: 'Ignored: the manager holds the instructions.' },
      { role: 'user', content: [{ type: 'text', text: 'Read a.ts' }, { type: 'image', image: new Uint8Array([1]) }] },
      { role: 'assistant', content: [{ type: 'reasoning', text: 'thinking' }, { type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: { path: 'a.ts' } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'read_file', output: { type: 'json', value: { lines: 3 } } }] },
    ];
    const first = await mobius.prepareStep({ messages: history });
    const answered: ModelMessage[] = [...history, { role: 'assistant', content: 'It has 3 lines.' }];
    expect(mobius.record(answered)).toBe(1);
    // Resent (here as copies, as after a round trip through a database): nothing new.
    expect(mobius.record(structuredClone(answered.slice(2)))).toBe(0);
    // A user saying again what they said before is a new message.
    expect(mobius.record([{ role: 'user', content: 'Read a.ts' }])).toBe(1);
    expect(records).toEqual(['user:Read a.ts\n[image]:', 'assistant::c1', 'tool:c1:ok', 'assistant:It has 3 lines.:', 'user:Read a.ts:']);
    expect(first.system).toContain(SYSTEM_PROMPT);
    expect(first.system).not.toContain('Ignored');
    expect(first.messages).toEqual([
      // The newest user turn keeps its image; the manager holds the placeholder.
      { role: 'user', content: [{ type: 'text', text: 'Read a.ts' }, { type: 'image', image: new Uint8Array([1]) }] },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: { path: 'a.ts' } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'read_file', output: { type: 'text', value: '{"lines":3}' } }] },
    ]);
  });

  it('type-checks as the prepareStep of generateText', () => {
    const mobius = createMobiusPrepareStep({ manager: new ContextManager() });
    const prepareStep: PrepareStepFunction = mobius.prepareStep;
    expect(typeof prepareStep).toBe('function');
  });

  it('throws InvalidArgumentError for a missing manager or a misspelt option', () => {
    expect(() => createMobiusPrepareStep({} as never)).toThrow(InvalidArgumentError);
    expect(() => createMobiusPrepareStep({ manager: new ContextManager(), budjet: 1 } as never)).toThrow(/createMobiusPrepareStep\(\).*budjet/s);
  });
});

import { ToolLoopAgent, generateText, jsonSchema, simulateReadableStream, stepCountIs, streamText, tool, wrapLanguageModel } from 'ai';
import type { ModelMessage, PrepareStepFunction, ToolSet } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { beforeAll, describe, expect, it } from 'vitest';
import { createMobiusMiddleware, createMobiusPrepareStep } from '../../src/adapters/ai-sdk/index.js';
import type { MobiusMiddleware } from '../../src/adapters/ai-sdk/index.js';
import { ContextManager } from '../../src/context-manager.js';
import { InvalidArgumentError } from '../../src/errors.js';
import type { BuiltContext } from '../../src/build/window-builder.js';
import { assertSession, expectedPrompt, expectedRecords, spyOnRecords, strip } from './ai-sdk-session.js';
import type { StepRecord } from './ai-sdk-session.js';
import { BUDGET, STEP_COUNT, STEPS_PER_TURN, SYSTEM_PROMPT, modelReply, toolOutput, userMessage } from './scripted-session.js';
import type { ScriptedCall } from './scripted-session.js';

// The provider-level types, as the mock model uses them (`ai` does not re-export them).
type LanguageModelV3GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
type LanguageModelV3Content = LanguageModelV3GenerateResult['content'][number];
type LanguageModelV3StreamPart = Awaited<ReturnType<MockLanguageModelV3['doStream']>>['stream'] extends ReadableStream<infer Part> ? Part : never;


/** A mock model that replays the scripted session, one reply per call, and records each prompt. */
function scriptedModel(options: { windowAt: () => BuiltContext | undefined; steps: StepRecord[] }): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    doGenerate: async (call) => {
      const step = options.steps.length;
      const built = options.windowAt();
      if (built === undefined) throw new Error(`step ${step}: the model was called without a built window`);
      options.steps.push({ prompt: call.prompt, built });
      return reply(step);
    },
  });
}

function reply(step: number): LanguageModelV3GenerateResult {
  const scripted = modelReply(step);
  const content: LanguageModelV3Content[] = [];
  if (scripted.text.length > 0) content.push({ type: 'text', text: scripted.text });
  for (const call of scripted.toolCalls) content.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: JSON.stringify(call.args) });
  return {
    content,
    finishReason: { unified: scripted.toolCalls.length > 0 ? 'tool-calls' : 'stop', raw: undefined },
    usage: { inputTokens: { total: 100, noCache: 100, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 10, text: 10, reasoning: undefined } },
    warnings: [],
  };
}

const tools: ToolSet = Object.fromEntries(
  (['read_file', 'run_tests', 'search_code'] as const).map((name) => [
    name,
    tool({
      description: `The ${name} tool.`,
      inputSchema: jsonSchema<Record<string, string>>({ type: 'object', additionalProperties: { type: 'string' } }),
      execute: async (args, { toolCallId }) => {
        const { output, isError } = toolOutput({ id: toolCallId, name, args } satisfies ScriptedCall);
        if (isError) throw new Error(output);
        return output;
      },
    }),
  ]),
);

describe('createMobiusPrepareStep() with ai@6', () => {
  describe('a scripted 200-step tool-calling session with MockLanguageModelV3 and generateText', () => {
    const steps: StepRecord[] = [];
    let records: string[] = [];
    let lastWindow: BuiltContext | undefined;

    beforeAll(async () => {
      const manager = new ContextManager({ systemPrompt: SYSTEM_PROMPT });
      records = spyOnRecords(manager);
      const mobius = createMobiusPrepareStep({ manager, budget: BUDGET });
      const model = scriptedModel({ windowAt: mobius.lastWindow, steps });
      // A chat: each turn resends the conversation so far, as AI SDK apps do.
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
      { role: 'user', content: 'Read a.ts\n[image]' },
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

describe('createMobiusMiddleware() with ai@6', () => {
  describe('a scripted 200-step tool-calling session through wrapLanguageModel', () => {
    const steps: StepRecord[] = [];
    let records: string[] = [];
    let middleware: MobiusMiddleware;

    beforeAll(async () => {
      const manager = new ContextManager({ systemPrompt: SYSTEM_PROMPT });
      records = spyOnRecords(manager);
      middleware = createMobiusMiddleware({ manager, budget: BUDGET });
      const model = wrapLanguageModel({ model: scriptedModel({ windowAt: middleware.lastWindow, steps }), middleware });
      for (let turn = 0; turn < STEP_COUNT / STEPS_PER_TURN; turn += 1) {
        // Only the new user message: the manager holds the history.
        const result = await generateText({ model, tools, system: 'Replaced by the window.', prompt: userMessage(turn), stopWhen: stepCountIs(STEPS_PER_TURN + 1) });
        middleware.record(result.response.messages);
      }
    }, 300_000);

    it('hands the model the built window at every call, records each message once, stays within budget and keeps step 5 facts', () => {
      assertSession({ steps, records, lastWindow: middleware.lastWindow() });
    });
  });
});

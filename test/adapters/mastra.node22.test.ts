// Runs on Node >= 22.13 only (Mastra's requirement): `npm run test:node22`. The default
// `vitest run` (Node 20) leaves this file out; see vitest.config.ts and vitest.node22.config.ts.
import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import type { LanguageModelV3CallOptions, LanguageModelV3Content, LanguageModelV3Usage } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { MobiusContextProcessor, toMastraPrompt } from '../../src/adapters/mastra/index.js';
import { composeStepWindow } from '../../src/adapters/step-window.js';
import { countMessageTokens } from '../../src/build/window-builder.js';
import { ContextManager } from '../../src/context-manager.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { findProviderProblems } from '../../src/testing/provider-validity.js';
import type { ContextMessage, JsonValue } from '../../src/types.js';
import { BUDGET, FACT_MARKERS, FACT_STEP, STEP_COUNT, STEPS_PER_TURN, SYSTEM_PROMPT, modelReply, toolOutput, userMessage } from './scripted-session.js';
import type { ScriptedCall } from './scripted-session.js';

const INSTRUCTIONS = 'Agent rules: answer briefly.';
const USAGE: LanguageModelV3Usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

interface StepRecord {
  readonly step: number;
  readonly received: readonly ContextMessage[];
  readonly expected: readonly ContextMessage[];
  readonly builtTotal: number;
}

describe('MobiusContextProcessor', () => {
  it('runs on the Node versions Mastra supports (>= 22.13)', () => {
    const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
    expect(major > 22 || (major === 22 && minor >= 13)).toBe(true);
  });

  describe('a scripted 200-step tool-calling session with MockLanguageModelV3', () => {
    const steps: StepRecord[] = [];
    const recorded: string[] = [];
    const texts: string[] = [];
    let manager: ContextManager;

    beforeAll(async () => {
      manager = new ContextManager({ systemPrompt: SYSTEM_PROMPT });
      const addMessage = manager.addMessage.bind(manager);
      const addToolResult = manager.addToolResult.bind(manager);
      vi.spyOn(manager, 'addMessage').mockImplementation((input) => {
        recorded.push(describeRecord(input.role, input.content, input.toolCalls?.map((call) => call.id) ?? []));
        return addMessage(input);
      });
      vi.spyOn(manager, 'addToolResult').mockImplementation((input) => {
        recorded.push(`tool:${input.callId}:${input.isError === true ? 'error' : 'ok'}`);
        return addToolResult(input);
      });
      vi.spyOn(manager, 'addNote');

      let step = 0;
      const model = new MockLanguageModelV3({
        doGenerate: async (options: LanguageModelV3CallOptions) => {
          const current = step;
          step += 1;
          // Nothing is recorded between the processor's build and this call.
          const expected = composeStepWindow({ manager, budget: BUDGET });
          steps.push({
            step: current,
            received: toContextMessages(options.prompt),
            expected: toContextMessages(toMastraPrompt(expected.window, { systemMessages: [INSTRUCTIONS] })),
            builtTotal: expected.built.tokens.total,
          });
          const reply = modelReply(current);
          const content: LanguageModelV3Content[] = [
            ...(reply.text.length > 0 ? [{ type: 'text' as const, text: reply.text }] : []),
            ...reply.toolCalls.map((call) => ({ type: 'tool-call' as const, toolCallId: call.id, toolName: call.name, input: JSON.stringify(call.args) })),
          ];
          return { content, finishReason: { unified: reply.toolCalls.length > 0 ? 'tool-calls' : 'stop', raw: undefined }, usage: USAGE, warnings: [] };
        },
      });
      const tools = Object.fromEntries(
        (['read_file', 'run_tests', 'search_code'] as const).map((name) => [
          name,
          createTool({
            id: name,
            description: `The ${name} tool.`,
            inputSchema: z.record(z.string(), z.string()),
            execute: async (args: Record<string, string>, context: unknown) => {
              const id = (context as { agent?: { toolCallId?: string } } | undefined)?.agent?.toolCallId ?? '';
              const { output, isError } = toolOutput({ id, name, args } satisfies ScriptedCall);
              if (isError) throw new Error(output);
              return output;
            },
          }),
        ]),
      );
      const mobius = new MobiusContextProcessor({ manager, budget: BUDGET });
      const agent = new Agent({ id: 'coder', name: 'coder', instructions: INSTRUCTIONS, model, tools, inputProcessors: [mobius], outputProcessors: [mobius] });
      for (let turn = 0; turn < STEP_COUNT / STEPS_PER_TURN; turn += 1) {
        const result = await agent.generate(userMessage(turn), { maxSteps: STEPS_PER_TURN + 5 });
        texts.push(result.text);
      }
    }, 300_000);

    it('calls the model 200 times', () => {
      expect(steps.map((record) => record.step)).toEqual(Array.from({ length: STEP_COUNT }, (_, index) => index));
      expect(texts.at(-1)).toContain('Done with');
    });

    it('hands the model the built window at every step (after the agent instructions)', () => {
      for (const record of steps) expect(record.received, `step ${record.step}`).toEqual(record.expected);
      expect(steps.at(-1)?.received[0]).toEqual({ role: 'system', content: INSTRUCTIONS });
    });

    it('keeps every window within the budget', () => {
      for (const record of steps) {
        expect(record.builtTotal, `step ${record.step}`).toBeLessThanOrEqual(BUDGET);
        // The agent's instructions are outside the budget by design.
        expect(countMessageTokens(record.received.slice(1), manager.tokenCounter), `step ${record.step}`).toBeLessThanOrEqual(BUDGET);
      }
      expect(Math.max(...steps.map((record) => record.builtTotal))).toBeGreaterThan(BUDGET / 2);
    });

    it('sends windows with valid tool pairing that start with a user turn and alternate roles', () => {
      for (const record of steps) {
        const window = record.received.slice(1);
        expect(findProviderProblems(window), `step ${record.step}`).toEqual([]);
        expect(window[0]?.role).toBe('system');
        expect(window[1]?.role, `step ${record.step}`).toBe('user');
        window.forEach((message, index) => {
          if (index > 0 && message.role !== 'tool') expect(message.role, `step ${record.step} message ${index}`).not.toBe(window[index - 1]?.role);
        });
      }
    });

    it('records every message of the session exactly once, in order (final answers included)', () => {
      const expected: string[] = [];
      for (let step = 0; step < STEP_COUNT; step += 1) {
        if (step % STEPS_PER_TURN === 0) expected.push(describeRecord('user', userMessage(step / STEPS_PER_TURN), []));
        const reply = modelReply(step);
        expected.push(describeRecord('assistant', reply.text, reply.toolCalls.map((call) => call.id)));
        for (const call of reply.toolCalls) expected.push(`tool:${call.id}:${toolOutput(call).isError ? 'error' : 'ok'}`);
      }
      expect(recorded).toEqual(expected);
      expect(recorded.filter((entry) => entry.endsWith(':error')).length).toBeGreaterThan(0);
      expect(manager.addNote).not.toHaveBeenCalled();
    });

    it(`still shows the facts stated at step ${FACT_STEP} at step ${STEP_COUNT}`, () => {
      const text = (record: StepRecord | undefined): string => (record?.received ?? []).map((message) => message.content).join('\n');
      for (const marker of FACT_MARKERS) {
        expect(text(steps[FACT_STEP + 1])).toContain(marker);
        expect(text(steps.at(-1))).toContain(marker);
      }
      expect(steps.at(-1)?.received.slice(2).some((message) => message.content.includes(FACT_MARKERS[0] ?? ''))).toBe(false);
    });
  });

  it('records a conversation resent with agent.generate([...history, message]) once', async () => {
    const manager = new ContextManager({ systemPrompt: SYSTEM_PROMPT });
    const replies: LanguageModelV3Content[][] = [
      [{ type: 'tool-call', toolCallId: 'c1', toolName: 'read_file', input: JSON.stringify({ path: 'src/retry.ts' }) }],
      [{ type: 'text', text: 'Retries are set to 3.' }],
      [{ type: 'text', text: 'Done: retries is now 5.' }],
    ];
    let call = 0;
    const model = new MockLanguageModelV3({
      doGenerate: async () => {
        const content = replies[call] ?? [];
        call += 1;
        return { content, finishReason: { unified: content.some((part) => part.type === 'tool-call') ? 'tool-calls' : 'stop', raw: undefined }, usage: USAGE, warnings: [] };
      },
    });
    const readFile = createTool({ id: 'read_file', description: 'Reads a file.', inputSchema: z.object({ path: z.string() }), execute: async () => 'export const retries = 3;' });
    const mobius = new MobiusContextProcessor({ manager });
    const agent = new Agent({ id: 'coder', name: 'coder', instructions: INSTRUCTIONS, model, tools: { read_file: readFile }, inputProcessors: [mobius], outputProcessors: [mobius] });
    const question = { role: 'user' as const, content: 'How many retries does src/retry.ts allow?' };
    const first = await agent.generate([question], { maxSteps: 5 });
    const before = manager.state().entries.map((entry) => `${entry.kind}:${entry.text}`);
    expect(before).toEqual(['user:How many retries does src/retry.ts allow?', 'assistant:', 'tool-result:export const retries = 3;', 'assistant:Retries are set to 3.']);
    // The app keeps the history and sends all of it again with the next message.
    await agent.generate([question, ...(first.response.messages ?? []), { role: 'user', content: 'Raise it to 5.' }], { maxSteps: 5 });
    expect(manager.state().entries.map((entry) => `${entry.kind}:${entry.text}`)).toEqual([...before, 'user:Raise it to 5.', 'assistant:Done: retries is now 5.']);
  });

  it('throws BUDGET_TOO_SMALL when the budget cannot hold the system prompt and the newest turn', async () => {
    const manager = new ContextManager({ systemPrompt: SYSTEM_PROMPT });
    const model = new MockLanguageModelV3({ doGenerate: async () => ({ content: [{ type: 'text', text: 'ok' }], finishReason: { unified: 'stop', raw: undefined }, usage: USAGE, warnings: [] }) });
    const mobius = new MobiusContextProcessor({ manager, budget: 120 });
    const agent = new Agent({ id: 'coder', name: 'coder', instructions: INSTRUCTIONS, model, inputProcessors: [mobius], outputProcessors: [mobius] });
    const question = `Please review this stack trace: ${'at handler (src/server/routes/user.ts:42:17) '.repeat(30)}`;
    const error = await agent.generate(question).then(
      (result) => result.error,
      (caught: unknown) => caught,
    );
    // Mastra hands back a copy of what a processor throws: its name, message and fields survive.
    expect(error).toMatchObject({ name: 'InvalidArgumentError', code: 'BUDGET_TOO_SMALL', parameter: 'budget', value: 120 });
    expect((error as Error).message).toMatch(/budget.*120.*newest turn/s);
    expect(model.doGenerateCalls).toHaveLength(0);
  });

  it('throws an InvalidArgumentError that names the option and shows a fix', () => {
    let error: unknown;
    try {
      new MobiusContextProcessor({ manager: { build: () => undefined } as unknown as ContextManager });
    } catch (caught) {
      error = caught;
    }
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as InvalidArgumentError).parameter).toBe('manager');
    expect((error as Error).message).toContain('new MobiusContextProcessor({ manager, budget: 28_000 })');
  });
});

// --- Internal helpers ---

function describeRecord(role: string, content: string, callIds: readonly string[]): string {
  return `${role}:${content}:${callIds.join(',')}`;
}

interface PromptPart {
  readonly type: string;
  readonly text?: string;
  readonly toolCallId?: string;
  readonly toolName?: string;
  readonly input?: unknown;
  readonly output?: { readonly type: string; readonly value?: unknown };
}

// Projects a provider-level prompt (what Mastra sends the model) onto neutral messages.
function toContextMessages(prompt: ReadonlyArray<{ readonly role: string; readonly content: unknown }>): ContextMessage[] {
  return prompt.flatMap((message): ContextMessage[] => {
    if (message.role === 'system') return [{ role: 'system', content: String(message.content) }];
    const parts = message.content as readonly PromptPart[];
    const text = parts.flatMap((part) => (part.type === 'text' ? [part.text ?? ''] : [])).join('\n');
    if (message.role === 'user') return [{ role: 'user', content: text }];
    if (message.role === 'assistant') {
      const toolCalls = parts.filter((part) => part.type === 'tool-call').map((part) => ({ id: part.toolCallId ?? '', name: part.toolName ?? '', input: (typeof part.input === 'string' ? JSON.parse(part.input) : part.input)  as JsonValue }));
      return [toolCalls.length > 0 ? { role: 'assistant', content: text, toolCalls } : { role: 'assistant', content: text }];
    }
    return parts
      .filter((part) => part.type === 'tool-result')
      .map((part) => ({ role: 'tool', toolCallId: part.toolCallId ?? '', toolName: part.toolName ?? '', content: String(part.output?.value ?? ''), isError: part.output?.type === 'error-text' }));
  });
}

import { MemorySaver } from '@langchain/langgraph';
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, createAgent, fakeModel, tool } from 'langchain';
import type { BaseMessage } from 'langchain';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { mobiusContextMiddleware, toLangChainMessages } from '../../src/adapters/langchain/index.js';
import { contentText } from '../../src/adapters/langchain/message-recorder.js';
import { composeStepWindow } from '../../src/adapters/step-window.js';
import { countMessageTokens } from '../../src/build/window-builder.js';
import { ContextManager } from '../../src/context-manager.js';
import { InvalidArgumentError } from '../../src/errors.js';
import { findProviderProblems } from '../../src/testing/provider-validity.js';
import type { ContextMessage } from '../../src/types.js';
import { BUDGET, FACT_MARKERS, FACT_STEP, STEP_COUNT, STEPS_PER_TURN, SYSTEM_PROMPT, modelReply, toolOutput, userMessage } from './scripted-session.js';
import type { ScriptedCall } from './scripted-session.js';

/** What the fake model saw at one step, and what the adapter should have handed it. */
interface StepRecord {
  readonly step: number;
  readonly received: readonly ContextMessage[];
  readonly expected: readonly ContextMessage[];
  readonly builtTotal: number;
}

describe('mobiusContextMiddleware()', () => {
  describe('a scripted 200-step tool-calling session with fakeModel()', () => {
    const steps: StepRecord[] = [];
    let manager: ContextManager;
    let finalState: BaseMessage[] = [];
    const recordedCalls: string[] = [];

    beforeAll(async () => {
      manager = new ContextManager({ systemPrompt: SYSTEM_PROMPT });
      const addMessage = manager.addMessage.bind(manager);
      const addToolResult = manager.addToolResult.bind(manager);
      vi.spyOn(manager, 'addMessage').mockImplementation((input) => {
        recordedCalls.push(describeRecord(input.role, input.content, input.toolCalls?.map((call) => call.id) ?? []));
        return addMessage(input);
      });
      vi.spyOn(manager, 'addToolResult').mockImplementation((input) => {
        recordedCalls.push(`tool:${input.callId}:${input.isError === true ? 'error' : 'ok'}`);
        return addToolResult(input);
      });
      vi.spyOn(manager, 'addNote');

      const model = fakeModel();
      let step = 0;
      for (let index = 0; index < STEP_COUNT; index += 1) {
        model.respond((messages) => {
          const current = step;
          step += 1;
          // Nothing is recorded between the middleware's build and this call, so building again
          // gives the window the middleware handed over.
          const expected = composeStepWindow({ manager, budget: BUDGET });
          steps.push({
            step: current,
            received: messages.map(toContextMessage),
            expected: [{ role: 'system', content: expected.window.system }, ...toLangChainMessages(expected.window).map(toContextMessage)],
            builtTotal: expected.built.tokens.total,
          });
          const reply = modelReply(current);
          return new AIMessage({ content: reply.text, tool_calls: reply.toolCalls.map((call) => ({ id: call.id, name: call.name, args: { ...call.args }, type: 'tool_call' as const })) });
        });
      }
      const tools = (['read_file', 'run_tests', 'search_code'] as const).map((name) =>
        tool(
          (args: Record<string, string>, config: { toolCall?: { id?: string } }) => {
            const { output, isError } = toolOutput({ id: config.toolCall?.id ?? '', name, args } satisfies ScriptedCall);
            if (isError) throw new Error(output);
            return output;
          },
          { name, description: `The ${name} tool.`, schema: z.record(z.string(), z.string()) },
        ),
      );
      const agent = createAgent({ model, tools, middleware: [mobiusContextMiddleware({ manager, budget: BUDGET })], checkpointer: new MemorySaver() });
      for (let turn = 0; turn < STEP_COUNT / STEPS_PER_TURN; turn += 1) {
        const result = await agent.invoke({ messages: [new HumanMessage(userMessage(turn))] }, { configurable: { thread_id: 'session' }, recursionLimit: 100 });
        finalState = result.messages;
      }
    }, 300_000);

    it('calls the model 200 times', () => {
      expect(steps.map((record) => record.step)).toEqual(Array.from({ length: STEP_COUNT }, (_, index) => index));
    });

    it('hands the model the built window at every step, not the agent history', () => {
      for (const record of steps) expect(record.received, `step ${record.step}`).toEqual(record.expected);
      // From some point on the full history no longer fits: the window is not the history.
      const last = steps.at(-1);
      expect(last?.received.length).toBeLessThan(finalState.length);
    });

    it('keeps every window within the budget', () => {
      for (const record of steps) {
        expect(record.builtTotal, `step ${record.step}`).toBeLessThanOrEqual(BUDGET);
        expect(countMessageTokens(record.received, manager.tokenCounter), `step ${record.step}`).toBeLessThanOrEqual(BUDGET);
      }
      expect(Math.max(...steps.map((record) => record.builtTotal))).toBeGreaterThan(BUDGET / 2);
    });

    it('sends windows with valid tool pairing that start with a user turn and alternate roles', () => {
      for (const record of steps) {
        expect(findProviderProblems(record.received), `step ${record.step}`).toEqual([]);
        expect(record.received[0]?.role).toBe('system');
        expect(record.received[1]?.role, `step ${record.step}`).toBe('user');
        record.received.forEach((message, index) => {
          const previous = record.received[index - 1];
          if (index > 0 && message.role !== 'tool') expect(message.role, `step ${record.step} message ${index}`).not.toBe(previous?.role);
        });
      }
    });

    it('records every message of the agent state exactly once, in order', () => {
      const expected = finalState.flatMap((message): string[] => {
        if (HumanMessage.isInstance(message)) return [describeRecord('user', contentText(message.content), [])];
        if (AIMessage.isInstance(message)) return [describeRecord('assistant', contentText(message.content), (message.tool_calls ?? []).map((call) => call.id ?? ''))];
        if (ToolMessage.isInstance(message)) return [`tool:${message.tool_call_id}:${message.status === 'error' ? 'error' : 'ok'}`];
        return [];
      });
      expect(recordedCalls).toEqual(expected);
      expect(new Set(recordedCalls).size).toBe(recordedCalls.length);
      expect(recordedCalls.filter((call) => call.startsWith('assistant:'))).toHaveLength(STEP_COUNT);
      expect(recordedCalls.filter((call) => call.endsWith(':error')).length).toBeGreaterThan(0);
      expect(manager.addNote).not.toHaveBeenCalled();
    });

    it('leaves the checkpointed agent state untouched (the window is transient)', () => {
      expect(finalState.filter((message) => AIMessage.isInstance(message))).toHaveLength(STEP_COUNT);
      expect(contentText(finalState[0]?.content ?? '')).toBe(userMessage(0));
      expect(finalState.some((message) => SystemMessage.isInstance(message))).toBe(false);
    });

    it(`still shows the facts stated at step ${FACT_STEP} at step ${STEP_COUNT}`, () => {
      const early = steps[FACT_STEP + 1];
      const last = steps.at(-1);
      const text = (record: StepRecord | undefined): string => (record?.received ?? []).map((message) => message.content).join('\n');
      for (const marker of FACT_MARKERS) {
        expect(text(early)).toContain(marker);
        expect(text(last)).toContain(marker);
      }
      // ... and not as a verbatim history message: step 5's reply left T0 long ago.
      expect(last?.received.slice(1).some((message) => message.content.includes(FACT_MARKERS[0] ?? ''))).toBe(false);
    });
  });

  it('keeps an agent systemPrompt in front of the window system prompt', async () => {
    const manager = new ContextManager({ systemPrompt: SYSTEM_PROMPT });
    const model = fakeModel().respond(new AIMessage('ok'));
    const agent = createAgent({ model, tools: [], systemPrompt: 'Answer in English.', middleware: [mobiusContextMiddleware({ manager })] });
    await agent.invoke({ messages: [new HumanMessage('hello')] });
    const [system, user] = model.calls[0]?.messages ?? [];
    expect(contentText(system?.content ?? '')).toBe(`Answer in English.\n\n${SYSTEM_PROMPT}`);
    expect(contentText(user?.content ?? '')).toBe('hello');
    expect(manager.state().entries.map((entry) => entry.text)).toEqual(['hello', 'ok']);
  });

  it('records a result whose call it never saw as a note instead of failing the agent', async () => {
    const manager = new ContextManager();
    const model = fakeModel().respond(new AIMessage('noted'));
    const agent = createAgent({ model, tools: [], middleware: [mobiusContextMiddleware({ manager })] });
    await agent.invoke({ messages: [new HumanMessage('look'), new ToolMessage({ content: 'stale output', tool_call_id: 'elsewhere-1' })] });
    const kinds = manager.state().entries.map((entry) => entry.kind);
    expect(kinds).toEqual(['user', 'note', 'assistant']);
    expect(manager.state().entries[1]?.text).toContain('stale output');
  });

  it('throws an InvalidArgumentError that names the option and shows a fix', () => {
    let error: unknown;
    try {
      mobiusContextMiddleware({ manager: {} as ContextManager });
    } catch (caught) {
      error = caught;
    }
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as InvalidArgumentError).parameter).toBe('manager');
    expect((error as Error).message).toContain('mobiusContextMiddleware({ manager, budget: 28_000 })');
    expect(() => mobiusContextMiddleware({ manager: new ContextManager(), budget: -1 })).toThrow(/budget/);
  });
});

describe('toLangChainMessages()', () => {
  it('maps user, assistant tool calls and results (errors included) to LangChain messages', () => {
    const messages = toLangChainMessages({
      messages: [
        { role: 'user', content: 'run it' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'a', name: 'run', input: { cmd: 'npm test' } }, { id: 'b', name: 'echo', input: 'plain' }] },
        { role: 'tool', results: [{ toolCallId: 'a', toolName: 'run', content: 'FAIL', isError: true }, { toolCallId: 'b', toolName: 'echo', content: 'plain', isError: false }] },
      ],
    });
    expect(messages.map((message) => message.type)).toEqual(['human', 'ai', 'tool', 'tool']);
    const ai = messages[1] as AIMessage;
    expect(ai.tool_calls).toEqual([
      { id: 'a', name: 'run', args: { cmd: 'npm test' }, type: 'tool_call' },
      { id: 'b', name: 'echo', args: { input: 'plain' }, type: 'tool_call' },
    ]);
    expect((messages[2] as ToolMessage).status).toBe('error');
    expect((messages[3] as ToolMessage).tool_call_id).toBe('b');
  });
});

// --- Internal helpers ---

function describeRecord(role: string, content: string, callIds: readonly string[]): string {
  return `${role}:${content}:${callIds.join(',')}`;
}

function toContextMessage(message: BaseMessage): ContextMessage {
  const content = contentText(message.content);
  if (SystemMessage.isInstance(message)) return { role: 'system', content };
  if (HumanMessage.isInstance(message)) return { role: 'user', content };
  if (AIMessage.isInstance(message)) {
    const toolCalls = (message.tool_calls ?? []).map((call) => ({ id: call.id ?? '', name: call.name, input: call.args }));
    return toolCalls.length > 0 ? { role: 'assistant', content, toolCalls } : { role: 'assistant', content };
  }
  if (ToolMessage.isInstance(message)) return { role: 'tool', toolCallId: message.tool_call_id, toolName: message.name ?? '', content, isError: message.status === 'error' };
  throw new Error(`unexpected message type ${message.type}`);
}

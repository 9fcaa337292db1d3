import { expect, vi } from 'vitest';
import type { BuiltContext } from '../../src/build/window-builder.js';
import type { ContextManager } from '../../src/context-manager.js';
import { CONTINUATION_TOKENS, normalizeWindow } from '../../src/providers/normalize.js';
import { findProviderProblems } from '../../src/testing/provider-validity.js';
import { BUDGET, FACT_MARKERS, FACT_STEP, STEP_COUNT, STEPS_PER_TURN, modelReply, toolOutput, userMessage } from './scripted-session.js';

// Checks shared by the AI SDK suites (ai@6 and ai@5): what a faithful adapter records and hands
// the model for the scripted session.

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


import type { MastraDBMessage, MastraMessagePart, MastraToolInvocation } from '@mastra/core/agent/message-list';
import type { ContextManager } from '../../context-manager.js';
import { InvalidArgumentError } from '../../errors.js';
import type { ToolCall } from '../../types.js';
import { toJsonInput } from '../step-window.js';

/** Records a Mastra agent's messages in a manager, each message part once. @internal */
export interface MastraRecorder {
  /** Records what was not recorded yet, in order; returns how many records were made. */
  record(messages: readonly MastraDBMessage[]): number;
}

/**
 * Creates a recorder for Mastra's stored messages. Mastra grows one assistant message across the
 * steps of a response (text, tool invocations, then a `step-start` part before the next step) and
 * fills a tool invocation's result in place, so the recorder remembers, per message id, how many
 * parts it has consumed, and, per call id, whether the call and its result were recorded: each
 * step becomes one assistant message with its tool calls, followed by their results. User text
 * becomes a user message; system and signal messages are left out.
 * @internal
 */
export function createMastraRecorder(manager: ContextManager): MastraRecorder {
  const consumedParts = new Map<string, number>();
  const recordedCalls = new Set<string>();
  const answeredCalls = new Set<string>();
  let count = 0;

  const recordResult = (invocation: MastraToolInvocation): void => {
    const result = resultOf(invocation);
    if (result === undefined || answeredCalls.has(invocation.toolCallId)) return;
    answeredCalls.add(invocation.toolCallId);
    count += 1;
    try {
      manager.addToolResult({ callId: invocation.toolCallId, output: result.output, isError: result.isError });
    } catch (error) {
      // A call made before the processor was attached: keep its result as a note.
      if (!(InvalidArgumentError.isInstance(error) && error.code === 'UNKNOWN_TOOL_CALL')) throw error;
      manager.addNote({ content: `Result of tool call ${invocation.toolCallId} (${invocation.toolName})${result.isError ? ', an error' : ''}, whose call was not recorded:\n${result.output}` });
    }
  };

  const recordAssistant = (message: MastraDBMessage): void => {
    const parts = message.content.parts;
    let index = consumedParts.get(message.id) ?? 0;
    while (index < parts.length) {
      const step: MastraMessagePart[] = [];
      while (index < parts.length && parts[index]?.type !== 'step-start') step.push(parts[index++] as MastraMessagePart);
      if (index < parts.length) index += 1;
      const text = textOf(step, { isUser: false });
      const invocations = step.flatMap((part) => (part.type === 'tool-invocation' && !recordedCalls.has(part.toolInvocation.toolCallId) ? [part.toolInvocation] : []));
      const toolCalls: ToolCall[] = invocations.map((invocation) => ({ id: invocation.toolCallId, name: invocation.toolName, input: toJsonInput(invocation.args) }));
      if (text.trim().length > 0 || toolCalls.length > 0) {
        for (const call of toolCalls) recordedCalls.add(call.id);
        manager.addMessage({ role: 'assistant', content: text, ...(toolCalls.length > 0 ? { toolCalls } : {}) });
        count += 1;
      }
      for (const invocation of invocations) recordResult(invocation);
    }
    consumedParts.set(message.id, index);
  };

  return {
    record(messages) {
      const before = count;
      for (const message of messages) {
        if (message.role === 'user') {
          if (consumedParts.has(message.id)) continue;
          consumedParts.set(message.id, message.content.parts.length);
          manager.addMessage({ role: 'user', content: textOf(message.content.parts, { isUser: true }) });
          count += 1;
        } else if (message.role === 'assistant') {
          recordAssistant(message);
          // Results filled in after their call was recorded (client tools, approvals).
          for (const part of message.content.parts) {
            if (part.type === 'tool-invocation' && recordedCalls.has(part.toolInvocation.toolCallId)) recordResult(part.toolInvocation);
          }
        }
      }
      return count - before;
    },
  };
}

// --- Internal helpers ---

// Text of a step's parts; a user's files and images are marked so the record shows them.
function textOf(parts: readonly MastraMessagePart[], options: { isUser: boolean }): string {
  return parts
    .flatMap((part) => {
      if (part.type === 'text') return [part.text];
      if (options.isUser && part.type === 'file') return [`[file: ${part.mimeType}]`];
      return [];
    })
    .filter((text) => text.length > 0)
    .join('\n');
}

function resultOf(invocation: MastraToolInvocation): { output: string; isError: boolean } | undefined {
  switch (invocation.state) {
    case 'result':
      return { output: outputText(invocation.result), isError: invocation.isError === true };
    case 'output-error':
      return { output: invocation.errorText ?? outputText(invocation.result), isError: true };
    case 'output-denied':
      return { output: `The tool call was denied${invocation.approval?.reason === undefined ? '' : `: ${invocation.approval.reason}`}.`, isError: true };
    default:
      return undefined;
  }
}

function outputText(result: unknown): string {
  if (typeof result === 'string') return result;
  if (result === undefined) return '';
  try {
    return JSON.stringify(result) ?? String(result);
  } catch {
    return String(result);
  }
}

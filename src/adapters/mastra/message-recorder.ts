import type { MastraDBMessage, MastraMessagePart, MastraToolInvocation } from '@mastra/core/agent/message-list';
import type { ContextManager } from '../../context-manager.js';
import { createRecordedHistory } from '../recorded-history.js';
import type { HistoryRecord } from '../recorded-history.js';
import { toJsonInput } from '../step-window.js';

/** Records a Mastra agent's messages in a manager, each step and result once. @internal */
export interface MastraRecorder {
  /** Records what `messages` holds beyond the manager's history, in order; returns how many records were made. */
  record(messages: readonly MastraDBMessage[]): number;
}

/**
 * Creates a recorder for Mastra's stored messages. Mastra grows one assistant message across the
 * steps of a response (text, tool invocations, then a `step-start` part before the next step) and
 * fills a tool invocation's result in place: each step becomes one assistant message with its tool
 * calls, followed by the results it has. The list is lined up with the manager's history by
 * content (see `createRecordedHistory`), so a growing message, a conversation resent with
 * `agent.generate([...history, message])` (whose messages get new ids) and the history of a
 * restored session record nothing twice, and a result filled in later is recorded when it arrives.
 * User text becomes a user message; system and signal messages are left out.
 * @internal
 */
export function createMastraRecorder(manager: ContextManager): MastraRecorder {
  const history = createRecordedHistory(manager);
  return {
    record: (messages) => history.record(messages.flatMap(toRecords)),
  };
}

// --- Internal helpers ---

function toRecords(message: MastraDBMessage): HistoryRecord[] {
  const parts = message.content.parts;
  if (message.role === 'user') return [{ kind: 'user', text: textOf(parts, { isUser: true }) }];
  if (message.role !== 'assistant') return [];
  const records: HistoryRecord[] = [];
  let index = 0;
  while (index < parts.length) {
    const step: MastraMessagePart[] = [];
    while (index < parts.length && parts[index]?.type !== 'step-start') step.push(parts[index++] as MastraMessagePart);
    index += 1;
    const invocations = step.flatMap((part) => (part.type === 'tool-invocation' ? [part.toolInvocation] : []));
    records.push({ kind: 'assistant', text: textOf(step, { isUser: false }), toolCalls: invocations.map((invocation) => ({ id: invocation.toolCallId, name: invocation.toolName, input: toJsonInput(invocation.args) })) });
    for (const invocation of invocations) {
      const result = resultOf(invocation);
      if (result !== undefined) records.push({ kind: 'tool-result', callId: invocation.toolCallId, toolName: invocation.toolName, ...result });
    }
  }
  return records;
}

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

import type { ContextMessage } from '../types.js';

/**
 * Lists why providers would reject `messages` as a request (DESIGN.md invariant 8), or returns an
 * empty list when they would accept it:
 * - a system message may only come first;
 * - each assistant message with tool calls is followed immediately by exactly one `tool` message
 *   for each of its call ids, before any other message;
 * - no `tool` message appears anywhere else (a result without its call right before it);
 * - call ids are unique in the window (Anthropic rejects repeated `tool_use` ids).
 *
 * @example
 * ```ts
 * const problems = findProviderProblems(manager.build().messages);
 * expect(problems).toEqual([]);
 * ```
 */
export function findProviderProblems(messages: readonly ContextMessage[]): string[] {
  const problems: string[] = [];
  const seenIds = new Map<string, number>();
  let index = 0;
  while (index < messages.length) {
    const message = messages[index] as ContextMessage;
    if (message.role === 'system' && index > 0) problems.push(`message ${index}: a system message after the first message`);
    if (message.role === 'tool') {
      problems.push(`message ${index}: tool result for ${JSON.stringify(message.toolCallId)} without its call right before it`);
      index += 1;
      continue;
    }
    index += 1;
    if (message.role !== 'assistant' || message.toolCalls === undefined || message.toolCalls.length === 0) continue;
    const callIndex = index - 1;
    const awaited = new Set<string>();
    for (const call of message.toolCalls) {
      if (call.id.length === 0) problems.push(`message ${callIndex}: a tool call has an empty id`);
      const earlier = seenIds.get(call.id);
      if (earlier !== undefined) problems.push(`message ${callIndex}: tool call id ${JSON.stringify(call.id)} is also used by message ${earlier}`);
      else seenIds.set(call.id, callIndex);
      if (awaited.has(call.id)) problems.push(`message ${callIndex}: tool call id ${JSON.stringify(call.id)} appears twice in one message`);
      awaited.add(call.id);
    }
    while (index < messages.length) {
      const next = messages[index] as ContextMessage;
      if (next.role !== 'tool') break;
      if (!awaited.delete(next.toolCallId)) {
        problems.push(`message ${index}: tool result for ${JSON.stringify(next.toolCallId)} does not answer a pending call of message ${callIndex}`);
      }
      index += 1;
    }
    for (const id of awaited) {
      problems.push(`message ${callIndex}: tool call ${JSON.stringify(id)} is not followed by its result${index < messages.length ? ` (message ${index} is a ${(messages[index] as ContextMessage).role} message)` : ' (end of window)'}`);
    }
  }
  return problems;
}

/**
 * Throws an `Error` listing every reason a provider would reject the window (see
 * {@link findProviderProblems}). Pass a built context or its messages.
 *
 * @example
 * ```ts
 * assertProviderValid(manager.build({ budget: 28_000 }));
 * ```
 */
export function assertProviderValid(built: { readonly messages: readonly ContextMessage[] } | readonly ContextMessage[]): void {
  const messages = isMessageList(built) ? built : built.messages;
  const problems = findProviderProblems(messages);
  if (problems.length > 0) throw new Error(`window would be rejected by providers:\n- ${problems.join('\n- ')}`);
}

// --- Internal helpers ---

function isMessageList(value: { readonly messages: readonly ContextMessage[] } | readonly ContextMessage[]): value is readonly ContextMessage[] {
  return Array.isArray(value);
}

import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import type { BaseMessage } from '@langchain/core/messages';
import type { ContextManager } from '../../context-manager.js';
import { InvalidArgumentError } from '../../errors.js';
import type { ToolCall } from '../../types.js';
import { toJsonInput } from '../step-window.js';

/** Records an agent's LangChain messages in a manager, each message once. @internal */
export interface LangChainRecorder {
  /** Records the messages not recorded yet, in order; returns how many were new. */
  record(messages: readonly BaseMessage[]): number;
}

/**
 * Creates a recorder that remembers what it recorded by message id (the agent's state gives
 * every message one), or by position for a message without an id, so that the same state seen
 * again by `beforeModel`, `wrapModelCall` and `afterModel` records nothing twice.
 * Human messages become user messages, AI messages assistant messages with their `tool_calls`,
 * tool messages tool results (`status: 'error'` marks a failure); system messages are left out
 * (the manager's `systemPrompt` is the window's prefix).
 * @internal
 */
export function createLangChainRecorder(manager: ContextManager): LangChainRecorder {
  const recorded = new Set<string>();
  return {
    record(messages) {
      let count = 0;
      messages.forEach((message, index) => {
        const key = typeof message.id === 'string' && message.id.length > 0 ? `id:${message.id}` : `index:${index}`;
        if (recorded.has(key)) return;
        recordMessage(manager, message, key);
        recorded.add(key);
        count += 1;
      });
      return count;
    },
  };
}

/**
 * The text of a LangChain message's content: a string as is; for content blocks, the text blocks
 * joined, and `[type]` for each block that is not text (an image, a file), so the record shows it.
 * @internal
 */
export function contentText(content: BaseMessage['content']): string {
  if (typeof content === 'string') return content;
  return content
    .map((block) => {
      if (typeof block === 'string') return block;
      if (block.type === 'text' && typeof block['text'] === 'string') return block['text'];
      return `[${String(block.type)}]`;
    })
    .filter((text) => text.length > 0)
    .join('\n');
}

// --- Internal helpers ---

function recordMessage(manager: ContextManager, message: BaseMessage, key: string): void {
  if (HumanMessage.isInstance(message)) {
    manager.addMessage({ role: 'user', content: contentText(message.content) });
    return;
  }
  if (AIMessage.isInstance(message)) {
    const content = contentText(message.content);
    const toolCalls: ToolCall[] = (message.tool_calls ?? []).map((call, index) => ({
      id: call.id !== undefined && call.id.length > 0 ? call.id : `${key}:${index}`,
      name: call.name,
      input: toJsonInput(call.args),
    }));
    // An AI message with neither text nor calls carries nothing for the window.
    if (content.trim().length === 0 && toolCalls.length === 0) return;
    manager.addMessage({ role: 'assistant', content, ...(toolCalls.length > 0 ? { toolCalls } : {}) });
    return;
  }
  if (ToolMessage.isInstance(message)) {
    const output = contentText(message.content);
    const isError = message.status === 'error';
    try {
      manager.addToolResult({ callId: message.tool_call_id, output, isError });
    } catch (error) {
      // The call was made before the middleware was attached (or by another agent): the result
      // is kept as a note rather than lost or allowed to stop the agent.
      if (!(InvalidArgumentError.isInstance(error) && error.code === 'UNKNOWN_TOOL_CALL')) throw error;
      const name = message.name === undefined ? '' : ` (${message.name})`;
      manager.addNote({ content: `Result of tool call ${message.tool_call_id}${name}${isError ? ', an error' : ''}, whose call was not recorded:\n${output}` });
    }
  }
  // System messages, removals and other kinds are not part of the recorded conversation.
}

import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import type { BaseMessage } from '@langchain/core/messages';
import { z } from 'zod';
import type { NormalizedWindow } from '../../providers/normalize.js';
import type { JsonValue } from '../../types.js';
import { parse } from '../../validation.js';

/**
 * Turns a normalized window's history into LangChain messages: user turns become
 * `HumanMessage`s, assistant turns `AIMessage`s with `tool_calls`, and each tool result a
 * `ToolMessage` (`status: 'error'` for a failed tool) right after its call. The system prompt is
 * not included: pass `window.system` as the request's system message.
 *
 * @example
 * ```ts
 * const messages = toLangChainMessages(normalizeWindow(manager.build({ budget: 28_000 })));
 * ```
 * @throws {InvalidArgumentError} when `window` is not a normalized window.
 */
export function toLangChainMessages(window: Pick<NormalizedWindow, 'messages'>): BaseMessage[] {
  parse(windowSchema, window, 'toLangChainMessages', 'toLangChainMessages(normalizeWindow(manager.build()))');
  const messages: BaseMessage[] = [];
  for (const turn of window.messages) {
    if (turn.role === 'user') {
      messages.push(new HumanMessage({ content: turn.content }));
    } else if (turn.role === 'assistant') {
      messages.push(
        new AIMessage({
          content: turn.content,
          tool_calls: turn.toolCalls.map((call) => ({ id: call.id, name: call.name, args: toArgs(call.input), type: 'tool_call' as const })),
        }),
      );
    } else {
      for (const result of turn.results) {
        messages.push(
          new ToolMessage({
            content: result.content,
            tool_call_id: result.toolCallId,
            name: result.toolName,
            status: result.isError ? 'error' : 'success',
          }),
        );
      }
    }
  }
  return messages;
}

// --- Internal helpers ---

const windowSchema = z.looseObject({ messages: z.array(z.looseObject({ role: z.enum(['user', 'assistant', 'tool']) })) });

// LangChain's tool calls take an object of arguments; any other recorded input is wrapped.
function toArgs(input: JsonValue): Record<string, JsonValue> {
  if (typeof input === 'object' && input !== null && !Array.isArray(input)) return { ...(input as { readonly [key: string]: JsonValue }) };
  return { input };
}

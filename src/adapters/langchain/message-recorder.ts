import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import type { BaseMessage } from '@langchain/core/messages';
import type { ContextManager } from '../../context-manager.js';
import { createRecordedHistory } from '../recorded-history.js';
import type { HistoryRecord } from '../recorded-history.js';
import { toJsonInput } from '../step-window.js';

/** Records an agent's LangChain messages in a manager, each message once. @internal */
export interface LangChainRecorder {
  /** Records what `messages` holds beyond the manager's history, in order; returns how many records were made. */
  record(messages: readonly BaseMessage[]): number;
}

/**
 * Creates a recorder that lines the agent's messages up with the manager's history by content
 * (see `createRecordedHistory`), so that the same state seen again by `beforeModel`,
 * `wrapModelCall` and `afterModel`, a plain message history resent with every `invoke()` (whose
 * messages get new ids each time) and the history of a restored session record nothing twice.
 * Human messages become user messages, AI messages assistant messages with their `tool_calls`,
 * tool messages tool results (`status: 'error'` marks a failure); system messages are left out
 * (the manager's `systemPrompt` is the window's prefix).
 * @internal
 */
export function createLangChainRecorder(manager: ContextManager): LangChainRecorder {
  const history = createRecordedHistory(manager);
  const cache = new WeakMap<BaseMessage, readonly HistoryRecord[]>();
  return {
    record(messages) {
      const records = messages.flatMap((message, index) => {
        let cached = cache.get(message);
        if (cached === undefined) {
          cached = toRecords(message, index);
          cache.set(message, cached);
        }
        return cached;
      });
      return history.record(records);
    },
  };
}

/**
 * The text of a LangChain message's content: a string as is; for content blocks, the text blocks
 * joined, and `[type]` for each media block (an image, a file, audio), so the record shows it.
 * Other blocks — reasoning, and the `tool_use` / `tool_call` blocks that repeat `tool_calls` — are
 * left out.
 * @internal
 */
export function contentText(content: BaseMessage['content']): string {
  if (typeof content === 'string') return content;
  return content
    .map((block) => {
      if (typeof block === 'string') return block;
      if (block.type === 'text' && typeof block['text'] === 'string') return block['text'];
      return mediaPlaceholder(block) ?? '';
    })
    .filter((text) => text.length > 0)
    .join('\n');
}

/** A content block of a LangChain message. @internal */
export type ContentBlock = Exclude<BaseMessage['content'], string>[number];

/** The marker a media block (an image, a file, audio…) leaves in the record, e.g. `[image]`; undefined for other blocks. @internal */
export function mediaPlaceholder(block: ContentBlock): string | undefined {
  if (typeof block === 'string') return undefined;
  return MEDIA_BLOCK_TYPES.has(String(block.type)) ? `[${String(block.type)}]` : undefined;
}

// --- Internal helpers ---

// Content blocks that carry something the user or a tool showed: kept in the record as a marker.
const MEDIA_BLOCK_TYPES: ReadonlySet<string> = new Set(['image', 'image_url', 'file', 'audio', 'input_audio', 'video', 'document', 'text-plain']);

function toRecords(message: BaseMessage, index: number): readonly HistoryRecord[] {
  if (HumanMessage.isInstance(message)) return [{ kind: 'user', text: contentText(message.content) }];
  if (AIMessage.isInstance(message)) {
    const key = typeof message.id === 'string' && message.id.length > 0 ? message.id : `message-${index}`;
    const toolCalls = (message.tool_calls ?? []).map((call, callIndex) => ({
      id: call.id !== undefined && call.id.length > 0 ? call.id : `${key}:${callIndex}`,
      name: call.name,
      input: toJsonInput(call.args),
    }));
    return [{ kind: 'assistant', text: contentText(message.content), toolCalls }];
  }
  if (ToolMessage.isInstance(message)) {
    return [{ kind: 'tool-result', callId: message.tool_call_id, toolName: message.name ?? '', output: contentText(message.content), isError: message.status === 'error' }];
  }
  // System messages, removals and other kinds are not part of the recorded conversation.
  return [];
}

import type { ContextManager } from '../../context-manager.js';
import type { ToolCall } from '../../types.js';
import { createRecordedHistory } from '../recorded-history.js';
import type { HistoryRecord } from '../recorded-history.js';
import { toJsonInput } from '../step-window.js';
import type { AiSdkMessageLike } from './model-messages.js';

/**
 * Records AI SDK messages in a manager, each once. The AI SDK hands over growing lists: a step's
 * `messages` (and, in ai@6, `response.messages`) repeat everything before them, a new call may
 * resend the conversation so far, and a restored session gets its history back from the app. The
 * recorder lines each list up with the manager's history and records only what is new (see
 * `createRecordedHistory`).
 * @internal
 */
export interface MessageRecorder {
  /** Records what `messages` holds beyond the manager's history; returns how many records were made. */
  record(messages: readonly AiSdkMessageLike[]): number;
}

/** Creates a {@link MessageRecorder} for `manager`. @internal */
export function createMessageRecorder(manager: ContextManager): MessageRecorder {
  const history = createRecordedHistory(manager);
  const cache = new WeakMap<object, readonly HistoryRecord[]>();
  const recordsOf = (message: AiSdkMessageLike): readonly HistoryRecord[] => {
    let records = cache.get(message);
    if (records === undefined) {
      records = toRecords(message);
      cache.set(message, records);
    }
    return records;
  };
  return {
    record: (messages) => history.record(messages.flatMap(recordsOf)),
  };
}

// --- Internal helpers ---

function toRecords(message: AiSdkMessageLike): readonly HistoryRecord[] {
  const parts = partsOf(message.content);
  switch (message.role) {
    case 'user': {
      const text = parts.map(partText).filter((part) => part.length > 0).join('\n');
      return [{ kind: 'user', text }];
    }
    case 'assistant': {
      const text = parts.filter((part) => part['type'] === 'text').map(partText).join('\n');
      const toolCalls: ToolCall[] = parts
        .filter((part) => part['type'] === 'tool-call')
        .map((part) => ({ id: String(part['toolCallId']), name: String(part['toolName']), input: toJsonInput(parseInput(part['input'])) }));
      // Provider-executed tools put their results in the assistant message.
      const results = parts.filter((part) => part['type'] === 'tool-result').map(toResult);
      return [{ kind: 'assistant', text, toolCalls }, ...results];
    }
    case 'tool':
      return parts.filter((part) => part['type'] === 'tool-result').map(toResult);
    default:
      // System messages are the caller's instructions: the manager's `systemPrompt` holds them.
      return [];
  }
}

/** A content part of an AI SDK message, read without trusting its shape. @internal */
export type Part = Readonly<Record<string, unknown>>;

/** The content parts of an AI SDK message (a string is one text part). @internal */
export function partsOf(content: unknown): readonly Part[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  return content.filter((part): part is Part => typeof part === 'object' && part !== null);
}

/** What a part amounts to in the record: its text, or a placeholder such as `[image]`. @internal */
export function partText(part: Part): string {
  switch (part['type']) {
    case 'text':
      return typeof part['text'] === 'string' ? part['text'] : '';
    case 'image':
      return '[image]';
    case 'file':
      return `[file${typeof part['filename'] === 'string' ? ` ${part['filename']}` : ''}${typeof part['mediaType'] === 'string' ? ` (${part['mediaType']})` : ''}]`;
    default:
      return '';
  }
}

/** Tool inputs are objects in `ModelMessage`s; some providers' prompts carry them as JSON text. */
function parseInput(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  try {
    return JSON.parse(input) as unknown;
  } catch {
    return input;
  }
}

function toResult(part: Part): HistoryRecord {
  const output = part['output'];
  const base = { kind: 'tool-result' as const, callId: String(part['toolCallId']), toolName: typeof part['toolName'] === 'string' ? part['toolName'] : '' };
  if (typeof output !== 'object' || output === null) {
    // ai@4-style `result`, or a raw value.
    const raw = part['result'] ?? output;
    return { ...base, output: typeof raw === 'string' ? raw : (JSON.stringify(raw) ?? ''), isError: part['isError'] === true };
  }
  const typed = output as Part;
  const value = typed['value'];
  switch (typed['type']) {
    case 'text':
    case 'error-text':
      return { ...base, output: typeof value === 'string' ? value : String(value), isError: typed['type'] === 'error-text' };
    case 'json':
    case 'error-json':
      return { ...base, output: JSON.stringify(value) ?? '', isError: typed['type'] === 'error-json' };
    case 'execution-denied':
      return { ...base, output: `Tool execution denied${typeof typed['reason'] === 'string' ? `: ${typed['reason']}` : ''}.`, isError: true };
    case 'content': {
      const items = Array.isArray(value) ? value.filter((item): item is Part => typeof item === 'object' && item !== null) : [];
      const text = items.map((item) => (item['type'] === 'text' ? String(item['text'] ?? '') : `[${String(item['mediaType'] ?? item['type'] ?? 'media')}]`)).join('\n');
      return { ...base, output: text, isError: false };
    }
    default:
      return { ...base, output: JSON.stringify(output) ?? '', isError: false };
  }
}

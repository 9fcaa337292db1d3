import type { ContextManager } from '../../context-manager.js';
import { InvalidArgumentError } from '../../errors.js';
import type { ToolCall } from '../../types.js';
import { toJsonInput } from '../step-window.js';
import type { AiSdkMessageLike } from './model-messages.js';

/**
 * Records AI SDK messages in a manager, each once. The AI SDK hands over growing lists: a step's
 * `messages` (and, in ai@6, `response.messages`) repeat everything before them, and a new call may
 * resend the conversation so far. The recorder remembers a fingerprint of every message it saw,
 * in order, and records only what follows the longest overlap between the end of what it saw and
 * the start of the new list.
 * @internal
 */
export interface MessageRecorder {
  /** Records the messages of `messages` not seen before; returns how many were new. */
  record(messages: readonly AiSdkMessageLike[]): number;
}

/** Creates a {@link MessageRecorder} for `manager`. @internal */
export function createMessageRecorder(manager: ContextManager): MessageRecorder {
  const seen: string[] = [];
  const cache = new WeakMap<object, Recordable>();
  const recordableOf = (message: AiSdkMessageLike): Recordable => {
    let recordable = cache.get(message);
    if (recordable === undefined) {
      recordable = toRecordable(message);
      cache.set(message, recordable);
    }
    return recordable;
  };
  return {
    record(messages) {
      const recordables = messages.map(recordableOf);
      const overlap = findOverlap(seen, recordables.map((recordable) => recordable.fingerprint));
      for (const recordable of recordables.slice(overlap)) {
        apply(manager, recordable);
        seen.push(recordable.fingerprint);
      }
      return recordables.length - overlap;
    },
  };
}

// --- Internal helpers ---

/** What a message amounts to for the manager, and a fingerprint of exactly that. */
type Recordable =
  | { readonly kind: 'skip'; readonly fingerprint: string }
  | { readonly kind: 'user'; readonly text: string; readonly fingerprint: string }
  | {
      readonly kind: 'assistant';
      readonly text: string;
      readonly toolCalls: readonly ToolCall[];
      readonly results: readonly ToolOutcome[];
      readonly fingerprint: string;
    }
  | { readonly kind: 'tool'; readonly results: readonly ToolOutcome[]; readonly fingerprint: string };

interface ToolOutcome {
  readonly callId: string;
  readonly toolName: string;
  readonly output: string;
  readonly isError: boolean;
}

/** The longest k such that the first k of `next` equal the last k of `seen`. */
function findOverlap(seen: readonly string[], next: readonly string[]): number {
  const last = seen[seen.length - 1];
  for (let k = Math.min(seen.length, next.length); k > 0; k -= 1) {
    if (next[k - 1] !== last) continue;
    let isMatch = true;
    for (let index = 0; index < k && isMatch; index += 1) isMatch = next[index] === seen[seen.length - k + index];
    if (isMatch) return k;
  }
  return 0;
}

function toRecordable(message: AiSdkMessageLike): Recordable {
  const parts = partsOf(message.content);
  switch (message.role) {
    case 'user': {
      const text = parts.map(partText).filter((part) => part.length > 0).join('\n');
      return { kind: 'user', text, fingerprint: JSON.stringify(['user', text]) };
    }
    case 'assistant': {
      const text = parts.filter((part) => part['type'] === 'text').map(partText).join('\n');
      const toolCalls: ToolCall[] = parts
        .filter((part) => part['type'] === 'tool-call')
        .map((part) => ({ id: String(part['toolCallId']), name: String(part['toolName']), input: toJsonInput(parseInput(part['input'])) }));
      // Provider-executed tools put their results in the assistant message.
      const results = parts.filter((part) => part['type'] === 'tool-result').map(toOutcome);
      return { kind: 'assistant', text, toolCalls, results, fingerprint: JSON.stringify(['assistant', text, toolCalls, results]) };
    }
    case 'tool': {
      const results = parts.filter((part) => part['type'] === 'tool-result').map(toOutcome);
      return { kind: 'tool', results, fingerprint: JSON.stringify(['tool', results]) };
    }
    default:
      // System messages are the caller's instructions: the manager's `systemPrompt` holds them.
      return { kind: 'skip', fingerprint: JSON.stringify([message.role, message.content]) };
  }
}

function apply(manager: ContextManager, recordable: Recordable): void {
  switch (recordable.kind) {
    case 'skip':
      return;
    case 'user':
      manager.addMessage({ role: 'user', content: recordable.text });
      return;
    case 'assistant':
      if (recordable.text.length === 0 && recordable.toolCalls.length === 0 && recordable.results.length === 0) return;
      manager.addMessage({ role: 'assistant', content: recordable.text, ...(recordable.toolCalls.length > 0 ? { toolCalls: recordable.toolCalls } : {}) });
      for (const result of recordable.results) addResult(manager, result);
      return;
    case 'tool':
      for (const result of recordable.results) addResult(manager, result);
      return;
  }
}

function addResult(manager: ContextManager, result: ToolOutcome): void {
  try {
    manager.addToolResult({ callId: result.callId, output: result.output, isError: result.isError });
  } catch (error) {
    // A result whose call was never recorded (history from before the adapter) is kept as a note.
    if (!InvalidArgumentError.isInstance(error) || error.code !== 'UNKNOWN_TOOL_CALL') throw error;
    manager.addNote({ content: `[${result.isError ? 'error ' : ''}result of ${result.toolName} call ${result.callId}]\n${result.output}` });
  }
}

type Part = Readonly<Record<string, unknown>>;

function partsOf(content: unknown): readonly Part[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  return content.filter((part): part is Part => typeof part === 'object' && part !== null);
}

function partText(part: Part): string {
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

function toOutcome(part: Part): ToolOutcome {
  const output = part['output'];
  const base = { callId: String(part['toolCallId']), toolName: typeof part['toolName'] === 'string' ? part['toolName'] : '' };
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

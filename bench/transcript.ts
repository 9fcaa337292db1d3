// The verbatim transcript that the baseline strategies work on: each session event rendered the
// way a plain agent loop keeps it (every file read in full each time, edits as full before/after,
// all command outputs), with each message counted once by the same tokenizer as Mobius.
import { countMessageTokens } from '../src/index.js';
import type { ContextMessage, Entry, JsonValue, TokenCounter } from '../src/index.js';
import type { SessionLine } from '../examples/replay.js';

/** A transcript message with its token count and what pruning keeps of it. */
export interface TranscriptMessage {
  /** Position in the transcript (also the `seq` of its entry). */
  readonly index: number;
  /** The message as a provider would receive it. */
  readonly message: ContextMessage;
  /** Tokens of `message`, counted once. */
  readonly tokens: number;
  /**
   * What tool-call pruning keeps of this message when it is old: the prose of user and assistant
   * messages, without tool calls; `undefined` for tool results and call-only assistant turns.
   */
  readonly pruned: { readonly message: ContextMessage; readonly tokens: number } | undefined;
  /** Index of the first message of the unit this message belongs to (a call and its results). */
  readonly unitStart: number;
  /** The same message as a T0 entry, for the compaction baseline's summarizer. */
  readonly entry: Entry;
}

/** An append-only transcript shared by every baseline strategy of one session. */
export interface Transcript {
  /** Every message so far, oldest first. */
  readonly messages: readonly TranscriptMessage[];
  /** Sum of the tokens of `messages`. */
  readonly tokens: number;
  /** Appends the messages one session event produces; returns them. */
  append(line: SessionLine): readonly TranscriptMessage[];
}

/** Creates an empty transcript counted with `counter`. */
export function createTranscript(options: { counter: TokenCounter }): Transcript {
  const { counter } = options;
  const messages: TranscriptMessage[] = [];
  let tokens = 0;
  let calls = 0;
  let exchange = 0;
  const push = (message: ContextMessage, unitStart: number): TranscriptMessage => {
    const index = messages.length;
    const count = countMessageTokens([message], counter);
    if (message.role === 'user') exchange += 1;
    const item: TranscriptMessage = {
      index,
      message,
      tokens: count,
      pruned: prunedVersion(message, counter),
      unitStart,
      entry: toEntry({ message, seq: index + 1, tokens: count, exchange }),
    };
    messages.push(item);
    tokens += count;
    return item;
  };
  const toolTurn = (name: string, input: Record<string, JsonValue>, output: string, isError: boolean): TranscriptMessage[] => {
    calls += 1;
    const id = `b${calls}`;
    const start = messages.length;
    return [
      push({ role: 'assistant', content: '', toolCalls: [{ id, name, input }] }, start),
      push({ role: 'tool', toolCallId: id, toolName: name, content: output, ...(isError ? { isError } : {}) }, start),
    ];
  };

  return {
    messages,
    get tokens() {
      return tokens;
    },
    append(line) {
      switch (line.type) {
        case 'user':
        case 'assistant':
          return [push({ role: line.type, content: line.text ?? '' }, messages.length)];
        case 'file_read': {
          const input: Record<string, JsonValue> = { path: line.path ?? 'unknown' };
          if (line['range'] !== undefined) input['range'] = JSON.stringify(line['range']);
          return toolTurn('read_file', input, typeof line.content === 'string' ? line.content : '[content not logged]', false);
        }
        case 'file_edit': {
          const input: Record<string, JsonValue> = { path: line.path ?? 'unknown' };
          if (typeof line.search === 'string') input['search'] = line.search;
          if (typeof line.replace === 'string') input['replace'] = line.replace;
          if (typeof line.patch === 'string') input['patch'] = line.patch;
          const parts: string[] = [];
          if (typeof line.before === 'string') parts.push(`before:\n${line.before}`);
          if (typeof line.after === 'string') parts.push(`after:\n${line.after}`);
          const error = typeof line['error'] === 'string' ? line['error'] : undefined;
          if (error !== undefined) parts.push(error);
          return toolTurn('edit_file', input, parts.length > 0 ? parts.join('\n') : 'applied', error !== undefined);
        }
        case 'command':
          return toolTurn('bash', { command: line.cmd ?? '' }, line.output ?? '', typeof line.exit_code === 'number' && line.exit_code !== 0);
        case 'tool': {
          const input = typeof line.input === 'string' ? line.input : JSON.stringify(line.input ?? null);
          const output = typeof line.output === 'string' ? line.output : JSON.stringify(line.output ?? '');
          return toolTurn(line.name ?? 'tool', { input }, output, typeof line['error'] === 'string');
        }
        default:
          return [];
      }
    },
  };
}

// --- Internal helpers ---

function prunedVersion(message: ContextMessage, counter: TokenCounter): TranscriptMessage['pruned'] {
  if (message.role === 'tool' || message.role === 'system') return undefined;
  if (message.role === 'user') return { message, tokens: countMessageTokens([message], counter) };
  if (message.content.length === 0) return undefined;
  if (message.toolCalls === undefined || message.toolCalls.length === 0) {
    return { message, tokens: countMessageTokens([message], counter) };
  }
  const prose: ContextMessage = { role: 'assistant', content: message.content };
  return { message: prose, tokens: countMessageTokens([prose], counter) };
}

function toEntry(options: { message: ContextMessage; seq: number; tokens: number; exchange: number }): Entry {
  const { message, seq, tokens, exchange } = options;
  const base = { seq, text: message.content, display: message.content, tokens, exchange };
  switch (message.role) {
    case 'tool':
      return {
        ...base,
        kind: 'tool-result',
        role: 'tool',
        callId: message.toolCallId,
        toolName: message.toolName,
        ...(message.isError === true ? { isError: true } : {}),
      };
    case 'assistant':
      return {
        ...base,
        kind: 'assistant',
        role: 'assistant',
        ...(message.toolCalls === undefined ? {} : { toolCalls: message.toolCalls }),
      };
    default:
      return { ...base, kind: 'user', role: 'user' };
  }
}

import type { NormalizedWindow } from '../../providers/normalize.js';
import type { JsonValue } from '../../types.js';
import { spliceMedia } from '../newest-turn-media.js';
import type { NewestTurnMedia } from '../newest-turn-media.js';
import type { AiSdkUserContent, AiSdkUserPart } from './newest-user-media.js';

// Structural types of the AI SDK messages this adapter reads and writes. They are written here,
// not imported from `ai`, so that one build serves `ai` v5 and v6 (whose `ModelMessage` and
// `LanguageModelV2Prompt` / `LanguageModelV3Prompt` accept these shapes) and the package does not
// need `ai` to type-check.

/** Any AI SDK message (`ModelMessage`, or a message of a language-model prompt): read, never trusted. */
export interface AiSdkMessageLike {
  /** `'system'`, `'user'`, `'assistant'` or `'tool'`; other roles are ignored. */
  readonly role: string;
  /** A string, or an array of content parts. */
  readonly content: unknown;
}

/** A text part. */
export interface AiSdkTextPart {
  type: 'text';
  text: string;
}

/** A tool call of an assistant message. */
export interface AiSdkToolCallPart {
  type: 'tool-call';
  toolCallId: string;
  toolName: string;
  input: JsonValue;
}

/** A tool's output as the window gives it: text, or the text of an error. */
export type AiSdkToolResultOutput = { type: 'text'; value: string } | { type: 'error-text'; value: string };

/** A tool result of a tool message. */
export interface AiSdkToolResultPart {
  type: 'tool-result';
  toolCallId: string;
  toolName: string;
  output: AiSdkToolResultOutput;
}

/** A `ModelMessage` of a built window, assignable to the `ModelMessage` of `ai` v5 and v6. */
export type AiSdkModelMessage =
  | { role: 'user'; content: string | AiSdkUserContent }
  | { role: 'assistant'; content: Array<AiSdkTextPart | AiSdkToolCallPart> }
  | { role: 'tool'; content: AiSdkToolResultPart[] };

/** A message of a language-model prompt of a built window (what a middleware hands the model). */
export type AiSdkPromptMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: Array<AiSdkTextPart | AiSdkPromptFilePart> }
  | { role: 'assistant'; content: Array<AiSdkTextPart | AiSdkToolCallPart> }
  | { role: 'tool'; content: AiSdkToolResultPart[] };

/** A file part of a language-model prompt (images are files there): the newest user turn's, passed through. */
export interface AiSdkPromptFilePart {
  type: 'file';
  data: string | Uint8Array | URL;
  filename?: string;
  mediaType: string;
}

/**
 * Converts a normalized window's history to `ModelMessage`s: user text as a string, assistant
 * text and tool calls as parts, tool results as `tool-result` parts whose output is `text` or
 * `error-text`. With `media`, the last user message gets the newest turn's image and file parts
 * back in place of their placeholders (see `spliceMedia` in newest-turn-media.ts).
 * @internal
 */
export function toModelMessages(window: NormalizedWindow, media?: NewestTurnMedia<AiSdkUserPart>): AiSdkModelMessage[] {
  const lastUser = media === undefined ? -1 : window.messages.findLastIndex((message) => message.role === 'user');
  return window.messages.map((message, index): AiSdkModelMessage => {
    if (message.role === 'user') return { role: 'user', content: (index === lastUser && media !== undefined ? spliceMedia(message.content, media, (text): AiSdkUserPart => ({ type: 'text', text })) : undefined) ?? message.content };
    if (message.role === 'assistant') {
      const parts: Array<AiSdkTextPart | AiSdkToolCallPart> = message.content.length > 0 ? [{ type: 'text', text: message.content }] : [];
      for (const call of message.toolCalls) parts.push({ type: 'tool-call', toolCallId: call.id, toolName: call.name, input: call.input });
      return { role: 'assistant', content: parts };
    }
    return {
      role: 'tool',
      content: message.results.map((result) => ({
        type: 'tool-result',
        toolCallId: result.toolCallId,
        toolName: result.toolName,
        output: result.isError ? { type: 'error-text', value: result.content } : { type: 'text', value: result.content },
      })),
    };
  });
}

/**
 * Converts a normalized window to a language-model prompt: the system message (when the window
 * has a system prompt), then the history with user text as parts (and the newest turn's media
 * with `media`).
 * @internal
 */
export function toPromptMessages(window: NormalizedWindow, media?: NewestTurnMedia<AiSdkUserPart>): AiSdkPromptMessage[] {
  const prompt: AiSdkPromptMessage[] = window.system.trim().length > 0 ? [{ role: 'system', content: window.system }] : [];
  for (const message of toModelMessages(window, media)) {
    // A prompt's media parts are files: the parts passed through came from the prompt itself.
    prompt.push(message.role === 'user' ? { role: 'user', content: typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : (message.content as Array<AiSdkTextPart | AiSdkPromptFilePart>) } : message);
  }
  return prompt;
}

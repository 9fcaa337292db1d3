import { spliceMedia } from '../newest-turn-media.js';
import type { NewestTurnMedia } from '../newest-turn-media.js';
import type { MastraPrompt } from './window-prompt.js';

/** A part of a user message of the prompt Mastra hands a model. @internal */
export type MastraUserPart = Extract<MastraPrompt[number], { role: 'user' }>['content'][number];

/**
 * The file parts (images included) of the newest user message of the prompt Mastra built, each
 * with the `[file: type]` placeholder the recorder left for it; undefined when it has none.
 * @internal
 */
export function newestUserMedia(prompt: MastraPrompt): NewestTurnMedia<MastraUserPart> | undefined {
  const newest = prompt.findLast((message) => message.role === 'user');
  if (newest === undefined || newest.role !== 'user') return undefined;
  const parts = newest.content.flatMap((part) => (part.type === 'file' ? [{ part, placeholder: `[file: ${part.mediaType}]` }] : []));
  return parts.length === 0 ? undefined : { parts };
}

/**
 * The window's prompt with its last user message given the newest turn's file parts back in place
 * of their placeholders (unchanged when they are not found there).
 * @internal
 */
export function withNewestUserMedia(prompt: MastraPrompt, media: NewestTurnMedia<MastraUserPart> | undefined): MastraPrompt {
  if (media === undefined) return prompt;
  const index = prompt.findLastIndex((message) => message.role === 'user');
  const message = prompt[index];
  if (message === undefined || message.role !== 'user') return prompt;
  const text = message.content.map((part) => (part.type === 'text' ? part.text : '')).join('');
  const content = spliceMedia(text, media, (segment): MastraUserPart => ({ type: 'text', text: segment }));
  if (content === undefined) return prompt;
  return prompt.map((original, at) => (at === index ? { ...message, content } : original));
}

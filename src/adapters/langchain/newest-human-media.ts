import { HumanMessage } from '@langchain/core/messages';
import type { BaseMessage } from '@langchain/core/messages';
import { spliceMedia } from '../newest-turn-media.js';
import type { NewestTurnMedia } from '../newest-turn-media.js';
import { mediaPlaceholder } from './message-recorder.js';
import type { ContentBlock } from './message-recorder.js';

/** The media blocks of the newest `HumanMessage` of `messages`, or undefined when it has none. @internal */
export function newestHumanMedia(messages: readonly BaseMessage[]): NewestTurnMedia<ContentBlock> | undefined {
  const newest = messages.findLast((message) => HumanMessage.isInstance(message));
  if (newest === undefined || typeof newest.content === 'string') return undefined;
  const parts = newest.content.flatMap((block) => {
    const placeholder = mediaPlaceholder(block);
    return placeholder === undefined ? [] : [{ part: block, placeholder }];
  });
  return parts.length === 0 ? undefined : { parts };
}

/**
 * The window's messages with the last `HumanMessage` given the newest turn's media blocks back in
 * place of their placeholders (unchanged when they are not found there).
 * @internal
 */
export function withNewestHumanMedia(messages: BaseMessage[], media: NewestTurnMedia<ContentBlock> | undefined): BaseMessage[] {
  if (media === undefined) return messages;
  const index = messages.findLastIndex((message) => HumanMessage.isInstance(message));
  const message = messages[index];
  if (message === undefined || typeof message.content !== 'string') return messages;
  const content = spliceMedia(message.content, media, (text): ContentBlock => ({ type: 'text', text }));
  if (content === undefined) return messages;
  return messages.map((original, at) => (at === index ? new HumanMessage({ content }) : original));
}

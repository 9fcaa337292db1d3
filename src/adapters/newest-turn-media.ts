import type { StepReserve } from './step-window.js';

/**
 * Tokens each image or file part of the newest user turn is charged in an adapter's budget, on top
 * of its placeholder: about what a provider charges for a 1-megapixel image. The window is built
 * with that much less room, so that the media the model receives fits beside it.
 */
export const MEDIA_PART_TOKENS = 1_600;

/**
 * The media parts (images, files…) of the newest user message a framework handed an adapter, as
 * the framework gave them, each with the placeholder that stands for it in the recorded text.
 * @internal
 */
export interface NewestTurnMedia<Part> {
  readonly parts: ReadonlyArray<{ readonly part: Part; readonly placeholder: string }>;
}

/** The room the media of the newest user turn takes in a step's budget. @internal */
export function mediaReserve(media: NewestTurnMedia<unknown> | undefined): StepReserve {
  if (media === undefined) return {};
  const count = media.parts.length;
  return { reserve: { tokens: count * MEDIA_PART_TOKENS, what: `${count} media part${count === 1 ? '' : 's'} (${MEDIA_PART_TOKENS} tokens each)` } };
}

/**
 * Gives the last user message of a built window back its media: the text of that message (as the
 * window holds it: redacted, joined with any user text before it) split at each placeholder of the
 * newest turn, the original part in its place and the text around it made parts with `textPart`.
 * Undefined when the placeholders are not all found in order at its end (the message is not the
 * newest turn as recorded): the text then stays.
 * @internal
 */
export function spliceMedia<Part>(text: string, media: NewestTurnMedia<Part>, textPart: (text: string) => Part): Part[] | undefined {
  const content: Part[] = [];
  const prepend = (segment: string): void => {
    // Text between parts was joined with '\n' when recorded; whitespace-only text is left out.
    if (segment.trim().length > 0) content.unshift(textPart(segment));
  };
  let end = text.length;
  for (let index = media.parts.length - 1; index >= 0; index -= 1) {
    const { part, placeholder } = media.parts[index] as NewestTurnMedia<Part>['parts'][number];
    const at = end < placeholder.length ? -1 : text.lastIndexOf(placeholder, end - placeholder.length);
    if (at < 0) return undefined;
    const between = text.slice(at + placeholder.length, end).replace(/^\n/, '');
    prepend(end === text.length ? between : between.replace(/\n$/, ''));
    content.unshift(part);
    end = at;
  }
  prepend(text.slice(0, end).replace(/\n$/, ''));
  return content;
}

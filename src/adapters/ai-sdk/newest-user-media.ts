import type { StepReserve } from '../step-window.js';
import { partText, partsOf } from './message-recorder.js';
import type { Part } from './message-recorder.js';
import type { AiSdkMessageLike, AiSdkTextPart } from './model-messages.js';

/**
 * Tokens each image or file part of the newest user turn is charged in an adapter's budget, on top
 * of its placeholder: about what a provider charges for a 1-megapixel image. The window is built
 * with that much less room, so that the media the model receives fits beside it.
 */
export const MEDIA_PART_TOKENS = 1_600;

/** An image part the AI SDK accepts, passed through as the framework gave it. */
export interface AiSdkImagePart {
  type: 'image';
  image: string | Uint8Array | ArrayBuffer | URL;
  mediaType?: string;
}

/** A file part the AI SDK accepts, passed through as the framework gave it. */
export interface AiSdkFilePart {
  type: 'file';
  data: string | Uint8Array | ArrayBuffer | URL;
  filename?: string;
  mediaType: string;
}

/** The content of a user message of a built window whose newest turn carries media. */
export type AiSdkUserContent = Array<AiSdkTextPart | AiSdkImagePart | AiSdkFilePart>;

/**
 * The image and file parts of the newest user message of a list the adapter was given, each
 * with the placeholder that stands for it in the recorded history.
 * @internal
 */
export interface NewestUserMedia {
  readonly parts: ReadonlyArray<{ readonly part: AiSdkImagePart | AiSdkFilePart; readonly placeholder: string }>;
}

/** The media of the newest user message of `messages`, or undefined when it has none. @internal */
export function newestUserMedia(messages: readonly AiSdkMessageLike[]): NewestUserMedia | undefined {
  let newest: AiSdkMessageLike | undefined;
  for (let index = messages.length - 1; index >= 0 && newest === undefined; index -= 1) {
    if (messages[index]?.role === 'user') newest = messages[index];
  }
  if (newest === undefined) return undefined;
  const parts = partsOf(newest.content)
    .filter((part) => part['type'] === 'image' || part['type'] === 'file')
    .map((part: Part) => ({ part: part as unknown as AiSdkImagePart | AiSdkFilePart, placeholder: partText(part) }));
  return parts.length === 0 ? undefined : { parts };
}

/** The room the media of the newest user turn takes in a step's budget. @internal */
export function mediaReserve(media: NewestUserMedia | undefined): StepReserve {
  if (media === undefined) return {};
  const count = media.parts.length;
  return { reserve: { tokens: count * MEDIA_PART_TOKENS, what: `its ${count} media part${count === 1 ? '' : 's'} (${MEDIA_PART_TOKENS} tokens each)` } };
}

/**
 * Gives the last user message of a built window back its media: the text of that message (as the
 * window holds it: redacted, joined with any user text before it) with each placeholder of the
 * newest turn replaced by the original part. Undefined when the placeholders are not all found in
 * order at its end (the message is not the newest turn as recorded): the text then stays.
 * @internal
 */
export function spliceMedia(text: string, media: NewestUserMedia): AiSdkUserContent | undefined {
  const content: AiSdkUserContent = [];
  let end = text.length;
  for (let index = media.parts.length - 1; index >= 0; index -= 1) {
    const { part, placeholder } = media.parts[index] as NewestUserMedia['parts'][number];
    const at = end < placeholder.length ? -1 : text.lastIndexOf(placeholder, end - placeholder.length);
    if (at < 0) return undefined;
    const between = text.slice(at + placeholder.length, end).replace(/^\n/, '');
    prependText(content, end === text.length ? between : between.replace(/\n$/, ''));
    content.unshift(part);
    end = at;
  }
  prependText(content, text.slice(0, end).replace(/\n$/, ''));
  return content;
}

// --- Internal helpers ---

// Text between parts, joined with '\n' when recorded; whitespace-only text is left out.
function prependText(content: AiSdkUserContent, text: string): void {
  if (text.trim().length > 0) content.unshift({ type: 'text', text });
}

import type { NewestTurnMedia } from '../newest-turn-media.js';
import { partText, partsOf } from './message-recorder.js';
import type { Part } from './message-recorder.js';
import type { AiSdkMessageLike, AiSdkTextPart } from './model-messages.js';

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

/** A part of a user message of a built window: text, or the newest turn's image or file. */
export type AiSdkUserPart = AiSdkTextPart | AiSdkImagePart | AiSdkFilePart;

/** The content of a user message of a built window whose newest turn carries media. */
export type AiSdkUserContent = AiSdkUserPart[];

/** The image and file parts of the newest user message of `messages`, or undefined when it has none. @internal */
export function newestUserMedia(messages: readonly AiSdkMessageLike[]): NewestTurnMedia<AiSdkUserPart> | undefined {
  const newest = messages.findLast((message) => message.role === 'user');
  if (newest === undefined) return undefined;
  const parts = partsOf(newest.content)
    .filter((part) => part['type'] === 'image' || part['type'] === 'file')
    .map((part: Part) => ({ part: part as unknown as AiSdkImagePart | AiSdkFilePart, placeholder: partText(part) }));
  return parts.length === 0 ? undefined : { parts };
}

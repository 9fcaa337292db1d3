/**
 * One-byte strings for the token counter. V8 keeps a string whose characters are all below
 * U+0100 in one byte per character, unless it was cut out of (or joined with) a string with a
 * character above U+00FF: then every slice of it is two bytes per character too, and the
 * tokenizers' split patterns run more than fifteen times slower on it. A copy made from bytes is one
 * byte per character again.
 */

/** Whether a unit of `text` is above U+00FF (then `text`, and every slice of it, is a two-byte string). @internal */
export function hasWideCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index += 1) if (text.charCodeAt(index) >= BYTE_END) return true;
  return false;
}

/**
 * A one-byte copy of `text` (equal to it), or `undefined` when a character of it is above
 * U+00FF or a C1 control (U+0080–U+009F, which the decoder reads as other characters), or when
 * the platform has no `latin1` decoder.
 * @internal
 */
export function oneByteCopy(text: string): string | undefined {
  const bytes = bytesFor(text.length);
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code >= BYTE_END || (code >= C1_START && code <= C1_END)) return undefined;
    bytes[index] = code;
  }
  return decodeBytes(text.length);
}

/** A buffer of at least `length` bytes, shared: fill it, then {@link decodeBytes}. @internal */
export function bytesFor(length: number): Uint8Array {
  if (buffer.length < length) buffer = new Uint8Array(Math.max(length, 2 * buffer.length));
  return buffer;
}

/**
 * Lets go of a shared buffer that a long text made large, once a text of ordinary size comes:
 * one huge file counted once must not hold its size in memory for the life of the process.
 * @internal
 */
export function releaseLargeBuffer(length: number): void {
  if (buffer.length > MAX_KEPT_BYTES && length <= MAX_KEPT_BYTES) buffer = new Uint8Array(INITIAL_BYTES);
}

/** Texts up to this many characters leave the shared buffers at a size that stays. @internal */
export const MAX_KEPT_BYTES: number = 1 << 20;

/**
 * The one-byte string of the first `length` bytes of the buffer of {@link bytesFor}, none of
 * them a C1 control; `undefined` where the platform has no `latin1` decoder.
 * @internal
 */
export function decodeBytes(length: number): string | undefined {
  latin1 ??= latin1Decoder();
  return latin1 === false ? undefined : latin1.decode(buffer.subarray(0, length));
}

/** The first character above the one-byte range. @internal */
export const BYTE_END = 0x100;
/** The C1 controls, which a `latin1` (windows-1252) decoder does not read as themselves. @internal */
export const C1_START = 0x80;
export const C1_END = 0x9f;

// --- Internal helpers ---

const INITIAL_BYTES = 1_024;
let buffer = new Uint8Array(INITIAL_BYTES);
let latin1: InstanceType<typeof TextDecoder> | false | undefined;

// A decoder that reads bytes as the characters U+0000–U+00FF (apart from C1 controls), or false.
function latin1Decoder(): InstanceType<typeof TextDecoder> | false {
  try {
    const decoder = new TextDecoder('latin1');
    return decoder.decode(Uint8Array.of(0x41, 0xe9, 0xff)) === 'A\u00e9\u00ff' ? decoder : false;
  } catch {
    return false;
  }
}

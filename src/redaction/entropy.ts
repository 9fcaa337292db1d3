/**
 * Shannon entropy of `text`, in bits per character: 0 for a run of one character, up to
 * log2(alphabet) for text whose characters are all equally likely.
 */
export function shannonEntropy(text: string): number {
  if (text.length === 0) return 0;
  // The tokens the entropy detector asks about are ASCII: counted in an array, and summed in the
  // order their characters first occur, as the general path below sums them (the same bits).
  const ascii = asciiEntropy(text);
  if (ascii !== undefined) return ascii;
  const counts = new Map<string, number>();
  for (const character of text) counts.set(character, (counts.get(character) ?? 0) + 1);
  const length = [...text].length;
  let bits = 0;
  for (const count of counts.values()) {
    const share = count / length;
    bits -= share * Math.log2(share);
  }
  return bits;
}

/** Shortest run of token characters that the entropy detector looks at. @internal */
export const MIN_ENTROPY_TOKEN_LENGTH = 20;

/**
 * Tells whether `token` (a run of base64/base62-ish characters) looks random rather than made of
 * words: entropy at least `threshold` bits per character, and most of it in segments whose case
 * and digits change at almost every position. Hex strings (hashes, commit ids, UUIDs, `0x`
 * addresses) and ids with a well-known non-secret prefix (`msg_…`, `call_…`) never count: they
 * are far more often identifiers than secrets.
 * @internal
 */
export function isRandomLooking(token: string, threshold: number): boolean {
  // Character loops rather than RegExps and splits: every long run of every recorded text comes
  // here, and most are paths and identifiers rejected after a look at each character.
  let coreEnd = token.length;
  while (coreEnd > 0 && token.charCodeAt(coreEnd - 1) === EQUALS) coreEnd -= 1;
  const core = coreEnd === token.length ? token : token.slice(0, coreEnd);
  if (core.length < MIN_ENTROPY_TOKEN_LENGTH || ID_PREFIX.test(core)) return false;
  if (isHexNumber(core)) return false;
  const classes = characterClasses(core, 0, core.length);
  if ((classes & DIGIT) === 0 && (classes & (LOWER | UPPER)) !== (LOWER | UPPER)) return false;
  if (shannonEntropy(core) < threshold) return false;
  // Segments between runs of `/+_.-`; those of 6+ characters that are not hex and split into
  // short fragments count as random.
  let randomCharacters = 0;
  let segmentStart = 0;
  for (let index = 0; index <= core.length; index += 1) {
    if (index < core.length && !isSegmentSeparator(core.charCodeAt(index))) continue;
    const length = index - segmentStart;
    if (length >= 6 && !isHexRange(core, segmentStart, index) && averageFragmentLength(core, segmentStart, index) < MAX_AVERAGE_FRAGMENT) {
      randomCharacters += length;
    }
    segmentStart = index + 1;
  }
  return randomCharacters >= 16 && randomCharacters >= core.length * 0.5;
}

// --- Internal helpers ---

const asciiCounts = new Int32Array(128);
const asciiOrder = new Uint8Array(128);

// Shannon entropy of an all-ASCII text (as shannonEntropy), or undefined when a character is not ASCII.
function asciiEntropy(text: string): number | undefined {
  const length = text.length;
  let distinct = 0;
  let isAscii = true;
  for (let index = 0; index < length; index += 1) {
    const code = text.charCodeAt(index);
    if (code >= 128) {
      isAscii = false;
      break;
    }
    if (asciiCounts[code] === 0) {
      asciiOrder[distinct] = code;
      distinct += 1;
    }
    asciiCounts[code] = (asciiCounts[code] as number) + 1;
  }
  let bits = 0;
  for (let index = 0; index < distinct; index += 1) {
    const code = asciiOrder[index] as number;
    const share = (asciiCounts[code] as number) / length;
    bits -= share * Math.log2(share);
    asciiCounts[code] = 0;
  }
  return isAscii ? bits : undefined;
}

// Identifiers and words split into fragments of 4+ characters on average at case changes and
// digits; random strings split into fragments of 1–2 characters.
const MAX_AVERAGE_FRAGMENT = 3;

// Ids that model and payment APIs print everywhere in agent traffic; none of them is a credential.
const ID_PREFIX = /^(?:msg|req|toolu|srvtoolu|call|chatcmpl|run|thread|asst|step|resp|batch|file|evt|cus|sub|prod|price|pi|ch|txn|acct)[_-]/;

// The average length of the fragments of `text.slice(start, end)`, cut at spaces and between a
// lower-case and an upper-case letter, an upper-case letter and one followed by a lower-case
// letter (`HTTPServer` → `HTTP Server`), and a letter and a digit either way (ASCII letters and
// digits only); the whole length when there is no fragment.
function averageFragmentLength(text: string, start: number, end: number): number {
  let characters = 0;
  let fragments = 0;
  let isInFragment = false;
  for (let index = start; index < end; index += 1) {
    const code = text.charCodeAt(index);
    if (code === SPACE) {
      isInFragment = false;
      continue;
    }
    if (!isInFragment) fragments += 1;
    isInFragment = true;
    characters += 1;
    if (index + 1 < end && isFragmentEnd(code, text.charCodeAt(index + 1), index + 2 < end ? text.charCodeAt(index + 2) : -1)) isInFragment = false;
  }
  return fragments === 0 ? end - start : characters / fragments;
}

const EQUALS = 61;
const SPACE = 32;
const DIGIT = 1;
const LOWER = 2;
const UPPER = 4;

// Whether a fragment ends between `code` and `next` (`after` follows `next`, -1 at the end).
function isFragmentEnd(code: number, next: number, after: number): boolean {
  const kind = classOf(code);
  const nextKind = classOf(next);
  if (kind === LOWER) return nextKind === UPPER || nextKind === DIGIT;
  if (kind === UPPER) return nextKind === DIGIT || (nextKind === UPPER && classOf(after) === LOWER);
  return kind === DIGIT && (nextKind === LOWER || nextKind === UPPER);
}

// DIGIT, LOWER or UPPER for an ASCII digit or letter, else 0.
function classOf(code: number): number {
  if (code >= 48 && code <= 57) return DIGIT;
  if (code >= 97 && code <= 122) return LOWER;
  return code >= 65 && code <= 90 ? UPPER : 0;
}

// The classes (DIGIT | LOWER | UPPER) of the characters of `text.slice(start, end)`.
function characterClasses(text: string, start: number, end: number): number {
  let classes = 0;
  for (let index = start; index < end && classes !== (DIGIT | LOWER | UPPER); index += 1) classes |= classOf(text.charCodeAt(index));
  return classes;
}

// /[/+_.-]/
function isSegmentSeparator(code: number): boolean {
  return code === 47 || code === 43 || code === 95 || code === 46 || code === 45;
}

function isHexDigit(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 97 && code <= 102) || (code >= 65 && code <= 70);
}

// /^[0-9a-f]+$/i on `text.slice(start, end)`.
function isHexRange(text: string, start: number, end: number): boolean {
  if (end <= start) return false;
  for (let index = start; index < end; index += 1) if (!isHexDigit(text.charCodeAt(index))) return false;
  return true;
}

// /^(?:0x)?[0-9a-f]+$/i on `text` without its `-` and `_`: a hash, a commit id, a UUID or an
// `0x` address.
function isHexNumber(text: string): boolean {
  let kept = 0;
  let isPrefixed = false;
  let isFirstZero = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (code === 45 || code === 95) continue;
    if (kept === 0) isFirstZero = code === 48;
    if (kept === 1 && isFirstZero && (code === 120 || code === 88)) isPrefixed = true;
    else if (!isHexDigit(code)) return false;
    kept += 1;
  }
  return kept - (isPrefixed ? 2 : 0) > 0;
}

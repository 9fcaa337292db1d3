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
  const core = token.replace(/=+$/, '');
  if (core.length < MIN_ENTROPY_TOKEN_LENGTH || ID_PREFIX.test(core)) return false;
  if (/^(?:0x)?[0-9a-f]+$/i.test(core.replace(/[-_]/g, ''))) return false;
  if (!/[0-9]/.test(core) && !(/[a-z]/.test(core) && /[A-Z]/.test(core))) return false;
  if (shannonEntropy(core) < threshold) return false;
  let randomCharacters = 0;
  for (const segment of core.split(/[/+_.-]+/)) {
    if (segment.length >= 6 && !/^[0-9a-f]+$/i.test(segment) && averageFragmentLength(segment) < MAX_AVERAGE_FRAGMENT) {
      randomCharacters += segment.length;
    }
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

function averageFragmentLength(segment: string): number {
  const fragments = segment
    .replace(/([a-z])(?=[A-Z])/g, '$1 ')
    .replace(/([A-Z])(?=[A-Z][a-z])/g, '$1 ')
    .replace(/([0-9])(?=[A-Za-z])|([A-Za-z])(?=[0-9])/g, '$1$2 ')
    .split(' ')
    .filter((fragment) => fragment.length > 0);
  if (fragments.length === 0) return segment.length;
  return fragments.reduce((sum, fragment) => sum + fragment.length, 0) / fragments.length;
}

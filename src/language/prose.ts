/** Words of a text, as pieces between whitespace. */
export function wordCount(text: string): number {
  return text.split(/\s+/u).filter((word) => word.length > 0).length;
}

/** Runs of letters in a text: words without numbers, code punctuation or contractions' tails counted apart. */
export function letterRunCount(text: string): number {
  return text.match(/\p{L}+/gu)?.length ?? 0;
}

/**
 * Tells whether a string reads as prose written to a person (sentences, perhaps around code
 * blocks) rather than code, a path or data. Agents also talk through tools: a plan, a question or
 * a completion report in a call's input is prose, and is read and shown as such.
 */
export function isProse(fullText: string): boolean {
  // A plan or report may embed code blocks: judge the words around them.
  const hasFence = fullText.includes('```') || fullText.includes('~~~');
  const unfenced = hasFence ? fullText.replace(/^\s{0,3}(```|~~~)[^\n]*\n[\s\S]*?^\s{0,3}\1[^\n]*$/gmu, ' ') : fullText;
  const text = unfenced.includes('`') ? unfenced.replace(/`[^`\n]*`/gu, 'code') : unfenced;
  if (text.length < 40) return false;
  // Every tool input of a few hundred characters comes here: counted in loops, words only as far
  // as the threshold.
  if (codeCharacters(text) / text.length >= MAX_CODE_SHARE) return false;
  return hasWords(text, MIN_PROSE_WORDS) && /[.!?:](?:\s|$)/u.test(text);
}

// --- Internal helpers ---

/** Words (runs of 2+ letters) a text needs to read as prose. */
const MIN_PROSE_WORDS = 8;
/** Share of code punctuation (`{};=<>()[]`) at or above which a text is not prose. */
const MAX_CODE_SHARE = 0.02;
const WORD = /\p{L}{2,}/gu;

// How many of `{};=<>()[]` the text holds.
function codeCharacters(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; index += 1) {
    switch (text.charCodeAt(index)) {
      case 123: case 125: case 59: case 61: case 60: case 62: case 40: case 41: case 91: case 93:
        count += 1;
        break;
      default:
        break;
    }
  }
  return count;
}

// Whether the text holds at least `minimum` runs of 2+ letters.
function hasWords(text: string, minimum: number): boolean {
  WORD.lastIndex = 0;
  let words = 0;
  while (words < minimum && WORD.exec(text) !== null) words += 1;
  return words >= minimum;
}

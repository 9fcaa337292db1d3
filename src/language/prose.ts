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
  const text = unfenced.includes('`') ? unfenced.replace(CODE_SPAN, 'code') : unfenced;
  if (text.length < 40) return false;
  // Every tool input of a few hundred characters comes here: counted in loops, words only as far
  // as the threshold.
  if (codeCharacters(text) / text.length >= MAX_CODE_SHARE) return false;
  return hasWords(text, MIN_PROSE_WORDS) && /[.!?:](?:\s|$)/u.test(text);
}

/**
 * Tells whether a line outside any code fence is code rather than words to a person: agents that
 * call tools in markup (`<replace_in_file>`, `<path>…</path>`) write file bodies and diffs into
 * their message without fences. A line is code when it ends like a statement or a block of code
 * (`{`, `=>`, a short statement ending in `;`), opens with a closing bracket or a line comment, or
 * is code punctuation for a large share of its characters without ending like a sentence; a line
 * of only markup tags around a value without spaces is markup. Code spans and a task-list box
 * are left out before judging, so "set `retries = 3;` in the config." is prose.
 */
export function isCodeLine(line: string): boolean {
  const text = line.trim();
  if (text.length === 0) return false;
  if (MARKUP_LINE.test(text)) return true;
  // A task-list box ("[ ] add retries", "[x] …") marks an item, not code.
  const item = text.replace(TASK_BOX, '');
  const masked = item.includes('`') ? item.replace(CODE_SPAN, 'code') : item;
  const code = codeCharacters(masked);
  // A list item may end in ";" too: such a line is code only with other code in it or a few words.
  if (masked.endsWith(';')) return code > 1 || wordCount(masked) <= MAX_CODE_STATEMENT_WORDS;
  if (CODE_LINE_SHAPE.test(masked)) return true;
  // A sentence that names code without backticks still ends like a sentence.
  return code >= MIN_CODE_LINE_CHARACTERS && code / masked.length >= MIN_CODE_LINE_SHARE && !SENTENCE_END.test(masked);
}

/**
 * Tells whether a line opens or closes a conflict-style edit block (`<<<<<<< SEARCH`, `=======`,
 * `>>>>>>> REPLACE`), the search/replace format agents write edits in: the lines between them are
 * file content, not sentences.
 */
export function editBlockMarker(line: string): 'open' | 'middle' | 'close' | undefined {
  const text = line.trim();
  if (/^<{7}(?:\s|$)/u.test(text)) return 'open';
  if (/^={7}$/u.test(text)) return 'middle';
  if (/^>{7}(?:\s|$)/u.test(text)) return 'close';
  return undefined;
}

// --- Internal helpers ---

// Code in backticks, judged as one word of prose.
const CODE_SPAN = /`[^`\n]*`/gu;

// A line of only markup: an opening or closing tag, or a tag pair around a value without spaces.
const MARKUP_LINE = /^(?:<\/?[a-z][\w:-]*>|<([a-z][\w:-]*)>[^<\s]*<\/\1>)$/u;
// Ends like a block of code, opens with a closing bracket, or is a line comment.
const CODE_LINE_SHAPE = /(?:[{([]|=>)$|^[})\]]|^\/\/|^\/\*|^\*\//u;
const TASK_BOX = /^\[[ xX]\]\s+/u;
// A sentence's last character, before closing quotes or brackets.
const SENTENCE_END = /[.!?]["'’”)\]]*$/u;
/** Words a line ending in ";" may have and still be a statement of code (`return total;`). */
const MAX_CODE_STATEMENT_WORDS = 4;
/** Code punctuation (`{};=<>()[]`) a line needs, and its share of the line, to read as code. */
const MIN_CODE_LINE_CHARACTERS = 3;
const MIN_CODE_LINE_SHARE = 0.08;

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

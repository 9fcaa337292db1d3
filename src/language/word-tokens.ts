/** A word of a statement with what follows it, as `scoreSalience` reads name slots ("with pnpm"). @internal */
export interface WordToken {
  /** The word as written. */
  readonly raw: string;
  /** The word lower-cased. */
  readonly word: string;
  /** Whether only whitespace separates the word from the next word. */
  readonly joined: boolean;
  /**
   * Whether the clause or the list ends after the word; a number, a quote, a call or a path after
   * it makes the word part of a longer name ("with task 7.2", "with open(…)").
   */
  readonly ends: boolean;
}

/**
 * The words of `prose` (a letter first, then letters, digits, `_`, apostrophes, dots and hyphens,
 * ending on a letter, digit or `_`; not glued to such characters or a backtick before it), each
 * with whether the next character after any whitespace is a letter (`joined`) or ends the clause
 * (`ends`: the end of the text or one of `.,;:!?)]—–`). One exec() loop and a character walk
 * instead of matchAll() and a regex match per word.
 * @internal
 */
export function wordTokensOf(prose: string): WordToken[] {
  const tokens: WordToken[] = [];
  WORD.lastIndex = 0;
  for (let match = WORD.exec(prose); match !== null; match = WORD.exec(prose)) {
    const raw = match[0];
    let index = match.index + raw.length;
    while (index < prose.length && isWhitespace(prose.charCodeAt(index))) index += 1;
    const code = index < prose.length ? (prose.codePointAt(index) as number) : -1;
    tokens.push({ raw, word: raw.toLowerCase(), joined: code >= 0 && isLetter(code), ends: code < 0 || isClauseEnd(code) });
  }
  return tokens;
}

// --- Internal helpers ---

const WORD = /(?<![\p{L}\p{N}_`'’.-])\p{L}(?:[\p{L}\p{N}_'’.-]*[\p{L}\p{N}_])?/gu;
const LETTER = /^\p{L}$/u;
const ASCII_END = 0x80;

// What `\s` matches: ASCII tab to carriage return and space, and Unicode's spaces, line and
// paragraph separators and the byte-order mark.
function isWhitespace(code: number): boolean {
  if (code < ASCII_END) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  return code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
}

function isLetter(code: number): boolean {
  if (code < ASCII_END) return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a);
  return LETTER.test(String.fromCodePoint(code));
}

// `.,;:!?)]` and the em and en dashes.
function isClauseEnd(code: number): boolean {
  return code === 0x2e || code === 0x2c || code === 0x3b || code === 0x3a || code === 0x21 || code === 0x3f || code === 0x29 || code === 0x5d || code === 0x2014 || code === 0x2013;
}

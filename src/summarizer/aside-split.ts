/**
 * Splits a sentence where the speaker turns to another matter mid-sentence, after a spaced dash or
 * a semicolon and a connective that opens a new statement: "keep the old endpoint alive until June -
 * anyway, next up: the CSV export", "the pool stays at 10; btw the cache is Redis now". Each part
 * is then read as a statement of its own, so the first is not taken for the lead-in of the task
 * that follows, nor the second for an aside of the first. Parts of fewer than three words stay
 * joined.
 */
export function splitAsides(sentences: readonly string[]): string[] {
  const split: string[] = [];
  for (const sentence of sentences) {
    let rest = sentence;
    for (;;) {
      const turn = TURN.exec(rest.replace(/`[^`\n]*`/gu, (span) => 'x'.repeat(span.length)));
      if (turn === null) break;
      const before = rest.slice(0, turn.index).trim();
      const after = rest.slice(turn.index + turn[0].length).trim();
      if (wordsIn(before) < MIN_PART_WORDS || wordsIn(after) < MIN_PART_WORDS) break;
      split.push(before);
      rest = after;
    }
    split.push(rest);
  }
  return split;
}

// --- Internal helpers ---

const MIN_PART_WORDS = 3;
// A spaced dash or a semicolon, then a connective that turns to another matter, kept with the part
// it opens: one that can only open an aside (btw, by the way), or one set off by a
// comma, not an adverb of the clause it is in (a dash, then "also runs on …").
const TURN = new RegExp(String.raw`(?:\s+[-–—]{1,2}|;)\s+(?=(?:(?:btw|oh and|by the way|on another note|one more thing)\b[,:]?|(?:anyway|anyhow|also|separately|unrelated(?:ly)?)\s*[,:])\s)`, 'iu');

function wordsIn(text: string): number {
  return text.match(/[\p{L}\p{N}][\p{L}\p{N}'’_-]*/gu)?.length ?? 0;
}

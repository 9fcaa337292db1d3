/**
 * Measures, for each of a consolidation's notes, how much of it no other item of the merged
 * summaries says: the share of its words that are prose words (outside code spans) found in no
 * other item. Narration that repeats a shape ("I've edited X and …", "Ran the tests …") shares its
 * prose with its siblings and differs only by the code it names, an edit of a listed file shares
 * its path with the Files section, a tool echo or a list of names has no prose of its own; a
 * statement that names what was chosen or how the product behaves ("the export now runs on a job
 * queue") is mostly words said nowhere else. A share, not a count, because the summary keeps what
 * fits: words said once per word spent. Frequencies are taken within the merged summaries
 * themselves, so no word list is needed and any language with word boundaries works.
 */
export function uniqueWordShares(options: { notes: readonly string[]; others: readonly string[] }): number[] {
  const noteWords = options.notes.map((text) => wordsOf(text));
  const frequency = new Map<string, number>();
  for (const words of [...noteWords, ...options.others.map((text) => wordsOf(text))]) {
    for (const word of words) frequency.set(word, (frequency.get(word) ?? 0) + 1);
  }
  return options.notes.map((text, index) => {
    const words = noteWords[index] ?? new Set<string>();
    if (words.size === 0) return 0;
    const unique = [...wordsOf(text.replace(CODE_SPAN, ' '))].filter((word) => frequency.get(word) === 1).length;
    return unique / words.size;
  });
}

/**
 * Measures, for each note, the share of its prose words (outside code spans) that no other note
 * or item of the merged summaries holds. It tells a note said in its own words from one in a shape
 * the conversation repeats with other names in its code spans ("`x` is probably the place to
 * start", "it's mostly in `a`, but check `b`"): such a note has no prose of its own, whoever said
 * it. A note without prose words counts as entirely its own (1): nothing shows it repeats a shape.
 */
export function uniqueProseShares(options: { notes: readonly string[]; others: readonly string[] }): number[] {
  const proseWords = options.notes.map((text) => wordsOf(text.replace(CODE_SPAN, ' ')));
  const frequency = new Map<string, number>();
  for (const words of [...proseWords, ...options.others.map((text) => wordsOf(text.replace(CODE_SPAN, ' ')))]) {
    for (const word of words) frequency.set(word, (frequency.get(word) ?? 0) + 1);
  }
  return proseWords.map((words) => (words.size === 0 ? 1 : [...words].filter((word) => frequency.get(word) === 1).length / words.size));
}

// --- Internal helpers ---

/** Shortest word counted: one- and two-letter words are function words or fragments of values. */
const MIN_WORD_LENGTH = 3;
// A word, a number or a code name; dots, slashes, hyphens and underscores inside keep a path,
// `snake_case`, a version or a package name (`pg-boss`) whole.
const WORD = /[\p{L}\p{N}](?:[\p{L}\p{N}_'’./@-]*[\p{L}\p{N}])?/gu;
// Code in backticks: names of the code, which narration of any change mentions.
const CODE_SPAN = /`[^`\n]*`/gu;

/** The distinct words of a text, lower-cased. */
function wordsOf(text: string): Set<string> {
  const words = new Set<string>();
  for (const match of text.toLowerCase().matchAll(WORD)) {
    if ([...match[0]].length >= MIN_WORD_LENGTH) words.add(match[0]);
  }
  return words;
}

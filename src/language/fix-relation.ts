// Whether a change told in one message is the fix of a cause told in another. A failure's account
// often spans messages ("the importer caps batches at 500" … "raised `MAX_ROWS` in
// `importer.ts`"), but a change made meanwhile may be about something else entirely ("added a
// retry to the mailer"). The two are read as one fix only when they are about the same thing:
// they share a name (an identifier, a path's file name, a part of a compound name) or a content
// word, or the change says itself that it is the fix ("… which fixes it", "the fix was …").

import { extractIdentifiers } from './identifiers.js';

/**
 * Tells whether `change` is about the same thing as `cause`: both name the same identifier, file
 * or word of content (the endings of plurals and verbs aside), or the change calls itself the fix.
 * Generic words of the trade ("test", "error", "file", "value") do not count as shared.
 */
export function isChangeForCause(options: { cause: string; change: string }): boolean {
  const { cause, change } = options;
  if (PRESENTED_AS_FIX.test(change.replace(CODE_SPAN, 'code'))) return true;
  const causeTerms = termsOf(cause);
  return [...termsOf(change)].some((term) => causeTerms.has(term));
}

// --- Internal helpers ---

function termsOf(text: string): Set<string> {
  const terms = new Set<string>();
  const add = (word: string): void => {
    const term = stem(word.toLowerCase());
    if (term.length >= MIN_TERM_LENGTH && !GENERIC.has(term) && !GENERIC.has(word.toLowerCase())) terms.add(term);
  };
  for (const identifier of extractIdentifiers(text)) {
    const name = identifier.replace(/:\d+$/u, '');
    terms.add(name.toLowerCase());
    // A path counts by its file name ("src/importer.ts" → "importer"); a compound name by its parts.
    const base = name.split(/[\\/]/u).pop() ?? name;
    add(base.replace(/\.[\p{L}\d]{1,5}$/u, ''));
    for (const part of base.split(NAME_PARTS)) if (part.length > 0) add(part);
  }
  for (const word of text.replace(CODE_SPAN, ' ').match(WORD) ?? []) add(word);
  return terms;
}

// "persisted" → "persist", "batches" → "batch", "rows" → "row": enough to match a word told in
// two tenses or numbers; not a stemmer.
function stem(word: string): string {
  if (word.length <= MIN_TERM_LENGTH) return word;
  return word.replace(/(?:ies)$/u, 'y').replace(/(?:ing|ed|es|s)$/u, '');
}

const CODE_SPAN = /`[^`\n]*`/gu;
const WORD = /\p{L}[\p{L}'’-]*\p{L}/gu;
// Where a compound name splits: any mark ("_", "-", ".", "()") and a case change ("importRows" → "import", "Rows").
const NAME_PARTS = /[^\p{L}\p{N}]+|(?<=\p{Ll})(?=\p{Lu})/u;
/** Shortest word that counts as a term: shorter ones are function words or fragments. */
const MIN_TERM_LENGTH = 4;
// A change that calls itself the fix: "which fixes it", "that was the fix", "to stop the leak".
const PRESENTED_AS_FIX = /\b(?:fix(?:es|ed)?\s+(?:it|that|this|them|the\s+[\p{L}-]+)|(?:the|a|my|our|that['’]?s?\s+(?:the|a))\s+fix\b|fix(?:ed)?\s+by\b|to\s+fix\b|(?:resolv|solv|cur)(?:es|ed)\s+(?:it|that|this|them|the\s+[\p{L}-]+)|to\s+(?:stop|prevent|avoid)\s+(?:it|that|this|them|the\s+[\p{L}-]+)|so\s+(?:it|they|that|this)\s+no\s+longer|that\s+(?:was|is)\s+(?:it|the\s+(?:fix|culprit|cause))|that\s+did\s+(?:it|the\s+trick))\b/iu;
// Words of the trade that two unrelated sentences about code share anyway, and function words
// long enough to pass the length floor.
const GENERIC = new Set([
  'test', 'tests', 'spec', 'specs', 'suite', 'error', 'errors', 'file', 'files', 'code', 'line', 'lines', 'value',
  'values', 'function', 'method', 'class', 'module', 'change', 'changed', 'update', 'updated', 'added', 'removed',
  'thing', 'issue', 'problem', 'fail', 'failing', 'failed', 'failure', 'pass', 'passing', 'build', 'run', 'running',
  'work', 'working', 'worked', 'call', 'called', 'calls', 'return', 'returns', 'returned', 'script', 'scripts',
  'source', 'src', 'data', 'type', 'types', 'name', 'names', 'time', 'default', 'check', 'checks', 'case', 'cases',
  'that', 'this', 'with', 'from', 'into', 'when', 'then', 'than', 'there', 'their', 'they', 'were', 'what', 'which',
  'have', 'been', 'does', 'just', 'also', 'only', 'some', 'every', 'each', 'never', 'nobody', 'anyone', 'remember',
  'because', 'before', 'after', 'still', 'again', 'instead', 'about', 'other', 'first', 'place', 'made', 'make',
  'now', 'here', 'index', 'test.ts', 'main', 'helper', 'util', 'utils', 'lib',
]);

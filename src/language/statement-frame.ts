// The frame of a statement that gives things of a kind a value — its subject and verb, with the
// value after them: "timestamps are | ISO 8601 strings", "handlers are named | verbNoun", "we keep
// all SQL under | db/queries". An update that keeps the frame and changes the value revises the
// older statement, whatever words the values are made of.

/**
 * Tells whether a newer statement, said as an update, keeps the frame of an older one and gives
 * it another value: "timestamps are ISO 8601 strings everywhere" → "actually, timestamps are epoch
 * milliseconds now"; "env vars are prefixed with ACME_" → "from now on env vars are prefixed with
 * ZED_"; "we keep all SQL under db/queries" → "we now keep all SQL under sql/statements". The
 * subject must be the same words (not a pronoun) and the verb the same; a statement with another
 * verb ("errors are logged once" / "errors are wrapped in AppError") or another subject ("unit
 * tests live in …" / "integration tests live in …") is another fact.
 */
export function isReframedValue(older: string, newer: string): boolean {
  const before = frameOf(older);
  const after = frameOf(newer);
  // "… is also replicated now" adds to what was said; it replaces nothing.
  if (before === undefined || after === undefined || ADDITIVE.test(newer)) return false;
  return isSameSubject(before.subject, after.subject) && before.verb === after.verb && before.value !== after.value && before.value.length > 0 && after.value.length > 0;
}

// --- Internal helpers ---

interface Frame {
  readonly subject: string;
  readonly verb: string;
  readonly value: string;
}

// The same words, or one subject the head of the other ("handlers" / "request handlers").
function isSameSubject(a: string, b: string): boolean {
  if (a === b) return a.length > 0;
  const [shorter, longer] = a.length < b.length ? [a, b] : [b, a];
  return shorter.length > 0 && longer.endsWith(` ${shorter}`);
}

function frameOf(statement: string): Frame | undefined {
  let text = statement.replace(/`/gu, '').replace(/\s+/gu, ' ').trim();
  // A short label before a colon ("change of convention: …") leads the statement.
  const label = LABEL.exec(text);
  if (label !== null) text = text.slice(label[0].length);
  for (let round = 0; round < 3; round += 1) text = text.replace(LEAD, '').trim();
  // The main clause only: what follows a comma or a semicolon is an aside or a reason.
  text = (text.split(/[,;:—–]\s|\s[-–]\s|[.!?](?:\s|$)/u, 1)[0] ?? text).trim();
  const practice = PRACTICE_FRAME.exec(text);
  if (practice !== null) {
    const [, subject = '', verb = '', object = '', preposition = '', value = ''] = practice;
    return { subject: words(subject), verb: `${stem(verb)}|${words(object)}|${preposition.toLowerCase()}`, value: words(value) };
  }
  const kind = KIND_FRAME.exec(text);
  if (kind === null) return undefined;
  const [, subject = '', verb = '', value = ''] = kind;
  if (PRONOUN.test(subject)) return undefined;
  return { subject: words(subject), verb: words(verb), value: words(value) };
}

// Lower-cased words without determiners, update words and trailing scope, each without a plural s.
function words(text: string): string {
  return text
    .toLowerCase()
    .replace(TAIL, '')
    .split(/\s+/u)
    .filter((word) => word.length > 0 && !DROPPED.has(word))
    .map(stem)
    .join(' ');
}

function stem(word: string): string {
  const lower = word.toLowerCase();
  return lower.length > 3 && lower.endsWith('s') && !/(?:ss|us|is|os)$/u.test(lower) ? lower.slice(0, -1) : lower;
}

const ADDITIVE = /\b(?:also|as well|too|in addition|additionally|on top of that)\b/iu;
const LABEL = /^(?:\p{L}+\s+){0,3}\p{L}+:\s+/u;
// Update words and scope that lead the statement (a correction, a start in time, a place).
const LEAD = /^(?:(?:ok(?:ay)?|so|also|and|actually|correction|update|sorry|instead|going forward|from now on|from here on|starting today|around here|in this (?:repo|codebase|project)|these days|now)\b[,:]?\s*)/iu;
// "we (now) keep all SQL under db/queries": the team's practice, its object and where it goes.
const PRACTICE_FRAME = /^(we|the team|the (?:repo|codebase|project))\s+(?:(?:now|always|all|usually|generally)\s+)*(keep|keeps|put|puts|store|stores|name|names|write|writes|prefix|prefixes|place|places|group|groups|tag|tags)\s+((?:[\p{L}\p{N}_-]+\s+){0,4}?)(in|under|inside|into|next to|beside|with|as|after|by|using)\s+(.+)$/iu;
// "timestamps are ISO strings", "handlers are named verbNoun", "env vars are prefixed with ACME_",
// "fixtures live in __fixtures__", "branch names follow type/slug".
const KIND_FRAME = /^((?:(?:all|every|each|our|the)\s+)?(?:[\p{L}\p{N}_-]+\s+){0,2}[\p{L}\p{N}_-]+)\s+((?:are|is)(?:\s+(?:now|always|still))?(?:\s+(?:\p{L}{3,}ed|called|written|kept|spelt|built|run|sent|held|made|done|split|put|set))?(?:\s+(?:with|in|as|by|under|after|using))?|(?:now\s+)?(?:live|lives|go|goes|sit|sits|use|uses|follow|follows|start with|starts with|end in|ends in|end with|ends with)(?:\s+(?:in|under|inside))?)\s+(.+)$/iu;
const PRONOUN = /^(?:it|this|that|these|those|they|he|she|we|I|you|there|which|what|who)\b/iu;
const TAIL = /(?:\s+(?:now|instead|from now on|going forward|from here on|everywhere|throughout|again|here|in this (?:repo|codebase|project)|anymore|any more))+[.!]*$/iu;
const DROPPED: ReadonlySet<string> = new Set(['the', 'a', 'an', 'all', 'every', 'each', 'our', 'now', 'always', 'still']);

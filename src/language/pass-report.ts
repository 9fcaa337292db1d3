// A resolution told around a report that the run passes, in one message: "Green now. Turned out
// the fixture loaded local dates; the setup pins the zone to UTC." The pass report opens the
// message (a short sentence, or the first clause of one), or a cause opens it and the message
// ends on the outcome ("So that was the live DNS lookup; stubbing it makes the suite pass
// offline"). What follows the report is read by shape: a cause (a fault told in the past, "turned
// out", "so it was", "… explained:", "not X but Y") and a change with something concrete in it.
// Cause and change are kept together as one statement, so a summary cannot keep one without the
// other.

import { isChangeReport, isMeansResult, tellsFault } from './fix-statement.js';

/** A sentence of a message as the resolution reader needs it. */
export interface ReadSentence {
  /** The sentence as the caller keeps it (the fact's wording). */
  readonly text: string;
  /** The sentence as it was said, read for its shape (defaults to `text`). */
  readonly said?: string;
  /** What the sentence names (values, names, code), as counted by salience. */
  readonly specifics: number;
  /** A question, a plan, a hope or a dead end: never half of a resolution. */
  readonly isAside: boolean;
}

/** A resolution found in a message: its wording and the sentences it was read from. */
export interface PassResolution {
  readonly value: string;
  readonly positions: readonly number[];
}

/**
 * Tells whether a sentence is a short report that the run passes ("Passing now.", "Suite's
 * clean.", "All 58 specs pass.", "works on my side"), with nothing else in it. Failures, hopes
 * ("should pass now") and questions are not.
 */
export function isPassReport(sentence: string): boolean {
  const text = plain(sentence).replace(/[.!]+$/u, '');
  // "0 failed", "no failures": a count of none reports the pass, not a failure.
  if (text.length === 0 || /\?/u.test(text) || HOPE.test(text) || NOT_PASSING.test(text.replace(NONE_FAILED, ''))) return false;
  return text.split(/\s+/u).length <= MAX_PASS_WORDS && PASS.test(text);
}

/**
 * The rest of a sentence after a leading pass report ("ok, green now - the tsc step ran out of
 * heap …" → "the tsc step ran out of heap …"), or `undefined` when it does not open with one.
 */
export function afterPassClause(sentence: string): string | undefined {
  const text = sentence.trim();
  for (const match of text.matchAll(PASS_CLAUSE_BREAK)) {
    const rest = text.slice(match.index + match[0].length).trim();
    if (rest.length > 0 && isPassReport(text.slice(0, match.index))) return rest.charAt(0).toUpperCase() + rest.slice(1);
  }
  return undefined;
}

/**
 * Tells whether a sentence tells what was wrong: a fault in the past ("the image lacked
 * libvips"), a finding ("turned out …", "so that was …", "flaky test explained: …"), a label
 * ("Cause: …", "the culprit was …") or a contrast ("not a logic error but rounding").
 */
export function tellsCause(sentence: string): boolean {
  const text = plain(sentence).replace(/^[(\s]+/u, '');
  if (text.length === 0 || /\?\s*\)?$/u.test(text) || HOPE.test(text)) return false;
  return tellsFault(text) || CAUSE.test(text);
}

/**
 * Tells whether a sentence states something in the past with a subject of its own, not the
 * speaker's act, a guess nor a change: "the middleware had already consumed the body", "a previous spec
 * left the clock frozen". While a failure is open, such a sentence tells what was wrong.
 */
export function tellsPastState(sentence: string): boolean {
  const text = plain(sentence).replace(/^[(\s]+/u, '');
  if (text.length === 0 || /\?\s*\)?$/u.test(text) || HOPE.test(text)) return false;
  return !RECAP_ITEM.test(sentence) && !SPEAKER.test(text) && !GUESS.test(text) && STATE_PAST.test(text) && !tellsChange(sentence, 0) && !PASS.test(text);
}

/** Tells whether a sentence offers a guess rather than a finding ("I suspect the cache", "probably the lock"). */
export function isGuess(sentence: string): boolean {
  return GUESS.test(plain(sentence));
}

/**
 * Tells whether a sentence tells the change that fixed it: a change made or the new state
 * ("pinned TZ=UTC", "the assertion uses toBeCloseTo now"), a means and what it did ("setting
 * LC_ALL sorted it", "solved with NODE_OPTIONS=…", "stubbing it makes the suite pass"), or the
 * speaker's standing practice with something named ("I call `runAllTimers()` before the assertion").
 */
export function tellsChange(sentence: string, specifics: number): boolean {
  const text = plain(sentence).replace(/^[(\s]+/u, '');
  if (text.length === 0 || /\?\s*\)?$/u.test(text) || HOPE.test(text)) return false;
  return isChangeReport(text) || MEANS.test(text) || isMeansResult(text) || (specifics > 0 && (PRACTICE.test(text) || (NOW.test(text) && !PASS.test(text))));
}

/**
 * Reads a resolution told around a pass report in one message (see the file comment). `known`
 * says a failure is known before the message (a failing run, or a green run right after one):
 * then a change alone is enough; otherwise a cause must be told. `afterGreen` says a failing run
 * just turned green: the message may then open with the cause, with no report of its own.
 * Something concrete must be named.
 */
export function passResolutionOf(sentences: readonly ReadSentence[], options: { known: boolean; afterGreen: boolean }): PassResolution | undefined {
  const first = sentences[0];
  if (first === undefined) return undefined;
  const read: { text: string; said: string; specifics: number; position: number; isAside: boolean }[] = [];
  const saidOf = (sentence: ReadSentence): string => sentence.said ?? sentence.text;
  const hasPassLead = isPassReport(saidOf(first)) || afterPassClause(saidOf(first)) !== undefined;
  let start = 1;
  if (!isPassReport(saidOf(first))) {
    const rest = afterPassClause(saidOf(first));
    if (rest !== undefined) read.push({ text: afterPassClause(first.text) ?? rest, said: rest, specifics: first.specifics, position: 0, isAside: first.isAside });
    // A cause first, and the outcome at the end of the message or the green run right before it.
    const last = sentences[sentences.length - 1];
    const isCauseLed = rest === undefined && (options.afterGreen ? tellsCause(saidOf(first)) : CAUSE_LEAD.test(plain(saidOf(first))) && last !== undefined && OUTCOME_END.test(plain(saidOf(last))));
    if (rest === undefined && !isCauseLed) return undefined;
    if (isCauseLed) start = 0;
  }
  for (let position = start; position < sentences.length && read.length < MAX_SENTENCES; position += 1) {
    const sentence = sentences[position];
    if (sentence === undefined) break;
    // A heading or a list lead-in ("### Notes") opens the section that tells it.
    if (HEADING.test(saidOf(sentence))) continue;
    read.push({ ...sentence, said: saidOf(sentence), position });
  }
  const picked: typeof read = [];
  let hasCause = false;
  let hasChange = false;
  let hasLooseCause = false;
  for (const sentence of read) {
    if (sentence.isAside) break;
    // A recap may repeat the pass ("- tests green again") before the line that explains it.
    if (picked.length === 0 && isPassReport(sentence.said)) continue;
    // With a failure known, a sentence in the past that names something, right after the pass
    // report, tells what was wrong ("The tokens were minted ahead of the API's clock; …").
    // A line that opens on the speaker's act is a recap ("- Left `x.ts` untouched"); one with a
    // subject of its own ("- a previous test left `REDIS_URL` set") tells a state.
    // A sentence that tells a change whole ("Stripping it was enough") is not a state, past tense or not.
    const isPastState: boolean = options.known && hasPassLead && !RECAP_ITEM.test(sentence.said) && PAST.test(plain(sentence.said)) && !(hasCause && tellsChange(sentence.said, sentence.specifics));
    // With nothing named, such a sentence opening the account is a cause only if a change follows.
    const isLooseCause: boolean = isPastState && sentence.specifics === 0 && picked.length === 0 && !tellsCause(sentence.said);
    const isCause: boolean = tellsCause(sentence.said) || (isPastState && sentence.specifics > 0) || isLooseCause;
    if (isLooseCause) hasLooseCause = true;
    // A cause told with a verb of change ("turned out the seed inserted users first") tells the
    // change only in a later clause ("…; I stub the host").
    const isChange = isCause ? laterClauses(sentence.said).some((clause) => tellsChange(clause, sentence.specifics)) : tellsChange(sentence.said, sentence.specifics);
    // After a cause, the next sentence naming something is the change it brought ("Servers
    // bind port 0"), and so is one led by a means ("Installing it put the dates right");
    // so is the speaker's practice since then ("Now we sort the keys first"); anything else
    // ends the account.
    const isNamedAfterCause: boolean = hasCause && !hasChange && !isCause && ((sentence.specifics > 0 && !PASS.test(plain(sentence.said))) || GERUND_LEAD.test(plain(sentence.said)) || NOW_PRACTICE.test(plain(sentence.said)));
    if (!(isCause || isChange || isNamedAfterCause)) break;
    picked.push(sentence);
    hasCause ||= isCause;
    hasChange ||= isChange || isNamedAfterCause;
    if (hasCause && hasChange) break;
  }
  // Something concrete is named, or a failure is told whole, its cause and its change, where a
  // failure is known or a run just turned green.
  const isWhole = (options.known || options.afterGreen) && hasCause && hasChange;
  if (hasLooseCause && !hasChange) return undefined;
  if (picked.length === 0 || !(hasCause || options.known) || !(isWhole || picked.some((sentence) => sentence.specifics > 0))) return undefined;
  const value = picked.map((sentence) => sentence.text.trim().replace(/^\(|\)$/gu, '')).join(' ');
  return { value, positions: [...new Set(picked.map((sentence) => sentence.position))] };
}

// --- Internal helpers ---

function laterClauses(sentence: string): string[] {
  return sentence.split(CLAUSE_BREAK).slice(1);
}

function plain(sentence: string): string {
  return sentence.replace(/`[^`\n]*`/gu, 'code').replace(/^\s*(?:[-*+•]|\d{1,3}[.)])\s+/u, '').replace(/\s+/gu, ' ').trim();
}

// Where a sentence goes on with another clause: "…; I stub the host", "… - they each get …", ", so I …".
const CLAUSE_BREAK = /;\s+|\s+[-—–]{1,2}\s+|,\s+(?:and|so)\s+|,\s+(?=(?:I|we)\b)/u;
/** Longest sentence read as a pass report. */
const MAX_PASS_WORDS = 8;
/** Sentences a resolution may span after the report. */
const MAX_SENTENCES = 4;
// A run that passes, said loosely: "passing", "green", "no failures", "suite's clean", "works on my side", "that did it".
const PASS = /\b(?:(?:no|zero|0)\s+(?:failures|failed|failing (?:tests|specs))|pass(?:es|ed|ing)?(?!\s+(?:the|a|an|its|their|it|them|in|to|through|along)\b)|green|clean run|(?:suite|build|run|tests?)['’]?s?\s+(?:is\s+|are\s+)?clean|(?:it|that|everything|all|this)\s+works?|works?\s+(?:now|again|here|fine|on (?:my|this|your))|all good|stable(?:\s+now)?|that did it|go(?:es)? through|went through|runs? through|ran through)\b/iu;
// A report of a run still failing, or of work not done: "still red", "not passing yet".
const NOT_PASSING = /\b(?:not|n['’]t|never|still (?:red|fail\w*)|red|fail\w*|flak\w*|break\w*|broke)\b/iu;
// A hope or a plan: "should pass now", "let me".
const HOPE = /\b(?:should|might|may|could|hopefully|probably|let me|let['’]s|i['’]ll|going to|will)\b/iu;
// Where a pass report ends a clause that goes on: "green now - …", "all good on my side: …".
const PASS_CLAUSE_BREAK = /\s+[-—–]{1,2}\s+|;\s+|:\s+|,\s+(?=(?:so|the|it|turned|that)\b)/gu;
// A finding told as such: "turned out", "so it was", "flaky spec explained:", "the culprit …", a
// contrast ("…, not localhost"), something missing, or a state with what it led to ("… was
// registered first, so it read the request too early").
const CAUSE = /\b(?:turned out|so (?:that|this|it) was|explained\s*:|culprit|root (?:cause|of (?:it|the \p{L}+))|(?:the )?cause(?:\s+was)?\s*:|came from|was caused by|because|lacked|(?:not|wasn['’]t|isn['’]t|never) (?:a|an|the|in|about)\b[^.;]*?\bbut\b|(?:was|were)\s+(?:still\s+)?(?!(?:nothing|something|everything|anything)\b)\p{L}{3,}ing\b|had no\b|was missing\b|^missing\b)|,\s+not\s+(?:a|an|the)?\s*\p{L}+|\b(?:was|were|had)\b[^.;]*,\s+so\s+(?:it|they|both|each|the(?:\s+[\p{L}-]+){1,3}?)\s+(?:\p{L}+ed|read|ran|got|took|kept|went|came|hit|left|sent|never|didn['’]t|couldn['’]t|wasn['’]t)\b/iu;
// A message led by its cause: "So that was …", "Turned out …", "That failure is rounding …".
const CAUSE_LEAD = /^(?:(?:ok|right|ah|aha),?\s+)?(?:so (?:that|this|it) was|turned out|it turned out|that (?:failure|error|crash|flake) (?:is|was))\b/iu;
// A message that ends on the run passing: "… makes the suite pass offline", "… and it passes".
const OUTCOME_END = /\b(?:pass(?:es|ed|ing)?|green|works?)\b[^.;]{0,30}[.!]?$/iu;
// A means and what it did: "setting X sorted it", "solved with …", "X is what it needed", "with nock intercepting the calls".
const MEANS = /\b(?:(?:fixed|solved|sorted|cured|cleared|resolved) (?:it|that|this|the \p{L}+)|(?:solved|fixed|sorted) (?:with|by)|did it|did the trick|is what it needed|makes? the (?:suite|tests?|build|job|run)\b[^.;]{0,20}\bpass|with \S+(?: \S+)? (?:intercepting|stubbing|mocking|in place))\b|^with\s+[^,.;]{2,60}?,?\s+(?:the\s+)?(?:whole\s+)?(?:suite|tests?|build|job|run|it)\s+(?:\p{L}+\s+)?(?:pass(?:es)?|works?|runs? clean)\b/iu;
// A past tense in the sentence: "was", "had", a regular "-ed" form.
const PAST = /\b(?:was|were|had|did|(?!un)\p{L}{3,}ed)\b/iu;
// A recap line that opens on the speaker's act: "- Left `x.ts` untouched", "I renamed …".
const RECAP_ITEM = /^\s*(?:(?:[-*+•]|\d{1,3}[.)])\s+)?(?:(?:I|we)\b|(?:\p{L}{2,}ed|left|kept|made|put|set|wrote|ran|took|got|gave|cut|built|split)\b)/iu;
// The speaker in the sentence: "I checked …", "… — we reran …".
const SPEAKER = /\b(?:I|we)\b/iu;
// A guess, not a finding: "I suspect the cache", "probably the lock".
const GUESS = /\b(?:guess|hunch|hints? at|suspect|suspicion|theory|hypothesis|think|maybe|perhaps|probably|possibly|likely|could be|might be|i bet)\b/iu;
// A verb in the past: "was", "had", or an "-ed" form that is not an adjective after a determiner
// or a possessive ("the cached summary", "each other's seeded rows") nor a present passive ("the ids are generated").
const STATE_PAST = /\b(?:was|were|had|did|wasn['’]t|weren['’]t|hadn['’]t|didn['’]t|never)\b|(?<!\b(?:the|a|an|its|their|our|your|his|her|each|every|any|some|no|this|that|these|those)\s)(?<!['’]s\s)(?<!\b(?:is|are|be|being|been|am|gets?)\s)\b(?!un)\p{L}{3,}ed\b/iu;
// A count of none: "0 failed", "no failures", "zero errors".
const NONE_FAILED = /\b(?:0|zero|no)\s+(?:failed|failures?|failing|errors?)\b/giu;
// The speaker's practice from now on, with any verb but a plan's: "Now we sort the keys first".
const NOW_PRACTICE = /^now,?\s+(?:I|we)\s+(?!(?:need|want|have|will|can|could|should|must|am|are|get|try|check|run|see|look|verify|know|think|wait)\b)\p{L}{3,}\b/iu;
// The new state, said with "now": "`schedule.ts` passes the five-field form now".
const NOW = /(?<!\b(?:for|until|till|right|just|by)\s)\bnow\b(?!\s+that\b)/iu;
// A sentence led by the means that fixed it: "Installing it in the base image put the dates right".
const GERUND_LEAD = /^(?!(?:nothing|something|everything|anything|running (?:the )?(?:tests?|suite|specs?))\b)\p{L}{3,}ing\s+\S/iu;
// The speaker's practice since the fix: "I call …", "we pin …".
const PRACTICE = /^(?:now,?\s+)?(?:I|we)\s+(?:call|use|pass|set|pin|keep|run|load|wrap|await|stub|mock|close|reset|skip|bind|read|clear)\b/iu;
// A section heading or a bare label line.
const HEADING = /^\s*(?:#{1,6}\s+\S[^\n]*|\*\*[^*\n]+\*\*:?|[\p{L} ]{1,24}:|\p{L}+(?:\s\p{L}+)?)\s*$/u;

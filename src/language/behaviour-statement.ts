// Shapes of statements that say how the software must behave or how it is configured, whoever
// says them: "<subject> must/should <verb> …", "when X, Y rejects Z", limits on behaviour, a
// named setting given a value. They carry a requirement even without the cue words of a pattern
// pack, and are told from plans, narration, questions and chatter by their grammar alone.

import { letterRunCount } from './prose.js';

/**
 * The shape of the message a sentence sits in. A request or instruction turn carries what the
 * speaker wants; a report narrates work done; a question asks; chatter is small talk.
 */
export type TurnShape = 'instruction' | 'report' | 'question' | 'chatter' | 'statement';

/**
 * Reads the shape of a whole message from its prose (code blocks left out): an instruction turn
 * asks for work ("can you …", "please …", an imperative first sentence), a report narrates the
 * speaker's own finished work ("I added …", "Done: …"), a question turn only asks, chatter is a
 * few words with nothing specific in them.
 */
export function turnShapeOf(text: string): TurnShape {
  const prose = text.replace(FENCED_BLOCK, ' ').replace(CODE_SPAN, 'code').trim();
  const words = prose.match(/\p{L}[\p{L}'’-]*/gu) ?? [];
  if (words.length === 0) return 'chatter';
  const firstSentence = prose.split(/(?<=[.!?])\s+|\n+/u)[0] ?? prose;
  if (REQUEST_OPENING.test(firstSentence) || IMPERATIVE_OPENING.test(firstSentence)) return 'instruction';
  const sentences = prose.split(/(?<=[.!?])\s+|\n+/u).filter((sentence) => /\p{L}/u.test(sentence));
  const narrated = sentences.filter((sentence) => REPORT_SENTENCE.test(sentence.trim())).length;
  if (narrated > 0 && narrated * 2 >= sentences.length) return 'report';
  if (sentences.every((sentence) => /\?\s*["')\]]*$/u.test(sentence.trim()))) return 'question';
  if (words.length <= 8 && !/[\p{N}_/`]/u.test(text)) return 'chatter';
  return 'statement';
}

/**
 * Tells whether a sentence states how the software must behave: a subject other than the
 * speakers with a modal of obligation ("exports must include …", "the client needs to keep …"),
 * a condition and the system's response ("when the token expires, the API answers 401", "the form
 * locks once a card is declined three times"), a bound on behaviour or on what someone may do
 * ("uploads over 40 MB are rejected", "members may invite up to 25 guests"), a thing of the
 * product acting in the present tense with a quantity or a named header or flag ("drafts autosave
 * every 30 seconds"), a rule for things of a kind ("sessions that stay idle are signed out") or
 * an acceptance-criteria line. A lead that says where it comes from ("The spec says …") is looked
 * past. Plans ("we should look at …"), hopes about the current fix ("this should pass now"),
 * questions, narration in the past tense and remarks about the tests or the build are not.
 */
export function isBehaviourStatement(sentence: string): boolean {
  const stated = withoutAttribution(sentence);
  if (stated === sentence.trim()) return isBehaviour(plainOf(sentence));
  // What a spec or a stated requirement says is one, whatever its wording.
  const isRequired = REQUIREMENT_SOURCE.test(sentence) && !isQuestionLike(stated) && !PAST_NARRATION.test(stated) && !SPEAKER_AS_ACTOR.test(stated);
  return isRequired || isBehaviour(plainOf(sentence)) || isBehaviour(plainOf(stated));
}

/**
 * Tells whether a sentence puts an obligation on the product with a firm modal: "the field app is
 * expected to keep working offline", "exports have to include a header row", "the public API
 * must not leak internal ids". Softer wording ("should"), plans and hopes of the speakers, remarks
 * about the tests or the build and subjects that are pronouns are not.
 */
export function isObligationStatement(sentence: string): boolean {
  const text = plainOf(withoutAttribution(sentence));
  if (text.length === 0 || isQuestionLike(text) || SPEAKER_AS_ACTOR.test(text) || PAST_NARRATION.test(text) || HOPE.test(text)) return false;
  if (DEVELOPMENT_SUBJECT.test(text)) return false;
  const obligation = FIRM_OBLIGATION.exec(text);
  return obligation !== null && isSystemSubject(obligation[1] ?? '') && !INSPECTION_VERB.test(obligation[2] ?? '') && !/^\s*(?:[\p{L}-]+\s*)?:/u.test(text.slice(obligation.index + obligation[0].length));
}

/**
 * Tells whether a sentence says what the product does in answer to something a person does, with
 * the action as its subject: "deleting a comment swaps its body for a placeholder", "cancelling an
 * order releases the reserved stock". It needs no name or value to be a rule of the product.
 * Steps of the work ("running the suite shows two failures", "adding the guard fixes it"),
 * failures, code and past tenses are not.
 */
export function isActionResponse(sentence: string): boolean {
  const text = plainOf(withoutAttribution(sentence));
  if (isQuestionLike(text) || text.includes('`')) return false;
  const match = ACTION_RESPONSE.exec(text);
  if (match === null) return false;
  // A pronoun in the action ("modifying its properties …") leans on what was said before.
  const action = match[2] ?? '';
  if (POINTING_WORD.test(action)) return false;
  return !WORK_ACTION.test(match[1] ?? '') && !DEVELOPMENT_WORD.test(action) && !SYMPTOM.test(text) && !FIX_WORD.test(text) && !VERIFIED.test(text) && !CODE_LIKE.test(action);
}

/**
 * Tells whether a sentence says that a part of the product refuses something, is kept within a
 * scope or that each one of a kind carries something, in the present tense: "the form refuses a
 * start date after the end date", "search results are limited to the user's own workspace",
 * "every outbound webhook carries an idempotency key". Such a rule needs no name or value; the tests, the
 * build and pieces of code as the subject are not the product.
 */
export function isRefusalOrScope(sentence: string): boolean {
  const text = plainOf(withoutAttribution(sentence));
  if (isQuestionLike(text) || DEVELOPMENT_SUBJECT.test(text)) return false;
  const match = REFUSAL_OR_SCOPE.exec(text) ?? EVERY_ONE_HAS.exec(text);
  if (match !== null && isProductSubject(match[1] ?? match[0])) return true;
  return isStandingRule(text);
}

/**
 * Tells whether a sentence gives, as the reason for what the speaker did or left alone, that
 * something belongs to someone else or needs their approval: "I left the cron schedule alone
 * since ops owns it", "I did it without new dependencies, since those need your sign-off". The
 * reason is a standing constraint on the work, whoever is speaking.
 */
export function isDeferenceToRule(sentence: string): boolean {
  const text = plainOf(withoutAttribution(sentence));
  if (isQuestionLike(text) || !SPEAKER_AS_ACTOR.test(text) || SYMPTOM_OF_RULE.test(text)) return false;
  const reason = DEFERENCE_REASON.exec(text);
  return reason !== null && !DEVELOPMENT_SUBJECT.test(reason[1] ?? '') && !TEST_WORD.test(reason[1] ?? '');
}

/**
 * Tells whether a sentence gives a condition and how the product responds to it, with no speaker
 * and nothing about the code, the tests or a failure: "with an empty cart the pay button stays
 * disabled", "when a card is declined twice, the account is locked". It needs no name or value.
 */
export function isConditionalRule(sentence: string): boolean {
  const text = plainOf(withoutAttribution(sentence));
  if (isQuestionLike(text) || SPEAKER_WORD.test(text) || CODE_LIKE.test(text) || SYMPTOM_OF_RULE.test(text) || PAST_NARRATION.test(text)) return false;
  if (DEVELOPMENT_WORD.test(text) || TEST_WORD.test(text) || CODE_NOUN.test(text)) return false;
  // "If the wifi drops, just send it again" tells the listener what to do.
  const comma = text.indexOf(',');
  if (comma >= 0 && REQUEST_AFTER_CONDITION.test(text.slice(comma + 1).trim())) return false;
  return CONDITION_AND_RESPONSE.test(text);
}

/**
 * Tells whether a sentence states a standing rule of the product with no name or value in it: a
 * thing that is never, always or only treated some way ("a sent invoice is never edited"), seen
 * or used only by some ("drafts are visible to their author alone", "stock levels stay hidden
 * from guests"), an action reserved to one party ("only the reporter may reopen a ticket",
 * "nobody but the author sees a draft"), a state that lasts until something happens ("a
 * cancelled plan keeps working until the paid period ends"), a thing of the product that takes
 * none of something ("the marketing pages set no third-party cookies") or is kept to one kind
 * ("the admin panel is english-only"). The subject must be a
 * part of the product, not the work, a piece of code or a pronoun, and nothing may report a failure.
 */
export function isStandingRule(sentence: string): boolean {
  const text = plainOf(withoutAttribution(sentence));
  if (isQuestionLike(text) || DEVELOPMENT_SUBJECT.test(text) || SYMPTOM_OF_RULE.test(text) || PAST_NARRATION.test(text)) return false;
  for (const shape of STANDING_RULES) {
    const match = shape.exec(text);
    const subject = match?.[1] ?? '';
    if (match !== null && isProductSubject(subject) && !POINTING_SUBJECT.test(subject) && !PRONOUN_WORD.test(subject)) return true;
  }
  if (isTeamPractice(text)) return true;
  // A practice of the work said of every one of a kind is a convention, whatever the kind
  // ("each task branch is rebased onto main before review").
  return WORK_PRACTICES.some((shape) => {
    const subject = shape.exec(text)?.[1];
    return subject !== undefined && !CODE_LIKE.test(subject) && !POINTING_SUBJECT.test(subject);
  });
}

// Whether the subject of a rule names a part of the product: not the work (tests, the build) and
// not a piece of code.
function isProductSubject(subject: string): boolean {
  return !DEVELOPMENT_WORD.test(subject) && !CODE_LIKE.test(subject);
}

/**
 * Tells whether a sentence describes what a part of the product does, in the present tense and
 * with a noun for its subject ("the order page lists cancelled orders last"). Said by the user
 * about the product, that is how it is meant to work; a report of something going wrong ("the
 * export shows the wrong totals", "… still fails") is not one.
 */
export function isProductDescription(sentence: string): boolean {
  const text = plainOf(withoutAttribution(sentence));
  // "… depend on this" leans on what was said before: it describes nothing on its own. A pronoun
  // in a clause of purpose or result ("… so it can be translated") points back into the sentence.
  const main = text.split(PURPOSE_OR_RESULT, 1)[0] ?? text;
  if (isQuestionLike(text) || SYMPTOM.test(text) || DEVELOPMENT_SUBJECT.test(text) || ANAPHOR.test(main)) return false;
  if (SPEAKER_WORD.test(text)) return false;
  const match = PRESENT_DESCRIPTION.exec(text);
  if (match !== null) return !PAST_WORD.test(match[0]);
  // A participle before the noun ("exported sheets") describes the things; only the verb must not be past.
  const bare = BARE_PLURAL_DESCRIPTION.exec(text);
  return bare !== null && !PAST_WORD.test(bare[1] ?? '');
}

/**
 * Tells whether a sentence, in its main clause, describes how a part of the product works as a
 * standing fact: a subject that is no speaker, pronoun, piece of code, file or tool of
 * development, a verb in the present tense, and no failure ("trial accounts are limited to three
 * projects, so …", "partner payouts are batched monthly"). What follows a
 * comma and a connective ("…, so the form checks it first") is left out of the judgement.
 * Narration of the work ("the loop is now simpler", "`load` returns null") is not one.
 */
export function isProductNarration(sentence: string): boolean {
  // A clause before a colon ("There's a catch: …") is the statement itself, not a lead to look past.
  const stated = CLAUSE_BEFORE_COLON.test(sentence) ? plainOf(sentence) : plainOf(withoutAttribution(sentence));
  // A short label before a colon ("One thing this relies on: …") introduces the statement.
  const label = LABEL_LEAD.exec(stated);
  const labelled = label === null ? stated : stated.slice(label[0].length);
  // So does a short lead ending in "that" ("Worth noting that …"), unless it infers or reports.
  const that = THAT_LEAD.exec(labelled);
  const isLeadPast = that !== null && !INFERENCE_LEAD.test(that[1] ?? '') && CLAUSE_OPENING.test(labelled.slice(that[0].length));
  const text = isLeadPast ? labelled.slice(that[0].length) : labelled;
  const main = (text.split(MAIN_CLAUSE_END, 1)[0] ?? text).trim();
  // A statement ends with a full stop; headings, list labels and exclamations are not descriptions.
  if (!/[\p{L}\p{N})"'’]\.$/u.test(text) || ANSWER_LEAD.test(text) || PROGRESSIVE.test(main) || TEST_WORD.test(main) || CODE_NOUN.test(main)) return false;
  if (isQuestionLike(text) || CODE_LIKE.test(main) || SYMPTOM.test(main) || HOPE.test(main) || ANAPHOR.test(main) || WORK_STATE.test(main) || FINISHED_STATE.test(main)) return false;
  if (!isStandingPremise(main, { needsBehaviour: false })) return false;
  return PRESENT_COPULA.test(main) || PRESENT_DESCRIPTION.test(main) || BARE_PLURAL_DESCRIPTION.test(main) || (CAPABILITY.test(main) && !OCCASION.test(main)) || isQualifiedSubjectDescription(main) || PEOPLE_OF_A_KIND.test(main) || EVERY_ONE_HAS.test(main);
}

/**
 * Tells whether a sentence says that something follows the way things are already done in the
 * project: "I put the new screen behind a flag, the same way the other features shipped", "the
 * new log line is JSON like every other line in the service". Said of something named, that is a
 * convention, whoever says it. Sentences about pieces of code (a code span, a path) are not.
 */
export function isFollowingPractice(sentence: string): boolean {
  const text = plainOf(sentence);
  // A media type (`vnd.api+json`) names a format, not a file.
  // A code span or prefix that names a place or a shape of names (the `spec` folder, the APP_
  // prefix) names a kind of thing, not a piece of code.
  const withoutMediaTypes = text.replace(/[\w.-]+\+[\w-]+/gu, 'format').replace(NAMED_KIND, 'the $1');
  if (isQuestionLike(text) || /`|\b[\w-]+\/[\w./-]+|\b[\w-]+\.[a-z]{1,4}\b/u.test(withoutMediaTypes) || HOPE.test(text)) return false;
  return CONFORMITY.test(text);
}

/**
 * Tells whether a sentence gives a named setting a value: "set MAX_RETRIES to 5", "timeouts are
 * 30s", "the page size for listings is 50", "`--workers` defaults to 4". The value must be a
 * number, a quoted string, a boolean or a code span holding one; the setting an upper-case name,
 * a flag, a code span or a noun that names a setting (timeout, limit, size, port …).
 */
export function isSettingStatement(sentence: string): boolean {
  const text = plainOf(sentence);
  if (text.length === 0 || isQuestionLike(text) || PAST_NARRATION.test(text)) return false;
  const stated = plainOf(withoutAttribution(text));
  // "when `strict` is true, …" tests a value; it does not set one.
  const named = NAMED_SETTING.exec(text);
  const isSet = named !== null && !/\b(?:when|whenever|if|unless|while|once|whether)\s+(?:the\s+)?$/iu.test(text.slice(0, named.index));
  return isSet || [text, stated].some((part) => SET_TO.test(part) || SETTING_NOUN_VALUE.test(part)) || CHANGED_TO_VALUE.test(stated);
}

/**
 * The premise of a sentence that gives a fact about the product as the reason for the speaker's
 * own work: "Since the app has to work offline, I queue writes locally", "Because exports go out
 * in two formats, we split the writer", "Clients receive one error shape, which is why I route
 * every failure through one mapper". Returns the premise ("the app has to work offline") when it
 * reads as a standing fact about the product: present tense, no speaker, not about the code, the
 * tests or a failure. Returns `undefined` for any other sentence.
 */
export function premiseOf(sentence: string): string | undefined {
  const text = plainOf(withoutAttribution(sentence));
  // A short lead before the premise is looked past: one set apart by a comma or a colon ("To
  // restate what this rests on, since …"), or one that ends in "that" ("The part that limits all
  // of this is that because …", "I'm working on the understanding that …").
  const candidates: { text: string; isAfterThat: boolean }[] = [{ text, isAfterThat: false }];
  const lead = /^[^,;:]{3,80}[,:]\s+/u.exec(text);
  if (lead !== null && letterRunCount(lead[0]) <= MAX_LEAD_WORDS) candidates.push({ text: text.slice(lead[0].length), isAfterThat: false });
  for (const that of text.matchAll(/\bthat\s+/giu)) {
    const before = text.slice(0, that.index);
    if (letterRunCount(before) > MAX_LEAD_WORDS) break;
    // "I noticed that …", "it looks like …": what follows is an observation, not a standing fact.
    // After a noun, "that" opens a relative clause ("extraction that preserves …"): what follows
    // it must open a clause of its own, with a determiner or a reason.
    const after = text.slice(that.index + that[0].length);
    if (!INFERENCE_LEAD.test(before) && CLAUSE_OPENING.test(after)) candidates.push({ text: after, isAfterThat: true });
  }
  // A reason for what the code does ("…, which is why `x` is handled apart") describes the code.
  const hasCode = text.includes('`');
  for (const candidate of candidates) {
    for (const { pattern, needsBehaviour } of PREMISE_SHAPES) {
      if (hasCode && pattern === REASON_PREMISE) continue;
      const premise = pattern.exec(candidate.text)?.[1]?.trim();
      // A reason given for a failure ("because the write never succeeds, the store is stuck") is a diagnosis.
      if (premise === undefined || (needsBehaviour && PREMISE_FAILURE.test(candidate.text))) continue;
      if (isStandingPremise(premise, { needsBehaviour })) return premise;
    }
    // "The landing videos wait for a click, because autoplay is ruled out here": how the product
    // behaves, then the standing reason for it.
    const justified = JUSTIFIED_BEHAVIOUR.exec(candidate.text);
    if (justified !== null && !hasCode && !SYMPTOM.test(candidate.text) && isStandingPremise(justified[2] ?? '', { needsBehaviour: false }) && isStandingPremise(justified[1] ?? '', { needsBehaviour: true })) {
      return (justified[1] ?? '').trim();
    }
    // "I have kept in mind that the palette avoids red-green pairs, …": a statement of how the
    // product behaves, introduced by the speaker.
    if (candidate.isAfterThat && !hasCode) {
      const statement = (candidate.text.split(/[,;]\s|\s[—–]\s/u, 1)[0] ?? '').replace(/[.!]+$/u, '').trim();
      if (isStandingPremise(statement, { needsBehaviour: true })) return statement;
    }
  }
  return undefined;
}

/**
 * The statement without a lead-in that says where it comes from: "From the spec, …", "The ticket
 * says …", "I double-checked the requirements: …". Returns the sentence itself when it has none.
 */
export function withoutAttribution(sentence: string): string {
  const text = sentence.trim();
  const match = ATTRIBUTION.exec(text) ?? SHORT_LEAD.exec(text);
  if (match === null) return text;
  const rest = text.slice(match[0].length).replace(/^\(?/u, '');
  return /^[\p{L}\p{N}`]/u.test(rest) ? rest : text;
}

// --- Internal helpers ---

/**
 * Whether a sentence states a standing practice of the team, in the present tense, with the team
 * as its subject and "only", "always" or "never" to make it a rule: "we deploy from main only",
 * "we always squash feature branches", "our team never hot-patches production". What the team
 * did once, needs, tries or happens to see is not one.
 */
function isTeamPractice(text: string): boolean {
  if (isQuestionLike(text) || PAST_NARRATION.test(text)) return false;
  const match = TEAM_PRACTICE.exec(text);
  return match !== null && !TEAM_NON_PRACTICE.test(match[1] ?? match[2] ?? match[3] ?? '');
}


function isBehaviour(text: string): boolean {
  if (isTeamPractice(text)) return true;
  if (text.length === 0 || isQuestionLike(text) || SPEAKER_AS_ACTOR.test(text) || PAST_NARRATION.test(text)) return false;
  if (ACCEPTANCE.test(text)) return true;
  if (HOPE.test(text)) return false;
  const obligation = OBLIGATION.exec(text);
  // "The check should be either: …" introduces what follows rather than stating it.
  const isLeadIn = obligation !== null && /^\s*(?:[\p{L}-]+\s*)?:/u.test(text.slice(obligation.index + obligation[0].length));
  if (obligation !== null && !isLeadIn && isSystemSubject(obligation[1] ?? '') && !INSPECTION_VERB.test(obligation[2] ?? '')) return true;
  if (CONDITION_AND_RESPONSE.test(text)) return true;
  for (const shape of [QUANTIFIED_BEHAVIOUR, NAMED_INTERFACE]) {
    const match = shape.exec(text);
    if (match !== null && !DEVELOPMENT_SUBJECT.test(text) && !PAST_WORD.test(match[0])) return true;
  }
  if (RULE_FOR_KIND.test(text) || (RESPONSE_AND_CONDITION.test(text) && !DEVELOPMENT_SUBJECT.test(text))) return true;
  if (isRefusalOrScope(text)) return true;
  const handled = HANDLING_OF_KIND.exec(text);
  // The head noun of the subject decides what it is: "task branches" are branches, not tasks.
  const head = (handled?.[1] ?? '').trim().replace(/\s+(?:is|are)$/iu, '').split(/\s+/u).pop() ?? '';
  if (handled !== null && isProductSubject(handled[1] ?? '') && !WORK_ITEM.test(head)) return true;
  if (PROHIBITION.test(text) && !DEVELOPMENT_SUBJECT.test(text.replace(/^no\s+/iu, ''))) return true;
  return (BOUND.test(text) && (BEHAVIOUR_VERB.test(text) || PERMISSION.test(text))) || isActionResponse(text);
}

// A subject qualified by a phrase of place or kind, then a verb in the present tense: "dates in the
// API travel as ISO strings", "the billing run for each region settles in local currency".
function isQualifiedSubjectDescription(main: string): boolean {
  const match = QUALIFIED_SUBJECT.exec(main);
  const verb = match?.[1] ?? '';
  return match !== null && !IMPERATIVE_OPENING.test(main) && !PAST_WORD.test(verb) && !/(?:ly|ing)$/iu.test(verb) && !OCCASION.test(main);
}

// A premise that reads as a standing fact about the product: present tense, no speaker, not about
// the code, the tests or a failure; with `needsBehaviour`, one that also states how the product behaves.
function isStandingPremise(premise: string, options: { needsBehaviour: boolean }): boolean {
  const words = letterRunCount(premise);
  if (words < 4 || words > 30 || isQuestionLike(premise)) return false;
  if (SPEAKER_WORD.test(premise) || PREMISE_PAST.test(premise) || PREMISE_FAILURE.test(premise)) return false;
  if (CODE_PREMISE.test(premise) || DEVELOPMENT_SUBJECT.test(premise)) return false;
  return !options.needsBehaviour || isBehaviour(plainOf(premise)) || isObligationStatement(premise) || isProductDescription(premise);
}

function plainOf(sentence: string): string {
  return sentence.replace(/\*\*|__/gu, '').trim();
}

function isQuestionLike(text: string): boolean {
  return /\?\s*["')\]]*$/u.test(text);
}

function isSystemSubject(subject: string): boolean {
  const words = subject.trim().split(/\s+/u).filter((word) => word.length > 0);
  if (words.length === 0 || words.length > 8) return false;
  // "it uses `ItemData` which should …": a pronoun leads, or a relative clause hangs off an object.
  return !PRONOUN_SUBJECT.test(words[0] ?? '') && !words.some((word) => RELATIVE_PRONOUN.test(word));
}

// How things of a kind are handled, in the present passive, with where or how: "reports are
// generated in the user's time zone", "amounts stored in cents", "prices are shown with two decimals".
const HANDLING_OF_KIND = /^(?:(?:the|all|every|each|our)\s+)?((?!(?:i|we|you|it|this|that|these|those|there|they|things|changes|everything|nothing|something|anything)\b)(?:[\p{L}-]+\s+){0,2}?\p{L}{3,}s\s+(?:are\s+)?|(?!(?:i|we|you|it|this|that|these|those|there|they|everything|nothing|something|anything)\b)(?:[\p{L}-]+\s+){0,2}?\p{L}{2,}\s+is\s+)(?:always\s+|only\s+|never\s+)?(?:(?!only\b)\p{L}{3,}ly\s+)?(?!(?:looked|seemed|appeared|sounded|felt|needed|used|wanted|started|ended)\b)(?:\p{L}{3,}ed|shown|written|kept|sent|held|given|drawn|read|set|paid|made|built|done|run|taken)\s+(?:(?:back|out|up|off|away|down)\s+)?(?:in|with|as|by|on|at|per|through|via|once|until|without|before|after|above|below|under|to)\s+\S+/iu;
// A part of the product that refuses something or is kept within a scope, in the present tense:
// "the form refuses a start date after the end date", "search results are limited to the workspace".
const REFUSAL_OR_SCOPE = /^(?:(?:the|all|every|each|any|our)\s+)?((?!(?:i|we|you|it|this|that|these|those|there|they)\b)(?:[\p{L}-]+\s+){0,3}?\p{L}{3,})\s+(?:(?:is|are)\s+(?:only\s+|always\s+)?(?:limited|restricted|scoped|batched|capped)\s+(?:to|into|per|at)\s|(?:rejects?|refuses?|denies)\s+(?:a|an|any|every|the|all|each)\s)/iu;
// The subject of a rule: a few words after an optional determiner, with a relative clause at most.
const RULE_SUBJECT = String.raw`^(?:(?:the|a|an|all|every|each|any|our|its|their)\s+)?((?:[\p{L}-]+\s+){0,5}?[\p{L}-]{3,})`;
// "we only/always/never <verb>", "we <verb> … only": captures the verb.
const TEAM_PRACTICE = /^(?:(?:and|so|also|here|as a rule)[,]?\s+)*(?:we|our team)\s+(?:(?:only|always|never)\s+(\p{Ll}{3,})\b(?![’'])|(?!(?:only|always|never|just|also|still|now|really|probably|can|could|should|will|would|must|might|may|are|were|was|do|did|don['’]t)\b)(\p{Ll}[\p{Ll}-]{2,})\s+(?:everything|every\s+\p{L}+|all\s+(?:of\s+)?(?:our|the)?\s*\p{L}+s)\s*(?:[,.;!]|$)|(?!(?:only|always|never|just|also|still|now|really|probably|can|could|should|will|would|must|might|may|are|were|was|do|did|don['’]t)\b)(\p{Ll}{3,})\s+(?:[^,.;:?!]{1,40}?\s+)?only\s*(?:[,.;!]|$))/iu;
// Verbs of the moment rather than of a practice: "we only need …", "we never got …", "we always end up …".
const TEAM_NON_PRACTICE = /^(?:need|needs|needed|got|get|gets|want|wanted|try|tried|did|see|saw|seen|know|knew|think|thought|ran|end|ended|seem|seemed|hit|came|went|had|heard|found|made|care|mean|meant|talk|talked|ever|broke|lost|love|like|hate|tried|covered|have|has|had|lose|break|miss|read|wrote|built|kept|left|took|put|set)$|ed$/iu;
// A reason that defers to someone else's say: "since ops owns it", "because those need your sign-off".
const DEFERENCE_REASON = /,?\s(?:since|because|as)\s+((?:[\p{L}-]+\s+){0,4}?)(?:owns?\s+(?:it|them|that|those)|controls?\s+(?:it|them)|(?:needs?|requires?)\s+(?:your|an?|the|their|explicit|prior|written)\s+(?:[\p{L}-]+\s+)?(?:sign-off|approval|ok|okay|go-ahead)(?=\s*(?:[,.;!)]|$)|\s+(?:first|before|from|for)\b)|(?:is|are)\s+(?:off-limits|owned by|not ours|frozen|out of bounds))(?![\p{L}-])/iu;
// The participle of a rule said in the passive ("reopened", "written", "sent").
const RULE_PARTICIPLE = String.raw`(?:\p{L}{3,}(?:ed|en)|sent|kept|set|made|paid|read|run|seen|shown|held)`;
// Rules that need no name or value: see `isStandingRule`.
const STANDING_RULES: readonly RegExp[] = [
  new RegExp(String.raw`${RULE_SUBJECT}\s+(?:is|are|gets?)\s+(?:never|always|only)\s+(?:\p{L}{3,}(?:ed|en)|shown|sent|kept|set|read|made|built|paid|held|hidden)\b`, 'iu'),
  new RegExp(String.raw`${RULE_SUBJECT}\s+(?:is|are|stays?|remains?)\s+(?:only\s+)?(?:visible|available|editable|accessible|hidden|private|shown|open|readable|writable|invisible)\s+(?:only\s+)?(?:to|for|from)\s+\p{L}`, 'iu'),
  new RegExp(String.raw`${RULE_SUBJECT}\s+(?:keeps?\s+(?:its\s+|their\s+)?\p{L}{3,}(?:ing)?|stays?\s+\p{L}{3,}|remains?\s+\p{L}{3,})\s+(?:\p{L}+\s+){0,3}?(?:until|unless|as long as)\s+\p{L}`, 'iu'),
  new RegExp(String.raw`${RULE_SUBJECT}\s+(?:sets?|sends?|stores?|keeps?|collects?|tracks?|shares?|exposes?|carries|carry|accepts?|allows?|leaks?|shows?)\s+no\s+(?!(?:longer|more|one|idea|problem)\b)\p{L}`, 'iu'),
  new RegExp(String.raw`${RULE_SUBJECT}\s+(?:is|are|stays?|remains?)\s+(?:strictly\s+)?\p{L}{2,}-only\b`, 'iu'),
  // A thing of the product held to a rule by what it is: "a sent invoice is immutable", "usernames are unique".
  new RegExp(String.raw`${RULE_SUBJECT}\s+(?:is|are|stays?|remains?)\s+(?:strictly\s+|always\s+)?(?:immutable|read-only|append-only|write-once|single-use|one-time|mandatory|unique|non-negotiable|frozen|case-insensitive|case-sensitive)\b`, 'iu'),
  // How things of a kind are handled, with "always" or "no exceptions" put after it: "admin actions are logged to the audit table, always".
  new RegExp(String.raw`${RULE_SUBJECT}\s+(?:is|are|gets?)\s+${RULE_PARTICIPLE}\b[^;:]*?,\s*(?:always|without exception|no exceptions)\s*[.!]?$`, 'iu'),
  // A thing that waits for someone's approval: "refunds need a manager's approval", "payouts require two sign-offs".
  new RegExp(String.raw`${RULE_SUBJECT}\s+(?:needs?|requires?)\s+(?:(?:a|an|the|one|two|three|explicit|written|prior)\s+)?(?:[\p{L}-]+(?:['’]s)?\s+){0,2}?(?:approvals?|sign-offs?)\b`, 'iu'),
  // An action left to one party, said in the passive: "a closed ticket can be reopened by its reporter and nobody else".
  new RegExp(String.raw`${RULE_SUBJECT}\s+(?:can|may)\s+(?:only\s+be\s+${RULE_PARTICIPLE}\s+by\s+\p{L}|be\s+${RULE_PARTICIPLE}\s+(?:only\s+)?by\s+[^,;.]{2,40}?\s+(?:(?:and|but)\s+(?:nobody|no\s+one|no-one)\s+else|alone)\b)`, 'iu'),
  new RegExp(String.raw`${RULE_SUBJECT}\s+never\s+(?!(?:seems?|looks?|gets?|got|happens?|works?|runs?|reaches|returns?|fires?|finishes|ends?|stops?)\b)\p{Ll}{3,}s\b`, 'iu'),
  new RegExp(String.raw`${RULE_SUBJECT}\s+(?!(?:is|was|has|does|seems|looks|works|runs|fails|passes|happens|shows)\b)\p{Ll}{3,}s\b[^,;.]{0,40}?\bonly\s+(?:after|once|when|if|with|for|to|by)\s+\p{L}`, 'iu'),
  /^(?:only|nobody\s+(?:but|except|other than)|no\s+one\s+(?:but|except|other than))\s+(?!(?:then|when|if|after|once|now|for|in|on|at|by|with|because|since|where|while|a few|a couple|a handful|a bit|a little|a subset|some|few|many|most|half|part|one|two|three)\b)((?:the|a|an|its|their|his|her)\s+[\p{L}-]{3,}(?:\s+(?!of\b)[\p{L}-]+){0,5}?|[\p{L}-]{3,})\s+(?:may|can|gets?\s+to|is\s+allowed\s+to|are\s+allowed\s+to|(?!(?:this|its|his|has|was|is|does|thus|plus)\b)\p{Ll}{3,}s|(?<=\p{L}{2}[^s\s]s\s+)(?!(?:the|this|that|its|their|and|or|of|in|on|for|with|to|from|one|two|all|any)\b)\p{Ll}{3,})\s+\p{L}/iu,
];
// A participle of how things are handled, hyphenated ones too ("cherry-picked").
const PARTICIPLE = String.raw`(?:[\p{L}-]{2,}(?:ed|en)|kept|sent|set|made|built|run|held|cut|put|shut)`;
// Things of the work that a practice is about.
const WORK_THING = String.raw`(?:commits?|branch(?:es)?|tags?|releases?|prs?|pull requests?|merge requests?|deploys?|deployments?|hotfix(?:es)?|migrations?|changelogs?|reviews?|messages?)`;
// Practices of the work, each with the subject as its first group: "each/every <thing> is
// <participle> <preposition> …" (how every one of a kind is handled), "<things> are/get
// <participle> onto/into/before/after/once …" (where or when things of a kind go), "<commits,
// branches …> are <participle> with/by/on …" and "each/every <thing> ships with / carries a …".
const WORK_PRACTICES: readonly RegExp[] = [
  new RegExp(String.raw`^(?:each|every|all|any)\s+((?:[\p{L}-]+\s+){0,3}?[\p{L}-]{3,})\s+(?:is|are|gets?)\s+(?:always\s+|only\s+)?${PARTICIPLE}\s+(?:on|onto|into|before|after|with|by|against|from|through|in|once|when|whenever)\s+\p{L}`, 'iu'),
  new RegExp(String.raw`^((?:[\p{L}-]+\s+){0,2}?[\p{L}-]+[^s\s]s)\s+(?:are|get)\s+(?:always\s+|only\s+)?${PARTICIPLE}\s+(?:onto|into|before|after|against|once|when|whenever)\s+\p{L}`, 'iu'),
  new RegExp(String.raw`^((?:[\p{L}-]+\s+){0,2}?${WORK_THING})\s+(?:are|get)\s+(?:always\s+|only\s+)?${PARTICIPLE}\s+(?:with|by|on|in|from|through|as)\s+\p{L}`, 'iu'),
  /^(?:each|every)\s+((?:[\p{L}-]+\s+){0,3}?[\p{L}-]{3,})\s+(?:(?:ships|comes|starts|begins|opens|ends)\s+with|(?:carries|includes|contains|references|links|names|lists|mentions)\s+(?:a|an|the|its|their|one|two))\s+\p{L}/iu,
];
// A pronoun anywhere in a rule's subject ("a few of them") leans on what was said before; "that"
// opens a relative clause there ("an invoice that went out").
const PRONOUN_WORD = /\b(?:them|they|it|we|you|us|i|me|this|these|those)\b/iu;
// A rule's subject that leans on what was said before ("this is only shown to …").
const POINTING_SUBJECT = /^(?:it|this|that|these|those|there|they|he|she|which|what|who|i|we|you)\b/iu;
// Words that report a failure or the state of the work, which a rule of the product does not.
const SYMPTOM_OF_RULE = /\b(?:wrong|broken|errors?|crash\w*|fail\w*|bug\w*|still|again|anymore|yet|weird|flaky|stuck)\b/iu;
// Items of the work itself, whose handling is progress rather than a rule of the product.
const WORK_ITEM = /\b(?:tasks?|steps?|items?|todos?|issues?|tickets?|changes?|edits?|fixes?|errors?|warnings?|problems?|bugs?|pr|prs|diffs?|patch(?:es)?)\b/iu;
// "<doing>ing [a|the …] <thing> <does>s <two or more words>": an action and the product's response.
const ACTION_RESPONSE = /^(?:(?:also|and|so|plus|note)[,:]?\s+)*(\p{L}{3,}ing)(\s+(?:(?:a|an|the|any|every|each|your|someone['’]s)\s+)?(?:\p{L}[\p{L}-]*(?<!ly)\s+){0,2}?\p{L}[\p{L}-]{2,}(?<!ly))\s+(?!(?:is|was|has|does|looks|seems|appears|needs|means|makes|takes|helps|works|fixes|breaks|shows|tells|gives)\b)\p{Ll}{3,}(?<![su]s)s\s+\S+(?:\s+\S+)+/u;
// Gerunds of the work on the code rather than of using the product, and nouns and adjectives in -ing.
const WORK_ACTION = /^(?:interest|someth|noth|everyth|anyth|morn|even|str|th|dur|br|k|r|sp|warn|ceil|head|sett|pend|load|look|check|read|runn|rerunn|re-runn|search|grepp|test|debugg|try|add|remov|chang|renam|call|us|fix|updat|mov|edit|print|logg|go|gett|hav|do|mak|be|see|keep|writ|build|import|instal|deploy|merg|commit|push|pull|restart|clear|revert|refactor|bump|pinn|upgrad|downgrad|mock|stubb|patch|wrapp|split|extract|inlin|comment)ing$/iu;
// Things of development named in the action: "running the migration script locally …".
const DEVELOPMENT_WORD = /\b(?:tests?|specs?|suites?|builds?|lint\w*|files?|lines?|code|functions?|methods?|modules?|imports?|scripts?|commands?|branch(?:es)?|commits?|caches?|locks?|dependenc(?:y|ies)|packages?|servers?|containers?|migrations?|logs?|configs?|env)\b/iu;
const POINTING_WORD = /\b(?:its|their|his|her|my|our|it|them|this|that|these|those|you|we)\b/iu;
// A check of the work: "selling correctly reduces the stock" reports that the code does it.
const VERIFIED = /\b(?:correctly|properly|as expected|as intended|appears?|seems?|looks?)\b/iu;
const FIX_WORD = /\b(?:fix\w*|solv\w*|resolv\w*|workaround|patch\w*)\b/iu;
// Where the main clause of a description ends: a clause of result, reason or contrast, a semicolon or a colon.
const MAIN_CLAUSE_END = /[;:]|,\s+(?:so|which|and|but|because|since|while|whereas|as|then)\s|\s(?:so that|because|since)\s/iu;
// The tests and their fixtures are the work, not the product: "the fake clock in the tests is fixed".
const TEST_WORD = /\b(?:tests?|specs?|fixtures?|mocks?|fakes?|stubs?)\b/iu;
// The layers of the code: "the repository layer builds its SQL by hand".
const CODE_NOUN = /\b(?:repository|repositories|layer|sql|query|queries|schema|columns?|handlers?|mappers?|logger|logging|middleware|callers?|imports?)\b/iu;
// A clause with a verb or "there" before a colon: "there's a catch: …", "the naming is off: …".
const CLAUSE_BEFORE_COLON = /^[^:]*(?:\b(?:is|are|was|were|there)\b|['’]s\b)[^:]*:/iu;
// "Yes, …", "No, …": an answer about the work at hand.
const ANSWER_LEAD = /^(?:yes|no|yeah|yep|nope)\b/iu;
// "is working", "are being parsed": the state of things right now, not how they are meant to work.
const PROGRESSIVE = /\b(?:is|are)\s+(?:now\s+|still\s+|being\s+)?\p{L}{2,}ing\b|\b(?:is|are)\s+being\b/iu;
// A label of a few words ending in a colon, followed by a sentence in lower case.
const LABEL_LEAD = /^(?![^:]*(?:\b(?:is|are|was|were|there)\b|['’]s\b))[^:;`]{3,60}:\s+(?=\p{Ll})/iu;
// Names in the form of code: a code span, a dotted or snake_case name, a camelCase word.
const CODE_LIKE = /[`_]|\b\w+\.\w+\b|\b\p{Ll}+\p{Lu}/u;
// A thing of the product and what it can or may do: "a gift card can cover part of an order",
// "each workspace may hold three projects".
const CAPABILITY = /^(?:the|a|an|every|each|any|all|our)\s+(?!(?:i|we|you|it|this|that|these|those|there)\b)(?:[\p{L}-]+\s+){0,3}?(?:can|may|must|cannot)\s+(?:only\s+|also\s+|not\s+)?(?!(?:be|have|get|do|see|help|try|check|look|use)\b)\p{L}{3,}/iu;
// "[the] <noun> <in|of|for …> [the] <words> <verb> <two or more words>".
const QUALIFIED_SUBJECT = /^(?:(?:the|every|each|all|our|any)\s+)?(?!(?:i|we|you|it|this|that|these|those|there|they|one|most|some|none|all|any|each|part|rest)\b)(?:[\p{L}-]+\s+){0,2}?\p{L}[\p{L}-]+\s+(?:in|of|on|for|from|at|under|across)\s+(?:(?:the|a|an|each|every|any|our|their|its)\s+)?(?:[\p{L}\p{N}-]+\s+){0,2}?[\p{L}\p{N}-]+\s+(?!(?:is|are|was|were|has|have|had|did|does|do|can|could|will|would|should|must|may|might|looks?|seems?|and|or|but|than|that|which|who|to|as|so|the|a|an)\b)(\p{Ll}{3,})\s+(?:\S+\s+)+\S/iu;
// A code span or an upper-case prefix right before the kind of thing it names: "a `spec` folder", "the APP_ prefix".
const NAMED_KIND = /(?:`[^`/\s]{1,40}`|\b[A-Z][A-Z0-9]{1,15}_)\s+(folder|directory|dir|prefix|suffix|namespace|branch|extension)\b/gu;
// Doing something as it is done elsewhere in the project.
const CONFORMITY = /\b(?:as (?:every|each|all(?: the)?) (?:[\p{L}-]+\s+){1,2}?(?:here|in (?:this|the|our) (?:repo|codebase|project|service|app|package))\b|(?:the )?same way (?:as )?(?:the|we|our|every|all|everything)|same\s+(?:[\p{L}-]+\s+){1,2}(?:as\s+|that\s+)?(?:every|each|all(?: the)?|any)\s+other\b|like (?:every|each|all|any) (?:of the )?other|like (?:the|all the) (?:rest|others?)\b(?!\s+(?:times?|days?|weeks?|ones?|cases?|runs?|attempts?|tries|way)\b)|(?:like|as) the rest of\b|as (?:(?:in|for) )?(?:the rest|every other|all other|everywhere else)|(?:the )?same as (?:the existing [\p{L}-]+s\b|the rest\b|every other|all (?:the )?other)|(?:matching|to match|in line with|consistent with) (?:the rest|every other|all (?:the )?other|the existing|how (?:the|we|our))|like everywhere else|which is how (?:the|we|our|every|all))/iu;
// Everyone of a kind and what they have or may do: "anyone with a staff role has two-factor
// sign-in turned on", "everyone on a team sees the shared folder".
const PEOPLE_OF_A_KIND = /^(?:anyone|anybody|everyone|everybody|nobody)\s+(?:with|in|on|who|from|at|outside|inside)\s+[^,;]{3,60}?\s+(?:has|have|gets?|can|may|sees?|must|needs?|keeps?|receives?|is|are)\b/iu;
// What every thing of a kind has or needs: "every pull request description has a testing
// checklist", "each tenant gets its own schema".
const EVERY_ONE_HAS = /^(?:every|each|all)\s+(?!(?:of|time|one|day|week)\b)(?:[\p{L}-]+\s+){0,3}?(?:now\s+)?(?:has|have|gets?|needs?|carries|carry|keeps?|writes?|records?|creates?|triggers?|leaves?|requires?)\s+(?:(?:a|an|the|its|their|one|two|three|own)\s+)?\p{L}/iu;
// A lead of a few words, none of them a verb of being, ending in "that".
const THAT_LEAD = /^((?:(?!(?:is|are|was|were|be|been|so|such|now)\b)[\p{L}'’-]+\s+){1,4}?)that\s+/iu;
// What may happen now or now and then ("the cache can return stale data here") is a finding, not a capability.
const OCCASION = /\b(?:here|sometimes|occasionally|currently|potentially|in theory|at times|right now)\b/iu;
// A present-tense copula before what the thing is or how it is treated: "are limited to", "is kept in".
const PRESENT_COPULA = /\b(?:is|are)\s+(?:not\s+|only\s+|always\s+|never\s+)?\p{L}/iu;
// The state of the work at hand rather than of the product: "is now simpler", "is done", "is green".
// "Now" after another verb dates a standing description ("requests go through undici now").
const WORK_STATE = /\b(?:(?:is|are)\s+now|now\s+(?:is|are)|for now|done|finished|ready|green|red|passing|fine|good|ok(?:ay)?|clean|cleaner|simpler|better|easier|harder|faster|slower|unused|unchanged|covered|up to date|in place|inconsistent|consistent|messy|manageable|normal|expected|looks?|problem|issue|finding|risk)\b/iu;
// A thing said to be finished or working as a whole reports on the work: "the refactor is complete",
// "everything is wired up", "the export works end to end".
const FINISHED_STATE = /\b(?:is|are)\s+(?:now\s+|all\s+|fully\s+)?(?:complete|completed|(?:wired|hooked)\s+up(?!\s+(?:to|with)\b))\b|\bworks?\s+(?:now|again|fine|correctly|as expected|end[- ]to[- ]end)\b|^(?:everything|all of it|the rest)\b/iu;
// "Since/Because/Given that <premise>, I|we …": a reason, then the speaker's own action.
const LEADING_PREMISE = /^(?:(?:and|so|also|now)[,]?\s+)*(?:since|because(?! of\b)|given that|seeing that|now that)\s+([^,;:]{10,200}?),\s+(?:(?:so|then)\s+)?(?:i|we)(?:['’](?:ve|ll|m|d))?\s/iu;
// "To keep <the product> <working so>, I|we …": the state the work must preserve, then the work.
const PURPOSE_PREMISE = /^(?:(?:and|so|also)[,]?\s+)*(?:to|in order to)\s+(?:keep|make sure|ensure|guarantee)\s+((?:that\s+)?[^,;:]{10,200}?),?\s+(?:i|we)(?:['’](?:ve|ll|m|d))?\s/iu;
// "<premise>, so I|we …": a fact, then what the speaker did about it; "<premise>, which is why …":
// a fact given as the reason for anything.
const TRAILING_PREMISE = /^(?!(?:i|we|you|let['’]s|let me)\b)([^,;:]{10,200}?),\s+(?:which is why|that['’]s why|that is why|so)\s+(?:i|we)(?:['’](?:ve|ll|m|d))?\s/iu;
const REASON_PREMISE = /^(?!(?:i|we|you|let['’]s|let me)\b)([^,;:]{10,200}?),\s+(?:which is why|that['’]s why|that is why)\s/iu;
// "Since <premise>, <anything>": a reason for a result that is not the speaker's work; the premise
// must then describe how the product behaves.
const LEADING_REASON = /^(?:(?:and|so|also|now)[,]?\s+)*(?:since|because(?! of\b)|given that|seeing that)\s+([^,;:]{10,200}?),\s+\S/iu;
// "I|We <did something>[,] since|because <premise>": the speaker's work, then the standing reason for
// it; the premise must then describe how the product behaves ("I checked the layout at 360 px
// since the screens have to hold up on small phones").
const ACTION_AND_REASON = /^(?:(?:so|and|also|now)[,]?\s+)*(?:i|we)(?:['’](?:ve|ll|d))?\s+(?:[^,;:]|(?<=\d):(?=\d)){3,150}?(?:,?\s(?:since|because(?! of\b)|given that)|,\s+as)\s+([^,;:]{10,200}?)[.!]?$/iu;
const PREMISE_SHAPES: readonly { pattern: RegExp; needsBehaviour: boolean }[] = [
  { pattern: LEADING_PREMISE, needsBehaviour: false },
  { pattern: PURPOSE_PREMISE, needsBehaviour: false },
  { pattern: TRAILING_PREMISE, needsBehaviour: false },
  { pattern: REASON_PREMISE, needsBehaviour: false },
  { pattern: LEADING_REASON, needsBehaviour: true },
  { pattern: ACTION_AND_REASON, needsBehaviour: true },
];
// "<behaviour>, because <standing reason>."
const JUSTIFIED_BEHAVIOUR = /^(?!(?:i|we|you|let['’]s|let me)\b)([^,;:]{10,200}?),?\s+because\s+(?!of\b)([^,;:]{10,200}?)[.!]?$/iu;
// Words of a lead looked past before a premise.
const MAX_LEAD_WORDS = 12;
// Leads that report an observation or a guess rather than restate what holds.
// Leads that report an observation or a guess, or plan the speaker's next step, rather than restate what holds.
const INFERENCE_LEAD = /\b(?:notic\w*|see|saw|seen|found|find|think|thought|suspect\w*|guess\w*|believe\w*|looks?|seems?|appears?|verif\w*|check\w*|confirm\w*|reali[sz]\w*|hop(?:e|ed|ing)|wonder\w*|doubt\w*|sure|possible|likely|means?|so|need\w*|ensur\w*|want\w*|plan\w*|try\w*|will|going|let)\b/iu;
const CLAUSE_OPENING = /^(?:since|because|given|seeing|to|in order|the|a|an|every|each|all|any|no|our|their|its|both|new)\s/iu;
const SPEAKER_WORD = /(?<![\p{L}\p{N}_'’])(?:i(?:['’](?:ve|ll|m|d))?|me|my|we(?:['’](?:ve|ll|re|d))?|us|our|you(?:['’](?:ve|ll|re|d))?|your|let['’]s|they|he|she|user)(?![\p{L}\p{N}_'’])/iu;
// What happened once or what went wrong is a diagnosis, not a standing fact.
// So is the state of the work at hand ("the file already has the fields", "the task seems done").
const PREMISE_PAST = /\b(?:was|were|had|did|didn['’]t|wasn['’]t|weren['’]t|hasn['’]t|haven['’]t|used to|already|yet|appears?|seems?|exists?)\b/iu;
const PREMISE_FAILURE = /\b(?:wrong|broken|crash\w*|fail(?:s|ed|ing|ures?)?|bug\w*|flaky|stuck|missing|undefined|null|exception|regression|typo)\b/iu;
// A premise about a piece of code describes the code as it is now: "`load` returns null", "the helper is only called once".
// So is one about the agent's instructions and tasks, or one that names a file.
// Nouns that name the work only ("change", "edit", "line", "step") also name things of the product
// after a noun of the product ("price edits", "order lines", "checkout step"): they count as code
// alone or after a word about the work ("the last change", "this edit").
const CODE_PREMISE = /`|\b[\w-]+\.[a-z]{1,4}\b|^(?:(?:but|and|so|also)\s+)?(?:(?:the|this|that|these|those|its|their|no)\s+)?(?:[\p{L}\p{N}.-]+\s+)?(?:function|method|class|file|module|variable|helper|constant|loop|branch|diff|patch|import|caller|callers|signature|code|codebase|snippet)s?\b|^(?:(?:but|and|so|also)\s+)?(?:(?:the|this|that|these|those|its|their|no|my|your|our)\s+)?(?:(?:last|previous|new|first|next|same|whole|small|big|latest|recent|current|other|remaining|one|two|code|config|test|type|import)\s+)?(?:change|type|line|lines|task|todo|instruction|edit|step)s?\b|^(?:(?:but|and|so|also)\s+)?(?:it|this|that|these|those|there)\b/iu;
// "The ticket says …", "the spec requires that …", "I double-checked the requirements: …".
const ATTRIBUTION = /^(?:(?:also|and|oh|btw)[,]?\s+)*(?:(?:(?:the|our|your|this|that)\s+)?(?:[\p{L}-]+\s+){0,2}?(?:ticket|spec|specification|brief|contract|issue|story|requirements?|docs?|documentation|design|rfc|product owner|client|customer|pm)\s+(?:says?|states?|specifies|requires|mentions|spells out|is clear)(?:\s+that)?|(?:keep(?:ing)?|bear(?:ing)?) in mind(?:\s+that)?|remember(?:ing)?(?:\s+that)?|(?:i['’]m|i am)\s+assuming(?:\s+that)?|(?:that|which)\s+means(?:\s+that)?|in other words|assuming(?:\s+that)?|i take it(?:\s+that)?|as i understand it|my understanding is(?:\s+that)?|(?:just\s+)?to (?:confirm|be clear|recap)(?:\s+the\s+[\p{L}-]+)?|for (?:the record|reference|context)|(?:it['’]s\s+)?worth\s+(?:noting|knowing|remembering|keeping in mind)(?:\s+that)?|(?:the|one|our)\s+(?:constraint|requirement|rule|expectation|agreement|catch)(?:\s+(?:from|in|of)\s+(?:the\s+)?[\p{L}-]+(?:\s+[\p{L}-]+)?)?\s+is\s+that)[,:]?\s+/iu;
// A lead that names a requirement as the source: "the spec says", "the requirement is that".
const REQUIREMENT_SOURCE = /^(?:(?:also|and|oh|btw)[,]?\s+)*(?:(?:(?:the|our|your|this|that)\s+)?(?:[\p{L}-]+\s+){0,2}?(?:ticket|spec|specification|brief|contract|issue|story|requirements?|acceptance criteria)\s+(?:says?|states?|specifies|requires|spells out)|(?:the|one|our)\s+(?:constraint|requirement|rule|expectation)(?:\s+(?:from|in|of)\s+(?:the\s+)?[\p{L}-]+(?:\s+[\p{L}-]+)?)?\s+is\s+that|(?:from|per|according to|going by)\s+(?:the\s+)?(?:[\p{L}-]+\s+)?(?:spec|specification|brief|contract|ticket|requirements?(?:\s+doc)?|acceptance criteria)[,:])/iu;
// A short lead that says where a statement comes from ("From the spec, …", "As agreed, …") or
// labels it ("Requirement: …", "I checked the brief: …"). A subordinate clause ("When a refund is
// issued, …") or a statement before a colon ("The value is converted twice: …") is not one.
const SHORT_LEAD = /^\(?(?:(?:from|per|according to|as(?! (?:soon|long|far) as\b)|based on|going by)\s[^,:;()]{1,35}[,:]|(?:(?!(?:is|are|was|were|has|have)\s)[^,:;()\s]+\s){0,4}(?!(?:is|are|was|were|has|have):)[^,:;()\s]+:)\s+/iu;
const FENCED_BLOCK = /^\s{0,3}(```|~~~)[^\n]*\n[\s\S]*?(?:^\s{0,3}\1[^\n]*$|$(?![\s\S]))/gmu;
const CODE_SPAN = /`[^`\n]*`/gu;
const LEAD = String.raw`^(?:(?:ok(?:ay)?|so|also|and|alright|right|great|thanks|hey|hi)[,!.]?\s+)*`;
const REQUEST_OPENING = new RegExp(
  `${LEAD}(?:please\\b|(?:can|could|would|will) you\\b|(?:can|could) we\\b|i(?:'d| would) like\\b|i want\\b|i need\\b|we need\\b|make sure\\b|let['’]s\\b)`,
  'iu',
);
const IMPERATIVE_OPENING = new RegExp(
  `${LEAD}(?:add|make|fix|change|implement|update|use|keep|set|ensure|remove|rename|move|write|create|refactor|switch|replace|support|handle|build|drop|limit|cap|reject|return|allow|stop|start|don['’]t|never|always)\\b`,
  'iu',
);
// What follows a condition when it asks the listener for something: "…, just send it again".
const REQUEST_AFTER_CONDITION = new RegExp(`^(?:just|please|simply|then|feel free|go ahead|ping|let me know|tell me)\\b|${IMPERATIVE_OPENING.source}`, 'iu');
// A sentence narrating the speaker's own finished work.
const REPORT_SENTENCE = /^(?:(?:ok(?:ay)?|done|great|alright)[,:!.]?\s+)*(?:i(?:['’]ve| have)?\s+(?:just\s+|also\s+|now\s+)?\p{L}+ed\b|i\s+(?:ran|wrote|made|put|took|kept|found|saw|read|set)\b|(?:done|fixed|added|updated|changed|removed|renamed|moved|implemented)\b)/iu;

// Speakers planning or doing work themselves are not the software behaving.
const SPEAKER_AS_ACTOR = /^(?:(?:ok(?:ay)?|so|also|and|then|now|next|first)[,]?\s+)*(?:i|we|you|let['’]s|let me|let us)\b(?!['’]d like the)/iu;
const RELATIVE_PRONOUN = /^(?:which|that|who|whom|whose|where)$/iu;
const PRONOUN_SUBJECT = /^(?:i|we|you|they|he|she|it|this|that|these|those|there|which|who|someone|somebody|one)$/iu;
// "This should pass now", "it should work again": a hope about the work at hand.
const HOPE = /^(?:(?:ok(?:ay)?|so|and|now)[,]?\s+)*(?:this|that|it|these|those|the (?:fix|change|tests?|suite|build|patch|test run))\s+(?:should|ought to|must)\s+(?:now\s+)?(?:pass|work|fix|help|do it|be (?:fine|green|good|ok(?:ay)?|enough|it)|go|solve|clear|resolve)\b/iu;
const PAST_NARRATION = /^(?:(?:so|and|then|earlier|yesterday)[,]?\s+)*(?:i|we)\s+(?:\p{L}+ed|ran|wrote|made|saw|found|did|had|was|were)\b|\b(?:was|were)\s+(?:\p{L}+ed|supposed)\b.*\b(?:but|until)\b/iu;
// "<subject> must/should/needs to <verb>": captures the subject and the verb.
const OBLIGATION = /^(?:(?:also|and|plus|so|note|remember|ideally)[,:]?\s+)*((?:(?!(?:must|should|shall|needs?|has|have|is|are|ought|cannot|can['’]t|may|can)\b)[\p{L}\p{N}`'’./_-]+\s+){1,8})(?:must|should|shall|needs? to|has to|have to|(?:is|are) (?:required|expected|supposed|meant|obliged) to|(?:is|are) to(?= be\b)|ought to|cannot|can['’]t|can only|may only|may not|must not|mustn['’]t|shouldn['’]t|should not|never|always)\s+(?:not\s+|never\s+|always\s+|only\s+|still\s+|also\s+)*(\p{L}+)/iu;
// "<subject> must/has to/is expected to <verb>": an obligation without the softer "should".
const FIRM_OBLIGATION = /^(?:(?:also|and|plus|so|note|remember)[,:]?\s+)*((?:(?!(?:must|should|shall|needs?|has|have|is|are|ought|cannot|can['’]t|may|can)\b)[\p{L}\p{N}'’./_-]+\s+){1,8})(?:must|needs? to|has to|have to|(?:is|are) (?:required|expected|obliged) to|cannot|can['’]t|can only|may only|may not|must not|mustn['’]t)(?!\s+have\s+(?:been|\p{L}+(?:ed|en))\b)\s+(?:not\s+|never\s+|always\s+|only\s+|still\s+|also\s+)*(\p{L}+)/iu;
// Verbs a speaker uses about looking into things, not about how software behaves.
const INSPECTION_VERB = /^(?:check|look|see|try|investigate|read|dig|figure|find|ask|wait|think|guess|mention|probably|maybe)$/iu;
const ACCEPTANCE = /^(?:acceptance criteria|definition of done|done when|requirements?|spec|given\b.*\bwhen\b.*\bthen)\b|^(?:users?|customers?|admins?|visitors?|clients?|callers?)\s+(?:must|should|need to|have to)\s+be able to\b|^it (?:must|should|has to|needs to) be possible to\b/iu;
// "When/if X, the system responds": a condition, then the response in the present tense.
const CONDITION_AND_RESPONSE = /^(?:(?:also|and|plus|so)[,]?\s+)*(?:when|whenever|if|once|after|before|unless|on|with(?=\s+(?:no|zero|(?:a|an)\s+(?:empty|expired|invalid|missing|unverified|unpaid|unconfirmed|closed|locked|cancelled|failed|blank)\s))|without(?=\s+(?:a|an|any)\s))\s+(?!(?:i|we|you)\b)(?:[^,]{3,90},\s*(?:the\s+|a\s+|an\s+|every\s+|each\s+|all\s+|its\s+|their\s+)?|[^,]{3,90}?\s+(?:the|a|an|every|each|all|its|their)\s+)(?!(?:i|we|you|it|this|that)\b)[\p{L}\p{N}`'’./_-]+(?:\s+[\p{L}\p{N}`'’./_-]+){0,3}\s+(?:returns?|responds?|answers?|shows?|displays?|rejects?|refuses?|redirects?|logs?\s+(?:them|the|it|users?)|expires?|retries?|queues?|blocks?|exits?|throws?|raises?|falls back|times out|locks?|sends?|emails?|notifies|fails?|aborts?|stops?|keeps?|stays?|gets?\s+\p{L}+ed|(?:is|are)\s+(?:\p{L}+ed|kept|sent|shown|held|thrown|rejected|dropped)|(?<=(?:^|[\s,])(?:the|a|an|every|each|all|its|their)\s+(?:[\p{L}\p{N}`'’./_-]+\s+){0,2}[\p{L}\p{N}`'’./_-]+\s+)\p{L}{3,}s)\b/iu;
// What nothing of a kind may do: "no batch may run on a holiday", "no invoice can be edited after it is sent".
const PROHIBITION = /^(?:(?:and|so|also)[,]?\s+)*no\s+(?!(?:one|idea|problem|worries|need|way|longer|matter)\b)(?:[\p{L}-]+\s+){1,4}?(?:may|can|is allowed to|are allowed to|gets? to)\s+(?:ever\s+)?(?:be\s+)?\p{L}{3,}/iu;
// A rule for every thing of a kind: "clients that miss the heartbeat are disconnected".
const RULE_FOR_KIND = /^(?:(?:any|all|every|each|the)\s+)?(?:[\p{L}-]+\s+)?\p{L}{3,}s\s+(?:that|which|who|whose)\s+[^,.;]{3,80}?\s+(?:are|get|will be)\s+(?:automatically\s+|immediately\s+)?\p{L}{3,}(?:ed|en)\b/iu;
// The system's response, then its condition: "the form locks people out once they fail five times".
const RESPONSE_AND_CONDITION = /^(?:(?:the|a|an|every|each|any|all)\s+)(?!(?:i|we|you|it|this|that)\b)(?:[\p{L}\p{N}`'’./_-]+\s+){0,3}?(?:(?!(?:was|has|is|does|uses)\b)\p{L}{3,}s|(?:is|are)\s+\p{L}{3,}ed)\b[^,;]{0,60}?\s(?:when|whenever|once|if|unless|as soon as)\s+(?:the|a|an|any|every|each|its|their|they|it|he|she|someone|somebody|no|two|three|several|both|\d+|\p{L}{3,}s)\b/iu;
// A thing of the product doing something in the present tense, with a quantity: "drafts autosave
// every 30 seconds", "invites stop working 48 hours after they are sent".
const QUANTIFIED_BEHAVIOUR = /^(?:(?:the|all|every|each|any|our)\s+)?(?!(?:i|we|you|it|this|that|these|those|there|he|she|they|here)\b)(?:[\p{L}-]+\s+){0,2}[\p{L}-]+\s+(?!(?:is|are|was|were|has|have|had|did|does|do|took|takes|take|looks?|seems?|went|got|ran|made|hit|came|saw|said)\b)(?![\p{L}]+ed\b)\p{Ll}{3,}\b[^.;:]{0,50}?(?<![\p{L}\p{N}_.])\d+(?:\.\d+)?\s?(?:ms|milliseconds?|s|secs?|seconds?|minutes?|mins?|hours?|h|days?|weeks?|months?|years?|[KMGT]i?B|%|items?|rows?|requests?|retries|times|attempts|characters|digits|percent|per ?cent|euros?|dollars?|pounds?|cents?|points?|pixels?|px|seats?|users?|calls|messages|emails|events|jobs|connections|records|files)(?![\p{L}\p{N}_])/iu;
// The same with a named header, cookie, parameter or flag: "clients pick the version through the
// `X-Api-Version` header".
const NAMED_INTERFACE = /^(?:(?:the|all|every|each|any|our)\s+)?(?!(?:i|we|you|it|this|that|these|those|there|he|she|they|here)\b)(?:[\p{L}-]+\s+){0,2}[\p{L}-]+\s+(?!(?:is|are|was|were|has|have|had|did|does|do|took|takes|take|looks?|seems?|went|got|ran|made|hit|came|saw|said)\b)(?![\p{L}]+ed\b)\p{Ll}{3,}\b[^.;:]{0,50}?\b(?:through|via|using|with|in|from|by)\s+(?:the|a|an)\s+(?:`[^`]+`|[A-Z][\w]*[-_][\w-]+|[A-Z]{2,}\w*)\s+(?:header|cookie|query (?:parameter|param|string)|param(?:eter)?|flag|claim|scope|env(?:ironment)? var(?:iable)?)\b/iu;
// A subject made of a few words after a determiner, then a verb in the present tense.
const PRESENT_DESCRIPTION = /^(?:the|every|each|all|our|new)\s+(?!(?:i|we|you|it|this|that|these|those|there)\b)(?:[\p{L}-]+\s+){0,3}?(?!(?:is|was|has|does|looks|seems|keeps|needs|goes|gets)\b)\p{Ll}{2,}(?:s|es)\s+\p{L}/iu;
// A subject of plural things without a determiner, then a verb in the base form and at least three
// more words: "exported sheets open with a header row", "overdue invoices move to the collections queue".
const BARE_PLURAL_DESCRIPTION = /^(?:(?:also|and|oh|ah|plus)[,]?\s+)*(?!(?:i|we|you|it|this|that|these|those|there|they|things|people|guys|folks|thanks|tests|specs|logs|errors|warnings|builds|numbers|results)\b)(?:\p{L}[\p{L}-]*\s+){0,2}?\p{L}\p{Ll}+[^s\s]s\s+(?!(?:are|were|have|had|do|did|can|could|will|would|should|must|may|might|need|look|seem|feel|appear|still|also|just|now|then|keep|get|got|and|but|nor|yet|for|the|with|from|into|than|not)\b)((?:go|\p{Ll}{3,})(?<!ed|ly|s))\s+(?=(?:\S+\s+)*?(?:the|an|with|to|of|for|in|on|by|from|at|after|before|every|each|through)\s)(?:\S+\s+){2,}\S/iu;
const PURPOSE_OR_RESULT = /\s(?:so(?: that)?|because|since|which|in order to)\s/iu;
const ANAPHOR = /\b(?:this|that|it|them|these|those)\b/iu;
// Words that report a failure rather than describe how a thing works.
const SYMPTOM = /\b(?:wrong|broken|blank|empty|errors?|crash\w*|fail\w*|hangs?|freezes?|leaks?|stalls?|times? out|complain\w*|confus\w*|annoy\w*|anymore|still|again|nothing|weird|strange|stuck|slow\w*|bug\w*|instead of|since|doesn['’]t|don['’]t|won['’]t|can['’]t|isn['’]t|never)\b/iu;
// A verb in the past tense: what happened once, not how the software behaves.
const PAST_WORD = /(?<![\p{L}-])(?:\p{L}{2,}ed|grew|took|ran|went|got|made|hit|came|saw|said|was|were|had|did|found|fell|rose|left|became|began|broke|built|threw|wrote|spent|stood|brought|thought|told)(?![\p{L}-])/iu;
// The tools of development are not the software: "the test fails when …" is a diagnosis.
const DEVELOPMENT_SUBJECT = /^(?:(?:the|a|an|every|each|any|all)\s+)?(?:[\p{L}-]+\s+){0,2}?(?:tests?|specs?|suite|build|linter|compiler|ci|pipeline|script|command|bundler)\b/iu;
// What someone may do, within a bound: "customers can ask for a refund up to 30 days after …".
const PERMISSION = /^(?:(?:the|all|every|each|any|our)\s+)?(?:[\p{L}-]+\s+){0,2}?[\p{L}-]+\s+(?:can|may|are allowed to|is allowed to)\s+(?:only\s+)?\p{L}{3,}/iu;
// A bound on a quantity.
const BOUND = /\b(?:bigger|larger|longer|shorter|more|fewer|less|greater|higher|lower|older|newer|smaller)\s+than\s+\d|\b(?:over|above|below|under|beyond|exceeding|at least|at most|no more than|no less than|up to|within|after|every|for|maximum of|minimum of|max(?:imum)?|min(?:imum)?)\s+(?:of\s+)?\d|\b(?:after|within|for|every)\s+(?:a|an|one)\s+(?:second|minute|hour|day|week|month|year|quarter)\b/iu;
// What software does about a bound: refuses, accepts, limits, expires …
const BEHAVIOUR_VERB = /\b(?:(?:is|are|get|gets)\s+(?:automatically\s+)?(?:\p{L}+ed|\p{L}+en|kept|sent|shown|held|thrown|hidden|written|set|cut|rejected|refused|turned away|blocked|dropped|truncated|capped|limited|throttled|denied|split|paginated|retried|expired|archived|deleted|purged|flagged|cut off)|rejects?|refuses?|accepts?\s+only|only\s+accepts?|caps?|limits?|truncates?|throttles?|expires?|times out|fails?|denies|blocks?|allows?\s+(?:only|up to|at most))\b/iu;
// "set/configure/change X to <value>".
const SET_TO = /^(?:(?:please|also|and|so|just)[,]?\s+)*(?:set|configure|change|bump|raise|lower|increase|decrease|reduce|make)\s+(?:the\s+)?(?:[\p{L}\p{N}`'’./_-]+\s+){0,4}?(?:to|=)\s+(?:`[^`]+`|"[^"]+"|'[^']+'|\d)/iu;
// An upper-case name, a flag or a code span given a value.
const NAMED_SETTING = /(?:\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|(?<![\p{L}\p{N}])--?[a-z][\w-]+|`[^`\s]{2,40}`)\s*(?:=|:|is|are|should be|must be|stays at|stays|defaults to|to)\s*(?:`[^`\n]*[\d"'][^`\n]*`|`(?:true|false|on|off|none|null)`|"[^"]+"|'[^']+'|\d|true\b|false\b|on\b|off\b)/u;
// A thing of the product given a new named value: "the export formats become CSV and XLSX",
// "printing moves to A4 paper", "the default region is now EU-West".
const CHANGED_TO_VALUE = /^(?:(?:[Tt]he|[Oo]ur|[Aa]ll|[Ee]very|[Ee]ach)\s+)?(?!(?:I|[Ww]e|[Yy]ou|[Ii]t|[Tt]his|[Tt]hat|[Tt]hese|[Tt]hose|[Tt]here|[Hh]e|[Ss]he|[Tt]hey)\b)(?:[\p{L}\p{N}-]+\s+){0,4}?(?:becomes?|moves? to|switch(?:es)? to|changes? to|(?:is|are) now)\s+(?:`[^`]+`|"[^"]+"|[A-Z][\p{L}\p{N}-]*[A-Z0-9][\p{L}\p{N}-]*|\p{Lu}\p{Ll}+(?![\p{L}\p{N}_-]))/u;
// "[the] <words> <setting noun> [for/of/on <words>] is/are <value>".
const SETTING_NOUN_VALUE = /^(?:(?:also|and|plus|so|note)[,:]?\s+)*(?:the\s+|our\s+|all\s+|every\s+|default\s+)?(?:[\p{L}\p{N}`./_-]+\s+){0,3}?(?:timeouts?|limits?|size|sizes|ttl|intervals?|thresholds?|retries|retry count|ports?|concurrency|delays?|expiry|cap|quota|budget|level|depth|window|length|rate|capacity|workers|batch|page size|pool size)(?:\s+(?:for|of|on|in|per)(?:\s+[\p{L}\p{N}`./_-]+){1,4}?)?\s+(?:is|are|should be|must be|stays at|stays|defaults to|goes to|becomes)\s+(?:now\s+|always\s+|still\s+)?(?:`[^`]+`|\d[\d.,]*\s*(?:\p{L}{1,7}|%)?)(?=[\s.,;!)]|$)/iu;

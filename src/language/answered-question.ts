// A short reply carries no durable wording of its own: "NATS, please", "90 seconds", "the second
// one", "yes, pin it". The question the other party just asked supplies the subject ("Which
// broker should the job queue use?"), so the pair is read as one statement. Whether a reply
// answers is decided by shape, not wording: a question about a subject (two topic words) answered
// with a value, a name or a pick, or a question that proposes something concrete (a value, a
// version, a name) answered with an agreement. Chatter keeps its shape too: "want me to run the
// tests?" → "sure" proposes nothing concrete, and "how's it going?" has no subject.

import type { PatternMatcher } from '../boundaries/pattern-pack.js';
import { countSpecifics, type SalienceRole } from './salience.js';

/** A question and the short reply that answers it, for {@link answeredQuestion}. */
export interface AnsweredQuestion {
  /** The question, with the sentence before it when the question alone names no subject. */
  readonly question: string;
  /** The reply, whitespace collapsed. */
  readonly reply: string;
}

/**
 * Pairs a short reply with the question the other party just asked, when the reply answers it:
 * the question names a subject ("What should the websocket idle timeout be?") and the reply gives
 * a value, a name or a pick ("90 seconds", "kysely", "the first one"); or the question proposes
 * something concrete ("Should I pin zod to 3.22.4?") and the reply agrees ("yes, pin it").
 * `sentences` are the sentences of the asking message, in order; `topicWords` gives the content
 * words of a text (stopwords and values left out). Returns undefined for anything else: a long
 * reply, a reply that is itself a question, a refusal or a doubt ("no thanks", "not sure"), an
 * agreement to a proposal that names nothing ("Shall I commit this?" → "yes please"), and a
 * content-free answer ("how's it going?" → "fine").
 */
export function answeredQuestion(options: {
  sentences: readonly string[];
  reply: string;
  replyRole: SalienceRole;
  matcher: PatternMatcher;
  topicWords: (text: string) => readonly string[];
}): AnsweredQuestion | undefined {
  const { matcher, topicWords } = options;
  const reply = options.reply.replace(/\s+/gu, ' ').trim();
  if (reply.length === 0 || /\n/u.test(options.reply.trim()) || QUESTION_END.test(reply)) return undefined;
  const replyWords = reply.match(WORD)?.length ?? 0;
  if (replyWords === 0 || replyWords > MAX_REPLY_WORDS || DECLINE.test(reply) || ASKS_BACK.test(reply) || LEAD_IN_END.test(reply)) return undefined;
  if (matcher.test('intention', reply) || matcher.test('greeting', reply)) return undefined;
  const question = questionOf(options.sentences, topicWords);
  if (question === undefined) return undefined;
  const questionRole: SalienceRole = options.replyRole === 'user' ? 'assistant' : 'user';
  const isAgreement = AGREEMENT.test(reply);
  // A request for work ("Could you tidy the import?") is answered by doing it, not by a value: only
  // an agreement to a concrete request is kept.
  if (!isAgreement && WORK_REQUEST.test(options.sentences[options.sentences.length - 1]?.trim() ?? '')) return undefined;
  if (isAgreement) {
    // An agreement answers a proposal: what was agreed to must be concrete.
    return countSpecifics(question, { role: questionRole }) >= 1 ? { question, reply } : undefined;
  }
  if (topicWords(question).length < MIN_SUBJECT_WORDS) return undefined;
  return carriesAnswer(reply, { question, matcher, topicWords, role: options.replyRole }) ? { question, reply } : undefined;
}

/**
 * Whether a question and its answer only give the asker a go-ahead for its own next step: "should
 * I proceed with the dry run?" → "Yes, run it", "Want me to continue?" → "sure, carry on". Nothing is chosen that outlasts the step: an answer that names a value or a name ("yes,
 * on Postgres 16") is a choice all the same.
 */
export function isGoAhead(question: string, answer: string): boolean {
  const reply = answer.replace(/\s+/gu, ' ').trim();
  return GO_AHEAD_QUESTION.test(question) && GO_AHEAD_REPLY.test(reply) && countSpecifics(reply, { role: 'user' }) === 0;
}

/** Whether a message ends in a question mark (closing quotes, brackets or markup may follow). */
export function endsInQuestion(text: string): boolean {
  return QUESTION_END.test(text.trimEnd());
}

// --- Internal helpers ---

const MAX_REPLY_WORDS = 12;
const MAX_QUESTION_WORDS = 45;
const MIN_SUBJECT_WORDS = 2;
const WORD = /[\p{L}\p{N}][\p{L}\p{N}_'’.:/-]*/gu;
const QUESTION_END = /\?\s*["')\]*_`]*$/u;
// Refusals and doubts answer nothing that should be kept: "no thanks", "nah", "not sure", "no idea".
const DECLINE = /^(?:no|nope|nah|not|never mind|nevermind|none|dunno|unsure|maybe|perhaps|hmm+|idk|i (?:don['’]t|do not) know|(?:i['’]m |i am )?not sure)\b/iu;
// An agreement opening the reply: "yes", "yep, do that", "sure, go ahead", "please do".
const AGREEMENT = /^(?:yes|yep|yeah|yup|sure|ok(?:ay)?|please|absolutely|definitely|agreed|go ahead|do it|do that|sounds good)\b/iu;
// A pick among options put in the question: "the first one", "the second", "the latter", "option 2".
const PICK = /^(?:(?:let['’]s (?:go with|take|use)|go with|take)\s+)?(?:the\s+)?(?:first|second|third|last|latter|former|other)(?:\s+(?:one|option|choice))?\b|^option\s+\p{N}\b/iu;
// A question that asks the other party to do something rather than to tell something: "Could you
// tidy the import before lunch?", "can you rerun it?" (but "could you tell me which port…?" asks).
const WORK_REQUEST = /^(?:(?:could|can|would|will)\s+you|please)\s+(?!(?:tell|say|remind|confirm|let\s+me\s+know|explain)\b)\p{L}/iu;
// A reply that asks back or proposes something else: "can we do a full export first".
const ASKS_BACK = /^(?:can|could|would|should|shall|will|do|does|did|is|are|what|why|how|where|when|which|who)\b/iu;
// A reply that announces what follows ("To launch it, you need to:") rather than answering.
const LEAD_IN_END = /:\s*$/u;
// A question that puts options: "dayjs or luxon?", "debug, warn, or error?".
const OPTIONS_PUT = /\S\s+or\s+\S/iu;
// Words sharing this many leading letters are one word for telling an echo ("continue", "continuing").
const ECHO_PREFIX = 5;
const MAX_PICKED_WORDS = 2;
const VALUE = /\p{N}|`[^`]+`|\p{L}[\p{L}\p{N}]*[-_./]\p{L}/u;

// The question sentence at the end of the asking message; with the sentence before it when the
// question alone names no subject ("I could use dayjs or luxon. Which one?").
function questionOf(sentences: readonly string[], topicWords: (text: string) => readonly string[]): string | undefined {
  const last = sentences.length - 1;
  const asked = sentences[last]?.trim();
  if (asked === undefined || !QUESTION_END.test(asked)) return undefined;
  const before = sentences[last - 1]?.trim();
  const question = topicWords(asked).length < MIN_SUBJECT_WORDS && before !== undefined && !QUESTION_END.test(before) ? `${before} ${asked}` : asked;
  return (question.match(WORD)?.length ?? 0) <= MAX_QUESTION_WORDS ? question : undefined;
}

// Whether a reply gives something: a value (number, code, a hyphenated or dotted name), a name, a
// pick among options, or a content word that is not an acknowledgement ("tailwind please"). A
// reply that only repeats the question's words agrees to it ("shall we go on?" → "let's go on"),
// unless the question put options and the reply names one of them in a word or two ("dayjs").
function carriesAnswer(
  reply: string,
  options: { question: string; matcher: PatternMatcher; topicWords: (text: string) => readonly string[]; role: SalienceRole },
): boolean {
  if (PICK.test(reply) || VALUE.test(reply) || countSpecifics(reply, { role: options.role }) > 0) return true;
  const content = options.topicWords(reply).filter((word) => !options.matcher.test('acknowledgement', word) && !options.matcher.test('chitChat', word));
  if (content.length === 0) return false;
  const asked = options.topicWords(options.question).map((word) => word.slice(0, ECHO_PREFIX));
  const isEcho = (word: string): boolean => asked.includes(word.slice(0, ECHO_PREFIX));
  if (content.some((word) => !isEcho(word))) return true;
  return OPTIONS_PUT.test(options.question) && content.length <= MAX_PICKED_WORDS;
}

// Asking leave to carry on: "should I proceed with …?", "do you want me to continue?", "ready to start?".
const GO_AHEAD_QUESTION = /\b(?:should|shall|can|may|could)\s+(?:i|we)\s+(?:now\s+|then\s+)?(?:proceed|continue|go ahead|start|begin|move on|carry on|keep going)\b|\b(?:do you )?want me to (?:proceed|continue|go ahead|start|begin|move on|carry on|keep going)\b|\bready to (?:proceed|continue|start|begin|move on)\b|^\W*(?:proceed|continue)\s*\?/iu;
// A yes, possibly with the step it allows: "Yes, run it", "yep", "sure, continue".
const GO_AHEAD_REPLY = /^(?:yes|yeah|yep|sure|ok(?:ay)?|go ahead|go for it|proceed|continue|please do|do it|sounds good)\b/iu;

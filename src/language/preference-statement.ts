// Shapes of statements that state a liking about how the work is done — code style, tools, the
// way of working — whoever says them. What makes a preference is its content: a choice between
// two named options ("A over B", "A rather than B", "A, not B"), a liking the speaker holds with
// a comparison ("I'd lean toward A rather than B"), or the assistant following a liking it
// attributes to the user ("… since that's what you like", "to match your preference"). Cue words
// alone do not decide: "I'd rather not widen the API today" names no alternative, and "if you
// like, I can …" offers rather than states.

/** Who said a sentence, for {@link isStatedPreference}. */
export type PreferenceSpeaker = 'user' | 'assistant' | 'system' | 'tool';

/**
 * Tells whether a sentence states a preference about how the work is done: a liking attributed
 * to the listener ("I sorted the imports the way you like them", "matching your taste"), a
 * speaker's own hedged liking with the alternative it is weighed against ("I'd lean toward ava
 * rather than jest", "my pick would be zod over yup"), or — from the user — a verbless choice
 * between two options ("composition over inheritance for the widgets", "tabs, not spaces") or a
 * liking the user holds ("I'd sooner have one big file than ten small ones", "not a fan of barrel
 * files"). Questions, offers ("if you prefer, I can …") and declined actions with no alternative
 * are not.
 */
export function isStatedPreference(sentence: string, options: { role: PreferenceSpeaker }): boolean {
  const text = sentence.replace(CODE_SPAN, 'code').replace(/\s+/gu, ' ').trim();
  // A liking limited to now ("I'd rather not deal with that today") is no standing preference.
  if (text.length === 0 || QUESTION_END.test(text) || OFFER.test(text) || FOR_NOW.test(text)) return false;
  const words = text.match(WORD)?.length ?? 0;
  if (words < (PREFER_RULE.test(text) ? 2 : 3) || words > MAX_WORDS) return false;
  // Following a liking of the listener: only the assistant does that in its narration.
  if (options.role === 'assistant' && words >= 6 && ATTRIBUTED_LIKING.test(text)) return true;
  // A liking held by the team or the listener, told by either speaker: "the team prefers squash
  // merges", "knowing you're not keen on default exports", "pnpm is your package manager of choice".
  if (words >= 5 && (GROUP_LIKING.test(text) || LISTENER_TASTE.test(text) || LISTENER_REMARK.test(text) || CHOSEN_NOUN.test(text))) return true;
  if (OWN_CHOICE_WORDING.test(text) && hasAlternative(text)) return true;
  // A choice the speaker marks as their own taste ("personally I'd keep migrations as raw SQL"),
  // about things of a kind rather than this one change ("personally I'd use grep here").
  if (OWN_CHOICE_WORDING.test(text) && TASTE_MARKER.test(text) && !ONE_OFF.test(text)) return true;
  // A dislike or a taste of things of a kind: "what bugs me is magic strings", "default exports
  // drive me nuts", "I find barrel files more trouble than they're worth" (not "this error is annoying").
  if (words >= 4 && (AVERSION.test(text) || GENERIC_ANNOYS.test(text) || FOUND_QUALITY.test(text) || NOT_WORTH.test(text) || TO_ME_JUDGEMENT.test(text))) return true;
  // The assistant's recommendation the user took up: "I'd recommend pino for the logs, and you agreed".
  if (options.role === 'assistant' && RECOMMENDED.test(text) && ACCEPTED.test(text)) return true;
  // A habit of the speaker's with what it is weighed against: "I usually go for early returns; the
  // nested version is harder to follow".
  if (OWN_HABIT.test(text) && (hasAlternative(text) || COMPARATIVE.test(text))) return true;
  if (options.role !== 'user') return false;
  // "my vote is for Tailwind", "my pick would be the smaller one".
  if (MY_CHOICE.test(text) && words >= 4) return true;
  if (isVerblessChoice(text)) return true;
  // A liking given as a rule in two words or more: "Prefer composition.", "favour small modules".
  if (PREFER_RULE.test(text)) return true;
  // A habit of the user's own way of working: "I tend to write the test first".
  if (words >= 5 && OWN_WAY.test(text) && !ONE_OFF.test(text)) return true;
  // A short rule with the comparative it is liked for: "one concern per commit, easier to revert".
  if (words <= MAX_REASONED_WORDS && COMPARATIVE_REASON.test(text)) return true;
  // A rule for choosing between options, or one option said to beat another.
  if (CHOICE_RULE.test(text) || COMPARED.test(text)) return true;
  // "if it's up to me, tabs", "given the choice, I'd keep one file per component".
  if (SPEAKER_CHOICE_CONDITION.test(text) && words >= 5) return true;
  return (OWN_LIKING.test(text) && words >= 4) || OWN_LEANING.test(text);
}

// --- Internal helpers ---

// Whether the sentence names the alternative a liking is weighed against.
function hasAlternative(text: string): boolean {
  return ALTERNATIVE.test(text) || OVER_ALTERNATIVE.test(text) || COMPARED.test(text);
}

// "composition over inheritance for the widgets", "plain loops over helpers, I'd say",
// "kebab-case file names, not camelCase": a short comparison with no verb of the speaker's own.
function isVerblessChoice(text: string): boolean {
  const core = text.replace(/[.!)]+$/u, '').replace(LEAD_FILLER, '').replace(TRAILING_HEDGE, '').trim();
  return VERBLESS_CHOICE.test(core) || SETTLED_PICK.test(core);
}

const CODE_SPAN = /`[^`\n]*`/gu;
const WORD = /\p{L}[\p{L}\p{N}'’-]*/gu;
const MAX_WORDS = 45;
const QUESTION_END = /\?\s*["')\]]*$/u;
// Offers and conditions: "if you prefer, I can …", "you'd like me to …", "would you like …".
const OFFER = /\bif you(?:['’]d)?\s+(?:like|prefer|want|rather)\b|\byou['’]d (?:like|prefer|rather|want) (?:me|us|to)\b|\bwould you (?:like|prefer|rather)\b|\bdo you (?:like|prefer|want)\b/iu;
const FOR_NOW = /\b(?:today|tonight|tomorrow|right now|for now|for the moment|at the moment|this (?:week|afternoon|morning|evening|sprint|time))\b/iu;
const LIKING_VERB = String.raw`(?:like|liked|likes|prefer|prefers|preferred|favou?r|favou?rs|favou?red|love|loved|dislike|disliked|hate|hated|enjoy|asked for|wanted)`;
// "since that's what you like", "the way you like them", "to match your preference",
// "your preferred two-space indentation", "given your dislike of default exports".
const ATTRIBUTED_LIKING = new RegExp(
  String.raw`\byou(?:['’](?:d|ve))?\s+(?:(?:really|always|generally|usually|clearly|(?:said|told me|mentioned) you(?:['’]d| would)?)\s+)?(?:${LIKING_VERB}|rather|sooner|find|found)\b|\byour\s+(?:[\p{L}-]+\s+)?(?:preference|preferences|taste|liking|dislike|preferred|favou?rite)\b`,
  'iu',
);
// The speaker's own liking, hedged or plain, about a choice: "I'd lean toward …", "I would rather …",
// "personally I'd keep …", "my pick would be …", "my preference is …".
const OWN_CHOICE_WORDING = /\b(?:I|we)(?:['’]d| would)\s+(?:(?:probably|personally|still|much|really|definitely|also)\s+)*(?:lean|rather|sooner|prefer|pick|go(?! over\b)|keep|stick|choose|favou?r|use|take|suggest|recommend)\b|\b(?:my|our)\s+(?:own\s+)?(?:preference|pick|choice|vote|taste|recommendation|suggestion)\s+(?:is|was|would be|goes to|here is)\b/iu;
// The speaker's habit: "I usually go for …", "we generally reach for …".
const OWN_HABIT = /\b(?:I|we)\s+(?:usually|generally|always|normally|tend to)\s+(?:go for|go with|use|pick|prefer|reach for|favou?r|write|keep)\b/iu;
// A comparative given as the reason: "the nested version is harder to follow".
const COMPARATIVE = /\b(?:harder|easier|simpler|cleaner|clearer|nicer|safer|uglier|noisier|messier)\s+to\s+\p{L}/iu;
// "my vote is for …", "my pick would be …", "our preference goes to …".
const MY_CHOICE = /\b(?:my|our)\s+(?:own\s+)?(?:preference|pick|choice|vote|taste|default|go-to|rule of thumb)\s+(?:is|would be|goes to|runs to)\b/iu;
// The alternative: "… rather than …", "… instead of …", "… than …", "…, not …".
const ALTERNATIVE = /\b(?:rather than|instead of|than)\s+\p{L}|,\s*not\s+(?!(?:sure|yet|now|really|just|that|this|the|a|an)\b)\p{L}/iu;
// "A over B" with something after "over" that is not a place, a time or a pronoun.
const OVER_ALTERNATIVE = /\S\s+over\s+(?!(?:the|there|here|it|them|this|that|these|those|again|and|to|a|an|my|our|your|time|lunch|night|weekend|years?|months?|weeks?|days?|hours?)\b)\p{L}/iu;
// A user's own liking: "I'd sooner …", "I tend to go for …", "not (a big) fan of …", "I find X much easier".
const OWN_LIKING = /\b(?:I|we)(?:['’]d| would)\s+(?:much\s+)?(?:sooner|rather)\b|\bI\s+tend\s+to\s+(?:go for|use|pick|prefer|like|favou?r|reach for)\b|\b(?:not|never been)\s+(?:a\s+|much of a\s+)?(?:big\s+|huge\s+)?fan\s+of\b|\bI\s+find\s+[^.,;]{2,40}\s+(?:much\s+|far\s+|a lot\s+)?(?:easier|nicer|cleaner|clearer|simpler|better)\b/iu;
// A leaning or a taste the speaker owns, told with a noun rather than a liking verb: "I lean
// towards small PRs", "I'm partial to guard clauses", "I'm more of a composition person",
// "I'm allergic to deep inheritance", "I've come around to default exports", "we're a pnpm shop".
const OWN_LEANING = /\bI(?:['’]m| am)?\s+(?:(?:generally|usually|always|definitely|really|still|kind of|kinda|now|increasingly|more and more|slightly|a bit)\s+)*lean(?:s|ing)?\s+(?:towards?|to|in favou?r of)\b|\bI['’]m\s+(?:(?:really|very|pretty|quite|a bit|kind of|kinda|not)\s+)*(?:partial to|keen on|fond of|big on|into(?!\s+(?:it|this|that|the|a|an|my|our|your)\b)|allergic to|(?:a\s+)?(?:big\s+|huge\s+|firm\s+)?believer in|(?:more\s+of\s+|very much\s+|definitely\s+|firmly\s+)?(?:an?|team)\s+[\p{L}\p{N}./+ -]{2,30}?\s+(?:person|guy|gal|fan|camp|kind of (?:dev|developer|engineer|person)))\b|\bI['’]m\s+(?:firmly\s+|very much\s+)?team\s+\p{L}|\bwe(?:['’]re| are)\s+(?:very much\s+|firmly\s+)?an?\s+[\p{L}\p{N}./+-]{2,30}(?:\s+[\p{L}\p{N}./+-]{2,30})?\s+(?:shop|house|team)\b|\bI(?:['’]ve| have)\s+(?:come (?:a)?round to|warmed (?:up )?to|(?:grown|come) (?:to (?:like|love|hate|dislike|appreciate|prefer)|fond of)|gone off|soured on|cooled on)\b|\bI\s+lean\s+(?!(?:on|back|over|in|out|it|this|that|the)\b)\p{L}|\bwe(?:['’]re| are)\s+(?:(?:really|very|pretty|quite|big)\s+)*(?:big on|keen on|partial to)\b/iu;
// The speaker's own say as the condition of a choice: "if it's up to me", "if I had my way".
const SPEAKER_CHOICE_CONDITION = /^(?:(?:honestly|personally|and|so)[,]?\s+)?(?:if (?:it['’]s|it is|it were|it was) (?:up to|my call|down to) me|if I had (?:my way|to (?:choose|pick))|given the choice|left to me|my call would be)\b[,:]?\s+\p{L}/iu;
const MAX_REASONED_WORDS = 14;
// A group that holds a liking, and the liking: "the team prefers squash merges", "your reviewers
// like small diffs", "that's what the team likes". A wish ("the team wants …") is no taste, and
// a liking of one thing ("the lead likes the demo") is praise.
const GROUP_LIKING = /\b(?:your|the|our|my)\s+(?:(?:whole|dev|core|backend|frontend|platform)\s+)?(?:team|reviewers?|maintainers?|lead|tech lead|org|folks|colleagues|teammates)\s+(?:(?:really|always|generally|usually|strongly|all)\s+)?(?:likes?|prefers?|loves?|favou?rs?|hates?|dislikes?|(?:is|are)\s+(?:happiest|happier|keen|partial|fond|not keen|not fond)\b)\b(?!\s+(?:it|this|that|these|those|them|the)\b)/iu;
// The listener's liking named by what they said: "your earlier comment about disliking classes",
// "your note on preferring small commits".
const LISTENER_REMARK = /\byour\s+(?:[\p{L}-]+\s+){0,2}(?:comment|note|remark|point|message|feedback)\s+(?:about|on|re)\s+(?:not\s+)?(?:liking|disliking|preferring|hating|loving|favou?ring|wanting)\b/iu;
// The listener's taste said with an adjective or a noun: "you're not keen on …", "you're a fan of …".
const LISTENER_TASTE = /\byou(?:['’]re| are)\s+(?:(?:not|really|very|quite|so|never|always|a)\s+)*(?:keen on|fan of|big fan of|partial to|fond of|allergic to|particular about|happiest with|happier with)\b/iu;
// A thing named as someone's choice of its kind: "your package manager of choice", "my go-to for
// validation", "zod is my go-to", "ruff is the formatter we swear by".
const CHOSEN_NOUN = /\b(?:your|my|our|the team['’]s)\s+(?:[\p{L}\p{N}.+-]+\s+){1,3}of choice\b|\b(?:your|my|our)\s+go-to\b|^(?!(?:this|that|it|these|those|the|which)\b)[^,;]{2,40}\s(?:is|are)\s+(?:(?:still|always)\s+)?(?:my|our)\s+(?:(?:personal|clear|usual)\s+)?(?:comfort zone|default)\b|^(?:(?:for|on|in|with)\s[^,;]{2,40},\s*)?(?!(?:this|that|it|these|those|the|which)\b)[^,;]{2,40}\s(?:is|are)\s+the\s+(?:[\p{L}-]+\s+){1,3}(?:i|we)\s+(?:(?:always|really|still)\s+)?(?:trust|rely on|swear by|reach for|stick with|keep coming back to)\b(?!\s+(?:least|less|the least|no more|not))/iu;
// Things of a kind judged as the speaker sees them: "dataclasses feel more natural to me than
// pydantic models", "tabs read better to me" (not "this looks right to me").
const TO_ME_JUDGEMENT = /^(?:[^,;]*[,;]\s+)?(?!(?:this|that|it|these|those|the|which)\b)[\p{L}\p{N}/._+-]+(?:\s+[\p{L}\p{N}/._+-]+){0,3}\s+(?:feel|feels|read|reads|look|looks|sit|sits)\s+(?:(?:much|far|a lot|way|so)\s+)?(?:more\s+\p{L}+|nicer|cleaner|better|clearer|simpler|easier|tidier|saner|natural|wrong|off|clunky|noisy)\s+to\s+me\b/iu;
// Words that mark a choice as the speaker's own taste.
const TASTE_MARKER = /\b(?:personally|if you ask me|for my money|to my taste|in my book|my two cents)\b/iu;
// A choice about this change only: "here", "for this one", "in this file", "this time".
const ONE_OFF = /\b(?:here|this (?:one|time|file|case|change|fix|function|test|pr|branch)|for (?:this|that|now)|these (?:two|three|files|tests))\b|\b(?:it|this|that)\s*[.!]*$/iu;
// A dislike owned by the speaker: "what bugs me is …", "what I can't stand is …", "my pet peeve is
// …", "I can't stand long promise chains" — of things of a kind, not "this", "it" or "the …".
// A judgement of something named that is no one change: "tRPC is more pain than it's worth".
const NOT_WORTH = /^(?:[^,;]*[,;]\s+)?(?!(?:this|that|it|these|those|the)\b)[\p{L}\p{N}/._+-]+(?:\s+[\p{L}\p{N}/._+-]+){0,3}\s+(?:is|are)\s+(?:usually\s+|always\s+|just\s+)?more\s+(?:pain|trouble|hassle|ceremony|overhead)\s+than\s+(?:it['’]s|they['’]re|it is|they are)\s+worth\b/iu;
const AVERSION = /^(?:\p{L}+[,]?\s+)?what\s+(?:really\s+|always\s+|honestly\s+)?(?:bugs|annoys|irritates|bothers|grates on|drives)\s+me\b|^(?:\p{L}+[,]?\s+)?what\s+(?:I|we)\s+(?:really\s+|honestly\s+)?(?:like|love|hate|dislike|prefer|value|can['’]t stand|cannot stand)(?:\s+most)?\s+(?:is|are|in)\b|\bpet peeves?\b|\b(?:I|we)\s+(?:really\s+|honestly\s+|just\s+)?(?:can['’]t|cannot)\s+stand\s+(?!(?:it|this|that|these|those|them|the|when|how)\b)\p{L}/iu;
// Things of a kind said to annoy the speaker: "default exports drive me nuts", "abbreviations annoy me".
const GENERIC_ANNOYS = /^(?!(?:this|that|it|these|those|the|its|his|her|their|which|what)\b)[\p{L}\p{N}/._+-]+(?:\s+[\p{L}\p{N}/._+-]+){0,5}\s+(?:really\s+|always\s+|just\s+)?(?:annoy|annoys|bug|bugs|irritate|irritates|drive|drives)\s+me\b/iu;
// The speaker judging things of a kind: "I find barrel files annoying", "I find anything else hard to scan".
const FOUND_QUALITY = /\bI\s+(?:(?:always|generally|usually|honestly|personally|just)\s+)?find\s+(?!(?:it|this|that|these|those|the|its|them|his|her|their|out)\b)[^.,;]{2,40}?\s+(?:(?:really|pretty|quite|very|so|much|far|a lot|way|a bit|kind of|kinda)\s+)*(?:annoying|noisy|confusing|clunky|ugly|tedious|painful|brittle|messy|distracting|cluttered|verbose|unreadable|overkill|pointless|hard to \p{L}+|more trouble than|easier|nicer|cleaner|clearer|simpler|more readable)\b/iu;
// The assistant's recommendation, and the user taking it up in the same sentence.
const RECOMMENDED = /\b(?:I|we)(?:['’]d| would)?\s+(?:recommend(?:ed)?|suggest(?:ed)?|propose[d]?)\b|\b(?:my|our)\s+(?:recommendation|suggestion|proposal)\b/iu;
const ACCEPTED = /\byou\s+(?:agreed|approved|signed off|okayed|accepted|went along|were happy with|liked (?:it|that|the idea))\b|\bas (?:you )?agreed\b/iu;
// The user's habit in their own work: "I tend to write the test first", "I usually squash before
// pushing" — not a habit of mind ("I tend to agree", "I always forget"). The team's habit ("we
// generally split controllers by resource") is a convention.
const OWN_WAY = /^(?:(?:honestly|personally|generally|and|so)[,]?\s+)?I\s+(?:usually|generally|always|normally|typically|tend to|like to)\s+(?!(?:agree|think|forget|get|feel|worry|lose|miss|need|have|see|wonder|end up|mess|break|find|be|say|ask|hope|assume|guess)\b)\p{L}+\s+\p{L}/iu;
const PREFER_RULE = /^(?:(?:always|generally|please)\s+)?(?:prefer|favou?r)\s+(?!(?:it|this|that|them|to|not)\b)\p{L}/iu;
// "…, type aliases it is": a pick settled in a few words (not "here it is", "I know what it is").
const SETTLED_PICK = /^(?:[^,;]*[,;:]\s+)?(?:(?!(?:here|there|so|that|this|what|how|which|whatever|who|where|as|be)\b)[\p{L}\p{N}/._+-]+\s+){1,4}it\s+is$/iu;
// ", easier to revert", ", cleaner that way", "- reads better", ", much simpler for reviewers".
const COMPARATIVE_REASON = /(?:,|\s[-—–])\s+(?:it['’]s\s+|much\s+|far\s+|way\s+|a lot\s+)?(?:reads\s+)?(?:easier|simpler|cleaner|clearer|nicer|safer|better|tidier|calmer)(?:\s+to\s+\p{L}+(?:\s+\p{L}+)?|\s+that way|\s+for\s+\p{L}+(?:\s+\p{L}+)?)?[.!)]*$/iu;
// "pick the boring library over the clever one", "use fixtures rather than factories".
const CHOICE_RULE = /\b(?:pick|choose|prefer|use|take|go with|favou?r|reach for|stick with|keep|give me)\s+[^,.;!?]{1,40}?\s(?:over|rather than|instead of)\s+(?!(?:the (?:weekend|years?|months?|days?)|there|here|it|again|time)\b)\p{L}/iu;
// "json lines beat pretty printing", "a flat list is better than nested folders".
const COMPARED = /\p{L}\s+(?:beats?|trumps?|wins?\s+over|(?:is|are)\s+(?:much\s+|far\s+|way\s+)?(?:better|nicer|cleaner|clearer|simpler)\s+than)\s+\p{L}/iu;
const LEAD_FILLER = /^(?:(?:honestly|personally|generally|definitely|also|and|oh|so|hmm|eh|ok|okay|btw|imo|fwiw)[,:]?\s+)+/iu;
const TRAILING_HEDGE = /,?\s+(?:please|pls|I['’]d say|I think|imo|for me|if possible|whenever possible|where possible|everywhere|always|throughout|going forward)$/iu;
// One to four words, "over" / "rather than" / "instead of" / ", not", one to four words, and an
// optional scope ("for the widgets", "across services").
const VERBLESS_CHOICE = /^[\p{L}\p{N}/._+-]+(?:\s+[\p{L}\p{N}/._+-]+){0,3}(?:\s+over|\s+rather than|\s+instead of|(?<!\b(?:do|does|did|is|are|was|were|am|can|could|should|will|would|have|has|had|must|may|might))(?:,\s+|\s+)not)\s+(?!(?:the|there|here|it|again|and|to|a|an|my|our|your|this|that|time|sure|yet|now)\b)[\p{L}\p{N}/._+-]+(?:\s+[\p{L}\p{N}/._+-]+){0,3}(?:\s+(?:for|in|on|across)\s+[\p{L}\p{N}\s/._-]{1,40})?$/iu;

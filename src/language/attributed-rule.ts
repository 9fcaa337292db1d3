// A speaker often states or applies something the listener, the team or an agreement established,
// and says so: "no new packages went in, per your rule", "I'll keep tabs for indentation from now on,
// like you wanted", "I stayed out of the ledger crate, since you said the finance folks own it",
// "like we agreed, Valkey holds the sessions", "as I said, every public route needs an auth check".
// The attribution ("as you asked", "you said", "we agreed", "as I said") tells nothing by itself: a
// one-off step done on request ("I ran the tests as you asked", "I've updated the README like you
// requested") is no rule. What makes a fact is that what is attributed, or what the speaker does
// under it, holds beyond this step: a rule, an owner, an obligation, a wish held by a group, a
// liking, a standing scope ("from here on", "everywhere", "for every new …"), a tool given a role
// ("made Biome the formatter") or a switch from one named thing to another.

/** Who said a sentence, for {@link attributedRuleOf}. */
export type AttributedRuleSpeaker = 'user' | 'assistant' | 'system' | 'tool';

/** The kind of standing statement {@link attributedRuleOf} found. */
export type AttributedRuleKind = 'decision' | 'requirement' | 'constraint' | 'convention' | 'preference';

/**
 * Tells what standing statement a sentence makes when it gives a rule, wish, liking, owner or
 * agreement of the listener, the team or the conversation, or applies one: the kind of fact it is,
 * or `undefined`. Also, with no attribution, a tool given a role ("I made pino the logger for the
 * workers", "make uv the package manager") is a decision, and a choice the speaker commits to for
 * good ("I'll write commit messages in the imperative from now on") a convention. One-off steps
 * done on request, questions and talk about what was shown in the conversation are not.
 */
export function attributedRuleOf(sentence: string, options: { role: AttributedRuleSpeaker }): AttributedRuleKind | undefined {
  const text = plainOf(sentence);
  if (text.length === 0 || QUESTION.test(text)) return undefined;
  if (roleGivenIn(text)) return 'decision';
  const attribution = attributionIn(text, options.role);
  if (attribution === undefined) return isStandingCommitment(text) ? kindOfAction(text) : undefined;
  // What the listener or the team holds, told as theirs: "you said the vendor maintains it", "your
  // reviewers insist on one concern per commit", "which you said is required for big exports".
  const reported = attribution.reported;
  if (reported !== undefined) {
    const kind = reportedKindOf(reported, attribution.text, attribution.holder);
    if (kind !== undefined) return kind;
  }
  // "per your rule", "to match your convention": the attribution names a standing rule.
  if (RULE_NOUN_ATTRIBUTION.test(attribution.text)) return /\bpreference|taste|liking\b/iu.test(attribution.text) ? 'preference' : kindOfAction(attribution.rest, 'convention');
  // What the speaker does under it holds beyond this step.
  const rest = attribution.rest;
  // "As I said, I have to leave at four today": a plan of the day, not of the project.
  if (DAY_SCOPE.test(rest) && !STANDING_SCOPE.test(rest)) return undefined;
  if (SWITCH.test(rest) || ROLE_STATEMENT.test(rest)) return 'decision';
  if (STANDING_SCOPE.test(rest) || STANDING_CHOICE.test(rest)) return kindOfAction(rest);
  if (NONE_OF_A_KIND.test(rest) || HANDS_OFF.test(rest)) return 'constraint';
  // "like we agreed, Redis is the cache for sessions": a statement of how things are, under an agreement.
  // The user restating their own rule ("as I said, every migration needs a down step") tells how things are.
  if ((attribution.isAgreement || options.role === 'user') && (PRESENT_RULE.test(rest) || OBLIGATION.test(rest) || OWNERSHIP.test(rest) || PROHIBITION.test(rest))) return kindOfStatement(rest);
  return undefined;
}

/**
 * Tells whether a sentence reports a single step done, or about to be done, because someone asked
 * or suggested it ("I ran the tests as you asked", "As you suggested, I looked at the logs
 * first", "I added the log line you asked for", "Per your message, I've pushed the branch"), or
 * only talks about what was shown in the conversation ("You showed me the config earlier"). Such a
 * sentence is no fact however its words read; {@link attributedRuleOf} finds none in it.
 */
export function isOneOffAttributedAction(sentence: string, options: { role: AttributedRuleSpeaker }): boolean {
  const text = plainOf(sentence);
  if (text.length === 0 || QUESTION.test(text)) return false;
  if (attributedRuleOf(text, options) !== undefined) return false;
  if (options.role === 'assistant' && SHOWN_IN_CONVERSATION.test(text)) return true;
  const attribution = attributionIn(text, options.role);
  if (attribution === undefined || !attribution.isRequest) return false;
  // A step that sets a value or picks a tool ("I capped the page size at 100 rows, as you wanted",
  // "I switched the logger to pino like you requested") decides something, asked for or not.
  const rest = attribution.rest;
  if (VALUE.test(rest) || SWITCH.test(rest) || STANDING_CHOICE.test(rest) || SET_TO.test(rest)) return false;
  // The speaker's own step: "I ran …", "I'll run … now", "I've pushed …".
  return SPEAKER_STEP.test(rest) && !OBLIGATION.test(text) && !OWNERSHIP.test(text);
}

/**
 * The sentence without an attribution tag at its start or end ("As you asked, …", "…, like we
 * discussed.", "…, per your request."): what the speaker states or did, for checks that would
 * read the tag as talk about the conversation. Returns the sentence when it has no such tag.
 */
export function withoutAttributionTag(sentence: string): string {
  const text = sentence.trim();
  const stripped = text.replace(LEADING_TAG, '').replace(TRAILING_TAG, '$1').trim();
  return stripped.length === 0 ? text : stripped;
}

/**
 * What a sentence states under an attribution tag ({@link withoutAttributionTag}), unless it
 * narrates an edit at a place in the code ("… I changed the value on line 18 from 4 to 8", "…
 * in `src/cart.ts`"): a step of the work, asked for or not. `undefined` when there is no tag or the
 * sentence narrates such an edit.
 */
export function statementUnderTag(sentence: string): string | undefined {
  const stripped = withoutAttributionTag(sentence);
  if (stripped === sentence.trim() || CODE_LOCATION.test(stripped)) return undefined;
  return stripped;
}

// --- Internal helpers ---

interface Attribution {
  /** The attribution as written ("as you asked", "since you said", "per your rule"). */
  readonly text: string;
  /** What the holder is reported to say, want or hold, when the sentence gives it. */
  readonly reported: string | undefined;
  /** Who holds it: the listener, a group, or an agreement of both. */
  readonly holder: 'listener' | 'group' | 'agreement';
  /** The sentence without the attribution and what it reports. */
  readonly rest: string;
  /** The attribution is a request or a suggestion ("as you asked", "per your request"). */
  readonly isRequest: boolean;
  /** The attribution is an agreement or a discussion of both ("as we agreed", "like we discussed"). */
  readonly isAgreement: boolean;
}

function plainOf(sentence: string): string {
  // A code span is a name: its words are no verbs ("`set` catches the error").
  return sentence.replace(/\*\*|__/gu, '').replace(/`([^`\n]*)`/gu, (_span, inner: string) => `\`${inner.replace(/\s+/gu, '_')}\``).replace(/\s+/gu, ' ').trim();
}

/** Finds an attribution to the listener, a group or an agreement, and what it reports. */
function attributionIn(text: string, role: AttributedRuleSpeaker): Attribution | undefined {
  // A reported holding: "(since|knowing|I remembered) you (always) want X", "the team insists
  // on X", "you said X", "which you said is …".
  for (const pattern of reportPatternsFor(role)) {
    const match = pattern.exec(text);
    if (match === null) continue;
    const head = match[0];
    const holder: Attribution['holder'] = /\b(?:we|us|our)\b/iu.test(head) && !/\bteam\b/iu.test(head) ? 'agreement' : GROUP.test(head) ? 'group' : 'listener';
    const after = text.slice(match.index + head.length);
    // What is reported runs to the end of its clause: ", so I …", "; …", " — …".
    const cut = REPORT_END.exec(after);
    const reported = (cut === null ? after : after.slice(0, cut.index)).replace(/[.!]+$/u, '').trim();
    const rest = `${text.slice(0, match.index)} ${cut === null ? '' : after.slice(cut.index)}`.replace(/\s+/gu, ' ').trim();
    if (/^(?:me|us)\s+to\b|^to\s+\p{L}/iu.test(reported)) {
      // "you asked me to look at the failing job": a request, reporting no holding.
      return { text: head, reported: undefined, holder, rest: rest.length > 0 ? rest : reported, isRequest: true, isAgreement: false };
    }
    return { text: head, reported, holder, rest, isRequest: false, isAgreement: holder === 'agreement' };
  }
  for (const pattern of tagPatternsFor(role)) {
    const match = pattern.exec(text);
    if (match === null) continue;
    const rest = `${text.slice(0, match.index)} ${text.slice(match.index + match[0].length)}`.replace(/^[\s,;:—–-]+|[\s,;:—–-]+$/gu, '').replace(/\s+/gu, ' ').trim();
    const isAgreement = AGREEMENT_VERB.test(match[0]);
    return { text: match[0], reported: undefined, holder: isAgreement ? 'agreement' : 'listener', rest, isRequest: REQUEST_VERB.test(match[0]), isAgreement };
  }
  return undefined;
}

/** The kind of what a holder is reported to hold, or `undefined` when it does not hold beyond now. */
function reportedKindOf(reported: string, head: string, holder: Attribution['holder']): AttributedRuleKind | undefined {
  if (reported.length === 0 || PAST_EVENT.test(reported)) return undefined;
  // A wish or a liking: "you always want a test with each fix", "the team wants kebab-case file names".
  const wish = WISH.exec(head);
  if (wish !== null) {
    if (/^(?:me|us|to|you)\b/iu.test(reported)) return undefined;
    if (LIKING.test(wish[0])) return 'preference';
    if (OBLIGATION.test(wish[0])) return 'requirement';
    // A group's wish is its policy; the listener's must be about things of a kind or hold for good.
    if (holder !== 'listener' || HABITUAL.test(wish[0]) || GENERIC_OBJECT.test(reported) || STANDING_SCOPE.test(reported)) return 'convention';
    return undefined;
  }
  if (OWNERSHIP.test(reported)) return 'constraint';
  if (PROHIBITION.test(reported)) return 'constraint';
  if (OBLIGATION.test(reported)) return 'requirement';
  if (RULE_WORD.test(reported) || STANDING_SCOPE.test(reported) || STANDING_CHOICE.test(reported)) return 'convention';
  if (SWITCH.test(reported) || ROLE_STATEMENT.test(reported)) return 'decision';
  // A wish or a liking reported after a verb of saying: "you told me the team wants squashed merges".
  const said = WISH.exec(reported);
  if (said !== null && said.index > 0) return reportedKindOf(reported.slice(said.index + said[0].length).trim(), said[0], GROUP.test(reported.slice(0, said.index)) ? 'group' : holder);
  // "the team squashes every merge", "we standardize on them": how things are done, present tense.
  if (PRESENT_RULE.test(reported)) return 'convention';
  return undefined;
}

function kindOfStatement(text: string): AttributedRuleKind {
  if (OWNERSHIP.test(text) || PROHIBITION.test(text)) return 'constraint';
  if (OBLIGATION.test(text)) return 'requirement';
  return kindOfAction(text);
}

function kindOfAction(text: string, otherwise: AttributedRuleKind = 'convention'): AttributedRuleKind {
  if (SWITCH.test(text) || ROLE_STATEMENT.test(text)) return 'decision';
  if (NONE_OF_A_KIND.test(text) || HANDS_OFF.test(text) || PROHIBITION.test(text)) return 'constraint';
  return otherwise;
}

/** "I made pino the logger for all the workers", "make uv the package manager": a name given a role. */
function roleGivenIn(text: string): boolean {
  const match = ROLE_GIVEN.exec(text);
  if (match === null) return false;
  const after = text.slice(match.index + match[0].length);
  return !ONE_OFF_SCOPE.test(after);
}

/** "I'll write commit messages in the imperative mood from now on": the speaker binds itself for good. */
function isStandingCommitment(text: string): boolean {
  return COMMITMENT.test(text) && FOR_GOOD.test(text) && !/\b(?:I|we)(?:['’]ll| will)\s+(?:be|try|get|keep an eye)\b/iu.test(text);
}

// English data.

const QUESTION = /\?\s*["')\]]*$/u;
// Groups that hold rules: "the team", "your reviewers", "the platform folks".
const GROUP = /\b(?:team|teams|reviewers?|maintainers?|lead|leads|org|folks|company|everyone|everybody)\b/iu;
const HOLDER_GROUP = String.raw`(?:(?:the|your|our|my)\s+(?:[\p{L}-]+\s+)?(?:team|teams|reviewers?|maintainers?|lead|tech lead|org|folks|company)|everyone|everybody)`;
// Verbs that report what someone said or holds.
const SAY_VERB = String.raw`(?:said|say|says|mentioned|told me|told us|noted|pointed out|explained|made clear|insisted|stressed|confirmed)`;
const HOLD_VERB = String.raw`(?:always\s+|usually\s+|generally\s+|really\s+|strongly\s+)?(?:want|wants|wanted|like|likes|prefer|prefers|dislike|dislikes|hate|hates|expect|expects|insist on|insists on|require|requires|care about|cares about)`;
// A lead before what is reported: a reason ("since", "knowing"), the speaker recalling it, or a clause break.
const REPORT_LEAD = String.raw`(?:(?:since|because|as|given that|knowing(?: that)?|now that|I\s+(?:noticed|remembered|recalled|know|saw)(?: that)?|remembering(?: that)?)\s+|,\s*(?:which|who)\s+|(?:[;:—–]|,\s*(?:and|but))\s*|^)`;

function reportPatternsFor(role: AttributedRuleSpeaker): readonly RegExp[] {
  if (role === 'user') {
    return [
      // "as I told you, we never log raw card numbers" is a tag; "I told you the team wants …" reports.
      new RegExp(String.raw`${REPORT_LEAD}${HOLDER_GROUP}\s+${HOLD_VERB}\s+`, 'iu'),
    ];
  }
  return [
    // "you said (that) another team owns it", "you mentioned the team wants …", "which you said is mandatory".
    new RegExp(String.raw`${REPORT_LEAD}(?:you|the user)\s+(?:(?:already|also|earlier|once|clearly)\s+)?(?:${SAY_VERB})(?:\s+(?:earlier|before|last time))?(?:\s+that)?\s+`, 'iu'),
    // "knowing the team wants …", "since your reviewers insist on …", "you always want …".
    new RegExp(String.raw`${REPORT_LEAD}(?:${HOLDER_GROUP}|you)\s+${HOLD_VERB}\s+`, 'iu'),
  ];
}

// Tags that attribute a whole sentence: "as you asked", "per your rule", "like we discussed", "as I said".
const REQUEST_VERB = /\b(?:asked|requested|suggested|wanted|told me to|instructed|request|message|instructions?)\b/iu;
const AGREEMENT_VERB = /\b(?:agreed|discussed|decided|planned|settled|agreement|discussion|decision|plan)\b/iu;
const RULE_NOUN = String.raw`(?:rule|rules|policy|convention|conventions|standard|standards|guideline|guidelines|style guide|house style|preference|preferences|taste|liking|practice|requirement|requirements)`;
const RULE_NOUN_ATTRIBUTION = new RegExp(String.raw`\b(?:per|following|to match|in line with|according to|by|under|respecting|honou?ring)\s+(?:your|our|the team['’]s|the|my)\s+(?:[\p{L}-]+\s+)?${RULE_NOUN}\b`, 'iu');

function tagPatternsFor(role: AttributedRuleSpeaker): readonly RegExp[] {
  // "per your rule", "following our agreement", "per the rule you gave me", "under the policy we set".
  const rule = new RegExp(String.raw`\b(?:per|following|to match|in line with|according to|under|respecting|honou?ring)\s+(?:(?:your|our|the team['’]s|my)\s+(?:[\p{L}-]+\s+)?(?:${RULE_NOUN}|request|message|instructions?|note|agreement|plan|decision|discussion)\b|the\s+(?:[\p{L}-]+\s+)?${RULE_NOUN}\s+(?:that\s+)?(?:you|we|the team|I)\s+(?:\p{L}+\s+)?\p{L}+)`, 'iu');
  const agreed = /\b(?:as|like|per what)\s+(?:we|the team)\s+(?:(?:already|just|had)\s+)?(?:agreed|discussed|decided|planned|settled on|said)\b(?:\s+(?:earlier|before|yesterday|last (?:week|time)|on|in)\b[^,.;]*)?|\bas (?:agreed|discussed|decided|planned)\b/iu;
  if (role === 'user') {
    return [agreed, rule, /\b(?:as|like)\s+I\s+(?:(?:already|just)\s+)?(?:said|mentioned|told you|explained|wrote|noted)\b(?:\s+(?:earlier|before|yesterday|last (?:week|time)))?|\bremember(?:,|\s+that)?\s+I\s+(?:said|told you|mentioned)(?:\s+that)?\b/iu];
  }
  return [agreed, rule, /\b(?:as|like|since|the way)\s+you\s+(?:(?:already|just|had|originally)\s+)?(?:asked|requested|suggested|wanted|said|mentioned|told me(?: to)?|instructed|specified|described)\b(?:\s+(?:earlier|before|yesterday|last (?:week|time)))?|\b(?:as|when)\s+requested\b|\b(?:you|the user)\s+(?:asked|requested|wanted)\s+(?:for\b)?|\bper your\s+(?:request|message|note|instructions?|ask)\b/iu];
}

// A place in the code: a line number, a file name with its extension, a path.
const CODE_LOCATION = /\blines?\s+\d+|(?<![\w.])[\w-]+\.(?:tsx?|jsx?|mjs|py|rb|go|rs|java|kt|cs|cpp|c|h|php|sql|vue|svelte|css|scss|html)\b|`[^`\s]*\/[^`\s]*`/u;
// An attribution tag set apart at the start or the end of a sentence.
// Only requests and agreements: "like you said, …" relays what was said, and is read whole.
const TAG_BODY = String.raw`(?:(?:as|like|per what)\s+(?:you|we|the team)\s+(?:(?:already|just|had|originally)\s+)?(?:asked|requested|suggested|wanted|agreed|discussed|decided|planned|specified)(?:\s+(?:earlier|before|yesterday|last (?:week|time)))?|as (?:agreed|discussed|decided|planned|requested)|per (?:your|our) (?:[\p{L}-]+\s+)?(?:request|message|note|instructions?|rule|policy|convention|preference|agreement|plan|decision))`;
const LEADING_TAG = new RegExp(String.raw`^${TAG_BODY}\s*[,:]\s+`, 'iu');
const TRAILING_TAG = new RegExp(String.raw`,?\s+${TAG_BODY}\s*([.!]?)$`, 'iu');
// Where what is reported ends: ", so …", ", I …", "; …", a dash.
const REPORT_END = /,\s+(?=so\b|and so\b|I\b|we\b|which is why\b|hence\b|that['’]s why\b)|;\s+|\s[—–-]\s/u;
// A past event reported ("you said the build was slow this morning") holds nothing beyond it.
const PAST_EVENT = /\b(?:was|were|went|broke|failed|crashed|happened|ran|took|had|did)\b|\b(?:this morning|yesterday|earlier today|a moment ago|just now|last night)\b/iu;
const OWNERSHIP = /\b(?:owns?|owned by|belongs? to|maintains?|maintained by|managed by|is (?:another|the \S+) team['’]s|(?:is|are) (?:synced|copied|vendored|generated|mirrored) (?:from|by)\b|(?:is|are) (?:generated|vendored|auto-?generated)\b)/iu;
const PROHIBITION = /\b(?:never|off[- ]limits|not allowed|forbidden|banned|must not|mustn['’]t|may not|shouldn['’]t|should not|no (?:new\s+)?[\p{L}-]+\s+(?:in|on|for|without|unless)\b)/iu;
const OBLIGATION = /\b(?:mandatory|required|must|has to|have to|needs? to|need(?:s)? an?|is a must|non-?negotiable|compulsory|obligatory)\b/iu;
const RULE_WORD = new RegExp(String.raw`\b${RULE_NOUN}\b|\b(?:standardi[sz]e|standardi[sz]ed)\b`, 'iu');
// A scope that makes a step hold for good.
const STANDING_SCOPE = /\b(?:from (?:here|now) on|going forward|from this point(?: on)?|henceforth|for good|everywhere|throughout|across (?:the|all|every|our)\b|in (?:all|every|each) \p{L}|for (?:all|every|each|any) (?:new\s+|future\s+)?\p{L}|(?:all|every|any|each) (?:new|future) \p{L}|always|never|by default|as a rule|whenever|every time|each time|anymore|any more)\b/iu;
const FOR_GOOD = /\b(?:from (?:here|now) on|going forward|from this point(?: on)?|henceforth|for good|everywhere|(?:all|every|any) (?:new|future) \p{L}|by default|as a rule)\b/iu;
// A choice that holds: "stick to", "standardise on", "stay with", "keep using".
const STANDING_CHOICE = /\b(?:stick(?:ing)? (?:to|with)|stuck (?:to|with)|standardi[sz](?:e|ed|ing) on|stay(?:ed|ing)? (?:on|with)|keep(?:ing)? using|settled? on|adopt(?:ed|ing)?|switch(?:ed|ing)? (?:over )?to|move(?:d)? (?:over )?to)\b/iu;
// A switch from one thing to another: "moved the uploads off local disk and onto S3", "swapped axios out for
// ky", "replaced Jest with Vitest", "migrated from cron to Temporal".
const SWITCH = /\b(?:mov(?:e|ed|ing)|migrat(?:e|ed|ing)|switch(?:ed|ing)?|port(?:ed|ing)?|shift(?:ed|ing)?)\b[^,.;]{0,40}?\b(?:off|away from|from)\s+[^,.;]{1,40}?\s+(?:and\s+)?(?:on)?to\s+\S|\bswitch(?:ed|ing)?\s+(?:the|our)\s+(?:[\p{L}-]+\s+){0,3}?(?:over\s+)?to\s+(?!(?:the|a|an|it|this|that)\b)\S|(?<![/\w])(?:replac(?:e|ed|ing)\s+(?!(?:it|this|that|them)\b)(?:[^\s,.;]+\s+){0,3}?[^\s,.;]+\s+with|(?:swap(?:ped|ping)?|trad(?:e|ed|ing))\s+(?!(?:it|this|that|them)\b)(?:[^\s,.;]+\s+){0,3}?[^\s,.;]+\s+(?:out\s+)?for)\s+\S/iu;
// "Redis is the cache for sessions", "pino is now our logger".
const ROLE_STATEMENT = /^(?:[\p{L}\p{N}@./+-]+)\s+(?:is|stays|remains|will be)\s+(?:now\s+|still\s+)?(?:the|our)\s+(?:[\p{L}-]+\s+){0,2}?[\p{L}-]+(?:\s+(?:for|in|of|across)\s+\S.*)?$/iu;
// A name given a role: "made pino the logger", "set Vitest as the test runner", "make uv the package manager".
const ROLE_GIVEN = /(?<![`\w])(?:made|make|making|set|setting|named|designated|picked|chose|appointed)\s+(?!(?:it|this|that|them|these|those|him|her|one|sure|certain|clear|everything|something|things|up|down|out|off|in|on|aside|back|over|about|apart|together|to|for|with|from|at|by|of|into|onto|as|so|all|both|each|every|any|no|most|more|less|room|way|time|sense|changes?|edits?)\b)(?!(?:the|a|an|my|our|your|some)\s)[\p{L}\p{N}@./+`_-]+\s+(?:as\s+)?(?:the|our)\s+(?:(?:new|default|main|primary|only|official|standard|go-to)\s+)?[\p{L}-]+(?:[\s-][\p{L}-]+)?\s*(?:for\s+(?:the\s+|all\s+|our\s+|every\s+)?\S|across|in\s+(?:the|all|every)\b|everywhere|and\s|,|;|[.!]?$)/iu;
// Words that tie a statement to the day it is made.
const DAY_SCOPE = /\b(?:today|tonight|tomorrow|this (?:morning|afternoon|evening)|right now|at the moment|in a (?:bit|minute|moment))\b/iu;
// A scope that keeps a step to now ("for this one call", "just this once").
const ONE_OFF_SCOPE = /^(?:[^.]*?)\b(?:for (?:this|that) (?:one|single|particular)|just (?:this|for) (?:once|now)|for now|for the moment|temporarily|this time)\b/iu;
// A wish or a liking.
const WISH = new RegExp(String.raw`\b${HOLD_VERB}\b`, 'iu');
const LIKING = /\b(?:like|likes|prefer|prefers|dislike|dislikes|hate|hates)\b/iu;
const HABITUAL = /\b(?:always|usually|generally|really|strongly)\b/iu;
// An object about things of a kind: "every public function documented", "kebab-case file names".
const GENERIC_OBJECT = /^(?:every|all|each|any|no)\b|^(?!(?:the|a|an|this|that|these|those|it|my|our|your|his|her|their)\b)(?:[\p{L}-]+\s+)?[\p{L}-]+s\b/iu;
// How things are done, said in the present: "the team squashes every merge", "we standardize on them".
const PRESENT_RULE = /^(?:(?:the|our|your|all|every)\s+)?(?:[\p{L}\p{N}@./+-]+\s+){0,3}?(?:is|are|uses|use|runs|run|goes|go|lives|live|stays|stay|gets|get|squashes|squash|rebases?|ships|ship|needs|need|takes|take)\b(?!\s+(?:broken|failing|down|slow|flaky|gone|done|over|back))/iu;
// "any new dependencies", "no new packages": none of a kind.
// "log no request bodies": a verb with "no" before its object.
const NONE_OF_A_KIND = /\b(?:didn['’]t|did not|won['’]t|will not|don['’]t|do not|haven['’]t|avoid(?:ed)?|without|skip(?:ped)?|left out|held off on)\b[^,.;]{0,30}\b(?:any|new|extra|additional)\s+\p{L}|\b(?!(?:is|are|was|were|has|have|had|there|here)\b)\p{L}{3,}\s+no\s+(?!(?:longer|more|one|matter|doubt|idea|need|problem|issue)\b)\p{L}/iu;
// Leaving something alone: "I won't touch the vendor folder", "left the SDK untouched".
const HANDS_OFF = /\b(?:won['’]t|will not|didn['’]t|did not|don['’]t|do not|not going to|never)\s+(?:touch|modify|change|edit|alter)\b|\bleft\s+[^,.;]{1,40}\s+(?:alone|untouched|as it is|as is)\b|\b(?:leave|leaving|keep|keeping|stay(?:ing)? away from|stayed away from)\b[^,.;]{0,40}\b(?:alone|untouched|as it is|as is)\b|\bstay(?:ed|ing)? (?:away from|out of)\b/iu;
// The speaker committing to a way of working: "I'll write …", "I'm using …", "I'll keep …".
const COMMITMENT = /^(?:(?:from (?:here|now) on|going forward|henceforth)[,]?\s+)?(?:I|we)(?:['’]ll| will|['’]m| am|['’]re| are)\s+(?:(?:also|now|always)\s+)?\p{L}+/iu;
// The speaker's own step: "I ran …", "I've pushed …", "I'll run … now".
const SPEAKER_STEP = /^(?:(?:so|then|and|now|first|ok(?:ay)?)[,]?\s+)*(?:I|we)\b|\b(?:I|we)(?:['’]ve|['’]ll| have| will)?\s+\p{L}+/iu;
// A value or a name in code: "100 rows", "`APP_DB_URL`", "20.11".
const VALUE = /\d|`[^`]+`/u;
// A step that gives something a value or a new setting: "capped … at", "set … to", "pinned … to".
const SET_TO = /\b(?:set|capped|limited|pinned|raised|lowered|bumped|changed|renamed|moved|defaulted|configured)\b[^,.;]{1,50}?\b(?:to|at)\s+\S/iu;
// Talk about what was shown, pasted or shared in the conversation.
const SHOWN_IN_CONVERSATION = /^(?:(?:so|and|ok(?:ay)?)[,]?\s+)?(?:you|the user)\s+(?:(?:just|already|also)\s+)?(?:showed|shared|pasted|sent|posted|attached|linked|gave)\s+(?:me|us)?\b(?![^.]*\b(?:owns?|must|always|never|rule|policy)\b)/iu;

// Remarks that use the words of a rule, a need or a choice without stating one: courtesies, task
// titles, guesses, verdicts on the code as it is, and what an edit does or costs.

import type { Entry } from '../types.js';
import { isStatedConvention } from './convention-statement.js';

/** What kind of passing remark {@link passingRemarkOf} found. */
export type PassingRemark =
  /** A courtesy with nothing else in it ("Glad to help with the importer."). */
  | 'pleasantry'
  /** A task named or announced, not a requirement ("Up next: the retry helpers, they need a cleanup."). */
  | 'task-title'
  /** A guess at a cause ("My hunch is the fixture is stale", "the bug must be upstream"). */
  | 'hedge'
  /** How the code is now ("The parser is hard to follow", "I went through the call sites: only `run` sets a clock"). */
  | 'observation'
  /** What the speaker's edit does or costs ("That way callers need no change", "Without that guard, …"). */
  | 'narration';

/**
 * Tells a passing remark from a statement that lasts, by the shape of the sentence: a courtesy
 * that is the whole sentence; a "next" label or a need with nothing specific in it ("X deserves a
 * proper pass"), which names a task; a guess given as one ("my working theory is …") or an
 * epistemic modal ("the culprit has to be somewhere upstream", "it must have been cached"); and,
 * from the assistant, a verdict on the code ("seems fine", "is getting too busy", "is a bit
 * messy"), a look at the code reported with what it showed ("I traced the flow: …"), a
 * description of what the code does now with the harm that follows (", so a coupon may end up
 * ignored"), and the effect or cost of its own edit ("That way …", "Without that guard, …", "… so it is negligible"). A lead-in
 * joined to a sentence ("Summary of <task>: …", "I renamed `a` to `b`: …") is judged by the
 * sentence after it. A rule's own wording (must/never/always with a thing as subject), a choice or
 * a cause with its fix keep a sentence out of these shapes. Returns `undefined` for anything else.
 */
export function passingRemarkOf(plain: string, options: { readonly role: Entry['role'] }): PassingRemark | undefined {
  const { role } = options;
  const text = plain.replace(/\s+/gu, ' ').trim();
  if (PLEASANTRY.test(text)) return 'pleasantry';
  if (STATUS_MARK.test(text)) return 'task-title';
  const label = LEAD_IN.exec(text);
  if (label !== null) {
    const head = label[1] ?? '';
    const rest = text.slice(label[0].length);
    if (NEXT_LABEL.test(`${head}:`) && !isBinding(rest)) return 'task-title';
    const isRecap = RECAP_LABEL.test(head) || isVagueNeed(head);
    const isOwnLook = role !== 'user' && (OWN_EDIT.test(head) || OWN_LOOK.test(head) || PERCEPTION.test(head));
    if (isRecap || isOwnLook) {
      const inner = passingRemarkOf(rest, options);
      if (inner !== undefined) return inner;
      // What the speaker saw after looking ("I traced the flow: only `x` skips validation") is
      // how the code is now, unless it names a cause, a fix or a rule.
      if (role !== 'user' && OWN_LOOK.test(head) && !isBinding(rest) && !CAUSE_OR_FIX.test(rest)) return 'observation';
    }
  }
  if (NEXT_OPENING.test(text) && !isBinding(text.replace(NEXT_OPENING, ''))) return 'task-title';
  if (RECAP_LEAD_IN.test(text) || ((TASK_OPENING.test(text) || PROGRESS.test(text) || WORTH_DOING.test(text)) && !isBinding(text))) return 'task-title';
  if (isVagueNeed(text)) return 'task-title';
  if ((GUESS.test(text) || EXPECTED_OUTCOME.test(text)) && !SETTLED.test(text)) return 'hedge';
  if (EPISTEMIC_MODAL.test(text) || DIAGNOSED_SUBJECT_MODAL.test(text)) return 'hedge';
  if (role === 'user') return undefined;
  if (isBinding(text)) return undefined;
  // "`f` is hard to follow because it mixes IO with parsing": the reason explains the verdict; only a fix makes it a finding.
  if ((VERDICT.test(text) || EVALUATION.test(text)) && !FIX_TOLD.test(text)) return 'observation';
  if (CAUSE_OR_FIX.test(text)) return undefined;
  // "I noticed the project keeps amounts in pence" is how the project works, not what is on screen.
  if (PERCEPTION.test(text) && !isStatedConvention(text, { role })) return 'observation';
  if (isOwnEditByLine(text) || ADDED_TEST.test(text) || COMMIT_REPORT.test(text)) return 'narration';
  if (EDIT_EFFECT.test(text) || COUNTERFACTUAL.test(text) || EDIT_SIZE.test(text) || ALTERNATIVE.test(text) || COST.test(text)) return 'narration';
  if (isHarmDescription(text)) return 'observation';
  return undefined;
}

// --- Internal helpers ---

/**
 * Whether a line only names a task: a "next" label or a need with nothing specific in it ("Recap
 * of the retry helpers, they want a tidy-up:"). Such a line binds nothing that follows it.
 */
export function namesTaskOnly(text: string): boolean {
  const plain = text.replace(/\*\*|__/gu, '').replace(/\s+/gu, ' ').trim();
  const head = LEAD_IN.exec(plain)?.[1];
  const isNextLabel = NEXT_OPENING.test(plain) || (head !== undefined && NEXT_LABEL.test(`${head}:`));
  return isVagueNeed(plain) || RECAP_LEAD_IN.test(plain) || (isNextLabel && !isBinding(plain));
}

/**
 * The task a "next" label or opening announces: "Up next: the retry helpers, they need a cleanup"
 * → "the retry helpers, they need a cleanup". `undefined` when the text announces none.
 */
export function announcedTaskOf(text: string): string | undefined {
  const plain = text.replace(/\*\*|__/gu, '').replace(/\s+/gu, ' ').trim();
  const opening = NEXT_OPENING.exec(plain);
  if (opening !== null) return plain.slice(opening[0].length);
  const label = LEAD_IN.exec(plain);
  return label !== null && NEXT_LABEL.test(`${label[1] ?? ''}:`) ? plain.slice(label[0].length) : undefined;
}

/**
 * The speaker's edit told by where it was made, not by what it names: "Updated `a.sql`: I changed
 * the value on line 10 from 2 to 10", "in `x.py` I adjusted the constant on line 137 (0 → 1)".
 */
function isOwnEditByLine(text: string): boolean {
  const edit = OWN_EDIT_ANYWHERE.exec(text);
  return edit !== null && BY_LINE.test(text.slice(edit.index));
}

/** A need with nothing specific in it: "the date helpers deserve a proper pass". */
function isVagueNeed(text: string): boolean {
  return VAGUE_NEED.test(text) && !/\d|`/u.test(text) && !isBinding(text);
}

/** Wording that binds: a rule's modal on a thing, or a choice made. */
function isBinding(text: string): boolean {
  return RULE_WORD.test(text) || CHOICE_WORD.test(text) || PREMISED_CHOICE.test(text);
}

/**
 * What the code does now and the harm that follows from it: "`load` reads the row before the
 * check, so a bad row slips through", "the session lookup skips the region, so two shops could
 * see each other's data". The subject is a piece of code and the harm is told as a consequence.
 */
function isHarmDescription(text: string): boolean {
  const consequence = HARM_CONSEQUENCE.exec(text);
  if (consequence === null) return false;
  const cause = text.slice(0, consequence.index);
  const effect = text.slice(consequence.index);
  // "…, so it can't run inside a transaction" draws a rule from the code: that is a constraint.
  return CODE_SUBJECT.test(cause) && !FIRST_PERSON.test(cause) && !FIRST_PERSON.test(effect) && !DRAWN_RULE.test(effect);
}

// A courtesy that is the whole sentence: "Glad to help with the importer.", "Thanks for the logs!".
const PLEASANTRY = new RegExp(
  String.raw`^(?:(?:ok(?:ay)?|sure|of course|absolutely|great|nice)[,!.]?\s+)*(?:` +
    [
      String.raw`(?:i['’]m |i am |we['’]re |we are )?(?:always )?(?:(?:more than|really|very|so) )?(?:happy|glad|pleased|delighted|excited|keen) to (?:help|assist|pitch in|dig in|jump in|take a look|look into it|work on (?:this|it|that))(?: (?:with|on|at|into|out with|you with) [^,;:.!?]{1,60})?`,
      String.raw`(?:thanks|thank you)(?: (?:so|very) much| a lot)?(?: for [^,;:.!?]{1,60})?`,
      String.raw`(?:you['’]re|you are) (?:very |most )?welcome`,
      String.raw`(?:no problem|no worries|my pleasure|any time|anytime|cheers)`,
      String.raw`(?:good|great|nice) (?:catch|question|point|call|idea)`,
    ].join('|') +
    String.raw`)\s*[.!]*$`,
  'iu',
);

// A progress mark of a status list: "⏳ Session tests - NEXT: …", "🔄 In progress: …".
const STATUS_MARK = /^(?:[⏳⌛🔄🚧⏸🔜☐⬜🟡🟠]|\u25B6\uFE0F?)|\bNEXT:\s/u;

// A lead-in joined to the sentence after it: a few words and a colon.
const LEAD_IN = /^([^:]{3,160}?):\s+(?=\S)/u;
// Labels that announce what comes next: "On deck:", "Another task:", "Up next —".
const NEXT_LABEL = /^(?:(?:and|so|ok(?:ay)?|now)[,\s]+)?(?:next(?: up| thing| task| item| on the list)?|up next|new task|another task|todo|to-do|on deck|first(?: thing| up| task| on the list)|to (?:kick (?:things|it) off|start (?:things )?off|start with|begin with))\s*:$/iu;
// The same without a colon: "Next item is the importer", "Up next, the retry helpers".
const NEXT_OPENING = /^(?:(?:and|so|ok(?:ay)?|now)[,\s]+)?(?:next(?: up| thing| task| item| on the list)|up next|new task|on deck)(?:\s+is|\s*[,—–-])\s+/iu;
// A recap of a task before its items, the task named by what is done: "Summary of adding the CSV
// export:", "Finished; status update on fixing the flaky tests:". A recap of what was settled binds.
const RECAP_LEAD_IN = /(?:^|[.;!]\s*)(?:summary|recap|status(?: update)?|progress(?: update)?|wrap-up)\s+(?:of|on|for)\s+(?:\p{L}+ing\b|the work on\b)(?![^:]*\b(?:settled|decided|agreed|chosen|decisions?|rules?|constraints?|requirements?|conventions?)\b)[^:]{3,120}:\s*$/iu;
// Labels of a recap: "Summary of …", "Recap:", "Status update on …".
const RECAP_LABEL = /^(?:summary|recap|status|progress|wrap-up|re|regarding)\b/iu;
// A need for unspecified work: "could use a cleanup", "deserves a proper pass", "wants some care".
const VAGUE_NEED = /\b(?:needs?|could use|deserves?|calls? for|wants?)\s+(?:some|a|an|more|a bit of|a little|a lot of|real|serious|proper|another|further)?\s*(?:bit of |little |lot of )?(?:love|work|attention|care|tlc|clean-?up|cleaning(?: up)?|tidy(?:ing)?(?: up)?|polish(?:ing)?|refactor(?:ing)?|rework|overhaul|improvement|help|fixing|tweaking|pass|once-over|look|going over|sorting out|rethink)\b/iu;
// The speaker's own edit told as a lead-in: "I renamed `a` to `b`", "I've added a test in …".
const OWN_EDIT = /^(?:i|we)(?:['’]ve| have)?\s+(?:just\s+|also\s+)?(?:renamed|added|introduced|extracted|moved|made|changed|updated|edited|adjusted|tweaked|rewrote|reworded|replaced|removed|dropped|split|inlined|wrapped|refactored|cleaned up|tidied)\b/iu;
// The speaker's own look at the code: "I traced the flow", "I went through the handlers".
const OWN_LOOK = /^(?:i|we)(?:['’]ve| have)?\s+(?:just\s+|also\s+|now\s+)?(?:checked|looked (?:at|through|over|into)|went (?:through|over)|read(?: through)?|grepped|searched|inspected|traced|reviewed|skimmed|scanned|audited|double-checked|compared)\b/iu;
// Work taken up, told as what to turn to: "let's tackle the flaky tests", "can you look into the export?".
const TASK_OPENING = /^(?:(?:ok(?:ay)?|now|so|alright|right)[,\s]+)*(?:let['’]s|let us|can you|could you|please|i['’]d like (?:you )?to|time to)\s+(?:now\s+)?(?:tackle|work on|look (?:at|into)|move on to|turn to|get to|pick up|start on|focus on|dig into|take on)\b/iu;
// Work in progress: "…; looking into it now", "addressing that next".
const PROGRESS = /\b(?:fixing|looking into|checking|handling|addressing|investigating|on) (?:it|that|this|them)(?: now| next| first)?\s*[.!]?$|^(?:on it|working on it)\b/iu;
// Why a task deserves doing: "customers hit it daily, so it is worth doing right".
const WORTH_DOING = /\b(?:it['’]s|it is|is|are) (?:really |well )?worth (?:fixing|doing|cleaning up|a proper fix)\b/iu;
// The speaker's edit anywhere in the sentence, after a label or a place: "… in `x.py` I adjusted …".
const OWN_EDIT_ANYWHERE = /\b(?:i|we)(?:['’]ve| have)?\s+(?:just\s+|also\s+)?(?:changed|adjusted|tweaked|bumped|set|updated|edited|replaced)\b/iu;
// What was edited named by its line: "the value on line 10", "the constant near line 75".
const BY_LINE = /^[^.;]{0,60}?\b(?:the\s+)?(?:value|constant|number|literal|string|line|default)\s+(?:on|at|near|in)\s+line\s+\d+\b/iu;
// A test the speaker added, told by its name or file: "I added a regression test 'handles …' in …".
const ADDED_TEST = /\b(?:i|we)(?:['’]ve| have)?\s+(?:just\s+|also\s+)?(?:added|wrote|put in|created)\s+(?:a|an|one|two|three|another)\s+(?:(?:new|small|regression|unit|integration|failing)\s+)*tests?(?:\s+case)?\b/iu;
// A report that the work was committed: "Done, committed: …", "Committed as 'fix: …'".
const COMMIT_REPORT = /^(?:(?:done|ok(?:ay)?|great)[,.!:]?\s+)?(?:i['’]ve\s+|i\s+)?committed\b/iu;
// What the speaker sees in front of it: "I can see `Expected: 3` in the log", "I notice the handler …".
const PERCEPTION = /^(?:(?:ok(?:ay)?|now|hmm+|so)[,\s]+)?(?:i|we)\s+(?:can\s+|could\s+|now\s+)?(?:see|notice|noticed|spot|spotted)\b/iu;
// A rule's own wording, with the thing it binds.
const RULE_WORD = /\b(?:must(?! have been| be (?:further|somewhere|elsewhere|upstream|downstream))|(?:never|always)(?!\s+(?:for|in|on|at|with|the|a|from|when|after|before|by)\b)|(?:do not|don['’]t)(?=\s+\p{L})|shall|is required|are required|may not|at most|at least|no more than|up to \d)\b/iu;
// A choice made or settled.
const CHOICE_WORD = /\b(?:(?:we|i)(?:['’]ll| will)? (?:go|went|going) with|decided|chose|chosen|settled on|switch(?:ed)? to|standardi[sz]ed? on|let['’]s (?:use|go with|keep|switch|stick))\b/iu;
// A choice given as the premise of what follows: "Since I moved the uploads onto S3, …".
const PREMISED_CHOICE = /^(?:since|because|now that|as|after)\s+(?:i|we)(?:['’]ve| have)?\s+(?:moved|switched|migrated|ported|put)\b[^,;]{0,80}?\b(?:onto|to|over to|on)\s+\S/iu;
// A fix told in the sentence.
const FIX_TOLD = /\b(?:the fix (?:is|was)|fixed|which fixed|resolved|solved|workaround)\b/iu;
// A cause or a fix told in the sentence.
const CAUSE_OR_FIX = /\b(?:because|caused by|root cause|due to|turns? out|the fix (?:is|was)|fixed (?:it|this|that)?\s*by|which fixed|resolved by|solved by)\b/iu;

// A guess given as one: "my best guess is …", "our working theory is …", "one hunch: …".
const GUESS = /\b(?:my|our|the|one|a|first)\s+(?:(?:first|best|initial|working|current|main|leading|only|educated|gut)\s+)?(?:guess|hunch|suspicion|theory|hypothesis|bet|feeling)\b(?:\s+(?:is|was|would be|here is)\b|\s*:)/iu;
// The outcome a check is expected to have, before it runs: "Expected: should work (the id is only …)".
const EXPECTED_OUTCOME = /^expected:\s*(?:it\s+)?(?:should|will|would)\s+(?:still\s+)?(?:work|fail|pass|succeed|break|be fine|load|resume)\b/iu;
// What turns a guess into a finding.
const SETTLED = /\b(?:confirmed|turned out|was right|fixed|resolved|solved|verified)\b/iu;
// An epistemic modal: "must have been cached", "has to be somewhere in the mapper".
const EPISTEMIC_MODAL = /\b(?:must|has to|have to|should)\s+(?:have\s+(?:been|\p{L}+ed|run|gone|broken|come|written|read|sent|thrown)\b|be\s+(?:(?:somewhere|further|elsewhere|upstream|downstream|earlier|later)\b|(?:coming|originating) from\b|caused by\b|related to\b|happening\b))/iu;
// A diagnosis noun given a place or an identity with "must be": "the bug must be in the mapper".
const DIAGNOSED_SUBJECT_MODAL = /^(?:(?:so|but|then|and)[,\s]+)?(?:the|this|that|our)\s+(?:real\s+|actual\s+)?(?:problem|issue|bug|culprit|cause|regression|leak|mismatch|race)\s+(?:must|has to)\s+be\s+(?!\p{L}+ed\b)(?:in|at|on|inside|before|after|the|a|an|somewhere|further|elsewhere|with|between|what|why)\b/iu;

// A verdict on the code as it is: "seems fine", "nothing in X seems obviously off", "reads correct".
const VERDICT = /\b(?:looks?|seems?|reads?|appears?)\s+(?:(?:obviously|mostly|basically|largely|perfectly|pretty|fairly)\s+)?(?:fine|right|ok(?:ay)?|good|correct|wrong|off|suspicious|clean|reasonable|sane|sound)\b/iu;
// An evaluation of the code: "is a bit messy", "is getting too busy", "feels bloated".
const EVALUATION = /\b(?:is|are|was|were|looks?|feels?|seems?|gets?)\s+(?:(?:a bit|a little|quite|very|rather|really|pretty|somewhat|still|also|kind of|getting)\s+)?(?:inconsistent|messy|confusing|hard to (?:read|follow|test|reason about)|convoluted|verbose|bloated|tangled|cluttered|overcomplicated|over-engineered|too (?:long|big|large|complex|clever|busy)|(?:longer|bigger|more complex|more complicated) than (?:it|they) needs? to be|doing too much|a bit much|overkill|duplicated|redundant|dead code|unused)\b/iu;
// What the speaker's edit achieves, told with the edit as subject: "That way …", "This isolates …".
const EDIT_EFFECT = /^(?:(?:and|so|but|also)[,\s]+)?(?:this|that|it)(?: change| fix| approach| refactor| helper)?\s+(?:(?:also|now|should)\s+)?(?:way\b|keeps|makes|removes|avoids|saves|lets|gives|ensures|guarantees|prevents|stops|reduces|cuts|helps|allows|simplifies|isolates|centrali[sz]es|localizes)\b/iu;
// What would happen without the edit: "Without that guard, an empty field …", "Otherwise the …".
const COUNTERFACTUAL = /^(?:without (?:this|that|it|the (?:check|fix|change|guard|test|helper))\b|otherwise\b|if (?:we|i) hadn['’]t\b|had (?:we|i) not\b)/iu;
// The size or the safety of the edit: "It's a small change, but …", "A one-line fix.".
const EDIT_SIZE = /^(?:(?:it|this|that)(?:['’]s| is| was)\s+)?(?:a|an|just a|only a)\s+(?:small|tiny|minor|simple|quick|one-line|two-line|trivial|cheap|safe|low-risk|mechanical|cosmetic|contained|local)\s+(?:change|fix|edit|tweak|refactor|diff|patch)\b/iu;
// The option not taken, told in the past: "The other option would have been a decorator on each route".
const ALTERNATIVE = /^(?:the\s+)?(?:alternative|other option|other approach)\s+(?:was|would be|would have been)\b/iu;
// The cost of the edit: "one more map lookup per request, so it is negligible", "so dropping it is safe".
const COST = /\b(?:nothing to worry about|negligible|(?:is|so it['’]s|it['’]s) (?:low|no|little|minimal) risk|low[- ]risk|(?:no|little|minimal) (?:real |noticeable |measurable )?(?:overhead|performance cost|impact)|not a concern)\b|^\p{L}+-wise\b/iu;

// A consequence that tells harm: ", so a bad row slips through", "which means two shops could see …".
const HARM_CONSEQUENCE = /,\s+(?:so|which means|meaning)\s+(?:that\s+)?(?=[^.]*\b(?:can|could|may|might|falls? through|ends? up|slips? through|leaks?|gets? (?:lost|dropped|skipped|ignored)|is (?:silently )?(?:lost|dropped|skipped|ignored|overwritten)|never (?:runs?|fires?|gets?))\b)/iu;
// A piece of code as the subject: a code span, or "the <code noun>".
// A rule drawn as the consequence: what may not, must or must not happen.
const DRAWN_RULE = /\b(?:can['’]t|cannot|can not|may not|must(?:n['’]t| not)?|should(?:n['’]t| not)?|has to|have to|needs? to|is not allowed|are not allowed)\b/iu;
const CODE_SUBJECT = /^[^,;:]{0,80}?(?:`[^`]+`|\b(?:the|this|that)\s+(?:\p{L}+\s+){0,2}(?:key|query|lookup|filter|index|cursor|function|method|handler|route|mapper|loop|check|code|module|class|endpoint|job|worker|helper|cache|hook|callback|service|repository|middleware|component|constructor|parser|loader|validator|serializer)s?\b)/iu;
const FIRST_PERSON = /\b(?:i|we|i['’]ve|we['’]ve|i['’]ll|we['’]ll)\b/iu;

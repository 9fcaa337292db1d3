// The shape of a resolved failure told in one sentence, whatever words name the failure: what was
// wrong, said in the past ("the category tree had a cycle", "the migration ran before the extension
// existed"), then the change, said as the new state ("… keeps a visited set now") or as a change
// made ("… - created the extension first"); or the change with the outcome it had ("the teardown
// closes the pool now and the run exits cleanly"). The caller asks for an identifier or a value
// as well, so a remark about the weather of the code ("it was messy; it reads better now") is not
// taken for a fix.

/**
 * Tells whether a sentence tells a failure's cause and its fix by its structure: a clause in the
 * past tense, then — after a semicolon, a dash, a colon or ", so" — a clause that states the new
 * state ("now") or leads with a change made ("bumped", "switched", "created", "so I sorted …");
 * or a change followed by its outcome ("… now and it exits cleanly", "… and the deploy went
 * through"). Plans, hopes ("should pass now") and questions are not.
 */
export function isCauseAndFix(sentence: string): boolean {
  const text = sentence.replace(CODE_SPAN, 'code').replace(/\s+/gu, ' ').trim();
  if (text.length === 0 || QUESTION_END.test(text) || HOPE.test(text) || /:\**$/u.test(text)) return false;
  if ((hasChange(text) && OUTCOME.test(text)) || GONE_AFTER.test(text)) return true;
  if (isLabelledFix(text)) return true;
  // Two sentences joined by the caller: what was wrong, then what changed.
  if (isJoinedCauseAndFix(sentence)) return true;
  // Each break is tried in turn: a lead-in ("Found it on my side: …") may come before the cause.
  const isSpecific = SPECIFIC.test(sentence);
  let start = 0;
  for (const match of text.matchAll(CLAUSE_BREAKS)) {
    // The clause right before the break, after any earlier break.
    const before = text.slice(start, match.index);
    const after = text.slice(match.index + match[0].length);
    // A bare comma does not end the clause before it for the breaks after it ("For the record, we …; …").
    if (match[0].trim() !== ',') start = match.index + match[0].length;
    if (!PAST.test(before) || FIRST_PERSON_LEAD.test(before)) continue;
    // The fix first, then what was wrong: "Bumped the pool to 20; the timeouts were requests queueing".
    // A change and then its new state ("Switched over: carts now hold stock for 20 minutes") is an update.
    if (CHANGE_LEAD.test(before)) {
      if (FAULT.test(after) && !hasChange(after)) return true;
      continue;
    }
    // A comma joins a fix only after a fault (a failure, or a plain "was" with something named:
    // "the 403s were CORS, I put the origin in `ALLOWED_ORIGINS`", not "the build was slow, I
    // grabbed a coffee"), and when what follows is the speaker's change or a new state that is not
    // merely a pass ("…, it passes now").
    if (match[0].trim() === ',' && (SUCCESS.test(after) || !(FAILED_STATE.test(before) || (FAULT.test(before) && isSpecific)) || !(CHANGE_LEAD.test(after) || NEW_STATE.test(after)))) continue;
    if (hasChange(after) || FIX_RESULT.test(after) || isMeansResult(after)) return true;
  }
  return false;
}

/**
 * Tells whether a clause is led by the means that fixed something and says what it did, whatever
 * the verb: "making the fixture function-scoped isolated them", "pinning the zone was enough",
 * "adding the flag did the trick". Looking into a failure ("running the suite showed two
 * failures", "logging the ids revealed …") and a means that failed are not.
 */
export function isMeansResult(clause: string): boolean {
  const text = clause.replace(CODE_SPAN, 'code').replace(/\s+/gu, ' ').trim();
  if (text.length === 0 || QUESTION_END.test(text) || HOPE.test(text)) return false;
  return MEANS_RESULT.test(text);
}

/**
 * Tells whether two adjacent sentences tell a failure's cause and its fix between them, when
 * neither does alone: what was wrong, said in the past with no change in it ("The timestamps were
 * naive.", "Problem: the retry loop never reset its counter."), then the change, said as the new
 * state or led by a change made ("Both are UTC-aware now.", "Reset it on success.") or given
 * under a fix label ("Fix: reset it on success."). Plans, hopes and questions are not.
 */
export function isSplitCauseAndFix(previous: string, sentence: string): boolean {
  const cause = previous.replace(CODE_SPAN, 'code').replace(/\s+/gu, ' ').trim();
  const fix = sentence.replace(CODE_SPAN, 'code').replace(/\s+/gu, ' ').trim();
  if (cause.length === 0 || fix.length === 0) return false;
  // A lead-in ("Updated locations:", "… it will:") introduces a list; it is not half of a fix.
  if ([cause, fix].some((text) => QUESTION_END.test(text) || HOPE.test(text) || /:\**$/u.test(text))) return false;
  // "Now I need to verify the build": the speaker's next step, not the new state.
  if (FIRST_PERSON_LEAD.test(fix.replace(/^now,?\s+/iu, ''))) return false;
  const fault = cause.replace(PROBLEM_LABEL, '');
  const isLabelledProblem = fault.length < cause.length;
  // The first sentence reports what was wrong, not the speaker's own attempt nor a change.
  if (!(isLabelledProblem || FAILED_STATE.test(fault)) || FIRST_PERSON_LEAD.test(fault) || hasChange(fault) || SUCCESS.test(fault) || REPORTED_CHANGE.test(fault)) return false;
  if (isLabelledFix(fix)) return true;
  // "the whole suite is green again now" reports an outcome, not the change that brought it.
  if (SUCCESS.test(fix)) return false;
  // The new state ("Both are UTC-aware now"), a change made ("Bumped it to 20") or a means that
  // did the fixing ("Running the migrations first fixed it").
  return NEW_STATE.test(fix) || CHANGE_LEAD.test(fix) || FIX_RESULT.test(fix) || isMeansResult(fix);
}

/**
 * Tells whether a text is two sentences a caller joined that tell a cause and its fix between
 * them (see {@link isSplitCauseAndFix}).
 */
export function isJoinedCauseAndFix(text: string): boolean {
  const plain = text.replace(/\s+/gu, ' ').trim();
  const stop = SENTENCE_BREAK.exec(plain);
  return stop !== null && isSplitCauseAndFix(plain.slice(0, stop.index + 1), plain.slice(stop.index + stop[0].length));
}

/**
 * Tells whether a sentence reports a change together with the outcome it had: "the teardown
 * closes the pool now and the run exits cleanly", "created the extension first and the deploy
 * went through". The outcome says a failure went away, so the sentence needs no name to be kept.
 */
export function hasFixOutcome(sentence: string): boolean {
  const text = sentence.replace(CODE_SPAN, 'code').replace(/\s+/gu, ' ').trim();
  if (HOPE.test(text) || QUESTION_END.test(text)) return false;
  return GONE_AFTER.test(text) || (OUTCOME.test(text) && (hasChange(text) || CLAUSE_BREAK.test(text)));
}

/**
 * Tells whether a sentence gives a fix under its label, with a few words of its own: "Fix:
 * reconnect the channel when it closes", "Workaround: pin the image to 3.19".
 */
export function isLabelledFix(sentence: string): boolean {
  return FIX_LABEL.test(sentence.trim());
}

/**
 * Tells whether a sentence reports a change made or the new state it left, in any of its clauses:
 * led by a change ("Pinned the parser to 2.11", "moved the registration into `boot`"), or a state
 * said with "now", "no longer" or "instead of" ("the claim query takes a row lock now"). Read
 * right after a failing run turned green, such a sentence tells the fix even without a cause.
 * Trials ("raised the log level to debug for this run"), outcomes ("everything passes now"), new
 * tests, plans and questions are not.
 */
export function isChangeReport(sentence: string): boolean {
  const text = sentence.replace(LOG_CALL_SPAN, 'log').replace(CODE_SPAN, 'code').replace(LIST_MARKER, '').replace(/\s+/gu, ' ').trim();
  if (text.length === 0 || QUESTION_END.test(text) || HOPE.test(text) || TRIAL.test(text) || /:\**$/u.test(text)) return false;
  return text.split(REPORT_BREAKS).some((part) => {
    const clause = part.trim().replace(/^now,?\s+/iu, '');
    if (clause.length === 0 || SUCCESS.test(clause) || NEW_TEST.test(clause) || isDiagnosticEdit(clause)) return false;
    if (CHANGE_LEAD.test(clause) || IRREGULAR_CHANGE.test(clause) || NO_LONGER.test(clause)) return true;
    return NEW_STATE.test(part) && !FIRST_PERSON_LEAD.test(clause);
  });
}

/**
 * Tells whether a sentence reports a change the speaker made, in any of its clauses, led by the
 * verb of the change ("Pinned the parser to 2.11", "Updated `db.ts`: I raised the pool to 20",
 * "Change in `x.ts` — I moved the check"). Unlike {@link isChangeReport}, a state said with
 * "now" or "instead of" ("the handler returns a 500 instead of a 404") is not one: said while a
 * failure is open, it is as likely an observation.
 */
export function isMadeChange(sentence: string): boolean {
  const text = sentence.replace(LOG_CALL_SPAN, 'log').replace(CODE_SPAN, 'code').replace(LIST_MARKER, '').replace(/\s+/gu, ' ').trim();
  if (text.length === 0 || QUESTION_END.test(text) || HOPE.test(text) || TRIAL.test(text) || /:\**$/u.test(text)) return false;
  const clauses = text.split(REPORT_BREAKS).map((part) => part.trim().replace(/^now,?\s+/iu, ''));
  // "Updated `x.test.ts`: I added a regression test" reports a test, not a change.
  if (clauses.some((clause) => NEW_TEST.test(clause))) return false;
  return clauses.some((clause) => clause.length > 0 && !SUCCESS.test(clause) && !isDiagnosticEdit(clause) && (CHANGE_LEAD.test(clause) || IRREGULAR_CHANGE.test(clause)));
}

/**
 * Tells whether a clause reports an edit that changes no behaviour: output added to look into
 * the failure ("added a log line to `parseRow`", "put a `console.log` in the loop", "inserted a
 * breakpoint"), a comment, or a rename or rewording made for the reader ("renamed `rows` to
 * `normalized` for clarity", "reworded the message so it's easier to grep"). Such an edit is not
 * the fix of anything.
 */
export function isDiagnosticEdit(clause: string): boolean {
  const text = clause.replace(LOG_CALL_SPAN, 'log').replace(/\s+/gu, ' ').trim();
  return DIAGNOSTIC_EDIT.test(text) || COSMETIC_EDIT.test(text) || (RENAME_LEAD.test(text) && FOR_THE_READER.test(text));
}

/**
 * Tells whether a sentence says what was wrong, in the past or under a label: "`load` never
 * awaited the write", "the key was missing the locale", "Root cause: a stale build". Plans,
 * hopes and questions are not.
 */
export function tellsFault(sentence: string): boolean {
  const text = sentence.replace(CODE_SPAN, 'code').replace(/\s+/gu, ' ').trim();
  if (text.length === 0 || QUESTION_END.test(text) || HOPE.test(text)) return false;
  return PROBLEM_LABEL.test(text) || (FAILED_STATE.test(text) && !SUCCESS.test(text));
}

// --- Internal helpers ---

function hasChange(clause: string): boolean {
  return NOW.test(clause) || CHANGE_LEAD.test(clause.trim());
}

const CODE_SPAN = /`[^`\n]*`/gu;
const QUESTION_END = /\?\s*["')\]]*$/u;
// A hope or a plan about the change, not a report of it: "this should pass now", "let me try …".
const HOPE = /\b(?:should|might|may|could|hopefully|probably|let me|let['’]s|i['’]ll|going to)\b/iu;
// A break between two clauses; a bare comma only before the speaker's own act or a new state
// ("…was stripping the header, I added it to the allowlist", "…dropped it, it's allowed now").
const CLAUSE_BREAK = /;\s+|\s+[-—–]{1,2}\s+|:\s+(?=\p{Ll})|,\s+so\s+(?=(?:I|we)\b)/u;
const CLAUSE_BREAKS = new RegExp(`${CLAUSE_BREAK.source}|,\\s+(?=(?:I|we|it|they)\\b)`, 'gu');
// Something named: a code span, a path, a setting, a number, an acronym, a dotted name.
const SPECIFIC = /`|[=/\\]|\d|\b[A-Z]{2,}\b|\w\.\w/u;
// A means, then a verb of fixing and what it fixed: "running the migration first fixed it",
// "code sorted it", "sorting the ids before locking removed the deadlock".
const FIX_RESULT = /^(?!(?:I|we|it|that|this|which|nothing|something)\b)\S[^;:]*?\s(?:fixed|solved|resolved|sorted|cured|removed|eliminated|stopped|prevented|got rid of|did away with)\s+(?:it|that|this|them|both|the\s+[\p{L}-]+)\b/iu;
// A clause led by a means (a gerund that is not a step of looking into the failure), then what it
// did: a past verb that is not one of finding, failing or taking time ("… isolated them", "…
// brought the count back to 2"), or a verdict on it ("… was enough", "… did the trick").
const MEANS_RESULT = /^(?:(?:and|so|then|just)\s+)?(?!(?:running|rerunning|re-running|trying|checking|looking|reading|testing|logging|debugging|printing|grepping|searching|inspecting|bisecting|nothing|something|everything|anything)\b)\p{L}{3,}ing\s+[^;:]*?\s(?:(?!(?:showed|revealed|printed|logged|returned|failed|crashed|timed|produced|reported|confirmed|surfaced|exposed|triggered|raised|needed|required|wanted|seemed|looked|started|passed|caused)\b)\p{L}{3,}ed\s+(?:it|them|that|this|both|the|things|everything|each|every|all)\b|(?:was|is)\s+(?:enough|all (?:it|that) (?:took|needed|was needed)|what (?:it|that) needed)|did (?:the trick|it|the job)|brought\s+\S+(?:\s+\S+)?\s+back|got rid of|made\s+(?:it|them|the\s+[\p{L}-]+)\s+(?:pass|stable|deterministic|green|go away|work))/iu;
// A past tense in the clause: "was", "had", "ran", a regular "-ed" form.
const PAST = /\b(?:was|were|had|hadn['’]t|wasn['’]t|weren['’]t|did|didn['’]t|ran|read|kept|left|went|came|got|took|sent|lacked|never)\b|\b\p{L}{2,}ed\b/iu;
// A clause led by the speaker's own act ("I checked the logs - nothing") reports an attempt.
const FIRST_PERSON_LEAD = /^(?:\p{L}+,\s+)?(?:I|we)\b/iu;
// What was wrong, said after the fix: "the timeouts were requests queueing", "it had no upper bound".
const FAULT = /\b(?:was|were|had|wasn['’]t|weren['’]t|hadn['’]t|came from|caused by|broke|failed|crashed|hung|stalled|leaked|threw|dropped|stripped|swallowed|rejected|timed out)\b/iu;
// A failure gone with the change that removed it: "the leak is gone after unsubscribing".
const GONE_AFTER = /\b(?:is|are|went)\s+(?:gone|away)\s+(?:after|since|once|with|by)\s+\p{L}/iu;
// A fix given under its label, with a few words of its own.
const FIX_LABEL = /^(?:the\s+)?(?:fix|solution|workaround|remedy|resolution)\s*:\s+\S+(?:\s+\S+){2,}/iu;
const NOW = /\bnow\b/iu;
// A report that something went well names no failure: "the tests passed", "that worked".
const SUCCESS = /\b(?:pass(?:ed|es)?(?!-)|worked|succeeded|went through|was fine|were fine|looked (?:fine|good|right)|green)\b/iu;
// "now" giving the new state; "for now" and "until now" give a time, "now that" a reason.
const NEW_STATE = /(?<!\b(?:for|until|till|right|just|by)\s)\bnow\b(?!\s+that\b)/iu;
// A failure or a faulty state, told in the past: "the export ran out of memory", "the timestamps
// were naive", "the counter was never reset", "the handler returned 500", "node couldn't resolve it".
const FAILED_STATE = /\b(?:came from|caused by|hence the|kept (?:the|a|an) (?:first|old|stale|previous|initial|original)\b|came back (?:without|empty|as)|(?:in|into) (?:the )?(?:wrong|different|opposite|reverse) orders?|hit (?:the|a|its|our) (?:[\p{L}-]+ )?(?:cap|limit|ceiling|quota)|broke|failed|crashed|hung|stalled|leaked|threw|timed out|ran out|collided|overflowed|deadlocked|drifted|doubled|overwrote|mismatched|returned (?:\d{3}|null|undefined|nothing|an? (?:error|empty))|(?:was|were|had been)\s+(?:[\p{L}-]+\s+){0,3}?(?:off|wrong|missing|broken|stale|naive|null|empty|undefined|unbounded|duplicated|off by|too\s+\p{L}+|not|capped|swallowed|ignored|dropped|leaking|blocking|racing|lost|corrupt(?:ed)?|truncated|reused|shared)|wasn['’]t|weren['’]t|hadn['’]t|didn['’]t|couldn['’]t|could not|never\s+(?!an?\b|the\b|been\b)\p{L}+)\b/iu;
// A change reported in the passive is the fix, not the fault: "the script has been updated".
const REPORTED_CHANGE = /\b(?:has|have)\s+been\s+\p{L}+ed\b/iu;
// A full stop between two sentences a caller joined.
const SENTENCE_BREAK = /[.!]\s+(?=[\p{Lu}`])/u;
// A label naming what was wrong: "Problem: …", "Root cause: …".
const PROBLEM_LABEL = /^(?:the\s+)?(?:problem|issue|bug|cause|root cause|culprit)\s*:\s+/iu;
// A change made, leading its clause: "bumped …", "so I sorted …", "we pinned …" — any past form
// but those of looking into a problem ("checked", "tried", "logged"), which report an attempt.
const CHANGE_LEAD = /^(?:(?:so|and|then)\s+)?(?:(?:I|we)(?:['’]ve| have)?\s+)?(?:(?!(?:checked|looked|tried|searched|inspected|printed|logged|noticed|confirmed|verified|tested|grepped|debugged|investigated|reproduced|opened|reviewed|compared|traced|asked|wondered|expected|assumed|suspected|guessed|started|needed|wanted|used|called|named|based|seemed|happened|failed|crashed|timed|passed|worked)\b)\p{L}{3,}ed|set|made|put|gave|cast|wrote|rewrote|cut|split|built|rebuilt)\b/iu;
// What the change achieved: "and it exits cleanly", "and the deploy went through", "so the suite passes".
const OUTCOME = /\b(?:and|so)\s+(?:it|they|the\s+[\p{L}-]+|everything|CI|tests?|builds?)\s+(?:\p{L}+\s+)?(?:pass(?:es|ed)?|works?|worked|builds?|built|exits?\s+cleanly|exited\s+cleanly|went\s+through|goes\s+through|(?:is|are)\s+(?:green|gone|stable)|succeeds?|succeeded|stays?\s+up|stopped\s+(?:failing|crashing|hanging))\b/iu;
// A change made with a verb whose past is not "-ed": "held pg at 16", "froze the lockfile".
const IRREGULAR_CHANGE = /^(?:(?:so|and|then)\s+)?(?:(?:I|we)(?:['’]ve| have)?\s+)?(?:held|froze|bound|undid|rewound)\b/iu;
// A list marker before a reported change: "- bumped the pool to 20".
const LIST_MARKER = /^\s*(?:[-*+•]|\d{1,3}[.)])\s+/u;
// Where a report of changes goes on with another clause.
const REPORT_BREAKS = /;\s+|\s+[-—–]{1,2}\s+|:\s+|,\s+|\s+and\s+(?=(?:I|we)\b)/u;
// A state that changed, said by what is no longer so: "uploads no longer sit in memory", "… instead of buffering".
const NO_LONGER = /\b(?:no longer|not any more|instead of)\b/iu;
// A step taken to look into a failure, not to remove it: "bumped the log level to debug for this run".
const TRIAL = /\b(?:debug(?:ging)?|verbose|temporar(?:y|ily)|for (?:this|one|the next) run|to see (?:what|where|whether|if|how)|just to|back to)\b/iu;
// Output or a remark added to a file: "added a log statement to …", "put a `console.log` in …",
// "dropped a print in", "added a comment above …": the thing added ends the clause or is followed
// by where it went.
const DIAGNOSTIC_EDIT = /^(?:(?:so|and|then|also)\s+)?(?:(?:I|we)(?:['’]ve| have)?\s+)?(?:added|put|inserted|dropped|sprinkled|left|placed|wired in|threw in)\s+(?:(?:a|an|some|the|few|more|extra|another|one|two|three|\d+|temporary|quick|couple of|of)\s+)*(?:[\p{L}-]+\s+)?(?:log(?:ging|ger)?(?:\s+(?:line|statement|call|message|output|entry|entries))?s?|print(?:s|f|ln)?(?:\s+(?:line|statement|call)s?)?|traces?|tracing|breakpoints?|debugger(?:\s+statements?)?|comments?|docstrings?|todos?)(?=\s+(?:to|in|into|on|at|above|below|before|after|around|for|inside|near|next|that|which|so|where|when)\b|\s*[.,;:!)—–-]|\s*$)/iu;
// A call to a logger or a print in a code span stands for the output added: "`console.log(id)`".
const LOG_CALL_SPAN = /`(?:console|logger|log|logging|print|printf|println|puts|dbg|debug)\b[^`\n]*`/giu;
// A rewording or reformatting: the text or layout changed, not what the code does.
const COSMETIC_EDIT = /^(?:(?:so|and|then|also)\s+)?(?:(?:I|we)(?:['’]ve| have)?\s+)?(?:reworded|rephrased|reformatted|re-?indented|prettified|realigned|tidied|cleaned up the (?:wording|formatting|comments?))\b/iu;
// A rename, which counts as cosmetic only when the speaker says it is for the reader.
const RENAME_LEAD = /^(?:(?:so|and|then|also)\s+)?(?:(?:I|we)(?:['’]ve| have)?\s+)?renamed\b/iu;
const FOR_THE_READER = /\b(?:for (?:clarity|readability|consistency)|(?:easier|simpler|clearer) to (?:read|grep|follow|find|search|scan)|(?:reads|read) better)\b/iu;
// A test added for the change is not the change: "added a regression test for the empty cart".
const NEW_TEST = /^(?:(?:so|and|then)\s+)?(?:(?:I|we)(?:['’]ve| have)?\s+)?(?:added|wrote|extended)\s+(?:(?:a|an|another|one|two|three|\d+|the)\s+)?(?:[\p{L}-]+\s+)?(?:tests?|test cases?|specs?|assertions?)\b/iu;

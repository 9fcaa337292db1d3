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
  if (text.length === 0 || QUESTION_END.test(text) || HOPE.test(text)) return false;
  if (hasChange(text) && OUTCOME.test(text)) return true;
  const match = CLAUSE_BREAK.exec(text);
  if (match === null) return false;
  const before = text.slice(0, match.index);
  const after = text.slice(match.index + match[0].length);
  if (!PAST.test(before) || FIRST_PERSON_LEAD.test(before)) return false;
  // The fix first, then what was wrong: "Bumped the pool to 20; the timeouts were requests queueing".
  if (CHANGE_LEAD.test(before) && PAST.test(after)) return true;
  return hasChange(after);
}

// --- Internal helpers ---

function hasChange(clause: string): boolean {
  return NOW.test(clause) || CHANGE_LEAD.test(clause.trim());
}

const CODE_SPAN = /`[^`\n]*`/gu;
const QUESTION_END = /\?\s*["')\]]*$/u;
// A hope or a plan about the change, not a report of it: "this should pass now", "let me try …".
const HOPE = /\b(?:should|might|may|could|hopefully|probably|let me|let['’]s|i['’]ll|going to)\b/iu;
// The first break between two clauses.
const CLAUSE_BREAK = /;\s+|\s+[-—–]{1,2}\s+|:\s+(?=\p{Ll})|,\s+so\s+(?=(?:I|we)\b)/u;
// A past tense in the clause: "was", "had", "ran", a regular "-ed" form.
const PAST = /\b(?:was|were|had|hadn['’]t|wasn['’]t|weren['’]t|did|didn['’]t|ran|read|kept|left|went|came|got|took|sent|lacked|never)\b|\b\p{L}{2,}ed\b/iu;
// A clause led by the speaker's own act ("I checked the logs - nothing") reports an attempt.
const FIRST_PERSON_LEAD = /^(?:\p{L}+,\s+)?(?:I|we)\b/iu;
const NOW = /\bnow\b/iu;
// A change made, leading its clause: "bumped …", "so I sorted …", "we pinned …".
const CHANGE_LEAD = /^(?:(?:so|and|then)\s+)?(?:(?:I|we)(?:['’]ve| have)?\s+)?(?:bumped|raised|lowered|increased|reduced|capped|limited|pinned|unpinned|switched|moved|swapped|replaced|wrapped|sorted|created|changed|dropped|removed|guarded|escaped|awaited|closed|upgraded|downgraded|reverted|renamed|cast|set|gave|made|put|added)\b/iu;
// What the change achieved: "and it exits cleanly", "and the deploy went through", "so the suite passes".
const OUTCOME = /\b(?:and|so)\s+(?:it|they|the\s+[\p{L}-]+|everything|CI|tests?|builds?)\s+(?:\p{L}+\s+)?(?:pass(?:es|ed)?|works?|worked|builds?|built|exits?\s+cleanly|exited\s+cleanly|went\s+through|goes\s+through|(?:is|are)\s+(?:green|gone|stable)|succeeds?|succeeded|stays?\s+up|stopped\s+(?:failing|crashing|hanging))\b/iu;

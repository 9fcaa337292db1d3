// A choice is often to leave things as they are or to put something off, by either speaker:
// "we'll keep the monolith for now", "let's not do the uuid migration in this PR", "scrap the
// cache layer; measure first", "the plan we agreed is to keep Knex", "the tenant migration stays
// out of this PR". The scope words ("for now", "in this PR") that make other statements passing
// are what these decide. What is kept or put off must be named; "let's not worry about it for
// now", "keep going" and "let's see" decide nothing.

/**
 * What a sentence keeps, puts off or records as agreed: the words after "let's not / we won't
 * <verb>", "keep / stay on / stick with … <scope>", "scrap / drop / park / shelve … <reason or
 * scope>", "… stays out of <scope>", "the plan we agreed is to …". Undefined when the sentence has
 * none of these shapes or is a question; the caller asks that what is returned names something.
 */
export function heldChoiceOf(sentence: string): string | undefined {
  const text = sentence.replace(/\s+/gu, ' ').trim();
  if (text.length === 0 || /\?\s*["')\]]*$/u.test(text)) return undefined;
  const agreed = AGREED_PLAN.exec(text);
  if (agreed !== null) return text.slice(agreed.index + agreed[0].length);
  const refused = NOT_DOING.exec(text);
  if (refused !== null) return objectOf(text.slice(refused.index + refused[0].length));
  const kept = KEEPING.exec(text);
  if (kept !== null && SCOPE.test(text)) return objectOf(text.slice(kept.index + kept[0].length));
  const shelved = SHELVING.exec(text);
  if (shelved !== null && (SCOPE.test(text) || REASON_TO_WAIT.test(text))) return objectOf(text.slice(shelved.index + shelved[0].length));
  const left = LEFT_OUT.exec(text);
  if (left !== null) return left[1]?.trim();
  return undefined;
}

// --- Internal helpers ---

// What is named up to the first clause break or scope word; nothing when it is a pronoun or a
// verb of going on ("about it", "going", "looking").
function objectOf(rest: string): string | undefined {
  const named = (rest.split(/[;,:—–]\s|\s[-–]\s|[.!](?:\s|$)|\s(?:for now|for the moment|in this (?:pr|change|release|branch|sprint|quarter)|this (?:quarter|sprint|release)|until|till|unless|first)\b/iu, 1)[0] ?? rest).trim();
  return UNNAMED.test(named) ? undefined : named;
}

const UNNAMED = /^(?:about\s+|with\s+|on\s+)?(?:it|this|that|them|those|these|things|stuff|everything|anything|something|going|looking|trying|working|at it)\b|^\p{L}+ing\b(?!\s+\p{L})/iu;

// English data. "The plan we agreed is to …", "the decision we made was …".
const AGREED_PLAN = /^(?:so,?\s+)?(?:the|our)\s+(?:plan|decision|agreement|call|consensus|outcome)\s+(?:we|the team|everyone)\s+(?:agreed(?:\s+on)?|settled on|made|landed on|reached)\s+(?:is|was)\s+(?:to\s+|that\s+)?/iu;
// "let's not do", "we won't add", "we're not going to split", "we decided against".
const NOT_DOING = /^(?:(?:ok(?:ay)?|so|and|also|then|right)[,]?\s+)*(?:(?:let['’]s not|let us not|we won['’]t|we will not|we['’]re not going to|we are not going to|we don['’]t (?:want to|need to))\s+(?:\p{L}+)|(?:we|the team|everyone)\s+(?:(?:have|has)\s+)?(?:decided|voted|chose|agreed)\s+against)\s+/iu;
// "we'll keep the monolith", "we're keeping Knex", "we stay on Knex", "stick with the monolith".
const KEEPING = /^(?:(?:ok(?:ay)?|so|and|fine|then)[,]?\s+)*(?:(?:we|let['’]s)(?:['’]ll|['’]re| will| should| are)?\s+)?(?:keep|keeping|stay on|stay with|staying on|staying with|stick with|sticking with|leave)\s+/iu;
// "scrap the cache layer", "drop the idea", "park the rewrite", "hold off on the split".
const SHELVING = /^(?:(?:ok(?:ay)?|so|and|then)[,]?\s+)*(?:(?:let['’]s|we(?:['’]ll| will| should)?)\s+)?(?:scrap|scrapping|drop|dropping|shelve|shelving|park|parking|defer|deferring|postpone|postponing|hold off on|holding off on|skip|skipping|table)\s+/iu;
// The scope of the choice: now, this change, this period.
const SCOPE = /\b(?:for now|for the moment|for the time being|as (?:it is|is)|in this (?:pr|change|release|branch|sprint|quarter|iteration)|this (?:quarter|sprint|release|year)|until\b|till\b|later\b|next (?:year|quarter|sprint|release))/iu;
// A reason to wait: measuring or evidence first.
const REASON_TO_WAIT = /\b(?:measure|profile|benchmark|numbers|data|evidence|metrics)\b[^.]{0,30}\b(?:first|before)\b|\b(?:first|before)\b[^.]{0,30}\b(?:measure|profile|benchmark|numbers|data|evidence|metrics)\b|\bidea\b/iu;
// "the tenant-id migration stays out of this PR", "X is out of scope for this release".
const LEFT_OUT = /^(?:the\s+)?((?:[\p{L}\p{N}`/._-]+\s+){1,4}?)(?:stays|stay|is|are|remains)\s+out of (?:this|the) (?:pr|change|release|branch|sprint|quarter|scope)\b/iu;

// Shapes of statements that say how the project does things — naming, layout, formats, process —
// whoever says them. What makes a convention is the shape: a practice told as the habit of the
// project or the team ("we keep flags in config/flags.yaml", "the repo puts all SQL under
// db/queries"), a rule over things of a kind with the scope it holds in ("constants are
// SCREAMING_SNAKE_CASE here", "CSS classes follow BEM in this project"), or the assistant
// observing such a practice and doing the same ("I noticed the handlers are named verbNoun, so I
// named the new one that way", "like the other jobs, the new one registers itself in jobs/index.ts").
// One-off actions are not conventions: "I put the SQL under db/queries" reports an edit.

/** Who said a sentence, for {@link isStatedConvention}. */
export type ConventionSpeaker = 'user' | 'assistant' | 'system' | 'tool';

/**
 * Tells whether a sentence states a convention of the project: a practice in the present tense
 * with the project, the codebase or the team as its subject and things of a kind as its object
 * ("the team names test files *.spec.ts", "we keep fixtures next to the spec"), a statement about
 * things of a kind scoped to the project ("around here tests mirror the src tree", "file names
 * are kebab-case in this repo"), or what the assistant did told as following the project's way
 * ("I matched the existing pattern: each route module exports one router", "following the
 * repo's convention, the new variable is ACME_CACHE_URL"). An assistant's "we" narrates the code
 * ("we return early here"), so from the assistant the subject must be the project or the team
 * unless the practice is what it observed ("I noticed we keep …"). Questions, plans and the
 * speaker's own one-off edits are not conventions.
 */
export function isStatedConvention(sentence: string, options: { role: ConventionSpeaker }): boolean {
  const text = sentence.replace(/\*\*|__/gu, '').replace(/\s+/gu, ' ').trim();
  if (text.length === 0 || QUESTION_END.test(text) || PLAN.test(text)) return false;
  const words = text.match(WORD)?.length ?? 0;
  if (words < 3 || words > MAX_WORDS) return false;
  // "I followed the existing convention of putting one test file per module", "I mirrored how
  // the other adapters are structured: …".
  if (FOLLOWED_PRACTICE.test(text)) return true;
  const conformity = CONFORMITY_LEAD.exec(text);
  if (conformity !== null) return isPresentClause(text.slice(conformity[0].length));
  const observed = OBSERVATION_LEAD.exec(text);
  const body = observed === null ? text : text.slice(observed[0].length);
  // What the speaker did because of it (", so I did the same") is the consequence, not the practice.
  const main = (body.split(CONSEQUENCE, 1)[0] ?? body).replace(LEAD_FILLER, '').trim();
  const mayUseWe = options.role === 'user' || observed !== null;
  if (isCollectivePractice(main, { mayUseWe }) || NAMED_CONVENTION.test(main)) return true;
  // What the speaker found true of things of a kind ("I saw that every component folder has its
  // own stories file") is how the project does them. So is what the others of a kind do when the
  // new one is said to do the same ("the other endpoints return … , so the new route does the same").
  if (observed !== null && isGenericStatement(main)) return true;
  if (SAME_AS_OTHERS.test(body) && (isGenericStatement(main) || EXISTING_SUBJECT.test(main))) return true;
  return SCOPE.test(main) && isGenericStatement(main);
}

// --- Internal helpers ---

// "we keep feature flags in …", "the repo puts all SQL under …", "the team names test files …":
// the object is things of a kind (no "the", "a", "this" or pronoun before it).
function isCollectivePractice(clause: string, options: { mayUseWe: boolean }): boolean {
  const match = COLLECTIVE_PRACTICE.exec(clause);
  if (match === null) return false;
  const subject = (match[1] ?? '').toLowerCase();
  if (!options.mayUseWe && /^we$/u.test(subject)) return false;
  const object = clause.slice(match[0].length);
  // "we keep running into this" goes on doing something; it keeps nothing anywhere.
  if (/\bkeeps?\s*$/iu.test(match[0]) && /^\p{L}+ing\b/iu.test(object)) return false;
  // "we keep the seed data in db/seeds": a definite object with the place it is kept in is a kind of thing too.
  return (!SPECIFIC_OBJECT.test(object) || (DEFINITE_OBJECT.test(object) && PLACE.test(object))) && /\p{L}{2,}/u.test(object);
}

// A statement about things of a kind: a plural noun or "every/each/all/our" leads, then a verb in
// the present tense ("constants are …", "each service has …", "CSS classes follow …").
function isGenericStatement(clause: string): boolean {
  const core = clause.replace(SCOPE_LEAD, '').trim();
  return GENERIC_SUBJECT.test(core) && !FIRST_PERSON.test(core) && !STATE.test(core) && !LOCATED_HERE.test(core);
}

// After a lead saying the work follows the project's way, the rest must state something in the present.
function isPresentClause(rest: string): boolean {
  const clause = rest.replace(/^[\s,:;—–-]+/u, '');
  return PRESENT_VERB.test(clause) && !PAST_FIRST_PERSON.test(clause);
}

const WORD = /\p{L}[\p{L}\p{N}'’-]*/gu;
const MAX_WORDS = 45;
const QUESTION_END = /\?\s*["')\]]*$/u;
// Plans and intentions: "I'll follow …", "let me check how …", "we should …", "we'll …".
const PLAN = /^(?:(?:ok(?:ay)?|so|and|now)[,]?\s+)*(?:I['’]ll|I will|I['’]m going to|let me|let['’]s|we['’]ll|we will|we should|we could|we might|we need to)\b/iu;
const LEAD_FILLER = /^(?:(?:also|and|btw|fyi|so|oh|ok(?:ay)?|yeah|right|heads up|for the record|just so you know|note)[,:]?\s+)+/iu;
// The speaker saying it observed the practice: "I noticed (that) …", "it looks like …", "from what I can see, …".
const OBSERVATION_LEAD = /^(?:(?:also|and|so|btw)[,]?\s+)?(?:I\s+(?:noticed|saw|see|found|checked|spotted|can see)(?:\s+that)?|it\s+(?:looks|seems|appears)\s+(?:like|that)|(?:looks|seems)\s+like|from what I (?:can see|saw|could see)[,]?|as far as I can (?:see|tell)[,]?|apparently[,]?)\s+/iu;
// The assistant doing what it found, after the practice: ", so I kept that", ", so the new one does the same".
const CONSEQUENCE = /,?\s+(?:so|which is why|and so|hence)\s+(?:I|I['’]ve|the new|this|the added|mine)\b|;\s+/iu;
// The new work said to be done like the rest: ", so the new route does the same", ", so I kept that".
const SAME_AS_OTHERS = /,?\s+(?:so|and|which is why)\s+(?:I(?:['’]ve)?\s+(?:did the same|do the same|kept (?:that|it|to (?:that|it))|followed (?:that|it|suit|the same)|matched (?:that|it|them)|stuck (?:to|with) (?:that|it)|used the same|named (?:it|the new one|mine) the same way)|(?:the new|this|my|the added)\s+(?:[\p{L}-]+\s+){0,2}?(?:does|did|follows?|uses?|is|works)\s+(?:the same|suit|too|likewise|that way))\b/iu;
// The ones already there as the subject: "the other endpoints …", "the existing services …", "all the jobs …".
const EXISTING_SUBJECT = /^(?:the\s+(?:other|existing|current|older|rest of the)|all\s+(?:the|of the)(?:\s+(?:other|existing))?)\s+(?:[\p{L}\p{N}_-]+\s+){0,2}?[\p{L}\p{N}_-]*[\p{L}]s\s+(?:\p{L}+)/iu;
// The work said to follow the project's way, before what that way is: "I matched the existing
// pattern:", "Following the repo's convention,", "Like the other jobs,", "Consistent with the rest of the codebase,".
const CONFORMITY_LEAD = /^(?:(?:also|and|so)[,]?\s+)?(?:(?:I\s+(?:matched|followed|kept to|stuck to|mirrored|copied)|following|matching|per)\s+(?:the\s+)?(?:existing|usual|established|same|project['’]s|repo['’]s|codebase['’]s|team['’]s|house)\s+(?:[\p{L}-]+\s+)?(?:pattern|convention|layout|style|structure|naming|scheme|approach)|(?:like|as with|same as)\s+(?:all\s+)?the\s+other\s+[\p{L}-]+s|consistent\s+with\s+the\s+rest\s+of\s+the\s+(?:codebase|repo|repository|project|code|app)|as\s+(?:everywhere\s+)?elsewhere\s+in\s+the\s+(?:codebase|repo|repository|project|code|app))\s*[,:;—–-]\s*/iu;
// The speaker doing what the project does, told as the practice it followed: a convention "of"
// doing something, or how the others of a kind are made.
const FOLLOWED_PRACTICE = /^(?:(?:also|and|so)[,]?\s+)?(?:I\s+(?:matched|followed|kept to|stuck to|mirrored|copied)|following|matching)\s+(?:(?:the\s+)?(?:existing|usual|established|project['’]s|repo['’]s|codebase['’]s|team['’]s|house)\s+(?:[\p{L}-]+\s+)?(?:pattern|convention|practice|habit|style|approach)\s+of\s+\p{L}+ing\b|(?:how|the way)\s+(?:the\s+|all\s+the\s+)?(?:other|existing|older|rest of the)\s+(?:[\p{L}-]+\s+){0,2}?[\p{L}-]+s\s+(?:are|is|do|get|were)\b)/iu;
const PRESENT_VERB = /\b(?:is|are|has|have|uses?|gets?|lives?|goes|go|sits?|returns?|registers?|exports?|follows?|starts?|ends?|reads?|writes?|stays?|keeps?|takes?|carries|carry|does|do)\b/iu;
const PAST_FIRST_PERSON = /^(?:I|we)\s+(?:\w+ed|put|made|wrote|did)\b/iu;
// The project or the team doing something as a habit, in the present tense.
const COLLECTIVE_PRACTICE = /^(we|the team|our team|everyone|everybody|(?:this|the|our)\s+(?:repo|repository|codebase|code base|project|monorepo|app|service|backend|frontend))\s+(?:(?:all|always|usually|generally|normally|typically|consistently|still|just)\s+)?(?:(?:seems?|appears?|tends?)\s+to\s+)?(?:keeps?|puts?|stores?|names?|writes?|uses?|prefix(?:es)?|suffix(?:es)?|follows?|versions?|places?|groups?|organi[sz]es?|co-?locates?|mirrors?|wraps?|logs?|serializes?|serialises?|represents?|formats?|structures?|splits?|tags?|models?|routes?|exposes?|declares?|defines?|sends?|treats?|runs?|reviews?|requires?|squash(?:es)?|rebases?|documents?|notes?|pins?|lints?|validates?|handles?|avoids?)\b\s*/iu;
// The practice named as such: "the convention here is …", "our naming scheme seems to be …".
const NAMED_CONVENTION = /^(?:the|our|this|the (?:repo|project|team|codebase)['’]s)\s+(?:[\p{L}-]+\s+)?(?:convention|norm|house style|scheme|pattern|practice|rule of thumb)(?:\s+(?:here|around here|in (?:this|the|our) [\p{L}-]+|for [\p{L}-]+(?:\s+[\p{L}-]+)?))?\s+(?:is|seems to be|appears to be|looks to be|has (?:always )?been)\s+\p{L}/iu;
// An object that points at one thing rather than things of a kind.
const SPECIFIC_OBJECT = /^(?:the|a|an|this|that|it|them|these|those|one|some|his|her|my|your)\b/iu;
const DEFINITE_OBJECT = /^the\s+\p{L}/iu;
// Where things are kept: a folder of the repository, or beside each one of a kind.
const PLACE = /\b(?:in|under|inside|into)\s+`?(?:\.{0,2}\/)?[\w.-]+\/[\w./-]*|\b(?:next to|beside|alongside|with)\s+(?:each|every|its|their)\s+\p{L}/iu;
// Where the statement holds: the project, the team, or "here".
const SCOPE = /^(?:[\p{L}\p{N}_-]+\s+){1,3}here\s+(?!(?:is|are|was|were)\b)\p{Ll}|\b(?:around here|in (?:this|the|our) (?:repo|repository|codebase|code base|project|monorepo|code|app)|across (?:the|this|our) (?:repo|repository|codebase|code base|project|monorepo|code)|throughout (?:the|this|our) (?:repo|repository|codebase|code base|project|code)|by convention|in this team|here[.!]*$)/iu;
const SCOPE_LEAD = /^(?:around here|in (?:this|the|our) (?:repo|repository|codebase|code base|project|monorepo|code|app)|by convention)[,]?\s+/iu;
// "constants are …", "each service has …", "our DTOs end in …", "CSS classes follow …"; after
// "every" or "each", any verb in the present ("every worker registers its queue …").
const GENERIC_SUBJECT = /^(?:(?:every|each)\s+(?!(?:of|time|times|day|night|morning|week|hour|minute|one|run|attempt|other)\b)(?:[\p{L}\p{N}_-]+\s+){0,2}?[\p{L}\p{N}_-]*\p{L}\s+\p{Ll}{2,}s\b|(?!(?:the|a|an|this|that|these|those|it|its|there|they|he|she|you|we|which|what|who|your|his|her|their)\b)(?:(?:all|every|each|our|any)\s+)?(?:[\p{L}\p{N}_-]+\s+){0,2}?[\p{L}\p{N}_-]*[\p{L}](?:s|es)?\s+(?:are|is|follow|follows|use|uses|go|goes|live|lives|sit|sits|start|starts|end|ends|get|gets|have|has|mirror|mirrors|stay|stays|take|takes|carry|carries|return|returns|need|needs)\b)/iu;
// States and failures are how things are now, not how they are done: "tests are failing here".
const STATE = /\b(?:fail(?:s|ing|ed)?|broken|break(?:s|ing)?|pass(?:es|ing)?|flaky|slow|missing|gone|down|crash(?:es|ing)?|wrong|stale|outdated|empty|done|ready|fine|okay|ok)\b/iu;
// Things merely said to be here ("the logs are here") are located, not done some way.
const LOCATED_HERE = /^(?:\S+\s+){1,4}(?:are|is)\s+(?:all\s+)?(?:right\s+)?here[.!]*$/iu;
const FIRST_PERSON = /(?<![\p{L}\p{N}_])(?:I|me|my)(?![\p{L}\p{N}_'’])/u;

import { wordSetsFor, type PatternGroup, type PatternMatcher, type PatternPack, type WordSets } from '../boundaries/pattern-pack.js';
import type { Entry, FactCategory } from '../types.js';
import { isSettingStatement, withoutAttribution } from './behaviour-statement.js';
import { extractIdentifiers } from './identifiers.js';
import { wordTokensOf } from './word-tokens.js';

/** Who said a sentence, for {@link scoreSalience}. */
export type SalienceRole = Entry['role'];

/** What {@link scoreSalience} found in one sentence. */
export interface Salience {
  /** How much durable content the sentence carries; 0 when it carries none. */
  readonly score: number;
  /** Identifiers, values and names it carries (paths, `code`, `5s`, `Fastify`, `svc5`…). */
  readonly specifics: number;
  /** How many identifiers `extractIdentifiers()` finds in it (counted once, here). */
  readonly identifiers: number;
  /** Whether the sentence is a durable statement worth keeping as a fact. */
  readonly isDurable: boolean;
  /** The fact category its cues point to, when it is durable. */
  readonly category: FactCategory | undefined;
  /** Whether it reads as output rather than a statement (a table row, a log or shell line, code). */
  readonly isOutput: boolean;
}

/** Score at or above which a sentence is a durable statement. */
export const DURABLE_SCORE = 2;

/**
 * Scores how durable a sentence is from what it carries, whoever said it and however it is
 * worded: identifiers, paths, numbers with units, library/tool/service names and code spans give
 * substance; cue words of the pattern pack (modals and negations, choices, conventions, fixes and
 * causes, "note"/"policy") add weight; intentions ("let me check …"), questions, dead-end
 * debugging, wording limited to the current task and narration of one's own edits take weight
 * away. No single phrase decides: a statement with substance and one cue is durable, and so is a
 * user's statement with several cues; an assistant's statement without any specifics needs a
 * marker ("Note: …") or strong general wording ("always", "every", "must") with no first person,
 * since assistants narrate their own work at length.
 */
export function scoreSalience(
  sentence: string,
  options: { role: SalienceRole; matcher: PatternMatcher; original?: string | undefined },
): Salience {
  const { role, matcher } = options;
  const text = sentence.trim();
  // Leading markers ("note:", "fyi:") are stripped from `sentence` but still count.
  const said = options.original ?? text;
  // Emphasis marks a statement as well: a bold span of a few words ("**Import is feasible!**").
  // A label counts after leading fillers too ("Also, rule of thumb: …").
  const isMarked =
    matcher.test('factMarker', said.replace(CODE_SPAN, '`…`')) ||
    matcher.test('factMarker', text.replace(CODE_SPAN, '`…`')) ||
    EMPHASIS.test(said);
  // Cue words inside `code spans` say nothing about the sentence. Cues count on the sentence as
  // said: a leading "ok" is filler in English but part of the Vietnamese "ok làm vậy".
  const prose = (options.original ?? text).replace(CODE_SPAN, '`…`');
  const identifiers = extractIdentifiers(text);
  const kindNames = toolKindNames(prose, matcher);
  // An acronym named for a role ("the broker is NATS") is a name, not half of one.
  const slotNames = lowerCaseNames(prose, matcher, { known: kindNames.lowerCase, statement: withoutAttribution(text).replace(CODE_SPAN, '`…`'), sentence: text.replace(CODE_SPAN, '`…`') });
  // A name given right after a colon counts when choice wording leads up to the colon ("let's go
  // with option B: Postgres advisory locks"); after other lead-ins the capital opens a list item.
  const colon = prose.indexOf(': ');
  const isChoiceBeforeColon = colon > 0 && matcher.test('decision', prose.slice(0, colon));
  const leadingName = (word: string): boolean => !wordSetsFor(matcher.pack).stopword.has(word) && !/(?:ing|ed)$/u.test(word);
  const isStopword = (word: string): boolean => wordSetsFor(matcher.pack).stopword.has(word);
  const specifics = specificsOf(text, { role, identifiers, leadingName, isStopword, ...(isChoiceBeforeColon ? { words: wordSetsFor(matcher.pack) } : {}) }) + slotNames + kindNames.acronyms * 0.5;
  // A choice reported with its reason or its alternative ("I left the SDK on 3.x, since the next
  // major breaks checkout", "I moved the export onto pg-boss so it retries") is a decision said in
  // the past tense; narration of an edit to a named file stays narration.
  // The choice verbs lead the statement; a lead-in set apart from it ("For context, I kept …") does not hide them.
  const stated = text.replace(CODE_SPAN, '`…`');
  const opensOn = (lead: RegExp): boolean => lead.test(prose) || lead.test(stated);
  // A choice given as the reason for what follows ("Since I switched the indexer to Typesense, the
  // rebuild script is gone") is one too: the premise opens on a verb of choosing or placing and
  // names what was chosen ("Since I just added them in task 7.2, …" chooses nothing).
  const premise = CHOICE_PREMISE.exec(stated)?.[1];
  const isPremisedChoice = premise !== undefined && PLACED_CHOICE.test(premise) && countSpecifics(premise, { role }) >= 1;
  const isReasonedChoice = role !== 'user' && specifics >= 1 && (isPremisedChoice || (opensOn(OWN_CHOICE) && REASONED.test(prose))) && !FILE_PATH.test(text) && !WORK_OBJECT.test(premise ?? prose);
  // A tool the speaker put in a role, with no reason given ("I put order search on meilisearch",
  // "went with pino for structured logging"): the name fills the slot of a choosing or placing
  // verb and the object is a role, not a file or a piece of the work ("I put a log line in …").
  const isPlacedChoice = role !== 'user' && (slotNames > 0 || NAME_IN_SLOT.test(prose)) && !isReasonedChoice && opensOn(PLACED_CHOICE) && !FILE_PATH.test(text) && !PLACE_IN_TREE.test(text) && !WORK_OBJECT.test(prose);
  const isQuestion = QUESTION.test(text) && !TAG_QUESTION.test(text);
  // A question that opens on a name slot and names a tool ("how about dbmate for the migrations?",
  // "what about Valkey?") proposes a choice rather than asking for information.
  const isProposal = isQuestion && role === 'user' && specifics >= 1 && opensOnNameSlot(prose, matcher);
  // A tool named for its role ("the job queue is bullmq") states a choice as well.
  // So does a statement that names the tool something is done with or built on ("the partner
  // client is built on undici", "render the invoices with pdfkit"), unless it narrates an edit.
  const isNamedMeans = slotNames > 0 && !isQuestion && !NARRATION.test(text) && !(role !== 'user' && FIRST_PERSON.test(text));
  // The user agreeing to a named option ("agreed, Redis streams then", "fine, Kafka it is") chooses it.
  const isAgreedChoice = role === 'user' && !isQuestion && specifics >= 1 && AGREED_CHOICE.test(prose);
  // Something put behind a named feature flag ("we ship it behind the `beta_search` flag") is a
  // rollout decision: the flag is chosen and the thing depends on it.
  const isGated = !isQuestion && GATED_BY_FLAG.test(text);
  const isChoice = isReasonedChoice || isPlacedChoice || kindNames.count > 0 || isProposal || isNamedMeans || isAgreedChoice || isGated;
  // Where the speaker says it put something ("I put the SQL under db/queries") is the edit itself:
  // the preposition of the place is no sign of a practice followed.
  const isOwnPlacement = NARRATION.test(text);
  const cues = CUE_WEIGHTS.map(({ group, weight }) => {
    const count = Math.min(2, matcher.count(group, group === 'convention' && isOwnPlacement ? prose.replace(PLACEMENT, ' ') : prose));
    return { group, value: (group === 'decision' && isChoice ? Math.max(isGated ? 2 : 1, count) : count) * weight };
  });
  const markerBonus = isMarked && !cues.some((cue) => cue.group === 'factMarker' && cue.value > 0) ? MARKER_WEIGHT : 0;
  const cueTotal = cues.reduce((sum, cue) => sum + cue.value, 0) + markerBonus;
  // A marker alone does not lift the speaker's narration ("As requested, I had a look").
  const markerValue = markerBonus + (cues.find((cue) => cue.group === 'factMarker')?.value ?? 0);
  const words = prose.split(/\s+/u).filter((word) => word.length > 0).length;

  let penalty = 0;
  // "Can you make the export stream rows?" is a request, which may well carry a requirement.
  const isRequest = REQUEST.test(text);
  if (isQuestion && !isRequest && !isProposal) penalty += 3;
  // An announced step that also names a tool and states a choice ("I'll build the HTTP layer on
  // Hono") is a decision said as a plan: it loses only part of the weight.
  // So is the user's plan for the team that names the tool it is done with ("we'll index the
  // catalogue in meilisearch"): a shared plan, not the speaker's next look at something.
  const isChoiceAsPlan = specifics >= 1 && matcher.count('decision', prose) >= 2;
  const isSharedPlan = role === 'user' && isNamedMeans && SHARED_PLAN.test(prose);
  if (matcher.test('intention', prose) || (role !== 'user' && ASSISTANT_NEXT_STEP.test(prose))) penalty += isSharedPlan ? 0 : isChoiceAsPlan ? 1 : 3;
  if (matcher.test('deadEnd', prose)) penalty += 3;
  // The speakers' own habits and mishaps ("I always forget where the logs go", "we never got the
  // staging box working") use the words of a rule without stating one.
  if (SPEAKER_MISHAP.test(prose)) penalty += 3;
  if (matcher.test('transient', prose) && !isMarked) penalty += 2;
  if (matcher.test('taskStatus', prose)) penalty += isRequest ? 0.5 : 1.5;
  const isFix = cues.some((cue) => (cue.group === 'errorResolution' || cue.group === 'errorCause') && cue.value > 0);
  // Narration that says which practice it follows reports a convention, not an edit.
  const followsConvention = cues.some((cue) => cue.group === 'convention' && cue.value > 0);
  // "Copyleft is ruled out, so I used the MIT parser": the speaker's work follows from a rule,
  // which is what the sentence states.
  const consequence = CONSEQUENCE_OF_RULE.exec(text);
  const followsRule = consequence !== null && consequence.index >= 9 && cues.some((cue) => (cue.group === 'constraint' || cue.group === 'requirement') && cue.value > 0);
  if (NARRATION.test(text) && !isFix && !followsConvention && !isReasonedChoice && !isPlacedChoice && !followsRule) penalty += FILE_PATH.test(text) ? 2.5 : 1;
  // A remark whose subject is a piece of code describes the code as it is now.
  if (role !== 'user' && CODE_SUBJECT.test(text)) penalty += 1;
  if (words > 50) penalty += 1.5;
  // Table rows, pasted prompts, log lines and code are output, not statements; a line that ends
  // in a colon introduces what follows rather than stating something.
  const isOutput =
    TABLE_ROW.test(text) || TREE_LINE.test(text) || text.includes('\t') || SHELL_PROMPT.test(text) || LOG_LINE.test(text) ||
    matcher.test('traceContinuation', text) || looksLikeCode(said);
  if (isOutput) penalty += 3;
  if (/:\**\s*$/u.test(text)) penalty += 2;
  // "Traces: Tempo" names what fills a role; it is not a heading for being short and capitalised.
  // "Deadline: 12 March", "Max payload: 256 KB": a label that a rule's word fills with a value is a
  // note line, not a heading or a fragment.
  const isNoteOfValue = LABELLED_VALUE.test(stated) && cues.some((cue) => BINDING_CUES.has(cue.group) && cue.value > 0);
  if (isHeading(text) && !isNoteOfValue && labelledName(text.replace(CODE_SPAN, '`…`'), wordSetsFor(matcher.pack)) === undefined) penalty += 3;
  // A short label before a new value ("Changed as requested: the formats become CSV and XLSX")
  // leads a setting; it does not narrate it.
  if (role !== 'user' && PAST_LEAD.test(text) && !ADJECTIVE_LEAD.test(text) && !isFix && !isPlacedChoice && !isLabelledSetting(text)) penalty += 1;
  // A terse instruction from the user about a piece of code (no `any`, no `&&`) is still one.
  // A label and the name that fills it ("identity: Keycloak") is a note line, not a fragment, when
  // the name is written as one (a capital, a digit, a dot): "Fix: typo" fills its label with a word.
  if (words < 3 && !(role === 'user' && specifics > 0 && cueTotal > 0) && !isNoteOfValue && !isNoteOfName(stated, wordSetsFor(matcher.pack))) penalty += 2;

  const content = Math.min(3, specifics);
  const score = content >= 0.4
    ? content + cueTotal - penalty
    : words >= 4 && cueTotal >= 1.5 && (role === 'user' || (isMarked && (cueTotal > markerValue || !FIRST_PERSON.test(text))) || (cueTotal >= 3 && !FIRST_PERSON.test(text)))
      ? cueTotal - penalty + (role === 'user' || isMarked ? 0.5 : 0)
      : 0;
  // Without a cue word, a user stating two values ("timeouts are 8s, two retries") is specifying.
  const isCued = !isOutput && score >= DURABLE_SCORE && (cueTotal > 0 || (role === 'user' && specifics >= 2));
  // A named setting given a value ("the page size for listings is 50") is durable by its shape.
  const settingScore = content + SETTING_WEIGHT - penalty;
  const isSetting = !isCued && !isOutput && !isQuestion && content >= 0.4 && settingScore >= DURABLE_SCORE && !(role !== 'user' && FIRST_PERSON.test(withoutAttribution(text))) && isSettingStatement(text);
  const isDurable = isCued || isSetting;
  return {
    score: Math.max(0, isSetting ? settingScore : score),
    specifics,
    identifiers: identifiers.length,
    isDurable,
    category: isCued ? categoryOf(cues) : isSetting ? 'decisions' : undefined,
    isOutput,
  };
}

/**
 * Counts what makes a statement specific. Values count fully: numbers (with units or not),
 * versions, flags, error names and codes, ticket keys, quoted or assigned values, and capitalised
 * names inside the sentence (`Fastify`, `BullMQ`, `Postgres`; acronyms such as `CI` at half
 * weight). References to code (`camelCase`, `snake_case`, paths, `pool.close()`) count for less:
 * assistants mention them in every remark about the code, durable or not.
 */
export function countSpecifics(text: string, options: { role: SalienceRole }): number {
  return specificsOf(text, { role: options.role, identifiers: extractIdentifiers(text) });
}

// --- Internal helpers ---

function specificsOf(text: string, options: { role: SalienceRole; identifiers: readonly string[]; words?: WordSets; leadingName?: (word: string) => boolean; isStopword?: (word: string) => boolean }): number {
  const { identifiers } = options;
  const covered = identifiers.join(' ');
  let values = 0;
  let references = 0;
  const withoutCode = text.replace(CODE_SPAN, ' ');
  for (const identifier of identifiers) {
    // A service or package name (`ledger-core`) or a name in parentheses names a thing, like a
    // capitalised name; code symbols only point at the code.
    // A hyphenated word before a noun modifies it ("the test-connections page"): no name.
    const isHyphenated = HYPHENATED_NAME.test(identifier);
    if (isHyphenated && modifiesNoun(withoutCode, identifier, options.isStopword)) continue;
    if (VALUE_LIKE.test(identifier) || isHyphenated || text.includes(`(${identifier})`) || (!FIRST_PERSON.test(withoutCode) && namesKind(text, identifier))) values += 1;
    else references += 1;
  }
  // In a Title Case heading every word looks like a name.
  const wordsOf = withoutCode.match(/\p{L}[\p{L}'’-]*/gu) ?? [];
  const capitalised = wordsOf.filter((word) => /^\p{Lu}/u.test(word)).length;
  const isTitleCase = wordsOf.length >= 3 && capitalised / wordsOf.length > 0.5;
  for (const match of isTitleCase ? [] : withoutCode.matchAll(NAME)) {
    const name = match[0];
    // The first word of a sentence or of a clause is capitalised anyway.
    const before = withoutCode.slice(0, match.index).trimEnd();
    // An acronym (`SQL`, `CSV`) is a name even where any word is capitalised.
    const isLeadingAcronym = /^[A-Z]{3,6}s?$/u.test(name) && !covered.includes(name) && withoutCode.charAt(match.index + name.length) !== ':';
    if (isLeadingAcronym && (before.length === 0 || /[.!?:;—–-]$/u.test(before))) {
      values += 0.5;
      continue;
    }
    // After a colon inside the sentence that choice wording leads up to (the caller passes the
    // pack's words then), a capitalised word that is no ordinary word names something ("the
    // second option: Redis streams").
    const isNameAfterColon = before.endsWith(':') && /\s/u.test(before) && SHORT_TAIL.test(withoutCode.slice(match.index + name.length)) && options.words !== undefined && !/(?:ed|ing)$/u.test(name) && isNameLike(name.toLowerCase(), options.words, { mayLookPlural: true });
    if ((before.length === 0 || /[.!?:;—–-]$/u.test(before) || covered.includes(name)) && !(isNameAfterColon && !covered.includes(name))) continue;
    values += /^[A-Z]{2,6}s?$/u.test(name) ? 0.5 : 1;
  }
  // A capitalised word leading the sentence is a name when the sentence says what it is for:
  // "Doppler is where the secrets live", "Reversible is my favourite for …".
  const leading = LEADING_NAME_IDENTIFIED.exec(withoutCode)?.[1];
  if (leading !== undefined && options.leadingName?.(leading.toLowerCase()) === true && !covered.includes(leading)) values += 1;
  for (const match of withoutCode.matchAll(NUMBER)) {
    if (!covered.includes(match[0])) values += 1;
  }
  // A place where things of a kind are kept ("constants are kept in src/shared/consts.ts") is the
  // value a convention states, not a passing reference to code.
  if (PLACE_OF_KIND.test(withoutCode)) values += 1 - (options.role === 'user' ? 0.75 : CODE_REFERENCE_WEIGHT);
  // A name shape with placeholders (`ff.<area>.<name>`, `<Entity>Store`) states how names are made.
  if (PLACEHOLDER_SHAPE.test(withoutCode)) values += 1;
  // A quantity with a unit from the user (a duration, a size, a share) specifies something.
  if (options.role === 'user' && UNIT_QUANTITY.test(withoutCode)) values += 1;
  // Shell operators named in prose (`&&`, `||`, `2>&1`) refer to how commands are written.
  references += withoutCode.match(SHELL_OPERATOR)?.length ?? 0;
  // Users rarely narrate code: a path or symbol they name is part of what they ask for.
  return values + references * (options.role === 'user' ? 0.75 : CODE_REFERENCE_WEIGHT);
}


/** Whether a hyphenated word is directly followed by a lower-case word that is no function word. */
// A code span or a prefix right before the kind of thing it names ("the `stable` branch", "the
// APP_ prefix", "a `__specs__` folder") gives a value, not a reference to code; the caller asks
// only of statements, as narration ("I pushed to the `main` branch") names where work went.
function namesKind(text: string, identifier: string): boolean {
  const at = text.indexOf(identifier);
  // A path ("the `dist/` folder") is the place itself, already counted as code.
  if (at < 0 || identifier.includes('/')) return false;
  return NAMED_KIND_AFTER.test(text.slice(at + identifier.length));
}

function modifiesNoun(text: string, name: string, isStopword: ((word: string) => boolean) | undefined): boolean {
  const index = text.indexOf(name);
  if (index < 0) return false;
  const next = /^\s+(\p{Ll}+)\b/u.exec(text.slice(index + name.length))?.[1];
  return next !== undefined && isStopword?.(next) !== true;
}

/**
 * Counts lower-case names of libraries and tools, which a capitalised-name rule misses ("we render
 * the PDFs with pdfkit", "use pnpm for installs", `winston as our logger`): a word given a role by
 * the pack's choice wording, a word right after one of the pack's name slots ("with", "use",
 * "switch to") that ends its clause (punctuation, the end, or a function word follows) and is not
 * an ordinary word of the pack ("with care", "using caching", "switch to the next step"), a word
 * that leads the statement as the doer of a tool's work and one that names what things are made with.
 */
function lowerCaseNames(prose: string, matcher: PatternMatcher, options: { known: readonly string[]; statement: string; sentence: string }): number {
  const words = wordSetsFor(matcher.pack);
  const names = new Set<string>(options.known);
  for (const match of prose.matchAll(LOWER_WORD_BEFORE_AS)) {
    const word = (match[1] ?? '').toLowerCase();
    if (words.stopword.has(word) || words.numberWord.has(word)) continue;
    const role = matcher.find('decision', prose.slice(match.index + match[0].length));
    if (role?.index === 0) names.add(word);
  }
  // A word after a shorthand arrow that ends its clause: "search -> opensearch, …".
  for (const match of prose.matchAll(ARROW_NAME)) {
    const word = (match[1] ?? '').toLowerCase();
    if (isNameLike(word, words)) names.add(word);
  }
  // A short label and the name that fills it: "traces: jaeger", "background jobs: graphile-worker",
  // also in shorthand with an arrow ("queue → BullMQ").
  const labelled = labelledName(options.sentence, words);
  if (labelled !== undefined) names.add(labelled.toLowerCase());
  // The statement without its lead-in ("For the record, …") says who does the work.
  const agent = leadingAgentName(options.statement, words);
  if (agent !== undefined) names.add(agent);
  for (const name of toolOutputNames(prose, words)) names.add(name);
  if (words.nameSlot.size === 0) return names.size;
  const tokens = wordTokensOf(prose);
  for (let index = 1; index < tokens.length; index += 1) {
    const token = tokens[index];
    const previous = tokens[index - 1];
    if (token === undefined || previous === undefined || !previous.joined) continue;
    const before = tokens[index - 2];
    const isSlot =
      words.nameSlot.has(previous.word) ||
      // The agent of a tool's work in the passive: "served by caddy", "scanned by clamav".
      (previous.word === 'by' && before !== undefined && before.joined && participlesOf(words).has(before.word)) ||
      (before !== undefined && before.joined && words.nameSlot.has(`${before.word} ${previous.word}`)) ||
      // "switch … to": the verb a few words before, then only its object ("switch the unit tests to
      // vitest"), not another clause ("moved directory and tried to continue").
      tokens.slice(Math.max(0, index - 6), index - 1).some((head, offset, heads) =>
        words.nameSlot.has(`${head.word} … ${previous.word}`) &&
        heads.slice(offset + 1).every((word) => word.joined && (words.determiner.has(word.word) || !words.stopword.has(word.word))));
    // A word with a capital is counted as a name or an identifier already.
    if (!isSlot || !/^[\p{Ll}-]+$/u.test(token.raw)) continue;
    const after = tokens[index + 1];
    // A conjunction after the word opens a new clause: "on centrifugo because …".
    const endsClause = token.ends || (token.joined && after !== undefined && (words.stopword.has(after.word) || CONJUNCTION.test(after.word)));
    // A preposition takes no adverb for its object: "over ably", "with plotly" name tools.
    const mayEndLikeAdverb = AFTER_PREPOSITION.test(previous.word);
    if (endsClause && isNameLike(token.word, words, { mayEndLikeAdverb })) names.add(token.word);
  }
  return names.size;
}

/**
 * The name that leads a sentence as the doer of a tool's work: "<name> <tool verb> <object>"
 * ("celery handles the queue", "Pusher carries the live updates to the browser") or "<name> is
 * what <tool verb> …". A singular noun with no determiner seldom leads an English clause unless it
 * is a name, and a plural subject does not take the verb's third-person form; pronouns, ordinary
 * words of the pack and `-ing` forms are not names.
 */
function leadingAgentName(prose: string, words: WordSets): string | undefined {
  if (words.toolVerb.size === 0) return undefined;
  const match = LEADING_AGENT.exec(prose);
  if (match === null) return undefined;
  const name = (match[1] ?? '').toLowerCase();
  const verb = (match[2] ?? '').toLowerCase();
  const object = (match[3] ?? '').toLowerCase();
  if (!words.toolVerb.has(verb) || /(?:ing|ed)$/u.test(name)) return undefined;
  // The object opens on a determiner: the verb's form is also a plural noun's ("several processes
  // write …", "nightly builds fail"), and only a verb takes an object.
  if (!words.determiner.has(object) && !OBJECT_DETERMINER.test(object)) return undefined;
  return isNameLike(name, words, { mayLookPlural: true, isSubject: true }) ? name : undefined;
}

/**
 * The name a short label is given: "<one to three words>: <name>", the name ending the sentence or
 * followed by the role it plays ("decision: influxdb for metrics", "Request schemas: valibot").
 * The label must be words of prose and the name no ordinary word of the pack, so "Status: done"
 * and "Next: the routes" are not names.
 */
function isNoteOfName(statement: string, words: WordSets): boolean {
  return /[\p{Lu}\p{N}.@]/u.test(labelledName(statement, words) ?? '');
}

/** The name that fills a short label ("traces: Jaeger" → "Jaeger"), as written. */
function labelledName(statement: string, words: WordSets): string | undefined {
  // The label may follow a lead-in set apart by a dash ("one more thing - traces: tempo").
  const match = LABELLED_NAME.exec(statement.trim()) ?? LABELLED_NAME.exec(statement.trim().replace(DASH_LEAD_IN, ''));
  if (match === null) return undefined;
  const label = (match[1] ?? '').toLowerCase().split(/\s+/u);
  const name = match[2] ?? '';
  const lower = name.toLowerCase();
  if (label.some((word) => words.stopword.has(word) && !words.determiner.has(word)) || /(?:ed|ing)$/u.test(lower)) return undefined;
  return isNameLike(lower, words, { mayLookPlural: true, mayEndLikeAdverb: true }) ? name : undefined;
}

/**
 * Names given to things made with a tool after a copula or "as": "migrations are goose files now",
 * "the thumbnail jobs are dramatiq tasks", "emails are written as mjml templates". The word before the kind must not be an ordinary word of the
 * pack ("plain files", "a background thread") nor a participle.
 */
function toolOutputNames(prose: string, words: WordSets): string[] {
  if (words.toolOutput.size === 0 || words.copula.size === 0) return [];
  const names: string[] = [];
  for (const match of prose.matchAll(COPULA_NAME_KIND)) {
    const copula = (match[1] ?? '').toLowerCase();
    const word = (match[2] ?? '').toLowerCase();
    const kind = (match[3] ?? '').toLowerCase();
    // A kind in the singular too: "the importer is a dagster job".
    if (!(words.copula.has(copula) || copula === 'as') || !(words.toolOutput.has(kind) || words.toolOutput.has(`${kind}s`)) || /(?:ing|ed|en)$/u.test(word)) continue;
    if (isNameLike(word, words, { mayLookPlural: true })) names.push(word);
  }
  return names;
}

const participleSets = new WeakMap<WordSets, ReadonlySet<string>>();

/**
 * The past participles of the pack's tool verbs ("handles" → "handled", "carries" → "carried",
 * "sends" → "sent"): after one of them, "by" introduces the tool that does the work.
 */
function participlesOf(words: WordSets): ReadonlySet<string> {
  const cached = participleSets.get(words);
  if (cached !== undefined) return cached;
  const participles = new Set<string>();
  for (const verb of words.toolVerb) {
    const irregular = IRREGULAR_PARTICIPLES[verb];
    if (irregular !== undefined) {
      participles.add(irregular);
      continue;
    }
    const base = verb.endsWith('ies') ? `${verb.slice(0, -3)}y` : /(?:ss|sh|ch|x)es$/u.test(verb) ? verb.slice(0, -2) : verb.slice(0, -1);
    participles.add(base.endsWith('y') ? `${base.slice(0, -1)}ied` : base.endsWith('e') ? `${base}d` : `${base}ed`);
  }
  participleSets.set(words, participles);
  return participles;
}

/** Whether the sentence's first one or two words are one of the pack's name slots ("how about", "use"). */
function opensOnNameSlot(prose: string, matcher: PatternMatcher): boolean {
  const words = wordSetsFor(matcher.pack);
  const [first = '', second = ''] = (prose.match(WORD_TOKEN) ?? []).map((word) => word.toLowerCase());
  return words.nameSlot.has(first) || words.nameSlot.has(`${first} ${second}`);
}

/**
 * Finds names given to a kind of tool by a copula, "<kind> <copula> <name>" with the name ending
 * its clause: "the job queue is bullmq", "our session store is Redis", "the deploy target platform
 * is kubernetes". A name in lower case may look like a plural here ("postgres"): the copula after a
 * singular kind says it is one thing. States and participles ("the queue is empty", "the server
 * is started") are not names.
 */
function toolKindNames(prose: string, matcher: PatternMatcher): { count: number; lowerCase: string[]; acronyms: number } {
  const words = wordSetsFor(matcher.pack);
  const regex = toolKindRegexFor(matcher.pack, words);
  if (regex === undefined) return { count: 0, lowerCase: [], acronyms: 0 };
  let count = 0;
  let acronyms = 0;
  const lowerCase: string[] = [];
  for (const match of prose.matchAll(regex)) {
    const name = match[1] ?? '';
    const word = name.toLowerCase();
    if (/^\p{Lu}/u.test(name)) {
      count += 1;
      if (/^[A-Z]{2,6}s?$/u.test(name)) acronyms += 1;
      continue;
    }
    if (/(?:ed|ing)$/u.test(word) || !isNameLike(word, words, { mayLookPlural: true, mayEndLikeAdverb: true })) continue;
    count += 1;
    lowerCase.push(word);
  }
  return { count, lowerCase, acronyms };
}

const toolKindRegexes = new WeakMap<PatternPack, RegExp | undefined>();

function toolKindRegexFor(pack: PatternPack, words: WordSets): RegExp | undefined {
  if (toolKindRegexes.has(pack)) return toolKindRegexes.get(pack);
  const alternation = (set: ReadonlySet<string>): string =>
    [...set].sort((a, b) => b.length - a.length).map((word) => word.replace(/[.*+?^${}()|[\]\\/]/gu, '\\$&').replace(/\s+/gu, '\\s+')).join('|');
  const regex =
    words.toolKind.size === 0 || words.copula.size === 0
      ? undefined
      : new RegExp(
          `(?<![\\p{L}\\p{N}_-])(?:${alternation(words.toolKind)})\\s+(?:${alternation(words.copula)})\\s+` +
            // The name, then the end of its clause: punctuation, the end, or a joining word.
            `([\\p{L}][\\p{L}\\p{N}.+-]*[\\p{L}\\p{N}]|[\\p{L}])(?=\\s*(?:[,.;:)!]|$)|\\s+(?:${alternation(words.stopword)})(?![\\p{L}\\p{N}_]))`,
          'giu',
        );
  toolKindRegexes.set(pack, regex);
  return regex;
}

/** Whether a lower-case word can be a tool's name: not a function, number or ordinary word of the pack. */
function isNameLike(word: string, words: WordSets, options: { mayLookPlural?: boolean; mayEndLikeAdverb?: boolean; isSubject?: boolean } = {}): boolean {
  if (word.length < 2 || /[\d_.'’]/u.test(word)) return false;
  if (words.stopword.has(word) || words.numberWord.has(word) || words.unitWord.has(word) || words.commonWord.has(word)) return false;
  // A regular plural ("with retries", "using hooks") names things of a kind; "redis", "axios" keep their s.
  // A hyphenated name with a short last part ("date-fns") is not a plural either.
  if (options.mayLookPlural !== true && /[^siuo'’]s$/u.test(word) && !word.endsWith('js') && !/-\p{L}{1,3}$/u.test(word)) return false;
  for (const common of words.commonWord) {
    // A preposition takes a noun, not an adverb or an adjective, for its object ("through kamal").
    if (options.mayEndLikeAdverb === true && (common === '-ly' || common === '-al')) continue;
    if (options.isSubject === true && common === '-ly') continue;
    // Adjectives do not lead a clause as its subject: "temporal runs the workflows" names a tool.
    if (options.isSubject === true && ADJECTIVE_ENDING.test(common)) continue;
    if (common.startsWith('-') && word.length > common.length + 1 && word.endsWith(common.slice(1))) return false;
  }
  return true;
}

// A setting after a short label: read only for sentences that would otherwise pay the past-lead penalty.
function isLabelledSetting(text: string): boolean {
  return withoutAttribution(text) !== text && isSettingStatement(text);
}

/** A heading or list label: a few words, no closing punctuation, mostly capitalised or numbered. */
function isHeading(text: string): boolean {
  const plain = text.replace(/\*\*/gu, '').trim();
  if (/[.!?]$/u.test(plain)) return false;
  // A label is made of words: a standalone operator (`&&`) makes it an instruction about code.
  if (/(?:^|\s)[&|<>=]{2,}(?:\s|$)/u.test(plain)) return false;
  // A unit after a number ("3 MB") is not a capitalised word of a title.
  const words = plain.replace(QUANTITY_UNIT, ' ').match(/\p{L}[\p{L}'’-]*/gu) ?? [];
  if (words.length === 0 || words.length > 10) return false;
  const capitalised = words.filter((word) => /^\p{Lu}/u.test(word)).length;
  return capitalised / words.length > 0.5 || /^(?:\d+[.)]\s|[①-⑳])/u.test(plain);
}

/** Source code and markup read as statements by accident: assignments, calls, comments, tags. */
function looksLikeCode(text: string): boolean {
  const withoutSpans = text.replace(CODE_SPAN, ' ');
  if (/^(?:\/\/|#(?!\s*\d)|\/\*|<\/?[a-z]|import\s|from\s\S+\simport\s|def\s|class\s\w+[:({]|const\s\w+\s=|let\s\w+\s=|var\s|return\s|\$\w+\s*=|(?:if|for|while|switch|catch)\s?\(|[\w.]+\([^)]*\);?$|""")/u.test(withoutSpans)) return true;
  // A call with keyword arguments or an assignment to a call, or a line left open for more.
  if (/[\w.]\((?:[^)]*[=,])?/u.test(withoutSpans) && /\w\s?=\s?\S/u.test(withoutSpans)) return true;
  if (/[,({[]\s*$/u.test(withoutSpans)) return true;
  const symbols = withoutSpans.match(/[{}();=[\]|$]/gu)?.length ?? 0;
  return withoutSpans.length > 0 && symbols / withoutSpans.length > 0.06;
}

const CODE_SPAN = /`[^`\n]*`/gu;
const QUANTITY_UNIT = /(?<![\p{L}\p{N}_.])\d+(?:[.,]\d+)?\s?(?:[KMGTP]i?B|ms|px)(?![\p{L}\p{N}_])/gu;
const QUESTION = /\?\s*["')\]]*$/u;
// "We're going with Hono, right?" states a choice and asks for a nod.
// "Is it possible to keep the old links working?" asks for an outcome as well.
// "Could the export also carry a `tenant` column?" asks for how a thing should behave.
const REQUEST = /^(?:(?:and|also|so|ok(?:ay)?|oh)[,\s]+)*(?:(?:can|could|would|will) you|(?:would|do) you mind|(?:can|could) we|(?:is|would) it (?:be )?possible|is there a way|(?:could|can|would|should) (?:the|our|this|these|every|each|all) (?:[\p{L}-]+ ){1,2}(?:also |always )?(?!be\b|have\b)\p{L}{3,})\b|^please\b/iu;
// At most two more words, then the end of the clause: what follows a name given after a colon.
const SHORT_TAIL = /^(?:\s+[\p{L}-]+){0,2}\s*(?:[,.;!)](?=\s|$)|$)/u;
// Agreement leading the sentence, then the option named and a closing "… then" / "… it is".
const AGREED_CHOICE = /^(?:ok(?:ay)?|agreed|fine|sure|yes|yeah|yep|alright|deal)\b[,!.]?\s+(?:\S+\s+){0,6}?\S+\s+(?:then|it\s+is)(?=\s*(?:[,.!]|$|for\s))/iu;
// A plan the user makes for the team: "we'll …", "we're going to …", "the plan is to …".
const SHARED_PLAN = /^(?:(?:so|and|ok(?:ay)?)[,]?\s+)?(?:we['’]ll|we will|we['’]re going to|we are going to|(?:the\s+)?plan is to)\b/iu;
const TAG_QUESTION = /(?:,\s*|\b)(?:right|correct|ok|okay|yes|yeah|agreed|fine)\s*\?\s*["')\]]*$/iu;
// First person reporting one's own finished edit: "I added …", "I've renamed …".
// A choice reported in the past ("I picked Kysely", "I settled on …") is a decision, not narration.
const NARRATION = /(?:^|\s)I(?:['’]ve| have| just)?\s+(?!(?:picked|chose|opted|settled|decided|standardi[sz]ed)\b)(?:\w+ed|made|wrote|ran|put|took|kept|left|did|found|saw|read|set)\b/u;
// The speaker's own finished action leads the sentence: "I left …", "I've moved …".
const OWN_CHOICE = /^(?:(?:also|and|so|then|now|finally)[,]?\s+)*I(?:['’]ve| have| just| also)?\s+(?:\w+ed|made|wrote|put|took|kept|left|set|built|chose)\b/iu;
// The speaker's own choice or placement of something, leading the sentence: "I put …", "went with …",
// "we moved … onto", "picked …". Verbs of looking or editing are not among them.
const PLACED_CHOICE = /^(?:(?:also|and|so|then|finally)[,]?\s+)*(?:(?:I|we)(?:['’]ve| have| just| also)?\s+)?(?:put|moved|went with|go with|picked|selected|chose|switched|swapped|settled on|opted for|standardi[sz]ed on|based|built|kept|left|pointed|routed|wired)\b/iu;
// A capitalised name as the object of a placing preposition: "… onto Temporal", "… behind Caddy".
const NAME_IN_SLOT = /\b(?:on|onto|with|through|behind|to)\s+[A-Z][\p{L}\p{N}]*\p{Ll}[\p{L}\p{N}.-]*(?=\s+for\b|[\s,.;:]*$|[,;:]\s)/u;
// A folder of the repository as the place something was put ("… under db/queries"): an edit, not a tool chosen.
const PLACE_IN_TREE = /\b(?:under|in|into|inside|next to|beside|alongside)\s+`?(?:\.{0,2}\/)?[\w.-]+\/[\w./-]*/u;
// The preposition that gives where something was put: "under", "next to", "inside".
const PLACEMENT = /\b(?:under|next to|inside|into|alongside|beside)\b/giu;
// "behind the `beta_search` flag", "behind `new_checkout`", "behind a NEW_BILLING toggle": a flag
// name (a code span that is no call, or a snake_case or upper-case name) after "behind".
const GATED_BY_FLAG = /\bbehind\s+(?:(?:the|a|an|our|its|their)\s+)?(?:(?:feature|release)\s+)?(?:(?:flag|toggle)\s+)?(?:`[\p{L}\p{N}_.:-]+`|[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+)(?![\p{L}\p{N}_(])/u;
// The clause a premise opens, up to its comma: "Since I switched the indexer to Typesense, …".
const CHOICE_PREMISE = /^(?:since|as|because|now that|given that|seeing as)\s+([^,;]+)[,;]\s/iu;
// The speaker's own action given as the consequence of what was said before it.
// Anchored on ", so I": a leading wildcard would scan long texts once per letter.
const CONSEQUENCE_OF_RULE = /,\s+so\s+(?:I|we)\b/u;
// What an edit of the code or the tests touches: work narrated, not a choice ("I changed line 12 so …").
const WORK_OBJECT = /\b(?:tests?|specs?|suites?|assertions?|snapshots?|fixtures?|mocks?|lines?|loops?|functions?|methods?|variables?|branch(?:es)?|commits?|imports?|typos?|comments?|prints?|debug)\b/iu;
// A reason or an alternative given for what was done: "since …", "so that …", "so it retries",
// "rather than …". "so" must open a clause with a subject of its own ("so I" continues the narration).
const REASONED = /\b(?:since|because(?! of\b)|so that|rather than|instead of)\s|,\s+(?:the|its|their|our)\s+(?:[\p{L}-]+(?:['’]s)?\s+){0,3}(?:limit|cap|ceiling|maximum|minimum|quota)\b|,?\s+so\s+(?:the|a|an|it|they|each|every|all|nothing|no|clients?|callers?|users?|people|requests?|jobs?)\s/iu;
// A line of a drawn directory tree: "├─ ts-node-dev", "│   └── src/".
const TREE_LINE = /^[\s│|]*[├└]/u;
const TABLE_ROW = /^\|.*\|$|^\|?\s*:?-{3,}/u;
const SHELL_PROMPT = /^(?:\(\S+\)\s*)?\S+@\S+:\S*[$#]|^[$#>]\s|^>>>\s|^PS [A-Z]:\\/u;
// A bold span of three or more words with a lowercase word in it: a claim, not a Title Case heading.
const EMPHASIS = /\*\*(?=[^*]*\s\p{Ll}{2,})(?:[^*\s]+\s+){2,}[^*\s]+\*\*/u;
// A speaker, "always"/"never"/"only", then a verb of what happens to them rather than of a practice.
const SPEAKER_MISHAP = /^(?:(?:and|so|also|but|honestly|ugh|lol|man)[,]?\s+)*(?:i|we)\s+(?:(?:always|never|only|just|usually|constantly|keep)\s+)+(?:forget|forgot|got|get|end(?:ed)? up|seem|seemed|manage[ds]?|hit|run into|ran into|lose|lost|mess(?:ed)? up|break|broke|remember|miss|missed|find|found|notice[ds]?|struggle[ds]?)\b/iu;
// An assistant's "let's" followed by anything but a choice announces its next step.
const ASSISTANT_NEXT_STEP = /(?:^|[\s,;:])let['’]s\s+(?!use\b|go with\b|adopt\b|keep\b|stick\b|standardi[sz]e\b|switch\b|store\b|put\b|name\b|stay\b|avoid\b|never\b|always\b|not\b|pick\b|choose\b)\p{L}/iu;
const LOG_LINE = /^\[?\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}|^\[?\d{2}:\d{2}:\d{2}[\].,\s]|^(?:DEBUG|INFO|WARN(?:ING)?|ERROR|TRACE)\b/u;
// A report that leads with what was done ("Added …", "Improved …") narrates finished work.
const PAST_LEAD = /^(?:\*\*)?[A-Z][a-z]+ed\b/u;
// "Shared constants are kept in …": the participle describes the subject of a statement.
const ADJECTIVE_LEAD = /^(?:\*\*)?[A-Z][a-z]+ed\s+(?:[\p{L}-]+\s+(?:are|is|runs|lives|goes|sits|stays)|[\p{L}-]+s\s+(?:live|go|sit|belong|stay|must|should|need|use))\b/u;
const CODE_SUBJECT = /^(?:`[^`]+`|[a-z]+[A-Z]\w*|[\w.-]+\/[\w./-]+)/u;
const FIRST_PERSON = /(?<![\p{L}\p{N}_])(?:I|I['’](?:m|ve|ll|d)|me|my)(?![\p{L}\p{N}_'’])/u;
const FILE_PATH = /(?<![\w.-])(?:[\w.-]+\/)+[\w.-]+\.\w{1,5}\b|\b[\w-]+\.(?:ts|tsx|js|jsx|py|go|rs|java|rb|sql|json|ya?ml|toml|md|css)\b/u;
// Capitalised words, CamelCase names and acronyms; `I` and one-letter words are left out.
const NAME = /(?<![\p{L}\p{N}_$.'’-])(?:[A-Z][a-z]+(?:[A-Z][a-z0-9]*)*(?:\.[a-z]+)?|[A-Z]{2,6}s?)(?![\p{L}\p{N}_$'’-])/gu;
// Identifiers that state a value rather than point at code.
const VALUE_LIKE = /\d|^--|^[A-Z~@#]|[="'\s]/u;
// "<Name> is where / what / my …": the sentence says what the leading word is for.
const LEADING_NAME_IDENTIFIED = /^([A-Z][a-z]*[a-z])\s+(?:is|are)\s+(?:where|what|how|my|our|the\s+(?:one|tool|place|service|thing))\s/u;
const HYPHENATED_NAME = /^\p{Ll}[\p{Ll}\p{N}]*(?:-\p{Ll}[\p{Ll}\p{N}]*)+$/u;
const CODE_REFERENCE_WEIGHT = 0.4;
const NAMED_KIND_AFTER = /^`?\s+(?:folder|directory|dir|prefix|suffix|namespace|branch)\b/u;
const UNIT_QUANTITY = /(?<![\p{L}\p{N}_.])\d+(?:[.,]\d+)?\s?(?:ms|s|sec|secs|seconds?|mins?|minutes?|h|hrs?|hours?|days?|weeks?|months?|years?|[kKMGT]i?B|%|px)(?![\p{L}\p{N}_])/u;
// A word of prose: letters, digits and joiners, without a trailing full stop or hyphen.
const WORD_TOKEN = /(?<![\p{L}\p{N}_`'’.-])\p{L}(?:[\p{L}\p{N}_'’.-]*[\p{L}\p{N}_])?/gu;
const ARROW_NAME = /(?:^|\s)(?:->|→)\s+(\p{Ll}[\p{L}\p{N}.+-]*[\p{L}\p{N}])(?=\s*(?:[,.;:)!]|$))/gu;
// English tool verbs whose participle is not "-ed"; a pack's other verbs follow the rule.
const IRREGULAR_PARTICIPLES: Readonly<Record<string, string>> = { runs: 'run', builds: 'built', sends: 'sent', drives: 'driven', owns: 'owned' };
const CONJUNCTION = /^(?:because|since|unless|until|while|though|although|whereas)$/u;
// Slot words that are prepositions, whose object is a noun and never an adverb.
const AFTER_PREPOSITION = /^(?:with|via|through|to|onto|on|by|over|of|into|in|for)$/u;
// A word leading the sentence, a verb in the third person, and the first word of its object.
const LEADING_AGENT = /^([\p{L}][\p{L}\p{N}.+-]*[\p{L}\p{N}])\s+(?:is\s+what\s+)?(\p{Ll}{3,}s)\s+([\p{L}]+)/u;
const ADJECTIVE_ENDING = /^-(?:ly|al|ive|ous|able|ible|ful|less)$/u;
const OBJECT_DETERMINER = /^(?:the|a|an|our|every|each|all|its|their|any)$/u;
// "<copula> [now] <word> <kind>" or "as <word> <kind>": the word names the tool the things of
// that kind are made with ("written as mjml templates").
const COPULA_NAME_KIND = /(?<![\p{L}\p{N}_-])(is|are|as)\s+(?:now\s+|all\s+)?(?:a\s+|an\s+)?(\p{Ll}[\p{Ll}\p{N}.+-]*[\p{Ll}\p{N}])(?=\s+(\p{Ll}+)(?![\p{L}\p{N}_-]))/gu;
// "<label of one to three words>: <name>" then the end or the role it fills ("… for metrics").
const LABELLED_NAME = /^((?:\p{L}[\p{L}-]*\s+){0,2}\p{L}[\p{L}-]*)(?::|\s+(?:->|→|=>))\s+((?:@[\p{Ll}\p{N}-]+\/)?\p{L}[\p{L}\p{N}.+-]*[\p{L}\p{N}])(?=\s*(?:[.;!)]|$)|\s+(?:for|across|everywhere|throughout)\b)/u;
// A short label and a value with a number in its first words: "deadline: 12 March", "SLA: p95 under 300 ms".
const LABELLED_VALUE = /^(?:\p{L}[\p{L}-]*\s+){0,3}\p{L}[\p{L}-]*\s*(?::|->|→|=>)\s+(?:\S+\s+){0,2}\S*\d/u;
// Cue groups that make a labelled value a rule: a need or a limit.
const BINDING_CUES: ReadonlySet<string> = new Set(['requirement', 'constraint']);
const DASH_LEAD_IN = /^(?:\p{L}+\s+){0,3}\p{L}+\s+[-—–]\s+/u;
const LOWER_WORD_BEFORE_AS = /(?<![\p{L}\p{N}_`-])(\p{Ll}[\p{L}\p{N}_.-]{1,30})\s+(?=as\s)/gu;
const PLACE_OF_KIND = /\b(?:lives?|live|belongs?|goes|go|sits?|(?:is|are)\s+(?:kept|stored|placed|grouped|collected))\s+(?:in|under|inside)\s+(?:the\s+)?(?:\.{0,2}\/)?(?:[\w.-]+\/)+[\w.-]*/u;
const PLACEHOLDER_SHAPE = /(?:[\w.$-]<|<)[\p{L}_-]{2,20}>(?:[\w.$-]|<[\p{L}_-]{2,20}>)/u;
const SHELL_OPERATOR = /(?<!\S)(?:&&|\|\||2>&1|>>)(?!\S)/gu;
const NUMBER = /(?<![\p{L}\p{N}_.])\d+(?:\.\d+)?(?:[a-zA-Z%µ]{1,4}|_)?(?![\p{L}\p{N}_])/gu;

const MARKER_WEIGHT = 1.5;
// What a setting statement weighs when no cue word does.
const SETTING_WEIGHT = 1.5;

const CUE_WEIGHTS: readonly { group: PatternGroup; weight: number }[] = [
  { group: 'errorResolution', weight: 1.5 },
  { group: 'errorCause', weight: 1.5 },
  { group: 'constraint', weight: 1.5 },
  { group: 'requirement', weight: 1.5 },
  { group: 'preference', weight: 1.5 },
  { group: 'convention', weight: 1.5 },
  { group: 'decision', weight: 1 },
  { group: 'factMarker', weight: MARKER_WEIGHT },
  { group: 'update', weight: 1 },
];

const CATEGORY_ORDER: readonly { groups: readonly PatternGroup[]; category: FactCategory }[] = [
  { groups: ['errorResolution', 'errorCause'], category: 'error-resolutions' },
  { groups: ['constraint'], category: 'constraints' },
  { groups: ['requirement'], category: 'requirements' },
  { groups: ['preference'], category: 'preferences' },
  { groups: ['convention'], category: 'conventions' },
  { groups: ['decision', 'update', 'factMarker'], category: 'decisions' },
];

function categoryOf(cues: readonly { group: PatternGroup; value: number }[]): FactCategory {
  const valueOf = (group: PatternGroup): number => cues.find((cue) => cue.group === group)?.value ?? 0;
  const fix = valueOf('errorResolution');
  const cause = valueOf('errorCause');
  // A fix or a cause names an error resolution on its own only together with the other.
  if (fix > 0 && cause > 0) return 'error-resolutions';
  let best: { category: FactCategory; value: number } = { category: 'decisions', value: 0 };
  for (const { groups, category } of CATEGORY_ORDER) {
    const value = groups.reduce((sum, group) => sum + valueOf(group), 0);
    if (value > best.value) best = { category, value };
  }
  return best.category;
}

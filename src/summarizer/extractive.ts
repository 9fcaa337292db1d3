import { matcherFor, type PatternGroup, type PatternMatcher, type PatternPack } from '../boundaries/pattern-pack.js';
import { defaultPatterns } from '../boundaries/patterns/default.js';
import {
  analyzeSentence,
  extractIdentifiers,
  factCategoryFor,
  splitSentences,
  topicWords,
  type SentenceAnalysis,
} from '../graduation/retention.js';
import type {
  Entry,
  FactUpdate,
  JsonValue,
  SequenceRange,
  SummaryItem,
  SummarySectionData,
  SummarySectionName,
  TaskUpdate,
  ToolCall,
} from '../types.js';
import type { SummarizeRequest, SummarizeResult, Summarizer } from './summarizer.js';
import { fileItemText, plainTextSections, renderSections, sectionsOf, STILL_FAILING, SUMMARY_SECTIONS } from './summary-sections.js';
import { relayedUserSpeech } from '../language/relayed-speech.js';
import { isProse, wordCount } from '../language/prose.js';
import { isProductNarration, turnShapeOf } from '../language/behaviour-statement.js';
import { judgeFact, readMessageLayout, type MessageLayout } from '../language/fact-worth.js';
import { announcedTaskOf, namesTaskOnly, passingRemarkOf } from '../language/passing-remark.js';
import { markFactsJudged } from '../graduation/fact-admission.js';
import { isCauseAndFix, isChangeReport, isMadeChange, isSplitCauseAndFix, tellsFault } from '../language/fix-statement.js';
import { isChangeForCause } from '../language/fix-relation.js';
import { isGuess, isPassReport, passResolutionOf, tellsCause, tellsPastState } from '../language/pass-report.js';
import { countSpecifics } from '../language/salience.js';
import { slashPaths } from '../language/identifiers.js';
import { answeredQuestion, endsInQuestion, isGoAhead } from '../language/answered-question.js';
import { quotedReplies, setApartAsides, withoutAnsweredQuestions } from '../language/message-parts.js';
import { parsePatternOptions } from '../boundaries/pattern-pack.js';
import { uniqueProseShares, uniqueWordShares } from './note-novelty.js';
import { isMeasuredNeed } from '../language/stated-need.js';
import { isOwnDoing, settlementOf, type Settlement } from './settling.js';
import { splitAsides } from './aside-split.js';

/** Options for {@link createExtractiveSummarizer}. */
export interface ExtractiveSummarizerOptions {
  /** Phrases used to classify sentences and recognise test runs. @default defaultPatterns (English and Vietnamese) */
  patterns?: PatternPack | undefined;
}

/** The sections an extractive summary is made of (all but free `Text`). */
export type SummarySection = Exclude<SummarySectionName, 'Text'>;

/**
 * Creates the deterministic, offline summarizer that Mobius uses by default and falls back to.
 *
 * For a chunk of T0 entries it classifies every sentence: decisions, requirements, constraints,
 * conventions, preferences and error resolutions become `facts` (not repeated in the summary),
 * task requests and completion reports become `tasks`, and the summary text keeps short sections
 * (only the non-empty ones): `Completed`, `Problems solved` (failure → cause), `Files` (with edit
 * counts from the file records), `Commands` (test runs compressed to counts and the first error),
 * `Notes` (the remaining sentences that carry the most identifiers not shown elsewhere) and `Open`.
 * Greetings, acknowledgements, small talk, dead-end debugging (and debug edits that were
 * reverted) and code blocks are dropped. Sections are filled by priority until `targetTokens`;
 * the text never exceeds twice the target. The result carries the sections as data too
 * (`sections`), each item with the sequence range it came from and, for notes, its salience.
 * When consolidating, the sections of the summaries are merged as data (items deduplicated, edit
 * counts added, open items that were completed later removed, tasks completed before the newest
 * summary reduced to their title, a task completed again or a test fixed again later kept once,
 * as the later item, task titles that name nothing left out). Over the target, what must still
 * hold is kept before routine progress: the newest summary's completed tasks and the open items,
 * then the user's statements and the agent's descriptions of the product, then older completed
 * tasks, failures solved with a stated cause, the user's other words, edited files and failures
 * fixed without a stated cause, narration mostly in words no other merged item holds, and last
 * other narration (ranked by the share of such words and its salience), old questions, files only
 * read and commands.
 * Plain text summaries (from another summarizer) are merged line by line as notes.
 *
 * @example
 * ```ts
 * const summarizer = createExtractiveSummarizer();
 * const result = await summarizer.summarize({
 *   mode: 'chunk', entries, summaries: [], targetTokens: 300,
 *   countTokens: (text) => counter.count(text), signal: AbortSignal.timeout(5_000),
 * });
 * ```
 */
export function createExtractiveSummarizer(options: ExtractiveSummarizerOptions = {}): Summarizer {
  const parsed = parsePatternOptions(options, 'createExtractiveSummarizer', 'createExtractiveSummarizer({ patterns: defaultPatterns })');
  const patterns = parsed.patterns ?? defaultPatterns;
  return markFactsJudged({
    name: 'extractive',
    summarize: (request: SummarizeRequest): SummarizeResult =>
      request.mode === 'consolidate'
        ? consolidate(request)
        : summarizeChunk(request, { patterns, matcher: matcherFor(patterns) }),
  });
}

// --- Internal helpers ---

interface Item {
  readonly section: SummarySection;
  readonly text: string;
  /** Provenance and section data of the item (everything but its text). */
  readonly detail: Omit<SummaryItem, 'text'>;
  /** Lower is kept first when the budget is tight. */
  readonly priority: number;
  /** Position in the chunk, for rendering in chronological order. */
  readonly order: number;
  /** Kept even above the target (never above twice the target). */
  readonly isEssential: boolean;
}

interface Language {
  readonly patterns: PatternPack;
  readonly matcher: PatternMatcher;
}

interface FileStat {
  readonly path: string;
  readonly order: number;
  lastOrder: number;
  reads: number;
  edits: number;
  changes: { readonly before: string; readonly after: string }[];
}

type RunStatus = 'pass' | 'fail' | 'neutral';

interface RunDigest {
  readonly status: RunStatus;
  readonly counts: string | undefined;
  /** First error with its location, for the Commands section. */
  readonly error: string | undefined;
  /** Failing test and error, for Problems solved and Open. */
  readonly symptom: string | undefined;
}

interface CommandStat {
  readonly command: string;
  readonly order: number;
  lastOrder: number;
  readonly runs: RunDigest[];
}

interface OpenTask {
  readonly title: string;
  readonly order: number;
  isDone: boolean;
}

interface Note {
  readonly text: string;
  readonly order: number;
  readonly isUser: boolean;
  readonly isIntention: boolean;
  readonly identifiers: readonly string[];
  /** How much durable content it carries (see `scoreSalience`). */
  readonly salience: number;
  /** The agent describing how the product works (see `isProductNarration`). */
  readonly isProductStatement?: boolean;
  /** Names and values it carries, fresh or not (see `scoreSalience`): what a summary with room keeps. */
  readonly specifics: number;
  /** A need measured by a value that no fact of the chunk holds (see `isDurableNote`): never left out for room. */
  readonly isDurableNeed?: boolean;
  /** It settles something for later (see `settlementOf`): it outranks the narration around it. */
  readonly isSettled?: boolean;
}

/** A failure and what happened until the next green run. */
interface Episode {
  readonly failure: string;
  readonly order: number;
  readonly causes: string[];
  readonly files: Set<string>;
  /** Causes before this index were followed by a dead end. */
  firstLive: number;
  isExpectingCause: boolean;
  hasFact: boolean;
  /** What was wrong, told by its shape by either speaker while the failure was open. */
  toldCause?: string | undefined;
  /** The change reported after that cause, before the run turned green. */
  change?: string | undefined;
}

interface ChunkState {
  readonly facts: FactUpdate[];
  readonly tasks: TaskUpdate[];
  readonly openTasks: OpenTask[];
  readonly completed: { text: string; order: number }[];
  readonly problems: { text: string; order: number; firstOrder: number }[];
  readonly notes: Note[];
  readonly files: Map<string, FileStat>;
  readonly commands: Map<string, CommandStat>;
  readonly calls: Map<string, ToolCall>;
  episode: Episode | undefined;
  /** A failure whose run just turned green: the next message may tell what fixed it. */
  isJustFixed: boolean;
  /** A run just passed: the next message may tell what made it pass. */
  isJustGreen: boolean;
  /** A fault, a cause or a dead end was told with no failing run in the chunk (the run fell in the chunk before). */
  isDebugging: boolean;
  lastRun: RunStatus | undefined;
  /** Position of the last entry of the chunk. */
  readonly lastOrder: number;
}

const MAX_ITEM_WORDS = 40;
/** Weight a user's message made of one durable statement gains (see `weighByMessage`). */
const STANDALONE_BONUS = 1.5;
/** Facts one message may yield before each of them loses weight (see `weighByMessage`). */
const MANY_FACTS = 6;
/** Facts kept from one user message of pasted material (see `keepPastedFactsAsNotes`). */
const MAX_PASTED_FACTS = 8;
/** Leading facts of such a message that are always kept: the user's own words come first. */
const LEADING_FACTS = 2;
/** Longest sentence read as the lead-in of the one after it (see `joinLeadIns`). */
const MAX_LEAD_IN_WORDS = 14;
// Items a binding lead-in can cover; a longer run is a list of its own.
const MAX_BOUND_ITEMS = 6;
const BINDING_GROUPS: readonly PatternGroup[] = ['requirement', 'constraint', 'convention'];
/** Salience of a user's answer to a question the agent asked: an explicit choice. */
const ANSWER_SALIENCE = 3.5;
// What a remark in parentheses must name to be kept as a fact of its own (a code span counts).
const MIN_ASIDE_SPECIFICS = 0.4;
// Text whose asides are cells, labels or comments rather than remarks: tables, diagrams, output.
const PASTED_LAYOUT = /\t|\|\s|[│┆├└┌┐┘─]/u;
const NOT_PROSE: ReadonlySet<string> = new Set(['notice', 'output', 'code', 'heading', 'pasted']);
// Where the answer under a quoted question ends and a remark on it begins.
const ANSWER_CLAUSE_END = /\s+[—–-]{1,2}\s+|;\s+/u;
/** Score a user's statement gains when a chunk's notes are picked (one fresh identifier scores 3). */
const USER_STATEMENT_BONUS = 4;
/** Weight a note in the user's own words gains over narration when summaries are consolidated. */
const USER_SPEECH_WEIGHT = 2;
/** Fewest and most words of a sentence read as one plain statement (see `isPlainSentence`). */
const MIN_PLAIN_WORDS = 3;
const MAX_PLAIN_WORDS = 30;
/** Salience of a statement the update wording after it marks as replacing an earlier value. */
const UPDATED_STATEMENT_SALIENCE = 3.5;
/** Salience of a user's statement kept as a note (see `isUserStatement`). */
const USER_STATEMENT_SALIENCE = 1;
/** Score the agent's description of the product gains when a chunk's notes are picked (below `USER_STATEMENT_BONUS`). */
const PRODUCT_STATEMENT_BONUS = 3;
/** Salience of the agent's description of how the product works, kept as a note (see `isProductNarration`). */
const PRODUCT_NARRATION_SALIENCE = 2.5;
/** Fewest words of a user's note read as a statement. */
const MIN_STATEMENT_WORDS = 6;
/** Fixes told in the message right after a failure turned green that become facts. */
const MAX_TOLD_FIXES = 2;
/** Salience of a fix told right after a failing run turned green: kept in T2 like a named statement. */
const TOLD_FIX_SALIENCE = 4;
/** Longest sentence whose asides are read apart (a longer one is pasted text, not a remark). */
const MAX_ASIDE_SENTENCE_CHARS = 2_000;
/** Names and values a change told during an open failure needs to be joined to its cause. */
const MIN_EPISODE_CHANGE_SPECIFICS = 0.5;
// A reason weighed for the change, not what was wrong: "the other option was a second queue".
const RATIONALE = /^(?:the\s+)?(?:alternative|other option|trade-?off|reason|idea|plan)\b/iu;
// A sentence that refers back to the one before it: "That keeps …", "This means …".
const BACK_REFERENCE = /^(?:that|this|it|which)\b(?!\s+(?:was|were)\s+(?:the|a|an)\b)/iu;
/** A fenced block of diff lines. */
const DIFF_FENCE = /^```diff[^\n]*\n([\s\S]*?)^```/mu;
/** Changed lines a diff may have to be read as one fix. */
const MAX_DIFF_FIX_LINES = 6;
/** Longest changed line of a diff read as one fix. */
const MAX_DIFF_FIX_LINE = 120;
/** Topic words a told fix that names nothing needs. */
const MIN_FIX_TOPIC_WORDS = 3;
/** Priority of a note that carries a measured need no fact holds: with the open items, kept above the target. */
const DURABLE_NOTE_PRIORITY = 1;
/** Salience of a sentence that settles something for later: level with an updated statement. */
const SETTLED_SALIENCE = 3.5;
/** The category of a fact by what settled it. */
const SETTLED_CATEGORY: Readonly<Record<Settlement, FactUpdate['category']>> = { agreement: 'decisions', marked: 'decisions', listener: 'preferences' };
/**
 * Why judgeFact() may turn a sentence away that still settles something: the agent's own report or
 * deliberation can carry the listener's wish or an agreement ("left the summary at the top of the
 * review, since you told me you read it first"). Output, code, questions, hedges and failures
 * settle nothing.
 */
const SETTLING_DESPITE: ReadonlySet<string> = new Set(['deliberation', 'completion', 'narration', 'lead-in']);
/** Share of a note's words said nowhere else in the chunk below which its wording repeats the chunk's. */
const REPEATED_SHARE = 0.25;
/** What repeating the chunk's wording with no value or name costs a note when picking notes. */
const REPEATED_COST = 2;
/** Settled notes a chunk keeps whatever the room; more are ranked with the other notes. */
const MAX_SETTLED_NOTES = 3;
/** Priority of a leftover note that names something: last, into the room every other item left. */
const NAMING_NOTE_PRIORITY = 7;
// The speakers themselves ("I think …", "you could …"): about the conversation, not the work.
const SPEAKERS = /(?<![\p{L}\p{N}_'’])(?:i|i['’](?:m|ve|ll|d)|me|my|you|you['’](?:re|ve|ll|d)|your)(?![\p{L}\p{N}_'’])/iu;
// A sentence that opens with a pointer to what came before ("That came up in review").
const LEANING_START = /^(?:(?:and|but|so|also|oh|ah)[,]?\s+)*(?:it|it['’]s|this|that|that['’]s|these|those|there|there['’]s|here|here['’]s)\b/iu;
const COMMAND_KEYS = ['command', 'cmd', 'script', 'commandLine', 'args', 'query', 'pattern', 'path', 'url'];

function summarizeChunk(request: SummarizeRequest, language: Language): SummarizeResult {
  const { entries } = request;
  const state: ChunkState = {
    facts: [],
    tasks: [],
    openTasks: [],
    completed: [],
    problems: [],
    notes: [],
    files: new Map(),
    commands: new Map(),
    calls: new Map(),
    episode: undefined,
    isJustFixed: false,
    isJustGreen: false,
    isDebugging: false,
    lastRun: undefined,
    lastOrder: Math.max(0, entries.length - 1),
  };
  // The last message with words in it, so a short reply can be read with the question it answers.
  let asked: { readonly role: Entry['role']; readonly text: string } | undefined;
  entries.forEach((entry, order) => {
    for (const call of entry.toolCalls ?? []) state.calls.set(call.id, call);
    if (entry.kind === 'user' || entry.kind === 'assistant' || entry.kind === 'note') {
      const factsBefore = state.facts.length;
      readMessage({ entry, order, state, language });
      if (entry.kind !== 'note' && entry.text.trim().length > 0) {
        // A reply that states a fact of its own is kept as that fact.
        const isStatement = state.facts.length > factsBefore;
        if (asked !== undefined && asked.role !== entry.role && !isStatement) readAnswer({ asked: asked.text, entry, state, language });
        asked = { role: entry.role, text: entry.text };
      }
    } else if (entry.kind === 'tool-result') {
      readToolResult({ entry, order, state, language });
    } else {
      readFileRecord({ entry, order, state });
    }
  });

  const items = chunkItems(state, (from, to = from) => ({ from: entries[from]?.seq ?? 0, to: entries[to]?.seq ?? 0 }));
  const fitted = fitItems({ items, targetTokens: request.targetTokens, countTokens: request.countTokens });
  const first = entries[0];
  const last = entries[entries.length - 1];
  const sections = fitted.text.length > 0
    ? fitted.sections
    : plainTextSections({ text: fallbackLine(entries, state.facts), source: { from: first?.seq ?? 0, to: last?.seq ?? 0 } });
  return {
    summary: renderSections(sections),
    sections,
    facts: dedupeFacts(state.facts),
    tasks: state.tasks,
  };
}

function readMessage(options: { entry: Entry; order: number; state: ChunkState; language: Language }): void {
  const { entry, order, state, language } = options;
  // Some agents hand the assistant's answer on as the next user turn (an architect model's plan
  // sent to an editor model): those words are still the assistant's, and are judged as such
  // (marked when recorded, see `isRelayedAnswer`).
  const role = entry.kind === 'note' ? 'user' : entry.isRelayedAnswer === true ? 'assistant' : entry.role;
  // Agents also talk through tools (a plan, a question, a completion report in a call's input).
  // A quoted question answered under the quote is read with its answer (see readQuotedAnswers).
  const spoken = [withoutAnsweredQuestions(entry.text), ...(entry.toolCalls ?? []).flatMap((call) => proseIn(call.input))].join('\n');
  const sentences = joinLeadIns(joinCauseAndFix(splitAsides(splitSentences(spoken, { patterns: language.matcher.pack })), language.matcher, role), language.matcher);
  // The shape of the turn weighs its sentences: a statement of behaviour in a report needs a value.
  const turn = turnShapeOf(entry.text);
  const analyses = sentences.map((sentence) => analyzeSentence(sentence, { role, patterns: language.patterns, turn }));
  const completion = role === 'assistant' ? taskCompletion(entry.text, analyses) : undefined;
  const consumed = new Set(completion?.consumed ?? []);
  let lastFact = -1;
  const firstFact = state.facts.length;
  // The first message after a failing run turned green tells what fixed it, if it reports a change.
  const isAfterFix = state.isJustFixed;
  state.isJustFixed = false;
  const isAfterGreen = state.isJustGreen;
  state.isJustGreen = false;
  let toldFixes = 0;
  // Where each sentence of this message went when it became a note.
  const notedAt = new Map<number, number>();
  // A pass report with the cause and the change told after it, in the same message, is one fact.
  const resolution = passResolutionOf(
    analyses.map((analysis, position) => ({ text: analysis.text, said: sentences[position] ?? analysis.text, specifics: analysis.specifics, isAside: analysis.isQuestion || analysis.isIntention || analysis.isDeadEnd })),
    { known: isAfterFix || state.episode !== undefined || state.isDebugging, afterGreen: isAfterGreen },
  );
  const resolved = new Set(resolution?.positions ?? []);
  if (resolution !== undefined) {
    const weight = Math.max(TOLD_FIX_SALIENCE, ...resolution.positions.map((position) => analyses[position]?.salience ?? 0));
    state.facts.push({ category: 'error-resolutions', value: resolution.value, salience: weight });
    lastFact = state.facts.length - 1;
    toldFixes += 1;
    if (state.episode !== undefined) state.episode.hasFact = true;
  }
  // Only the shape of the text can tell a plan step or a heading from a statement (see judgeFact).
  let layout: MessageLayout | undefined;
  const rejectionOf = (sentence: string): ReturnType<typeof judgeFact> =>
    judgeFact({ sentence, role, layout: (layout ??= readMessageLayout(spoken, { toolInputFrom: entry.text.length })) });
  const isWorthAFact = (sentence: string): boolean => rejectionOf(sentence) === undefined;
  analyses.forEach((analysis, position) => {
    const episode = state.episode;
    if (episode === undefined && role !== 'user' && (analysis.isDeadEnd || analysis.isDiagnosis || tellsFault(analysis.text))) state.isDebugging = true;
    if (analysis.isDeadEnd) {
      if (episode !== undefined) episode.firstLive = episode.causes.length;
      return;
    }
    if (resolved.has(position)) return;
    if (episode !== undefined && !analysis.isQuestion && !analysis.isIntention) traceEpisode(episode, { said: sentences[position] ?? analysis.text, text: analysis.text, specifics: analysis.specifics });
    // A told fix is a fact even when a completion report also lists it.
    if (isAfterFix && toldFixes < MAX_TOLD_FIXES && factCategoryFor(analysis.retention) === undefined && isToldFix(analysis, sentences[position] ?? analysis.text, language.matcher)) {
      state.facts.push({ category: 'error-resolutions', value: analysis.text, salience: Math.max(analysis.salience, TOLD_FIX_SALIENCE) });
      lastFact = state.facts.length - 1;
      toldFixes += 1;
      return;
    }
    if (consumed.has(position)) return;
    if (analysis.isUpdate && analysis.retention === 'routine' && topicWords(analysis.text, { patterns: language.matcher.pack }).length === 0) {
      // "Webhook retries go to seven. That replaces my earlier one.": the statement right before
      // the update wording gives the new value, even when nothing else made it a fact.
      const noted = notedAt.get(position - 1);
      const note = noted === undefined ? undefined : state.notes[noted];
      const isStatedBefore = note !== undefined && !note.isIntention && isPlainSentence(note.text) && isPlainSentence(analysis.text);
      if (note !== undefined && isStatedBefore && (note.specifics > 0 || topicWords(note.text, { patterns: language.matcher.pack }).length > 0)) {
        state.notes.splice(noted as number, 1);
        state.facts.push({ category: 'decisions', value: note.text, salience: Math.max(note.salience, UPDATED_STATEMENT_SALIENCE), isUpdate: true });
        lastFact = state.facts.length - 1;
        return;
      }
      // "which overrides my earlier note": the update wording belongs to the previous fact.
      const previous = state.facts[lastFact];
      if (previous !== undefined) state.facts[lastFact] = { ...previous, isUpdate: true };
      return;
    }
    const category = factCategoryFor(analysis.retention);
    // A sentence that settles something for later (the speakers' agreement, a value set apart by a
    // label, the listener's stated wish) is read for what it settles even inside a long message
    // of narration, code remarks and recaps; its own steps aside, it is a fact.
    const said = sentences[position] ?? analysis.text;
    // Judged once, and only when a fact or a settlement is in question.
    const rejection = category !== undefined ? rejectionOf(said) : undefined;
    const candidate = category === undefined || rejection !== undefined
      ? settlementOf(said, { matcher: language.matcher, isQuestion: analysis.isQuestion, specifics: analysis.specifics })
      : undefined;
    const settledRejection = candidate === undefined ? undefined : category === undefined ? rejectionOf(said) : rejection;
    const settled = settledRejection === undefined || SETTLING_DESPITE.has(settledRejection) ? candidate : undefined;
    if (category === undefined && settled !== undefined && settledRejection === undefined && !isOwnDoing(analysis.text)) {
      state.facts.push({
        category: SETTLED_CATEGORY[settled],
        value: analysis.text,
        salience: Math.max(analysis.salience, SETTLED_SALIENCE),
        ...(analysis.isUpdate ? { isUpdate: true } : {}),
      });
      lastFact = state.facts.length - 1;
      return;
    }
    if (category !== undefined && rejection === undefined) {
      state.facts.push({
        category,
        value: analysis.text,
        // A fix the green run before it bears out weighs like a statement with a name in it.
        salience: isAfterFix && category === 'error-resolutions' ? Math.max(analysis.salience, TOLD_FIX_SALIENCE) : analysis.salience,
        ...(analysis.isUpdate ? { isUpdate: true } : {}),
      });
      lastFact = state.facts.length - 1;
      if (episode !== undefined && category === 'error-resolutions') episode.hasFact = true;
      return;
    }
    // A remark set apart in parentheses is weighed as a sentence of its own when it names
    // something: "hook up the ranking next (we ship it behind the `beta_search` flag, by the way)".
    // The sentence is judged as prose only when it has an aside: judging reads the whole sentence.
    const asides = said.length <= MAX_ASIDE_SENTENCE_CHARS && said.includes('(') ? setApartAsides(said).slice(1) : [];
    const isProse = asides.length > 0 && !PASTED_LAYOUT.test(said) && !NOT_PROSE.has(rejectionOf(said) ?? 'none');
    for (const aside of isProse ? asides : []) {
      const read = analyzeSentence(aside, { role, patterns: language.patterns, turn });
      const kind = factCategoryFor(read.retention);
      if (kind === undefined || read.specifics < MIN_ASIDE_SPECIFICS || read.isQuestion || read.isIntention || !isWorthAFact(aside)) continue;
      state.facts.push({ category: kind, value: read.text, salience: read.salience });
      lastFact = state.facts.length - 1;
    }
    if (analysis.isTaskRequest) {
      const title = taskTitle(analysis, language.matcher) ?? nextTitle(analyses, position);
      if (title !== undefined) openTask(state, { title, order });
      return;
    }
    if (episode !== undefined && role !== 'user' && !analysis.isQuestion && !analysis.isIntention) {
      // While a failure is open, a short lead ("Aha.", "Got it:") announces the cause.
      if (wordCount(analysis.text) <= 3 && (analysis.retention === 'chit-chat' || analysis.isDiagnosis)) {
        episode.isExpectingCause = true;
        return;
      }
      if (analysis.isDiagnosis || episode.isExpectingCause) {
        episode.causes.push(analysis.text);
        episode.isExpectingCause = false;
        return;
      }
    }
    // The agent saying how the product works (no code, no speaker, present tense) outranks its
    // narration of the code, but not the user's own statements. Its verb alone can read like a
    // completion report ("guest shoppers complete checkout …"): it stays a note all the same.
    const isProductStatement = role !== 'user' && !analysis.isTaskRequest && analysis.retention !== 'chit-chat' && isProductNarration(analysis.text);
    if ((analysis.retention === 'chit-chat' || (analysis.retention === 'task-status' && !isProductStatement)) && settled === undefined) return;
    // A passing remark that only read like a fact (a guess, a verdict on the code, what an edit
    // does) is no note either: the summary keeps what was done and decided.
    if (category !== undefined && settled === undefined && passingRemarkOf(sentences[position] ?? analysis.text, { role }) !== undefined) return;
    const identifiers = extractIdentifiers(analysis.text);
    // A fact-like sentence judgeFact() kept out of T2 stays a note by what it names, not by its
    // cues; one that changes a value keeps its weight, so the newest value outlasts the older one.
    const judged = category === undefined || analysis.isUpdate ? analysis.salience : 0;
    const salience = settled !== undefined ? Math.max(judged, analysis.salience, SETTLED_SALIENCE) : isProductStatement ? Math.max(judged, PRODUCT_NARRATION_SALIENCE) : judged;
    notedAt.set(position, state.notes.length);
    const isDurableNeed = !analysis.isIntention && !analysis.isQuestion && isDurableNote(analysis.text, rejectionOf);
    state.notes.push({
      text: analysis.text,
      order,
      isUser: role === 'user',
      isIntention: settled === undefined && (analysis.isIntention || analysis.isQuestion),
      identifiers,
      specifics: analysis.specifics,
      ...(isProductStatement ? { isProductStatement } : {}),
      ...(isDurableNeed ? { isDurableNeed } : {}),
      ...(settled !== undefined ? { isSettled: true } : {}),
      // What the user states about the work (not asks, hedges or says about themselves) says what
      // must hold even without a name or a value in it: it outranks their questions and asides.
      salience: role === 'user' && isUserStatement(analysis, sentences[position] ?? analysis.text, isWorthAFact) ? Math.max(salience, USER_STATEMENT_SALIENCE) : salience,
    });
  });
  readQuotedAnswers({ text: entry.text, role, firstFact, state, language });
  // A fix shown as a diff after the green run: its changed lines, with the remark that follows.
  const shownFix = isAfterFix && toldFixes < MAX_TOLD_FIXES ? diffFixOf(entry.text) : undefined;
  if (shownFix !== undefined) state.facts.push({ category: 'error-resolutions', value: shownFix, salience: TOLD_FIX_SALIENCE });
  weighByMessage(state.facts, { first: firstFact, sentences: analyses.length, role });
  if (role === 'user') keepPastedFactsAsNotes(state, { first: firstFact, order });
  if (completion !== undefined) recordCompletion(state, { completion, order });
  const commit = COMMIT_NOTE.exec(entry.text);
  if (commit?.[1] !== undefined && role === 'assistant') addCompleted(state, { text: `Committed "${commit[1]}"`, order });
}

// A short reply to the question the other party just asked ("Which broker for the job queue?" →
// "NATS, please") is kept as one statement, question and reply together: the reply alone names no
// subject (see `answeredQuestion`).
function readAnswer(options: { asked: string; entry: Entry; state: ChunkState; language: Language }): void {
  const { entry, state, language } = options;
  // Only a message that ends in a question is answered.
  if (!endsInQuestion(options.asked)) return;
  const pack = language.matcher.pack;
  const pair = answeredQuestion({
    sentences: splitSentences(options.asked, { patterns: pack }),
    reply: entry.text,
    replyRole: entry.role,
    matcher: language.matcher,
    topicWords: (text) => topicWords(text, { patterns: pack }),
  });
  if (pair !== undefined && !isGoAhead(pair.question, pair.reply)) state.facts.push({ category: 'decisions', value: `${clip(pair.question)} → ${pair.reply}`, salience: ANSWER_SALIENCE });
}

// A question quoted from an earlier message ("> Postgres or SQLite for the test DB?") and answered
// under the quote ("SQLite, in-memory.") is one statement, question and answer together: the
// answer alone names no subject. When the answer's first sentence already made a fact of this
// message, that fact takes the question with it.
function readQuotedAnswers(options: { text: string; role: Entry['role']; firstFact: number; state: ChunkState; language: Language }): void {
  const { state, language } = options;
  const pack = language.matcher.pack;
  for (const { quoted, reply } of quotedReplies(options.text)) {
    if (!endsInQuestion(quoted)) continue;
    // The answer is the first clause under the quote: "`feat/split` — I'll create it now".
    const answer = splitSentences(reply, { patterns: pack })[0]?.split(ANSWER_CLAUSE_END)[0]?.trim();
    if (answer === undefined || answer.length === 0) continue;
    const pair = answeredQuestion({
      sentences: splitSentences(quoted, { patterns: pack }),
      reply: answer,
      replyRole: options.role,
      matcher: language.matcher,
      topicWords: (text) => topicWords(text, { patterns: pack }),
    });
    if (pair === undefined) continue;
    const value = `${clip(pair.question)} → ${pair.reply}`;
    // The fact the reply made on its own, if any: it opens with the answer.
    const said = normalizeTitle(answer);
    const own = state.facts.findIndex((fact, index) => index >= options.firstFact && normalizeTitle(fact.value).startsWith(said));
    const fact = state.facts[own];
    if (fact !== undefined) state.facts[own] = { ...fact, value, salience: Math.max(fact.salience ?? 0, ANSWER_SALIENCE) };
    else state.facts.push({ category: 'decisions', value, salience: ANSWER_SALIENCE });
  }
}

/**
 * The fix a message shows as a short diff (one fenced `diff` block of at most a few changed
 * lines), told as its old and new lines with the remark that follows the block: "the export
 * needed longer: `timeout: 5000` → `timeout: 15000`". Undefined when there is no such block.
 */
function diffFixOf(text: string): string | undefined {
  const fence = DIFF_FENCE.exec(text);
  if (fence === null) return undefined;
  const lines = (fence[1] ?? '').split('\n').filter((line) => /^[-+](?![-+]{2})/u.test(line));
  const removed = lines.filter((line) => line.startsWith('-')).map((line) => line.slice(1).trim());
  const added = lines.filter((line) => line.startsWith('+')).map((line) => line.slice(1).trim());
  if (added.length === 0 || lines.length > MAX_DIFF_FIX_LINES || lines.some((line) => line.length > MAX_DIFF_FIX_LINE)) return undefined;
  const change = added.map((line, index) => (removed[index] === undefined ? `\`${line}\`` : `\`${removed[index]}\` → \`${line}\``)).join('; ');
  const after = text.slice(fence.index + fence[0].length).trim();
  const remark = after.length === 0 ? undefined : after.split(/(?<=[.!])\s/u)[0]?.trim().replace(/[.!]$/u, '');
  return remark !== undefined && remark.length > 0 && wordCount(remark) <= MAX_ITEM_WORDS ? `${remark}: ${change}` : `Changed ${change}`;
}

/**
 * Whether a text reads as one plain sentence of prose: a few words, ending on a stop, with no code
 * punctuation or markers in it (not a line of a pasted file or an edit block).
 */
function isPlainSentence(text: string): boolean {
  const words = wordCount(text);
  return words >= MIN_PLAIN_WORDS && words <= MAX_PLAIN_WORDS && /^[\p{L}`"']/u.test(text) && /[.!]\s*$/u.test(text) && !/[{}();=<>[\]]|\/\/|^\s*[#>*|-]/u.test(text.replace(/`[^`\n]*`/gu, 'code'));
}

/**
 * Whether a sentence read right after a failing run turned green tells the fix: it reports a
 * change or the new state ("Pinned the parser to 2.11.", "the claim query takes a row lock now")
 * and names something or says enough to stand alone.
 */
function isToldFix(analysis: SentenceAnalysis, sentence: string, matcher: PatternMatcher): boolean {
  if (analysis.isDeadEnd || analysis.isQuestion || analysis.isIntention || analysis.retention === 'chit-chat') return false;
  // "Sorted, suite's green": the report of the run, not the change.
  if (isPassReport(sentence)) return false;
  const hasSubstance = analysis.specifics > 0 || topicWords(analysis.text, { patterns: matcher.pack }).length >= MIN_FIX_TOPIC_WORDS;
  return hasSubstance && isChangeReport(sentence);
}

/**
 * Whether a user's sentence that became a note states something rather than asks, plans, hedges,
 * talks about the speakers or leans on what came before: "exported sheets open with a header row"
 * is a statement; "is `load` still used?", "I think it's in `db.ts`", "that came up last week" and
 * "one more thing" are not.
 */
function isUserStatement(analysis: SentenceAnalysis, sentence: string, isWorthAFact: (sentence: string) => boolean): boolean {
  if (analysis.isQuestion || analysis.isIntention || analysis.isDeadEnd || analysis.isTaskRequest) return false;
  const text = analysis.text.replace(/`[^`\n]*`/gu, 'code');
  if (wordCount(text) < MIN_STATEMENT_WORDS || /[:?]\s*$/u.test(text) || SPEAKERS.test(text) || LEANING_START.test(text)) return false;
  return isWorthAFact(sentence);
}

/**
 * Weighs the facts one message produced by how much of the message they are. A user's message
 * that is one short instruction is all instruction: it gains weight. A message that yields many
 * facts (a pasted article, a long report) spreads its weight: each of them loses some, so that
 * when the facts block must shrink, its facts go before a standalone instruction does.
 */
function weighByMessage(facts: FactUpdate[], options: { first: number; sentences: number; role: Entry['role'] }): void {
  const { first, sentences, role } = options;
  const count = facts.length - first;
  if (count <= 0) return;
  const change =
    role === 'user' && count === 1 && sentences <= 2
      ? STANDALONE_BONUS
      : count > MANY_FACTS
        ? -Math.log2(count / MANY_FACTS)
        : 0;
  if (change === 0) return;
  for (let index = first; index < facts.length; index += 1) {
    const fact = facts[index];
    if (fact?.salience !== undefined) facts[index] = { ...fact, salience: Math.max(0, fact.salience + change) };
  }
}

/**
 * A user's message that yields more facts than anyone states at once is pasted material (an
 * article, another assistant's answer): its most salient statements stay facts, the others become
 * notes of the summary, where they compete by the identifiers they add.
 */
function keepPastedFactsAsNotes(state: ChunkState, options: { first: number; order: number }): void {
  const { first, order } = options;
  const produced = state.facts.slice(first);
  if (produced.length <= MAX_PASTED_FACTS) return;
  // The user's own words usually lead, before what they paste: the first statements stay.
  const ranked = produced
    .map((fact, index) => ({ fact, index }))
    .sort((a, b) => Number(b.index < LEADING_FACTS) - Number(a.index < LEADING_FACTS) || (b.fact.salience ?? 0) - (a.fact.salience ?? 0) || a.index - b.index);
  const kept = new Set(ranked.slice(0, MAX_PASTED_FACTS).map(({ index }) => index));
  state.facts.splice(first, produced.length, ...produced.filter((_fact, index) => kept.has(index)));
  produced.forEach((fact, index) => {
    if (kept.has(index)) return;
    state.notes.push({ text: fact.value, order, isUser: true, isIntention: false, identifiers: extractIdentifiers(fact.value), specifics: countSpecifics(fact.value, { role: 'user' }), salience: fact.salience ?? 0 });
  });
}

/**
 * Collects the prose inside a tool call's input: string values (also inside JSON-encoded strings)
 * that read as sentences rather than code, paths or data.
 */
function proseIn(input: JsonValue, depth = 0): string[] {
  if (depth > 8) return [];
  if (typeof input === 'string') {
    const trimmed = input.trim();
    if (/^[[{]/u.test(trimmed)) {
      try {
        return proseIn(JSON.parse(trimmed) as JsonValue, depth + 1);
      } catch {
        // Not JSON after all: read it as text.
      }
    }
    return isProse(trimmed) ? [trimmed] : [];
  }
  if (typeof input !== 'object' || input === null) return [];
  const values = Array.isArray(input) ? input : Object.values(input);
  return values.flatMap((value) => proseIn(value, depth + 1));
}


/**
 * Joins a sentence that explains a failure with the next one when that one says how it was fixed
 * ("Root cause: …. Fixed by …"), so the error resolution keeps its symptom, cause and fix together.
 */
function joinCauseAndFix(sentences: readonly string[], matcher: PatternMatcher, role: Entry['role']): string[] {
  const joined: string[] = [];
  for (let index = 0; index < sentences.length; index += 1) {
    const sentence = sentences[index] ?? '';
    const next = sentences[index + 1];
    const explains = matcher.test('errorCause', sentence) || matcher.test('errorSymptom', sentence);
    const isCued = explains && next !== undefined && matcher.test('errorResolution', next) && !matcher.test('errorResolution', sentence);
    // The assistant tells what was wrong and what it changed in two sentences, with or without
    // cue words: "The timestamps were naive. Both are UTC-aware now."
    const isShaped = role === 'assistant' && next !== undefined && !isCauseAndFix(sentence) && !isCauseAndFix(next) && isSplitCauseAndFix(sentence, next);
    if (next !== undefined && (isCued || isShaped)) {
      joined.push(`${sentence} ${next}`);
      index += 1;
    } else {
      joined.push(sentence);
    }
  }
  return joined;
}

/**
 * Joins a short sentence that ends in a colon with the one after it ("I recommend a staged
 * approach: First move to the new linker"), so that a choice announced before a list keeps its
 * first item, and the item keeps what it was chosen as.
 */
function joinLeadIns(sentences: readonly string[], matcher: PatternMatcher): string[] {
  const joined: string[] = [];
  for (let index = 0; index < sentences.length; index += 1) {
    const sentence = sentences[index] ?? '';
    const next = sentences[index + 1];
    const leadWords = wordCount(sentence);
    // A task's title before a colon ("Recap of the retry helpers, they could use a cleanup:") binds
    // nothing after it and lends it no words: what follows is read alone.
    const isLeadIn = /[^:]:\s*$/u.test(sentence) && leadWords >= 3 && leadWords <= MAX_LEAD_IN_WORDS && !sentence.includes('`') && !namesTaskOnly(sentence);
    // A lead-in that binds ("acceptance for this one:", "two rules for the webhooks:") binds each
    // short item after it: every item is read together with it.
    const items = isLeadIn && BINDING_GROUPS.some((group) => matcher.test(group, sentence)) ? boundItems(sentences, index + 1, leadWords) : 0;
    if (items > 0) {
      for (let item = index + 1; item <= index + items; item += 1) joined.push(`${sentence} ${sentences[item] ?? ''}`);
      index += items;
      continue;
    }
    if (next !== undefined && isLeadIn && !/:\s*$/u.test(next) && wordCount(next) >= 4 && leadWords + wordCount(next) <= MAX_ITEM_WORDS) {
      joined.push(`${sentence} ${next}`);
      index += 1;
    } else {
      joined.push(sentence);
    }
  }
  return joined;
}

/** How many short items follow a binding lead-in at `start` (at most {@link MAX_BOUND_ITEMS}). */
function boundItems(sentences: readonly string[], start: number, leadWords: number): number {
  let count = 0;
  while (count < MAX_BOUND_ITEMS) {
    const item = sentences[start + count];
    if (item === undefined || /:\s*$/u.test(item)) break;
    const words = wordCount(item);
    if (words < 2 || leadWords + words > MAX_ITEM_WORDS) break;
    count += 1;
  }
  return count >= 2 ? count : 0;
}

function readToolResult(options: { entry: Entry; order: number; state: ChunkState; language: Language }): void {
  const { entry, order, state, language } = options;
  readRelayedSpeech({ entry, order, state, language });
  const call = entry.callId === undefined ? undefined : state.calls.get(entry.callId);
  const command = commandOf(call, entry);
  const digest = digestOutput(entry, language.matcher);
  const stat = state.commands.get(command) ?? { command, order, lastOrder: order, runs: [] };
  stat.lastOrder = order;
  stat.runs.push(digest);
  state.commands.set(command, stat);
  if (digest.status !== 'neutral') state.lastRun = digest.status;
  if (digest.status === 'fail' && state.episode === undefined) {
    state.episode = {
      failure: digest.symptom ?? `${command} failed`,
      order,
      causes: [],
      files: new Set(),
      firstLive: 0,
      isExpectingCause: false,
      hasFact: false,
    };
  }
  if (digest.status === 'pass' && state.episode !== undefined) {
    closeEpisode(state, { episode: state.episode, order });
    state.episode = undefined;
    state.isJustFixed = true;
  } else if (digest.status === 'pass' && state.isDebugging) {
    state.isJustFixed = true;
  }
  if (digest.status !== 'neutral') state.isJustGreen = digest.status === 'pass';
  if (digest.status !== 'neutral') state.isDebugging = false;
  const commit = GIT_COMMIT.exec(command);
  if (commit?.[1] !== undefined && digest.status !== 'fail') addCompleted(state, { text: `Committed "${commit[1]}"`, order });
}

// The user's words relayed by a tool (feedback on a denied call, a reply, a picked answer) are read
// like a user message; each answer picked for a question the agent asked is an explicit choice.
function readRelayedSpeech(options: { entry: Entry; order: number; state: ChunkState; language: Language }): void {
  const { entry, order, state, language } = options;
  const relayed = relayedUserSpeech(entry.text);
  if (relayed.text.length > 0) {
    const { toolCalls: _calls, ...rest } = entry;
    readMessage({ entry: { ...rest, kind: 'user', role: 'user', text: relayed.text }, order, state, language });
  }
  for (const { question, answer } of relayed.answers) {
    state.facts.push({ category: 'decisions', value: `${clip(question)} → ${answer}`, salience: ANSWER_SALIENCE });
  }
}

function readFileRecord(options: { entry: Entry; order: number; state: ChunkState }): void {
  const { entry, order, state } = options;
  const path = entry.path ?? RECORD_PATH.exec(entry.text)?.[1];
  if (path === undefined) return;
  const stat = state.files.get(path) ?? { path, order, lastOrder: order, reads: 0, edits: 0, changes: [] };
  stat.lastOrder = order;
  state.files.set(path, stat);
  if (entry.kind === 'file-open') {
    stat.reads += 1;
    return;
  }
  if (entry.kind !== 'file-update') return;
  state.episode?.files.add(path);
  const change = parseChange(entry.text);
  if (change !== undefined) {
    // A change that undoes an earlier one (a debug print added, then removed) is a dead end:
    // both drop out of the edit count.
    const undone = stat.changes.findIndex((earlier) => earlier.before === change.after && earlier.after === change.before);
    if (undone !== -1) {
      stat.changes.splice(undone, 1);
      stat.edits = Math.max(0, stat.edits - 1);
      return;
    }
    stat.changes.push(change);
  }
  stat.edits += 1;
}

function chunkItems(state: ChunkState, range: (from: number, to?: number) => SequenceRange): Item[] {
  const items: Item[] = [];
  for (const { text, order } of state.completed) {
    items.push({ section: 'Completed', text: clip(text), detail: { source: range(order) }, priority: 0, order, isEssential: true });
  }
  for (const { text, order, firstOrder } of state.problems) {
    items.push({ section: 'Problems solved', text: clip(text), detail: { source: range(firstOrder, order) }, priority: 2, order, isEssential: false });
  }
  for (const task of state.openTasks) {
    if (!task.isDone) {
      items.push({ section: 'Open', text: clip(task.title), detail: { source: range(task.order) }, priority: 0, order: task.order, isEssential: true });
    }
  }
  const episode = state.episode;
  if (episode !== undefined) {
    const cause = episode.causes[episode.firstLive];
    const text = `${STILL_FAILING}${episode.failure}${cause === undefined ? '' : `; suspected: ${cause}`}`;
    const detail = { source: range(episode.order, state.lastOrder), isStillFailing: true };
    items.push({ section: 'Open', text: clip(text), detail, priority: 1, order: episode.order, isEssential: true });
  }
  const files = [...state.files.values()].sort((a, b) => b.edits - a.edits || a.order - b.order);
  files.forEach((file, rank) => {
    const detail = { source: range(file.order, file.lastOrder), path: file.path, edits: file.edits };
    if (file.edits > 0) {
      const text = fileItemText({ path: file.path, edits: file.edits });
      items.push({ section: 'Files', text, detail, priority: 1, order: file.order, isEssential: rank < 3 });
    } else if (file.reads > 0) {
      items.push({ section: 'Files', text: fileItemText({ path: file.path, edits: 0 }), detail, priority: 5, order: file.order, isEssential: false });
    }
  });
  for (const stat of state.commands.values()) {
    const isTest = stat.runs.some((run) => run.status !== 'neutral');
    items.push({
      section: 'Commands',
      text: renderCommand(stat),
      detail: { source: range(stat.order, stat.lastOrder), command: stat.command, isTestRun: isTest },
      priority: isTest ? 3 : 6,
      order: stat.order,
      isEssential: false,
    });
  }
  items.push(...selectNotes(state, { items, range }));
  return items;
}

/**
 * Picks notes greedily: each round takes the sentence that adds the most identifiers not yet
 * shown anywhere (summary items or facts), with a bonus for user sentences, and a cost for length.
 */
function selectNotes(
  state: ChunkState,
  options: { items: readonly Item[]; range: (from: number, to?: number) => SequenceRange },
): Item[] {
  const { items, range } = options;
  const covered = new Set<string>();
  const cover = (text: string): void => {
    for (const identifier of extractIdentifiers(text)) covered.add(identifier);
    for (const path of slashPaths(text)) covered.add(path);
  };
  for (const item of items) cover(item.text);
  for (const fact of state.facts) cover(fact.value);
  // A note's word count and the weight of each of its identifiers do not change from round to
  // round: they are computed once, so the rounds allocate nothing per note.
  const picked: Item[] = [];
  const seenTexts = new Set<string>();
  // A need measured by a value that no fact holds is kept whatever the room: once the chunk is
  // summarised, this note is all that carries it.
  // So is what settles something for later (see `settlementOf`), the first few of a chunk.
  let settledNotes = 0;
  const isKept = (note: Note): boolean => note.isDurableNeed === true || (note.isSettled === true && settledNotes < MAX_SETTLED_NOTES);
  const kept = new Set<Note>();
  for (const note of state.notes) {
    const key = note.text.toLowerCase();
    if (!isKept(note) || seenTexts.has(key)) continue;
    if (note.isDurableNeed !== true) settledNotes += 1;
    kept.add(note);
    seenTexts.add(key);
    cover(note.text);
    picked.push({ ...noteItem(note, range, DURABLE_NOTE_PRIORITY), isEssential: true });
  }
  const remaining = state.notes
    .filter((note) => note.text.length > 0 && !kept.has(note) && note.isDurableNeed !== true)
    .map((note) => ({ note, words: wordCount(note.text), weights: note.identifiers.map((identifier) => (COUNTED.test(identifier) ? 1 : 3)) }));
  // What a note says in words no other note, item or fact of the chunk holds: a note in a shape
  // the chunk repeats ("the tests pass again" after "the tests pass now") carries less new content
  // than a statement in its own words.
  const shares = uniqueWordShares({
    notes: remaining.map(({ note }) => note.text),
    others: [...items.map((item) => item.text), ...state.facts.map((fact) => fact.value), ...picked.map((item) => item.text)],
  });
  const novelty = new Map(remaining.map(({ note }, index) => [note, shares[index] ?? 0]));
  for (let round = 0; round < 40 && remaining.length > 0; round += 1) {
    let bestIndex = -1;
    let bestScore = Number.NEGATIVE_INFINITY;
    for (let index = 0; index < remaining.length; index += 1) {
      const { note, words, weights } = remaining[index] as (typeof remaining)[number];
      // Counted numbers ("10 references") weigh less than names, paths and error codes.
      let fresh = 0;
      for (let position = 0; position < weights.length; position += 1) if (!covered.has(note.identifiers[position] as string)) fresh += weights[position] as number;
      // The user's statements (what they want, how it should behave) are rare next to narration:
      // they rank above a narrated sentence that adds one fresh identifier.
      const userBonus = note.isUser && (words >= 5 || note.identifiers.length > 0) ? (note.isIntention ? 2 : USER_STATEMENT_BONUS) : 0;
      // The agent's descriptions of the product come next, level with a narrated sentence that adds a name.
      const productBonus = note.isProductStatement === true ? PRODUCT_STATEMENT_BONUS : 0;
      // A note with no value or name of its own in a wording the chunk repeats is left out first.
      const repeated = note.specifics === 0 && fresh === 0 && (novelty.get(note) ?? 1) < REPEATED_SHARE ? REPEATED_COST : 0;
      const score = fresh + userBonus + productBonus + note.salience - repeated - words / 12 - (note.isIntention ? 3 : 0);
      // Sentences that add no identifier are kept only for the user's own words or what they carry.
      if (fresh === 0 && userBonus === 0 && note.salience < 1) continue;
      if (score > bestScore) {
        bestScore = score;
        bestIndex = index;
      }
    }
    if (bestIndex === -1) break;
    const [candidate] = remaining.splice(bestIndex, 1);
    if (candidate === undefined) break;
    const { note } = candidate;
    const key = note.text.toLowerCase();
    if (seenTexts.has(key)) continue;
    seenTexts.add(key);
    cover(note.text);
    picked.push(noteItem(note, range, 4 + round / 100));
  }
  return [...picked, ...namingNotes({ notes: remaining.map((candidate) => candidate.note), seenTexts, range })];
}

/**
 * The statements left over by `selectNotes` that name something (a tool, a value, an acronym:
 * `specifics`), most specific first: they fill the room the summary has left after every other
 * item, so they never displace one.
 */
function namingNotes(options: { notes: readonly Note[]; seenTexts: Set<string>; range: (from: number, to?: number) => SequenceRange }): Item[] {
  const { seenTexts, range } = options;
  const naming = options.notes
    .filter((note) => note.specifics > 0 && !note.isIntention)
    .sort((a, b) => b.specifics - a.specifics || a.order - b.order);
  const items: Item[] = [];
  for (const note of naming) {
    const key = note.text.toLowerCase();
    if (seenTexts.has(key)) continue;
    seenTexts.add(key);
    items.push(noteItem(note, range, NAMING_NOTE_PRIORITY + items.length / 1000));
  }
  return items;
}

// A note as an item of the Notes section.
function noteItem(note: Note, range: (from: number, to?: number) => SequenceRange, priority: number): Item {
  return {
    section: 'Notes',
    text: clip(note.text),
    detail: {
      source: range(note.order),
      salience: note.salience,
      ...(note.isUser ? { isUserSpeech: true } : {}),
      ...(note.isProductStatement === true ? { isProductStatement: true } : {}),
    },
    priority,
    order: note.order,
    isEssential: false,
  };
}

/**
 * Whether a sentence that stays a note states a need measured by a value (see `isMeasuredNeed`)
 * that judgeFact() did not turn away as a question, a former version's need or text that is no
 * prose (output, code, a heading, a pasted document).
 */
function isDurableNote(text: string, rejectionOf: (sentence: string) => ReturnType<typeof judgeFact>): boolean {
  if (!isMeasuredNeed(text)) return false;
  const rejection = rejectionOf(text);
  return rejection === undefined || !(NOT_PROSE.has(rejection) || rejection === 'question' || rejection === 'past-state' || rejection === 'mode' || rejection === 'lead-in');
}

function taskCompletion(
  text: string,
  analyses: readonly SentenceAnalysis[],
): { title: string | undefined; bullets: string[]; consumed: number[] } | undefined {
  const first = analyses[0];
  if (first === undefined || !first.isCompletion) return undefined;
  const bullets = bulletLines(text);
  const opening = analyses.slice(0, 2).map((analysis) => analysis.text).join(' ');
  const title = doneTitle(opening);
  if (bullets.length === 0 && title === undefined) return undefined;
  const consumed: number[] = [];
  analyses.forEach((analysis, position) => {
    const sentence = analysis.text.toLowerCase();
    const isBullet = bullets.some((bullet) => stripMarker(bullet).toLowerCase().startsWith(sentence.replace(/[.;]+$/u, '')));
    const isOpening = position < 2 && (analysis.isCompletion || doneTitle(analysis.text) !== undefined || /:$/u.test(analysis.text));
    // A durable statement inside a report ("The v1 routes must keep working through 2027.",
    // "- Hono is the web framework") stays a fact: the report keeps only its first few items.
    const isDurable = factCategoryFor(analysis.retention) !== undefined;
    if ((isBullet || isOpening) && !isDurable) consumed.push(position);
  });
  return { title, bullets: bullets.map(stripMarker), consumed };
}

function recordCompletion(
  state: ChunkState,
  options: { completion: { title: string | undefined; bullets: string[] }; order: number },
): void {
  const { completion, order } = options;
  const open = [...state.openTasks].reverse().find((task) => !task.isDone);
  let matched = completion.title === undefined
    ? undefined
    : state.openTasks.find((task) => sameTitle(task.title, completion.title ?? ''));
  if (matched === undefined && open !== undefined) matched = open;
  const title = matched?.title ?? completion.title;
  if (matched !== undefined) matched.isDone = true;
  if (title !== undefined) {
    state.tasks.push({ title, status: 'done' });
    if (completion.title !== undefined && !sameTitle(title, completion.title)) {
      state.tasks.push({ title: completion.title, status: 'done' });
    }
  }
  const details = [...new Set(completion.bullets.map((bullet) => lowerFirst(bullet)))].slice(0, 4).join('; ');
  const head = `${title ?? UNTITLED_TASK}${state.lastRun === 'pass' ? ' (tests green)' : ''}`;
  addCompleted(state, { text: details.length > 0 ? `${head}: ${details}` : head, order });
}

function closeEpisode(state: ChunkState, options: { episode: Episode; order: number }): void {
  const { episode, order } = options;
  // The cause told in one message and the change in a later one, perhaps by the other speaker:
  // one fact, or the change added to the cause's own fact.
  if (episode.toldCause !== undefined && episode.change !== undefined) {
    const value = `${episode.toldCause} ${episode.change}`;
    const causeFact = state.facts.findIndex((fact) => fact.category === 'error-resolutions' && fact.value === episode.toldCause);
    const fact = state.facts[causeFact];
    if (fact !== undefined) state.facts[causeFact] = { ...fact, value };
    else if (!episode.hasFact) state.facts.push({ category: 'error-resolutions', value, salience: TOLD_FIX_SALIENCE });
    if (fact !== undefined || !episode.hasFact) return;
  }
  // An error resolution recorded as a fact already says what failed and why.
  if (episode.hasFact) return;
  const cause = episode.causes[episode.firstLive];
  const files = [...episode.files].slice(0, 3).join(', ');
  if (cause !== undefined) {
    state.problems.push({ text: `${episode.failure} → ${cause}`, order, firstOrder: episode.order });
  } else if (files.length > 0) {
    state.problems.push({ text: `${episode.failure}${FIXED_IN}${files}`, order, firstOrder: episode.order });
  }
}

/**
 * Follows an open failure's account across messages: a sentence that tells what was wrong by its
 * shape ("turned out …", or a state in the past: "the middleware had already consumed the body"),
 * whoever says it, and the
 * change the speaker reports making after it, with a name in it ("Mounted `express.raw()` on the
 * route"; not a state seen: "`load` returns a 500 instead of a 404"), and only when it is about
 * the same thing as the cause (see `isChangeForCause`): a change made meanwhile to something else
 * is not its fix.
 */
function traceEpisode(episode: Episode, sentence: { said: string; text: string; specifics: number }): void {
  // A remark on the sentence before ("That keeps it close to …") is neither a cause nor a change.
  if (BACK_REFERENCE.test(sentence.said) && !tellsFault(sentence.said)) return;
  if (isGuess(sentence.said) || RATIONALE.test(sentence.said)) return;
  const isChange = isChangeReport(sentence.said);
  // "Turned out …" opens on a past verb like a change does; what it tells is the cause.
  if (tellsCause(sentence.said) || (!isChange && tellsPastState(sentence.said))) {
    episode.toldCause = sentence.text;
    episode.change = undefined;
  } else if (episode.toldCause !== undefined && isMadeChange(sentence.said) && !BACK_REFERENCE.test(sentence.said) && sentence.specifics >= MIN_EPISODE_CHANGE_SPECIFICS && !isPassReport(sentence.said) && isChangeForCause({ cause: episode.toldCause, change: sentence.said })) {
    episode.change = sentence.text;
  }
}

function openTask(state: ChunkState, options: { title: string; order: number }): void {
  const { title, order } = options;
  if (state.openTasks.some((task) => sameTitle(task.title, title) && !task.isDone)) return;
  state.openTasks.push({ title, order, isDone: false });
  state.tasks.push({ title, status: 'open' });
}

function addCompleted(state: ChunkState, options: { text: string; order: number }): void {
  const { text, order } = options;
  if (state.completed.some((item) => item.text.toLowerCase() === text.toLowerCase())) return;
  state.completed.push({ text, order });
}

function taskTitle(analysis: SentenceAnalysis, matcher: PatternMatcher): string | undefined {
  // "Next thing is X", "Up next: X": the task is what the label announces.
  const announced = announcedTaskOf(analysis.text);
  if (announced !== undefined) return cleanTitle(announced);
  // The intro that ends last wins: "moving on to the next item: X" over "moving on".
  const ends = [matcher.find('taskStatus', analysis.text), matcher.find('topicChange', analysis.text)]
    .filter((match) => match !== undefined && match.index <= 24)
    .map((match) => (match === undefined ? 0 : match.index + match.text.length));
  if (ends.length === 0) return undefined;
  return cleanTitle(analysis.text.slice(Math.max(...ends)));
}

function nextTitle(analyses: readonly SentenceAnalysis[], position: number): string | undefined {
  const next = analyses[position + 1];
  return next === undefined ? undefined : cleanTitle(next.text);
}

function doneTitle(text: string): string | undefined {
  for (const pattern of DONE_TITLE) {
    const match = pattern.exec(text);
    const title = match?.[1] === undefined ? undefined : cleanTitle(match[1]);
    if (title !== undefined) return title;
  }
  return undefined;
}

function cleanTitle(raw: string): string | undefined {
  const head = raw
    .replace(/^[\s:,;—–-]+/u, '')
    .replace(/^(?:by|on|with|is|to|at|that)\s+/iu, '')
    .split(/,\s|;\s|\s[—–]\s|[.?!:](?:\s|$)/u)[0]
    ?.trim()
    .replace(/[.?!:,;]+$/u, '');
  if (head === undefined || head.length < 3) return undefined;
  const words = head.split(/\s+/u);
  return words.length > 16 ? `${words.slice(0, 16).join(' ')}…` : head;
}

function sameTitle(a: string, b: string): boolean {
  const left = normalizeTitle(a);
  const right = normalizeTitle(b);
  if (left === right) return true;
  const leftWords = new Set(topicWords(a));
  const rightWords = topicWords(b);
  const shared = rightWords.filter((word) => leftWords.has(word)).length;
  const smaller = Math.min(leftWords.size, rightWords.length);
  return smaller > 0 && shared / smaller >= 0.8;
}

function normalizeTitle(title: string): string {
  return title.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
}

function commandOf(call: ToolCall | undefined, entry: Entry): string {
  const shellLine = /^\$\s+(.+)$/mu.exec(entry.text.split('\n', 1)[0] ?? '');
  if (call !== undefined) {
    const value = commandText(call.input);
    if (value !== undefined) return clipCommand(value);
    return clipCommand(call.name);
  }
  if (shellLine?.[1] !== undefined) return clipCommand(shellLine[1]);
  return entry.toolName ?? 'tool';
}

function commandText(input: JsonValue): string | undefined {
  if (typeof input === 'string') return input;
  if (typeof input !== 'object' || input === null) return undefined;
  if (Array.isArray(input)) {
    const parts = input.filter((part): part is string => typeof part === 'string');
    return parts.length > 0 ? parts.join(' ') : undefined;
  }
  const record = input as { readonly [key: string]: JsonValue };
  for (const key of COMMAND_KEYS) {
    const value = record[key];
    if (typeof value === 'string' && value.trim().length > 0) return value;
    if (Array.isArray(value)) {
      const parts = value.filter((part): part is string => typeof part === 'string');
      if (parts.length > 0) return parts.join(' ');
    }
  }
  return undefined;
}

function clipCommand(command: string): string {
  const line = command.trim().split('\n', 1)[0] ?? '';
  return line.length > 80 ? `${line.slice(0, 77)}…` : line;
}

function digestOutput(entry: Entry, matcher: PatternMatcher): RunDigest {
  const text = entry.text;
  const isPass = entry.isError !== true && matcher.test('testPass', text) && !matcher.test('testFail', text);
  const isFail = !isPass && (matcher.test('testFail', text) || entry.isError === true);
  const status: RunStatus = isPass ? 'pass' : isFail ? 'fail' : 'neutral';
  if (status !== 'fail') return { status, counts: runCounts(text), error: undefined, symptom: undefined };
  const error = firstError(text);
  const test = failingTest(text);
  const shortError = error?.split(' at ', 1)[0];
  const symptom = test === undefined ? error : shortError === undefined ? `'${test}' failed` : `'${test}': ${shortError}`;
  return { status, counts: runCounts(text), error, symptom };
}

function failingTest(text: string): string | undefined {
  const match = FAILING_TEST.exec(text);
  const name = match?.slice(1).find((group) => group !== undefined)?.trim();
  if (name === undefined || name.length === 0) return undefined;
  return name.length > 60 ? `${name.slice(0, 57)}…` : name;
}

function runCounts(text: string): string | undefined {
  const lines = text.split('\n');
  const tests = lines.find((line) => /^\s*Tests?:\s/u.test(line) && /\d+ (?:passed|failed)/u.test(line));
  const summary = tests ?? [...lines].reverse().find((line) => /\b\d+ (?:passed|failed|passing|failing)\b/u.test(line));
  if (summary !== undefined) {
    const parts = [...summary.matchAll(/\b(\d+) (passed|failed|passing|failing|skipped|errors?)\b/gu)]
      .map((match) => `${match[1]} ${match[2]}`);
    if (parts.length > 0) return [...new Set(parts)].join(', ');
  }
  const found = /\bFound (\d+) errors?\b/u.exec(text);
  if (found !== null) return `${found[1]} ${found[1] === '1' ? 'error' : 'errors'}`;
  const problems = /✖ (\d+ problems? \([^)]*\))/u.exec(text);
  if (problems?.[1] !== undefined) return problems[1];
  return undefined;
}

function firstError(text: string): string | undefined {
  const lines = text.split('\n').map((line) => line.trim()).filter((line) => line.length > 0);
  const errorLine =
    lines.find((line) => /\b(?:[A-Z][A-Za-z]*(?:Error|Exception)|E[A-Z]{3,})\b|error TS\d+/u.test(line) && !/^(?:at|File)\s/u.test(line)) ??
    lines.find((line) => /^(?:thrown:\s*)?"?(?:Expected|Exceeded timeout|assert|E\s|panic:)/u.test(line));
  const location = LOCATION.exec(text)?.[0];
  let error = errorLine?.replace(/^(?:E\s+|●\s+|FAILED\s+|thrown:\s*"?)/u, '');
  if (error !== undefined) {
    const named = /((?:[A-Z][A-Za-z]*(?:Error|Exception)|error TS\d+)[^\n]*)/u.exec(error);
    if (named?.[1] !== undefined) error = named[1];
    const code = /\bE[A-Z]{3,}\b/u.exec(error);
    if (code !== null && error.length > 40) error = code[0];
    if (error.length > 70) error = `${error.slice(0, 67)}…`;
  }
  if (error === undefined) return location;
  return location === undefined || error.includes(location) ? error : `${error} at ${location}`;
}

function renderCommand(stat: CommandStat): string {
  const { command, runs } = stat;
  const last = runs[runs.length - 1];
  if (last === undefined) return command;
  const graded = runs.filter((run) => run.status !== 'neutral');
  if (graded.length === 0) return command;
  const failures = graded.filter((run) => run.status === 'fail');
  const errors = [...new Set(failures.map((run) => run.error).filter((error): error is string => error !== undefined))];
  const shownErrors = errors.slice(0, 2).join('; ');
  const lastText = `${last.status === 'pass' ? 'passed' : 'failed'}${last.counts === undefined ? '' : ` (${last.counts})`}`;
  if (graded.length === 1) {
    return `${command}: ${lastText}${last.status === 'fail' && last.error !== undefined ? `: ${last.error}` : ''}`;
  }
  const failed = failures.length > 0 ? `, ${failures.length} failed${shownErrors.length > 0 ? ` (${shownErrors})` : ''}` : '';
  return `${command}: ${graded.length} runs${failed}; last ${lastText}`;
}

function bulletLines(text: string): string[] {
  const bullets: string[] = [];
  let isInFence = false;
  for (const line of text.split('\n')) {
    if (/^\s{0,3}(?:```|~~~)/u.test(line)) {
      isInFence = !isInFence;
      continue;
    }
    if (!isInFence && /^\s*(?:[-*+•]|\d{1,3}[.)])\s+\S/u.test(line)) bullets.push(line.trim());
  }
  return bullets;
}

function stripMarker(line: string): string {
  return line.replace(/^\s*(?:[-*+•]|\d{1,3}[.)])\s+/u, '').trim();
}

function lowerFirst(text: string): string {
  const clean = text.replace(/[.;]+$/u, '');
  return /^[A-Z][a-z]/u.test(clean) ? clean.charAt(0).toLowerCase() + clean.slice(1) : clean;
}

function clip(text: string): string {
  const words = text.split(/\s+/u);
  return words.length > MAX_ITEM_WORDS ? `${words.slice(0, MAX_ITEM_WORDS).join(' ')}…` : text;
}

function parseChange(text: string): { before: string; after: string } | undefined {
  const arrow = /`([^`]*)`\s*→\s*`([^`]*)`/u.exec(text);
  if (arrow?.[1] !== undefined && arrow[2] !== undefined) return { before: arrow[1], after: arrow[2] };
  const added = text.split('\n').filter((line) => /^\s*\+ /u.test(line)).map((line) => line.replace(/^\s*\+ /u, '').trim());
  const removed = text.split('\n').filter((line) => /^\s*- /u.test(line)).map((line) => line.replace(/^\s*- /u, '').trim());
  if (added.length + removed.length === 0) return undefined;
  return { before: removed.join('\n'), after: added.join('\n') };
}

function dedupeFacts(facts: readonly FactUpdate[]): FactUpdate[] {
  const result: FactUpdate[] = [];
  const seen = new Map<string, number>();
  for (const fact of facts) {
    const key = `${fact.category}\u0000${fact.value.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim()}`;
    const existing = seen.get(key);
    if (existing !== undefined) {
      // Same statement twice: keep one, at the later position, update if either was one.
      const previous = result[existing];
      result.splice(existing, 1);
      for (const [other, index] of seen) if (index > existing) seen.set(other, index - 1);
      result.push(previous?.isUpdate === true && fact.isUpdate !== true ? { ...fact, isUpdate: true } : fact);
    } else {
      result.push(fact);
    }
    seen.set(key, result.length - 1);
  }
  return result;
}

function fallbackLine(entries: readonly Entry[], facts: readonly FactUpdate[]): string {
  const first = entries[0];
  const last = entries[entries.length - 1];
  const range = first === undefined || last === undefined ? '' : `, seq ${first.seq}–${last.seq}`;
  const recorded = facts.length > 0 ? ` ${facts.length} ${facts.length === 1 ? 'fact' : 'facts'} recorded.` : '';
  return `Routine exchange (${entries.length} ${entries.length === 1 ? 'entry' : 'entries'}${range}).${recorded}`;
}

/**
 * Chooses items by priority until the target is reached (essential items up to twice the target)
 * and returns them as sections in section order, items in chronological order, with their text.
 */
function fitItems(options: {
  items: readonly Item[];
  targetTokens: number;
  countTokens: (text: string) => number;
}): { text: string; sections: SummarySectionData[] } {
  const { items, countTokens } = options;
  const target = Number.isFinite(options.targetTokens) ? Math.max(1, Math.floor(options.targetTokens)) : 1;
  const ceiling = target * 2;
  const ranked = items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => Number(b.item.isEssential) - Number(a.item.isEssential) || a.item.priority - b.item.priority || a.index - b.index);
  // Items are counted once each (plus their section header once) and summed: counting the whole
  // rendering after every addition would make fitting quadratic in token counting.
  const headers = new Map<SummarySection, number>();
  const chosen: Item[] = [];
  let estimate = 0;
  for (const { item } of ranked) {
    const header = headers.has(item.section) ? 0 : countTokens(`${item.section}:\n`);
    const cost = countTokens(`- ${item.text}\n`) + header;
    if (estimate + cost <= target || (item.isEssential && estimate + cost <= ceiling)) {
      chosen.push(item);
      headers.set(item.section, header);
      estimate += cost;
    }
  }
  // The sum is an estimate; the exact count of the rendering decides. Drop the last chosen items
  // (the least important) until the text is within the ceiling.
  let sections = toSections(chosen);
  let text = renderSections(sections);
  while (chosen.length > 0 && countTokens(text) > ceiling) {
    chosen.pop();
    sections = toSections(chosen);
    text = renderSections(sections);
  }
  return { text, sections };
}

function toSections(items: readonly Item[]): SummarySectionData[] {
  const sections: SummarySectionData[] = [];
  for (const name of SUMMARY_SECTIONS) {
    const inSection = items
      .filter((item) => item.section === name)
      .sort((a, b) => a.order - b.order)
      .map((item): SummaryItem => ({ text: item.text, ...item.detail }));
    if (inSection.length > 0) sections.push({ name, items: inSection });
  }
  return sections;
}

// --- Consolidation ---

/**
 * Merges the sections of the summaries as data. Summaries without sections (committed before
 * summaries were structured) are read from their text; free `Text` becomes one note per line.
 */
function consolidate(request: SummarizeRequest): SummarizeResult {
  const inputs = request.summaries.map((summary) => byName(sectionsOf(summary)));
  const queued: Item[] = [];
  const seen = new Map<string, number>();
  const files = new Map<string, { order: number; edits: number; source: SequenceRange }>();
  const commands = new Map<string, Item>();
  const completed: string[] = [];
  let order = 0;
  for (const sections of inputs) {
    for (const item of sections.get('Completed') ?? []) completed.push(item.text);
  }
  const later = laterItems(inputs);
  const taskTitles = later.completed(-1);
  inputs.forEach((sections, index) => {
    const age = inputs.length - index;
    for (const section of SUMMARY_SECTIONS) {
      if (section === 'Text') continue;
      for (const entry of sections.get(section) ?? []) {
        order += 1;
        const { text: full, ...detail } = entry;
        // A task completed before the newest summary keeps its title, not the list of what it changed.
        const text = section === 'Completed' && age > 1 ? completedTitle(full) : full;
        if (section === 'Completed' && age > 1 && isEmptyCompletion(text, taskTitles)) continue;
        if ((section === 'Completed' || section === 'Open') && isContentFree(text)) continue;
        // A task completed again later, or a test that failed and was fixed again later: the later
        // item says all the older one does.
        if (section === 'Completed' && age > 1 && later.completed(index).some((title) => repeatsTitle({ older: text.replace(TESTS_GREEN, ''), newer: title }))) continue;
        if (section === 'Problems solved' && later.failures(index).has(failureKey(text))) continue;
        if (section === 'Files') {
          const path = entry.path ?? text;
          const file = files.get(path) ?? { order, edits: 0, source: entry.source };
          file.edits += entry.edits ?? 0;
          file.source = union(file.source, entry.source);
          files.set(path, file);
          continue;
        }
        if (section === 'Commands') {
          const name = entry.command ?? text.split(': ', 1)[0] ?? text;
          const isTest = entry.isTestRun ?? false;
          commands.set(name, { section, text, detail, priority: isTest ? 5 : 6, order, isEssential: false });
          continue;
        }
        // A failure still open in an older summary was followed by more work; only the newest
        // summary knows whether it is still failing.
        if (section === 'Open' && (entry.isStillFailing ?? false) && age > 1) continue;
        const key = `${section}\u0000${text.toLowerCase()}`;
        const duplicate = seen.get(key);
        if (duplicate !== undefined) {
          const first = queued[duplicate];
          if (first !== undefined) queued[duplicate] = mergeInto(first, entry);
          continue;
        }
        if (section === 'Open' && completed.some((done) => sameTitle(done.split(' (', 1)[0] ?? done, text))) continue;
        seen.set(key, queued.length);
        // A failure fixed without a stated cause says which test broke and which files changed:
        // progress, ranked with the edited files rather than with what must hold.
        const base = section === 'Problems solved' && !hasStatedCause(text) ? CONSOLIDATE_PRIORITY.Files : CONSOLIDATE_PRIORITY[section];
        // Tasks completed before the newest summary are history: their titles come after what
        // must still hold (the user's statements), and are left out first when room runs short.
        const isOlderCompletion = section === 'Completed' && age > 1;
        queued.push({
          section,
          text,
          detail,
          priority: (isOlderCompletion ? OLDER_COMPLETION_PRIORITY : base) + age / 1000,
          order,
          isEssential: (section === 'Completed' && !isOlderCompletion) || section === 'Open',
        });
      }
    }
  });
  const items = queued.filter((item) => item.section !== 'Notes');
  // Over the target, the notes that carry the least are left out first (newer before older on a
  // tie: the priority of a note already grows with its age).
  // The user's own words are rare next to the agent's narration and say what must hold: they
  // outrank it by a margin.
  // The agent's standing descriptions of the product say what must hold just as well: they take
  // the same margin, so a product statement outlasts the user's hedges and questions.
  const noteItems = queued.filter((item) => item.section === 'Notes');
  // A note in a shape the conversation repeats with other names ("`x` is probably the place to
  // start", said at the start of every task) is no statement of what must hold, whoever said it:
  // left in their rank, such lines pile up summary after summary and push out what was said once.
  const proseShares = uniqueProseShares({ notes: noteItems.map((item) => item.text), others: items.map((item) => item.text) });
  const proseShare = new Map<Item, number>(noteItems.map((item, index) => [item, proseShares[index] ?? 1]));
  const ranksWithUserWords = (item: Item): boolean =>
    (item.detail.isUserSpeech === true || item.detail.isProductStatement === true) && (proseShare.get(item) ?? 1) >= OWN_PROSE_SHARE;
  // Narration ranks by what it alone says: the share of its words that no other item of the merged
  // summaries holds (a name, a value, what was decided), more than by the salience of a shape the
  // agent repeats.
  const shares = uniqueWordShares({
    notes: noteItems.map((item) => item.text),
    others: [...items.map((item) => item.text), ...files.keys(), ...[...commands.values()].map((item) => item.text)],
  });
  const uniqueShare = new Map<Item, number>(noteItems.map((item, index) => [item, shares[index] ?? 0]));
  const weight = (item: Item): number =>
    ranksWithUserWords(item)
      ? (item.detail.salience ?? 0) + USER_SPEECH_WEIGHT
      : NARRATION_SALIENCE_SHARE * (item.detail.salience ?? 0) + UNIQUE_SHARE_WEIGHT * (uniqueShare.get(item) ?? 0);
  const notes = noteItems.sort((a, b) => weight(b) - weight(a) || a.priority - b.priority || a.order - b.order);
  // A need measured by a value (no fact holds what a note holds) is never left out for room.
  const isDurable = (item: Item): boolean => !QUESTION_NOTE.test(item.text) && isMeasuredNeed(item.text);
  // The user's own statements also come before edited files, files only read and commands (tool output).
  notes.forEach((item, rank) => {
    // The agent's descriptions of the product rank with the user's words (by weight, below their
    // statements); those that state something (not a question or a bare pointer) say what must
    // hold and come before the record of solved problems.
    const salience = item.detail.salience ?? 0;
    const share = rank / (notes.length + 1);
    if (isDurable(item)) {
      items.push({ ...item, priority: DURABLE_NOTE_PRIORITY + share, isEssential: true });
    } else if (!ranksWithUserWords(item) && weight(item) >= UNIQUE_SHARE_WEIGHT * MOSTLY_UNIQUE) {
      // Narration mostly in words said nowhere else states something the rest of the window does
      // not: it comes before the commands run (whose effect the files and tests show). The weight
      // that orders narration decides it, so what a note carries (its salience) lowers the share
      // of its own words it needs, and a salient statement is not left behind tool output.
      items.push({ ...item, priority: UNIQUE_NOTE_PRIORITY + share });
    } else if (!ranksWithUserWords(item) || QUESTION_NOTE.test(item.text)) {
      // A question asked summaries ago has been answered since: it ranks with narration, whoever asked.
      items.push({ ...item, priority: CONSOLIDATE_PRIORITY.Notes + share });
    } else if (salience >= USER_STATEMENT_SALIENCE) {
      // Statements stay within their rank, all of them before older completed tasks.
      items.push({ ...item, priority: STATEMENT_PRIORITY + share * (OLDER_COMPLETION_PRIORITY - STATEMENT_PRIORITY) });
    } else {
      items.push({ ...item, priority: USER_SPEECH_PRIORITY + share });
    }
  });
  for (const [path, file] of files) {
    items.push({
      section: 'Files',
      text: fileItemText({ path, edits: file.edits }),
      detail: { source: file.source, path, edits: file.edits },
      priority: FILE_PRIORITY,
      order: file.order,
      isEssential: false,
    });
  }
  items.push(...commands.values());
  const fitted = fitItems({ items, targetTokens: request.targetTokens, countTokens: request.countTokens });
  const first = request.summaries[0];
  const last = request.summaries[request.summaries.length - 1];
  const source = { from: first?.source.from ?? 0, to: last?.source.to ?? 0 };
  const sections = fitted.text.length > 0
    ? fitted.sections
    : plainTextSections({ text: `Routine exchanges (${request.summaries.length} summaries${first === undefined || last === undefined ? '' : `, seq ${source.from}–${source.to}`}).`, source });
  return { summary: renderSections(sections), sections };
}

/**
 * Priority of the user's own statements and the agent's descriptions of the product when
 * consolidating: after solved problems, before the list of edited files (the files themselves stay
 * in the Scratchpad), reads and commands; the least weighty of them come level with edited files.
 */
const USER_SPEECH_PRIORITY = 1.5;
/**
 * Priority of those of them that state something (salience of a user's statement or more) when
 * consolidating: before solved problems, right after the essential completed and open items.
 */
const STATEMENT_PRIORITY = 0.5;
// A note that asks rather than states (a question mark, ASCII or full-width, at its end).
const QUESTION_NOTE = /[?？]\s*$/u;
/** Weight of a narrated note's share of words said nowhere else in the merged summaries. */
const UNIQUE_SHARE_WEIGHT = 4;
/**
 * Priority of a file, edited or only read, when consolidating: after the narration said in words
 * found nowhere else. The list grows with every task and the files are in the Scratchpad or the
 * archive; a statement said once is in neither once it leaves.
 */
const FILE_PRIORITY = 5;
/** Share of its prose words said nowhere else below which a note repeats a shape (see `uniqueProseShares`). */
const OWN_PROSE_SHARE = 0.25;
/** Share of words said nowhere else from which a narrated note without salience is ranked before commands. */
const MOSTLY_UNIQUE = 0.5;
/** Priority of those notes when consolidating: before commands and files only read. */
const UNIQUE_NOTE_PRIORITY = 4;
/** Part of a narrated note's salience that counts next to it. */
const NARRATION_SALIENCE_SHARE = 0.5;
/** Priority of the titles of tasks completed before the newest summary: after those statements. */
const OLDER_COMPLETION_PRIORITY = 0.75;

const CONSOLIDATE_PRIORITY: Readonly<Record<SummarySection, number>> = {
  Completed: 0,
  Open: 0,
  'Problems solved': 1,
  Files: 2,
  Commands: 6,
  Notes: 7,
};

/** Items of each section, `Text` lines read as notes (bullet markers dropped). */
function byName(sections: readonly SummarySectionData[]): Map<SummarySectionName, SummaryItem[]> {
  const result = new Map<SummarySectionName, SummaryItem[]>();
  for (const section of sections) {
    const name: SummarySectionName = section.name === 'Text' ? 'Notes' : section.name;
    const list = result.get(name) ?? [];
    if (section.name === 'Text') {
      for (const item of section.items) {
        for (const line of item.text.split('\n')) {
          const text = line.replace(/^\s*[-*•]\s+/u, '').trim();
          if (text.length > 0) list.push({ ...item, text });
        }
      }
    } else {
      list.push(...section.items);
    }
    result.set(name, list);
  }
  return result;
}

function mergeInto(item: Item, other: SummaryItem): Item {
  const salience = Math.max(item.detail.salience ?? Number.NEGATIVE_INFINITY, other.salience ?? Number.NEGATIVE_INFINITY);
  const isUserSpeech = item.detail.isUserSpeech === true || other.isUserSpeech === true;
  const isProductStatement = item.detail.isProductStatement === true || other.isProductStatement === true;
  return {
    ...item,
    detail: {
      ...item.detail,
      source: union(item.detail.source, other.source),
      ...(Number.isFinite(salience) ? { salience } : {}),
      ...(isUserSpeech ? { isUserSpeech } : {}),
      ...(isProductStatement ? { isProductStatement } : {}),
    },
  };
}

// An older completed item that says nothing its summary does not say already: a task finished
// without a title ("Finished task"), or a commit whose message repeats the title of a completed task
// (`taskTitles`: the titles of the summaries' completed tasks, without "(tests green)").
function isEmptyCompletion(title: string, taskTitles: readonly string[]): boolean {
  if (title.replace(TESTS_GREEN, '') === UNTITLED_TASK) return true;
  const message = COMMITTED_TITLE.exec(title)?.[1]?.replace(COMMIT_TYPE, '');
  if (message === undefined || message.length === 0) return false;
  return taskTitles.some((taskTitle) => sameTitle(taskTitle, message));
}

const UNTITLED_TASK = 'Finished task';
const TESTS_GREEN = / \(tests green\)$/u;
const COMMITTED_TITLE = /^Committed "(.+)"$/u;
// A conventional-commit type before the message: "fix: ", "feat(depot): ".
const COMMIT_TYPE = /^[a-z]+(?:\([^)]*\))?!?:\s*/u;

/** The title of a completed item (`title (tests green): what changed` → `title (tests green)`). */
function completedTitle(text: string): string {
  // A colon inside a quoted commit message or a code span is part of the title; one after a
  // closed code span ("rename `x` in `y`: …") ends it.
  for (const match of text.matchAll(/: /gu)) {
    const head = text.slice(0, match.index);
    if (/[“”]/u.test(head)) return text;
    if ((head.match(/`/gu)?.length ?? 0) % 2 === 0 && (head.match(/"/gu)?.length ?? 0) % 2 === 0) return head.length > 0 ? head : text;
  }
  return text;
}

/**
 * What later summaries of a consolidation say: for the summary at `index`, the titles of the tasks
 * the summaries after it completed (without "(tests green)"; commits left out), and the failures
 * (by test or error) they solved. Index -1 gives those of all the summaries.
 */
function laterItems(inputs: readonly Map<SummarySectionName, SummaryItem[]>[]): {
  completed: (index: number) => readonly string[];
  failures: (index: number) => ReadonlySet<string>;
} {
  const completed: string[][] = [];
  const failures: Set<string>[] = [];
  let titles: string[] = [];
  let keys = new Set<string>();
  for (let index = inputs.length - 1; index >= 0; index -= 1) {
    completed[index] = titles;
    failures[index] = keys;
    const sections = inputs[index];
    titles = [...titles, ...(sections?.get('Completed') ?? []).filter((item) => !COMMITTED_TITLE.test(item.text)).map((item) => completedTitle(item.text).replace(TESTS_GREEN, ''))];
    keys = new Set([...keys, ...(sections?.get('Problems solved') ?? []).map((item) => failureKey(item.text))]);
  }
  return { completed: (index) => (index < 0 ? titles : (completed[index] ?? [])), failures: (index) => (index < 0 ? keys : (failures[index] ?? new Set())) };
}

/**
 * Whether a later task title names the same task as an older one: it carries every identifier and
 * number of the older, and the topic words of one include the other's ("the loan summary" is not
 * "the book summary"; "rename `x`" is not "rename `y`").
 */
function repeatsTitle(options: { older: string; newer: string }): boolean {
  const { older, newer } = options;
  const values = (text: string): string[] => [...extractIdentifiers(text), ...(text.match(/\d+(?:\.\d+)?/gu) ?? [])].map((value) => value.toLowerCase());
  const newerValues = new Set(values(newer));
  if (!values(older).every((value) => newerValues.has(value))) return false;
  const olderWords = topicWords(older);
  const newerWords = topicWords(newer);
  if (olderWords.length === 0 || newerWords.length === 0) return normalizeTitle(older) === normalizeTitle(newer);
  const contains = (outer: readonly string[], inner: readonly string[]): boolean => inner.every((word) => outer.includes(word));
  return contains(newerWords, olderWords) || contains(olderWords, newerWords);
}

/** What failed in a `Problems solved` item: the test's name when it has one, else the error. */
function failureKey(text: string): string {
  const symptom = text.split(' → ', 1)[0] ?? text;
  const test = /^'([^']+)'/u.exec(symptom)?.[1];
  return (test ?? symptom).toLowerCase();
}

/** Whether a `Problems solved` item says why it failed, not only which files the fix touched. */
function hasStatedCause(text: string): boolean {
  const cut = text.lastIndexOf(FIXED_IN);
  return cut === -1 || text.includes(' → ', cut + FIXED_IN.length);
}

/** Joins a failure to the files its fix touched when no cause was stated. */
const FIXED_IN = ' → fixed in ';

/**
 * Whether a task title names nothing: no identifier, value or topic word beyond indefinite words
 * ("something else", "the other thing").
 */
function isContentFree(text: string): boolean {
  const title = text.replace(TESTS_GREEN, '');
  if (/[\p{N}`"'/]/u.test(title) || extractIdentifiers(title).length > 0) return false;
  return topicWords(title).every((word) => INDEFINITE.test(word));
}

// Indefinite pronouns and adverbs: "something", "anything", "everyone", "somewhere", "whatever".
const INDEFINITE = /^(?:(?:some|any|every|no)(?:thing|one|body|where)|what(?:so)?ever|else|rest)$/u;

function union(a: SequenceRange, b: SequenceRange): SequenceRange {
  return { from: Math.min(a.from, b.from), to: Math.max(a.to, b.to) };
}

const COUNTED = /^(?:\d|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|fifty|hundred)\b/iu;
const RECORD_PATH = /^\[(?:opened |closed |updated |read )?([^\s:,\]]+)/u;
const LOCATION = /(?<![\w/])(?!node_modules)(?:[\w.-]+\/)*[\w.-]+\.(?:ts|tsx|js|jsx|mjs|cjs|py|go|rs|java|rb|kt|cs|php):\d+(?::\d+)?/u;
const FAILING_TEST = /^\s*●\s+(?:[^›\n]+›\s+)*([^\n›]+)$|^FAILED\s+\S+::(\S+)|^--- FAIL:\s+(\S+)|^\s*(?:✕|×|✗)\s+(.+?)(?:\s+\(\d+\s*ms\))?$/mu;
const COMMIT_NOTE = /\bcommitted\b[^"“\n]*["“]([^"”\n]{3,100})["”]/iu;
const GIT_COMMIT = /\bgit\b.*\bcommit\b.*?-m\s+["']([^"'\n]{3,100})["']/u;
const DONE_TITLE: readonly RegExp[] = [
  /\bsummary of (.+?)(?::\s|:$|$)/iu,
  /^(?:[^,]*,\s*)?(.+?) is (?:now )?(?:complete|completed|done|finished)\b/iu,
  /\b(?:finished|completed|done with|wrapped up) (.+?)(?:[.:!]\s|[.:!]?$)/iu,
];

import type { Entry } from '../types.js';
import { isBehaviourStatement, withoutAttribution } from './behaviour-statement.js';
import { isCauseAndFix } from './fix-statement.js';
import { isStatedConvention } from './convention-statement.js';
import { isStatedPreference } from './preference-statement.js';
import { isRecurringProcess } from './recurrence.js';
import { isMarkedChoice } from './marked-choice.js';
import { attributedRuleOf, statementUnderTag } from './attributed-rule.js';
import { countSpecifics } from './salience.js';
import { isMeasuredNeed, isStatedNeed } from './stated-need.js';
import { passingRemarkOf } from './passing-remark.js';

/** Why {@link judgeFact} keeps a sentence out of the facts tier. */
export type FactRejection =
  /** A notice the agent harness wrote into the conversation (`[Request interrupted …]`). */
  | 'notice'
  /** Announces what follows (ends in a colon) and says nothing by itself. */
  | 'lead-in'
  /** A heading or section label, not a statement. */
  | 'heading'
  /** Program output or a pasted chat transcript: log lines, progress bars, `User: …` turns. */
  | 'output'
  /** A question, or the assistant asking the user for something ("please toggle …"). */
  | 'question'
  /** Talk about the agent's own working mode ("switch to Act mode so I can …"). */
  | 'mode'
  /**
   * The assistant narrating its own work without a finding ("Now let's run …", "I've successfully …"),
   * or what its edit does or costs ("That way callers need no change.", "Without that guard, …").
   */
  | 'narration'
  /** One step of a plan the assistant lays out ("Create a test directory", items after "I'll:"). */
  | 'plan-step'
  /** A line of code read as prose (a dictionary entry, a call, a comment after code). */
  | 'code'
  /** General advice or explanation inside a document the user pasted, not the user's own statement. */
  | 'pasted'
  /** A failure reported without its cause or fix ("the build failed", "tests are failing again"). */
  | 'failure'
  /** A guess or a suggestion to try something ("maybe it's the cache", "it might be worth …"). */
  | 'hedge'
  /** A report of finished work that names no value to remember ("Done, the component is updated."). */
  | 'completion'
  /** What a former version had to do ("the old importer had to handle 300 rows"), not what is required now. */
  | 'past-state'
  /**
   * The assistant thinking aloud about its task or the conversation: what it sees, assumes or
   * should do next ("Looking at `Ship.cs`, I see …", "Wait, …", "Since you haven't shared X, I'll
   * assume …"), or what the user or the instructions said ("You showed me `Ship.cs` earlier").
   */
  | 'deliberation'
  /** A courtesy and nothing else ("Glad to help with the importer."). */
  | 'pleasantry'
  /** A task named or announced ("Up next: the retry helpers, they need a cleanup."), or a status mark. */
  | 'task-title'
  /**
   * How the code is now, with no rule, choice or fix in it: a verdict ("nothing in `db.ts` looks
   * wrong"), what a look showed ("I checked the callers: …"), a harm it causes ("`load` reads the
   * row before the check, so a missing value falls through").
   */
  | 'observation';

/** One line of a message, as {@link readMessageLayout} sees it. */
export interface LayoutLine {
  /** The line without list or heading markers, trimmed. */
  readonly text: string;
  /** The list or heading marker the line started with. */
  readonly marker: 'bullet' | 'number' | 'heading' | 'none';
  /** For a list item: the nearest line above it that is not a list item (its lead-in or heading). */
  readonly leadIn: string | undefined;
  /** The line is part of a tool call's input (a prompt for a sub-agent, a plan, a report). */
  readonly isToolInput: boolean;
}

/** The lines of a message, with what each list item hangs under. */
export interface MessageLayout {
  /** Lines outside code fences, blank lines left out. */
  readonly lines: readonly LayoutLine[];
  /**
   * The text reads as pasted from elsewhere (another assistant's answer, a document, a log): copy
   * buttons' labels left in it, or long with typographic punctuation, or several log lines.
   */
  readonly isPasted: boolean;
  /**
   * The text is a whole document (longer than anyone types into a chat): only its instructions
   * that name a command, path, value or a hard rule are the user's to keep.
   */
  readonly isDocument: boolean;
}

/**
 * Reads where each line of a message sits: list item or heading, and for list items the line
 * that introduces the list. {@link judgeFact} needs it to tell the steps of a plan from
 * statements, since sentence splitting removes the markers.
 */
export function readMessageLayout(
  text: string,
  options: {
    /** Where the prose of tool calls' inputs starts in `text` (after what the message says). @default text.length */
    readonly toolInputFrom?: number | undefined;
  } = {},
): MessageLayout {
  const toolInputFrom = options.toolInputFrom ?? text.length;
  const lines: LayoutLine[] = [];
  let isInFence = false;
  let leadIn: string | undefined;
  let offset = 0;
  for (const rawLine of text.split(/\n/u)) {
    const isToolInput = offset >= toolInputFrom;
    offset += rawLine.length + 1;
    if (FENCE.test(rawLine)) {
      isInFence = !isInFence;
      // A list after a code block no longer hangs under the text before the block.
      leadIn = undefined;
      continue;
    }
    if (isInFence || rawLine.trim().length === 0) continue;
    const marker = HEADING.test(rawLine) ? 'heading' : BULLET.test(rawLine) ? 'bullet' : NUMBERED.test(rawLine) ? 'number' : 'none';
    const line = rawLine.replace(MARKERS, '').trim();
    const isItem = marker === 'bullet' || marker === 'number';
    lines.push({ text: line, marker, leadIn: isItem ? leadIn : undefined, isToolInput });
    if (!isItem) leadIn = line;
  }
  const typographic = text.match(TYPOGRAPHIC)?.length ?? 0;
  const logLines = text.match(LOG_LINE)?.length ?? 0;
  // Text that keeps advising its reader ("if you …", "you might …") was written for someone else.
  const adviceLines = lines.filter((line) => ADVICE.test(line.text)).length;
  const isPasted =
    COPY_LABELS.test(text) ||
    (text.length >= PASTED_LENGTH && typographic >= PASTED_TYPOGRAPHIC) ||
    logLines >= PASTED_LOG_LINES ||
    (text.length >= ADVISING_LENGTH && adviceLines >= ADVICE_LINES);
  return { lines, isPasted, isDocument: text.length >= DOCUMENT_LENGTH };
}

/**
 * Judges whether a sentence that reads as a fact is a durable statement worth a place in the
 * facts tier (T2), from its shape and where it sits in its message: what it carries was already
 * scored by salience; this asks what kind of text it is. Notices, lead-ins, headings, program
 * output, questions, talk about the agent's mode, narration of the assistant's own work and the
 * steps of an assistant's plan are not facts: they return a {@link FactRejection} and stay in the
 * summary instead. A finding inside such text ("because …", "the cause was …") keeps it a fact.
 * Returns `undefined` when the sentence may be a fact.
 */
export function judgeFact(options: {
  /** The sentence as split from the message (markers removed). */
  readonly sentence: string;
  /** Who said it. */
  readonly role: Entry['role'];
  /** The layout of the whole message, from {@link readMessageLayout}. */
  readonly layout?: MessageLayout | undefined;
}): FactRejection | undefined {
  const { role } = options;
  const sentence = options.sentence.trim();
  const plain = sentence.replace(/\*\*|__/gu, '').trim();
  if (NOTICE.test(plain)) return 'notice';
  if (OUTPUT.some((pattern) => pattern.test(plain))) return 'output';
  if (isLeadIn(plain) || isAnnouncedOnly(plain)) return 'lead-in';
  if (CODE.some((pattern) => pattern.test(plain))) return 'code';
  const line = options.layout === undefined ? undefined : lineOf(options.layout, sentence);
  if (line !== undefined && isHeadingLine(line) && isWholeLine(line, plain)) return 'heading';
  if (MODE.test(plain)) return 'mode';
  if (INFORMATION_QUESTION.test(plain) || MODAL_QUESTION.test(plain)) return 'question';
  const remark = passingRemarkOf(plain, { role });
  // "I notice `x` still imports …" is the assistant thinking aloud before it is a remark on the code.
  if (remark === 'observation' && role === 'assistant' && isDeliberation(plain)) return 'deliberation';
  if (remark !== undefined) return remark;
  // A table row that marks the option chosen or gives a process its schedule is the speaker's own.
  if ((isPastedShape(plain) && !isMarkedChoice(plain) && !isRecurringProcess(plain)) || GLOSSARY.test(plain)) return 'pasted';
  // "The convention here seems to be one class per file" hedges what was observed, not a guess.
  if (isHedge(plain) && !isStatedConvention(plain, { role })) return 'hedge';
  if (FORMER_NEED.test(plain) && !FINDING.test(plain) && !NOW.test(plain)) return 'past-state';
  if (role !== 'assistant') {
    if (isBareFailure(plain)) return 'failure';
    return isPastedAdvice(plain, { role, layout: options.layout }) ? 'pasted' : undefined;
  }
  // A stated liking, a convention of the project and a cause told with its fix are findings, however they are worded.
  const hasFinding = FINDING.test(plain) || isStatedPreference(plain, { role }) || isStatedConvention(plain, { role }) || isCauseAndFix(plain) || SHORTHAND_CHOICE.test(plain) || attributedRuleOf(plain, { role }) !== undefined;
  if (ASKS_USER.test(plain) && !TAG_QUESTION.test(plain)) return 'question';
  // A report of finished work that names what was chosen ("… moved the archive to S3 Glacier with a
  // 90 day cutoff") is a decision; one that only praises the work is narration.
  // A short label before a statement ("Now that the value changed: list calls return 100 rows")
  // does not make the statement narration.
  if (!hasFinding && !CHOICE_MADE.test(plain) && isNarration(plain, role) && isNarration(withoutAttribution(plain), role)) return 'narration';
  if (!hasFinding && line !== undefined && (isPlanStep(line, plain) || isPlanOpening(options.layout, line, sentence))) return 'plan-step';
  // An instruction in a list the assistant gives without a command, path, value or flag to remember
  // is a step of its current work.
  const isItem = line?.marker === 'bullet' || line?.marker === 'number';
  if (!hasFinding && isItem && startsWithStepVerb(plain) && !REMEMBERED_DETAIL.test(plain)) return 'plan-step';
  // Instructions inside a tool call's input are a prompt for a sub-agent or a plan, whatever they name.
  if (!hasFinding && line?.isToolInput === true && (startsWithStepVerb(plain) || isInstruction(plain) || PROMPT_OPENING.test(plain))) return 'plan-step';
  if (!hasFinding && isBareCompletion(plain, role)) return 'completion';
  // "I set the pool size to 20, as you asked": the tag gives the reason, not talk about the conversation.
  const underTag = statementUnderTag(plain);
  if (!hasFinding && !CHOICE_MADE.test(plain) && isDeliberation(plain) && (underTag === undefined || isDeliberation(underTag))) return 'deliberation';
  if (!hasFinding && isFeatureItem(sentence, plain)) return 'plan-step';
  // An assistant's imperative without a rule in it is a step for the user or for itself ("Copy that
  // traceback …", "To improve this: Implement …"), whatever it names.
  if (!hasFinding && !HARD_RULE.test(plain) && startsWithStepVerb(plain.replace(PURPOSE_LEAD_IN, ''))) return 'plan-step';
  if (isBareFailure(plain)) return 'failure';
  return undefined;
}

// --- Internal helpers ---

const FENCE = /^\s{0,3}(?:```|~~~)/u;
const HEADING = /^\s{0,3}#{1,6}\s/u;
const BULLET = /^\s*(?:>\s*)*[-*+•]\s+/u;
const NUMBERED = /^\s*(?:>\s*)*(?:\d{1,3}[.)]|[①-⑳])\s+/u;
const MARKERS = /^\s*(?:[-*+•]\s+|\d{1,3}[.)]\s+|[①-⑳]\s*|#{1,6}\s+|>\s*)+/u;

// Bracketed notices a harness writes into a turn: "[Request interrupted by user]", "… the message.]".
const NOTICE = /^\[[^\]]*(?:\]\s*\.?)?$|^[^[]*\]$/u;

const OUTPUT: readonly RegExp[] = [
  // A turn of a pasted chat transcript, also after the line that introduced it.
  /(?:^|:\s+)(?:user|assistant|human|ai|bot|system)\s*:\s/iu,
  // A date line of a chat page: "…: Saturday, May 03, 2025".
  /(?:^|:\s+)\p{Lu}\p{Ll}+day, \p{Lu}\p{Ll}+ \d{1,2}, \d{4}$/u,
  // Log lines: a timestamp or a level first.
  /^\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/u,
  /^\[?\d{2}:\d{2}:\d{2}\b/u,
  /^\[?(?:INFO|DEBUG|TRACE|WARN|WARNING|ERROR|FATAL|CRITICAL)\b\]?[\s:]/u,
  // Progress bars and box drawing.
  /[\u2500-\u259f]{3,}/u,
  // A shell prompt or a command left behind by a copy button: "PS C:\app> npm test", "Edit cd C:\app".
  /^(?:\$|PS [A-Z]:\\[^>]*>|[A-Z]:\\[^>\s]*>)\s*\S|^(?:Copy(?: code)?|Edit)\s+(?:cd|python\d?|node|npm|npx|yarn|pnpm|pip|git|docker|curl|bash|sh|powershell)\b/u,
  // A shell command typed at a prompt: `cd "C:\app"`, `dir *.npz`, `attrib -R file`.
  /^(?:[Cc]d|[Dd]ir|ls|[Aa]ttrib)\s+(?:["'~./\\]|[A-Z]:\\|-)/u,
  // A configuration or workflow entry read as prose: `name: value` with a second `key: value`.
  /^(?:name|uses|run|image|service|steps|env|with)\s*:\s[^:]{1,60}\s(?:run|uses|with|env|image|command|args)\s*:\s/iu,
];

// Agents that work in modes (plan/act, ask/architect) talk about switching them; that is about the
// agent, not the project. A mode of the project's own tools ("strict mode") stays a fact.
const MODE = /\b(?:plan|act|ask|architect|agent)\s+mode\b|\bmode\b[^.]*\bso (?:that )?I can\b/iu;

// Questions that ask for information or an opinion ("should the purge run weekly?") rather than
// state or request something.
const INFORMATION_QUESTION = /^(?:(?:and|so|but|also|ok(?:ay)?)[,\s]+)*(?:what|why|how|where|when|which|who|did|do|does|is|are|was|were|has|have|any|should|shall)\b[^?]*\?\s*["')\]*]*$|^(?:can|could) you (?:confirm|tell|explain)\b/iu;
// A yes/no question on a modal ("Must it support CSV?", "Should we cap it at 10k rows?") asks
// whether something is required ("should …?" always asks, see INFORMATION_QUESTION). Another modal
// before a noun phrase ("could the export also carry …?")
// is a wish put politely, and "can you …?" a request: both may carry a requirement.
const MODAL_QUESTION = /^(?:(?:and|so|but|also|ok(?:ay)?)[,\s]+)*(?:(?:must|shall|need|may|might)\b|(?:should|will|would|can|could)\s+(?:it|we|i|they|this|that|there|these|those)\b)[^?]*\?\s*["')\]*]*$/iu;

// The assistant asking the user for a go-ahead or an action.
const ASKS_USER = /\?\s*["')\]*]*$|^(?:if so,?\s+)?(?:please (?:confirm|approve|toggle|switch|let me|tell me|review|paste|share|provide|check|run|try)|could you|would you|can you|shall i|should i|do you want|let me know)\b|\blet me know\b/iu;

// A statement that asks for a nod states a choice: "We're going with Hono, right?".
const TAG_QUESTION = /(?:,\s*|\b)(?:right|correct|ok|okay|yes|yeah|agreed|fine|sound good|sounds good|makes sense)\s*\?\s*["')\]]*$/iu;

// First-person narration of the agent's own work: intentions, progress, completion reports.
const NARRATION = new RegExp(
  [
    String.raw`^(?:(?:now|next|first|then|finally|great|ok(?:ay)?|perfect|excellent|good)[,!.]?\s+)*(?:let me|let's|let us)\b`,
    String.raw`^(?:(?:now|next|first|then)[,]?\s+)*i(?:'ll| will) now\b`,
    String.raw`^(?:(?:now|next|first|then)[,]?\s+)*(?:i|we) (?:also )?need to\b`,
    String.raw`^(?:now that|i now have|i have now)\b`,
    String.raw`^(?:i've|i have|we've|we have) (?:now |also |just )?(?:successfully|now)\b`,
    String.raw`^(?:successfully|solved|enhanced|improved)\b`,
    String.raw`^(?:this|the) (?:approach|implementation|solution|integration|pattern|system|codebase|app|application|improvements?|changes?) (?:now |will |also )*(?:combines|provides|ensures?|sets|solves|is now|has|makes|allows|keeps|gives|offers)\b`,
  ].join('|'),
  'iu',
);

// The clause a "now that" premise opens, up to its comma.
const NAMED_PREMISE = /^now that\s+([^,;]+)[,;]/iu;
// A shorthand line that fills a role with a name ("queue → BullMQ", "auth -> Clerk"): a choice,
// also as an item of a plan.
const SHORTHAND_CHOICE = /^(?:\p{L}[\p{L}\p{N}'’/&-]*\s+){0,3}\p{L}[\p{L}\p{N}'’/&-]*\s+(?:->|→|=>)\s+(?:`[^`]+`|[\p{L}@][\p{L}\p{N}@/.+-]*[\p{L}\p{N}](?:\s+\p{Lu}[\p{L}\p{N}.+-]*)?)[.;]?$/u;

// Intentions are about the next minute whatever they name: "Now let's rerun `npm test`".
const INTENTION = /^(?:(?:now|next|first|then|finally|great|ok(?:ay)?|perfect|excellent|good)[,!.]?\s+)*(?:let me|let's|let us)\b/iu;
// Specifics that make a report of finished work a record of what was decided.
const REPORT_SPECIFICS = 2;
// What an agent says it will look at next: "let me see …", "let's get …".
const LOOKING_VERBS = new Set(['see', 'get', 'go', 'take', 'do', 'dig', 'double-check', 'make', 'proceed', 'continue', 'begin', 'focus', 'first']);
const SHORT_LEAD_IN_WORDS = 4;
// What a lead-in says when it only points at what comes next.
// A request to keep what follows in mind.
const KEEP_REQUEST = /\b(?:remember|memori[sz]e|note|keep in mind|bear in mind|forget|record)\b/iu;
const ANNOUNCES = /\b(?:here is|here's|here are|below|the following|as follows|like this|this block|these (?:changes|steps|files)|please|let me|let's|i need to|we need to|i'll need|we'll need)\b/iu;

// A finding or a cause keeps a sentence a fact whatever its form.
const FINDING = /\b(?:because|caused by|root cause (?:is|was)|due to|turns? out|(?:issue|problem|bug|culprit|cause|fix) (?:is|was)\b|(?:fixed|solved|resolved|repaired|addressed|worked around)\b[^.]{0,60}\bby|which (?:fixed|solved|resolved)|instead of|not required|never|must)\b|\b(?:issue|problem|bug|culprit|cause|fix)\s*:/iu;

// A choice said as an intention or a report: "let's go with Fastify", "I've switched to pnpm".
const CHOICE_MADE = /\b(?:let's|let us|i've|i have|we've|we have|i'll|we'll)\s+(?:now\s+|also\s+)?(?:go(?:ne)? with|use|used|stick(?:ing)? with|switch(?:ed)? (?:to|over)|pick(?:ed)?|adopt(?:ed)?|standardi[sz]ed? on|settled? on|chose|choose|moved? (?:to|over))\b/iu;

// The base form of verbs an assistant starts a plan step with.
const STEP_VERBS = new Set([
  'add', 'analyze', 'analyse', 'apply', 'build', 'capture', 'check', 'clean', 'compare', 'configure', 'confirm',
  'consider', 'copy', 'create', 'debug', 'delete', 'deploy', 'design', 'develop', 'document', 'enable', 'ensure',
  'examine', 'explore', 'extract', 'find', 'fix', 'generate', 'identify', 'implement', 'improve', 'inspect',
  'install', 'investigate', 'launch', 'list', 'look', 'map', 'migrate', 'modify', 'move', 'open', 'parse',
  'read', 'rebuild', 'rerun', 're-run', 'retry', 'refactor', 'remove', 'rename', 'replace', 'research', 'restart', 'review', 'rewrite', 'run',
  'search', 'set', 'start', 'stop', 'sweep', 'test', 'trace', 'try', 'update', 'validate', 'verify', 'wrap', 'write',
]);

// What follows an imperative verb: an object or a complement, never the verb of a sentence.
const OBJECT_WORDS = new Set([
  'a', 'an', 'the', 'this', 'that', 'these', 'those', 'all', 'any', 'each', 'every', 'both', 'some', 'more', 'new',
  'if', 'whether', 'how', 'what', 'where', 'why', 'which', 'for', 'to', 'at', 'in', 'on', 'with', 'from', 'into',
  'out', 'up', 'down', 'over', 'through', 'it', 'them', 'our', 'your', 'its', 'their', 'my', 'his', 'her', 'whole',
  'existing', 'missing', 'remaining', 'current', 'old', 'other', 'again',
]);
const OBJECT_START = /^[`"'“(\p{Lu}\d~./]/u;

// Verbs that open an instruction but rarely a step of an agent's plan.
const INSTRUCTION_VERBS = new Set([
  'always', 'avoid', 'disable', 'do', "don't", 'drop', 'enforce', 'forbid', 'give', 'keep', 'leave', 'limit', 'make',
  'never', 'nuke', 'pin', 'prefer', 'prefix', 'put', 'serialize', 'serialise', 'single-thread', 'skip', 'switch',
  'use', 'wire',
]);

// A short label before the statement proper: "Improve: …", "Fix: …".
const LABEL = /^(?!for\s)[\p{L} ]{1,40}:\s+/iu;

// What makes an instruction worth remembering: a code span, a path, a flag, a file name.
const REMEMBERED_DETAIL = /`[^`]+`|\d|(?:^|\s)(?:~|\.{1,2})?\/[\w.-]|[\w-]+\.(?:[a-z]{2,4})\b|(?:^|\s)--?[a-z][\w-]*/u;

// How a prompt for another agent opens: "Be thorough …", "Focus on …", "Your task is …".
const PROMPT_OPENING = /^(?:be|focus|thoroughly|look|find|read|note|report|return|summari[sz]e|your (?:task|job|goal))\b/iu;

// A lead-in that states a choice: its list is what was chosen, not a to-do list.
const CHOICE = /\b(?:recommend|suggest|propose|chose|choose|go with|going with|decided|pick|prefer|settled)\w*\b/iu;

// A list whose lead-in announces what will be done is a plan.
const PLAN_LEAD_IN = /\b(?:plan|steps?|next|todo|to-do|i'll|i will|we'll|we will|going to|would need to|need to|approach|strategy|phases?|sprint|proposal|proposed|let's|let me)\b/iu;
// A list item that reports the speaker's own past choice or placement of something.
const PAST_CHOICE_ITEM = /^(?:I|we)(?:['’]ve| have)?\s+(?:put|moved|went with|picked|chose|switched|settled on|opted for|based|built)\s+\S/iu;

// Labels of copy buttons that come along when an answer is copied from a chat page.
const COPY_LABELS = /^\s*(?:Copy|Copy code|Edit)\s*$/mu;
const TYPOGRAPHIC = /[’‘“”—–→≈…]/gu;
const LOG_LINE = /^\s*\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/gmu;
const PASTED_LENGTH = 1500;
const PASTED_TYPOGRAPHIC = 5;
const PASTED_LOG_LINES = 3;
const DOCUMENT_LENGTH = 8000;
const ADVISING_LENGTH = 1000;
const ADVICE_LINES = 3;
// Wording of a rule rather than a suggestion.
const HARD_RULE = /\b(?:must|never|always|only|do not|don't|no longer)\b/iu;
// Shortest line a sentence is matched to by its start (shorter ones match by accident).
const MIN_LINE_MATCH = 12;

// Advice addressed to a reader: "if you need …", "you'll see …", "this lets you …".
const ADVICE = /\b(?:if you|you(?:'ll|’ll| will| could| can| may| might| would)|(?:helps?|lets?|allows?) you|your)\b/iu;
// A glossary entry: "Feedforward networks: The simplest type, …".
const DEFINITION = /^\p{Lu}[^:]{2,60}:\s+(?:a|an|the)\s/iu;

const CODE: readonly RegExp[] = [
  // A dictionary or JSON entry: `"key": value,`.
  /^["'][\w.-]+["']\s*:\s*\S/u,
  // Statements of a program: a call with arguments next to an assignment, a comment after code.
  /\bif\s*\(.*\)\s*:|\bself\.\w|\bexcept\s+\w+(?:\s+as\s+\w+)?\s*:|\bfrom\s+[\w.]+\s+import\s+\w/u,
  /[\w)\]"']\s*[,;{]?\s{2,}#\s+\p{L}/u,
  // Control flow and indexing: "if not rows: return None", `stats["total"]`.
  /\b(?:if|elif|for|while|else)\b[^:]{0,80}:\s*(?:return|raise|print|continue|break|pass)\b|\w\[["'][\w-]+["']\]/iu,
  // A constant assigned: `EMB_DIM = 768`.
  /^[A-Z][A-Z0-9]*_[A-Z0-9_]*\s*=\s*\S/u,
  // A command line: a tool, its subcommand and flags or a second command ("git add -A && git commit -m …").
  /^(?:git|npm|npx|yarn|pnpm|pip3?|docker|kubectl|cargo|make|poetry|uv|go)\s+[a-z][\w:.-]*\s+(?:[^\s]+\s+)*?(?:&&|\|\||-{1,2}[a-zA-Z])/iu,
];

// --- Shapes of statements that do not last ---

// Words that only join a thought to the one before: "but", "so", "however", "wait", "given all this".
const THOUGHT_JOINER = String.raw`(?:(?:but|so|and|however|actually|now|ok(?:ay)?|hmm+|well|also|then|therefore|still|instead|first|again|wait|given (?:all )?(?:this|that)|in that case|to be (?:safe|thorough|complete))[,:!.]?\s+)*`;
// A thought led by what the speaker is doing in its head: looking, noticing, assuming, doubting,
// or weighing its own next step ("I should …", "I need to …", "I can't …"); "we" counts only for
// perception and belief, since "we need to …" is as often the project's requirement.
const DELIBERATION_LEAD = new RegExp(
  String.raw`^${THOUGHT_JOINER}(?:wait\b|hmm+\b|looking (?:at|more|back|again|carefully|closer|through|over)\b|on (?:closer|second) (?:look|thought|inspection)\b|re-?(?:reading|examining|checking)\b|from (?:the|what) (?:\S+\s+){0,3}(?:you|I) (?:provided|showed|shared|see|saw|can see)\b|i\s+(?:(?:now|also|still|really|actually|just|first|then)\s+)?(?:think|believe|guess|suppose|assume|notice|noticed|see|can see|could see|understand|realize|realise|wonder|need to|should|shouldn['’]t|must|have to|can['’]t|cannot|don['’]t|didn['’]t|won['’]t|'?ll (?:assume|need|have to|respond|provide|return|wait)|will (?:assume|need|have to|respond|provide|return|wait)|(?:want|would like) to (?:make sure|check|verify|confirm|rule out|see|understand|be sure|figure out|double-check)|would need|['’]d need|could|might|haven['’]t|(?:am|['’]m|was) (?:asked|told|only)|['’]m not sure|am not sure)\b|i['’]d like to (?:make sure|check|verify|confirm|rule out|see|understand|be sure|figure out|double-check)\b|we\s+(?:(?:now|also|still|really|actually|just)\s+)?(?:think|believe|notice|noticed|see|can see|could see|understand|realize|realise|wonder)\b)`,
  'iu',
);
// A label that announces what the speaker found: "Now I understand:", "One thing I noticed:".
const PERCEPTION_LABEL = /\b(?:see|notice|noticed|realize|realise|understand|found)\b/iu;
// The speaker's own next step or duty, in a label ("I believe I should: …").
const OWN_STEP = /\b(?:should|need|must|have to|will|['’]ll|going to)\b/iu;
// A premise about the task or the conversation, then the speaker's own step or stance: "Since the
// file already has the fields, I should mark it done", "Given that I'm asked to …, I'll …".
const PREMISED_STEP = /^(?:\W*(?:but|so|and|however|now)[,\s]+)?(?:since|given(?: that)?|as|if|once|now that|when|considering|before)\b[^.;]{3,200}?,\s+(?:(?:so|then|and)\s+)?i\s+(?:(?:still|really|probably|just|also|first)\s+)?(?:should|shouldn['’]t|need to|must|have to|['’]ll|will|can|can['’]t|cannot|could|think|believe|guess|won['’]t|don['’]t|want to|would like to)\b|^before\b[^.;,]{3,120}?,?\s+i\s*(?:['’]d like|want|would like|need) to (?:make sure|check|verify|confirm|rule out|see|understand|be sure|figure out|double-check)\b/iu;
// A few words ending in a colon or a dash before the statement proper.
const SHORT_LABEL = /^[^:;—–]{1,40}(?::|\s[—–-])\s+(?=\S)/u;
// A step the assistant hands to the user: "you should run `pip install …`", "you'll need to restart …",
// "please run …"; and the speakers' readiness ("I am ready to move on to …").
const USER_STEP = /^(?:\W*(?:after|once|when|before|then|now|next|finally|also)\b[^,]{0,80},\s+)?(?:you(?:['’]ll| will)? (?:should|need to|have to|must|can|may want to)|please) (?:now |also |then |first )?(?:run|rerun|re-run|install|restart|reload|open|launch|start|execute|copy|paste|try|test|verify|check)\b|^(?:yes,?\s+|ok(?:ay)?,?\s+)?(?:i|we)(?:['’]m| am|['’]re| are) (?:now )?ready to\b|^(?:we|i)(?:['’]ll| will) now\b/iu;
// Talk about the conversation rather than the project: what the user or the instructions said,
// which files were shared, what the assistant may reply with.
const CONVERSATION_TALK = /\b(?:(?:you|the user)\s+(?:(?:just|only|already|also)\s+)?(?:showed|shared|provided|added|asked|said|mentioned|wants?|want me|gave|pasted|sent|haven['’]t|didn['’]t|are asking|['’]re asking|asked me)\b|the (?:instructions?|rules|system prompt) (?:say|said|says|ask|asks|are|tell|require)\b|(?:in|to|into) (?:the|this) (?:current )?(?:chat|conversation)\b|read[- ]only files?\b|search\/replace blocks?\b|i understand (?:you|that you|the rules|now)\b|since (?:i|you) (?:can['’]t|cannot|haven['’]t|don['’]t|didn['’]t|only|am only|['’]m only)\b|you['’]ve (?:already )?(?:completed|finished|done|run|set up|updated|shared|provided|added)\b)/iu;

/**
 * Tells whether an assistant's sentence is its own deliberation (see `FactRejection`): led by
 * what it sees, assumes or should do, or about what was said or shared in the conversation.
 */
function isDeliberation(plain: string): boolean {
  // "Ah, I understand: `load` reads the stale copy" — what follows the label is the finding.
  const label = SHORT_LABEL.exec(plain);
  if (label !== null && DELIBERATION_LEAD.test(label[0]) && PERCEPTION_LABEL.test(label[0]) && !OWN_STEP.test(label[0])) return isDeliberation(plain.slice(label[0].length));
  return DELIBERATION_LEAD.test(plain) || CONVERSATION_TALK.test(plain) || USER_STEP.test(plain) || PREMISED_STEP.test(plain);
}

// A failure or something not working: "the build failed", "tests are failing again", "still not able to …".
const FAILURE = /\b(?:fail(?:s|ed|ing)?|broke|broken|crash(?:es|ed|ing)?|errors? out|(?:does|did|is|are|was|were)(?: still)?(?:n't| not) (?:work(?:ing)?|run(?:ning)?|load(?:ing)?|start(?:ing)?)|not working|stopped working|no longer works|(?:still )?(?:not able|unable) to|can(?:not|'t) (?:find|load|connect|start|run|open|import|resolve))\b|\b(?:does|did|do)(?:n't| not) do anything\b|\b(?:over and over|again and again|keeps? (?:\p{L}+ing) the same)\b|^no (?:\p{L}+ )?(?:response|output|results?|data|reply|answer|logs?|effect|change)\b(?!\s+(?:is|are|should|must|will|may))|^(?:no|nothing)\b(?: \p{L}+){0,2} (?:found|returned|shown|showing|shows up|show up|appears?|happens|loads?|renders?|works?)\b/iu;
// What names a failure precisely enough to look it up later: a code span, an error name or code.
const FAILURE_NAMED = /`[^`]+`|\b\w+(?:Error|Exception)\b|\bE[A-Z]{3,}\b|\b[A-Z]{2,}\d{2,}\b/u;
// What makes a failure worth keeping: its cause, its fix, or what was decided about it.
const FAILURE_RESOLVED = /\b(?:(?:failure|error|crash|problem) (?:was|is|came|comes)|missing|because|since|due to|caused by|cause|culprit|root|fix(?:ed|es)?|solv\w*|resolv\w*|workaround|so (?:we|i|the)|instead|pin(?:ned)?|switch(?:ed)?|downgrad\w*|upgrad\w*|revert\w*|when|whenever|unless|if|until|only|must|never|always|don't|do not|expected|known|flaky|ignore)\b|;|→|->/iu;
// Words of a guess or a tentative suggestion.
const HEDGE = /\b(?:maybe|perhaps|possibly|potentially|probably|presumably|(?:un)?likely|might(?: be| have| not)?|could(?: be| have)|may (?:be|have)|i (?:guess|suspect|wonder|assume)|not sure|no idea|seems?(?: to| like)|appears? to|worth (?:trying|a try|a shot|checking|considering|looking)|(?:try|trying) (?:to see|and see))\b/iu;
// What makes a tentative statement binding anyway.
const HEDGE_BINDING = /\b(?:must|never|always|do not|don't|only|fixed|resolved|solved|confirmed|decided)\b/iu;
// A report that work is finished: "Done, …", "Fixed various …", "… is now updated".
const COMPLETION = /^(?:(?:done|all set|all done|finished|complete[d]?|ok(?:ay)?|great|perfect|success(?:fully)?)\b[,.!:—–-]*\s*|✅\s*)|^(?:i've |i have |we've |we have )?(?:successfully |now )?(?:fixed|updated|added|implemented|enhanced|improved|cleaned up|refactored|created|changed|modified|adjusted|tweaked|polished|finished|completed|resolved|addressed)\s|\b(?:is|are|has been|have been|was|were)\s+(?:now\s+)?(?:all\s+)?(?:updated|fixed|done|complete|completed|finished|ready|in place|working(?: again| now)?|implemented|added|resolved)\s*[.!]?$/iu;
// Quantifiers of work that name nothing in particular: "various errors", "some issues".
const VAGUE_OBJECT = /\b(?:various|several|some|a few|multiple|many|numerous|a number of|minor|misc\w*|other|remaining|all the|any)\s+\p{L}/iu;
// A list that enumerates features, ideas or areas to work on.
const FEATURE_LEAD_IN = /\b(?:(?:key |main |new )?features?|capabilities|improvements?|enhancements?|benefits|ideas|next steps|roadmap|focus on|areas?|highlights|(?:what|which) (?:it|this) (?:does|offers))\b[^:]{0,40}:\s*\S/iu;
// A purpose or label before an imperative: "To improve this: …", "First, …", "Optionally, …".
const PURPOSE_LEAD_IN = /^(?:(?:to|in order to) [^:,]{3,60}[:,]\s+|(?:first|then|next|finally|optionally|also|now|after that)[,:]?\s+)/iu;
// A bold label starting the sentence: "**Better Content Integration**: …".
const BOLD_LABEL = /^\*\*[^*]{3,60}\*\*:?\s+/u;
// A glossary entry of a pasted explanation: "Feedforward networks: A type of network that …".
const GLOSSARY = /^[^:]{2,60}:\s+(?:a|an)\s+(?:\p{L}+\s+)?(?:type|kind|form|class|family|variant|technique|method)\s+of\b/iu;
// A source cited at the end of pasted web text: "… its integrity example.com".
const CITATION = /\s(?:[a-z0-9-]+\.)+(?:com|org|io|dev|net|blog|co|app)\s*(?:\+\d+)?\s*$/u;

/** A row of a pasted table (tab-separated or several `|` cells) or web text ending in its source. */
function isPastedShape(plain: string): boolean {
  if (/\S\t+\S/u.test(plain)) return true;
  const outsideCode = plain.replace(/`[^`]*`/gu, ' ');
  return (outsideCode.match(/\s\|\s/gu)?.length ?? 0) >= 2 || CITATION.test(outsideCode);
}

/** A guess or a suggestion to try something, with no rule or confirmed result in it. */
function isHedge(plain: string): boolean {
  // A hedge in an aside ("(likely at data/index.npz)") leaves the statement around it as it is.
  const outsideAsides = plain.replace(/\([^()]*\)/gu, ' ');
  return HEDGE.test(outsideAsides) && !HEDGE_BINDING.test(plain);
}

/** Something failed, and the sentence says neither why nor what was done about it. */
function isBareFailure(plain: string): boolean {
  // A quoted error message is what failed, not a report that something fails.
  const unquoted = plain.replace(/'[^']{2,80}'|"[^"]{2,80}"|“[^”]{2,80}”/gu, ' ');
  // A schedule that says what a failure would do ("the browser tests run on every merge, so a broken
  // selector blocks it") reports none.
  // "Failed webhooks have to be retried for 24 hours" says what must happen to a failure, not that one happened.
  return FAILURE.test(unquoted) && !FAILURE_NAMED.test(plain) && !FINDING.test(plain) && !FAILURE_RESOLVED.test(plain) && !isRecurringProcess(plain) && !isStatedNeed(plain);
}

/** Finished work reported with no command, path, value or name to remember. */
function isBareCompletion(plain: string, role: Entry['role']): boolean {
  if (!COMPLETION.test(plain) || CHOICE_MADE.test(plain) || REMEMBERED_DETAIL.test(plain)) return false;
  return VAGUE_OBJECT.test(plain) || countSpecifics(plain, { role }) === 0;
}

/** An item of a feature or idea list: after a lead-in that names such a list, or a bold label and a verb. */
function isFeatureItem(sentence: string, plain: string): boolean {
  if (HARD_RULE.test(plain) || REMEMBERED_DETAIL.test(plain)) return false;
  if (FEATURE_LEAD_IN.test(plain)) return true;
  const label = BOLD_LABEL.exec(sentence)?.[0];
  if (label === undefined) return false;
  const rest = sentence.slice(label.length).replace(/\*\*|__/gu, '');
  return startsWithStepVerb(rest) || isInstruction(rest);
}

function isPastedAdvice(plain: string, options: { role: Entry['role']; layout: MessageLayout | undefined }): boolean {
  const { role, layout } = options;
  if (layout?.isPasted !== true && layout?.isDocument !== true) return false;
  if (layout.isDocument) return !(isInstruction(plain) && (REMEMBERED_DETAIL.test(plain) || HARD_RULE.test(plain)));
  if (ADVICE.test(plain) || DEFINITION.test(plain)) return true;
  // An instruction the user passes on ("Serialize every access with a lock") is theirs to give.
  if (isInstruction(plain)) return false;
  // A general remark with nothing specific in it (no name, value or identifier) is the document's.
  return countSpecifics(plain, { role }) === 0;
}

/** Ends in a colon and only announces what follows: a block, a change, the next step. */
function isLeadIn(plain: string): boolean {
  if (!/:\s*$/u.test(plain)) return false;
  const words = plain.split(/\s+/u).length;
  return words <= SHORT_LEAD_IN_WORDS || ANNOUNCES.test(plain);
}

/** "Here is what I'll do: Check …": a lead-in that only points ahead, joined to what follows. */
function isAnnouncedOnly(plain: string): boolean {
  const head = /^([^:]{3,100}):\s/u.exec(plain)?.[1];
  // "Please keep in mind: …" asks to keep what follows; it does not point ahead to work.
  return head !== undefined && ANNOUNCES.test(head) && !FINDING.test(`${head}: `) && !KEEP_REQUEST.test(head);
}

function isNarration(plain: string, role: Entry['role']): boolean {
  if (!NARRATION.test(plain)) return false;
  // A premise that names what was chosen ("Now that the order events go over Pulsar, …") gives a
  // choice as the reason for what follows; "Now that I have the file open, …" names nothing.
  const premise = NAMED_PREMISE.exec(plain);
  if (premise !== null && countSpecifics(premise[1] ?? '', { role }) >= 1) return false;
  // "Let's check the logs" is the next minute's work; "Let's keep retries at 5" is a choice.
  const intended = INTENTION.exec(plain);
  if (intended !== null) {
    const verb = /^\s*(?:now\s+|also\s+|just\s+)?(\p{L}+)/u.exec(plain.slice(intended[0].length))?.[1]?.toLowerCase();
    return verb !== undefined && (STEP_VERBS.has(verb) || LOOKING_VERBS.has(verb));
  }
  // A report or a verdict that names what was done ("… moved the archive to S3 Glacier with a 90
  // day cutoff", "The app now has a 30s timeout") records a decision; one that names nothing is narration.
  return countSpecifics(plain, { role }) < REPORT_SPECIFICS;
}

/**
 * Starts with a work verb used as an imperative ("Check the …", "Run `npm test`"), also after a
 * label. The word after it tells the verb from a noun: "Test files belong …" states a rule.
 */
function startsWithStepVerb(plain: string): boolean {
  return [plain, plain.replace(LABEL, '')].some((text) => {
    const match = /^(\p{L}+(?:-\p{L}+)?)\s+(\S+)/u.exec(text);
    const verb = match?.[1]?.toLowerCase();
    const next = match?.[2] ?? '';
    return verb !== undefined && STEP_VERBS.has(verb) && (OBJECT_START.test(next) || OBJECT_WORDS.has(next.toLowerCase().replace(/[,:;]$/u, '')));
  });
}

function isInstruction(plain: string): boolean {
  const first = /^\p{L}[\p{L}-]*/u.exec(plain.replace(LABEL, ''))?.[0].toLowerCase();
  return first !== undefined && (STEP_VERBS.has(first) || INSTRUCTION_VERBS.has(first));
}

function isWholeLine(line: LayoutLine, plain: string): boolean {
  const text = line.text.replace(/\*\*|__/gu, '').trim();
  if (text === plain) return true;
  // A heading absorbs what a hard wrap joined to it: a code block's language, a copy label.
  return plain.startsWith(text) && plain.slice(text.length).trim().split(/\s+/u).length <= 2;
}

function lineOf(layout: MessageLayout, sentence: string): LayoutLine | undefined {
  const probe = sentence.slice(0, 40);
  const found = layout.lines.find((line) => line.text.includes(probe));
  if (found !== undefined) return found;
  // A lead-in joined to the line after it ("**Run it**: Start …") is found by its first part.
  const head = /^[^:]{3,40}:/u.exec(sentence)?.[0];
  const byHead = head === undefined ? undefined : layout.lines.find((line) => line.text.startsWith(head));
  // A line that a hard wrap continued: the sentence starts with the whole line.
  return byHead ?? layout.lines.find((line) => line.text.length >= MIN_LINE_MATCH && sentence.startsWith(line.text));
}

function isHeadingLine(line: LayoutLine): boolean {
  if (line.marker === 'heading') return true;
  const plain = line.text.replace(/\*\*|__/gu, '').trim();
  // A bold line is a label unless it is a whole sentence ("**The cache is not needed.**").
  if (/^\*\*[^*]+\*\*:?$/u.test(line.text)) return !/[.!?]\**:?$/u.test(line.text);
  if (/[.!?:;,`]$/u.test(plain)) return false;
  const words = plain.match(/\p{L}[\p{L}'’-]*/gu) ?? [];
  // A numbered section title: "5 Hardening (do after it stays up)".
  if (/^\d{1,2}\s+\p{Lu}/u.test(plain) && words.length <= 10) return true;
  // A Title Case line: "Update Retrieval & Synthesis in search.py" (names and short words aside).
  const long = plain.split(/\s+/u).filter((word) => word.length >= 4 && !/[._/\\`\d]/u.test(word));
  return words.length <= 10 && long.length >= 3 && long.every((word) => /^\p{Lu}/u.test(word));
}

/**
 * A plan's lead-in joined to its first step ("Here is my plan: Create …") is a step too, unless
 * the lead-in states a choice ("I recommend a staged approach: …").
 */
function isPlanOpening(layout: MessageLayout | undefined, line: LayoutLine, sentence: string): boolean {
  if (layout === undefined || line.marker !== 'none' || !PLAN_LEAD_IN.test(line.text) || CHOICE.test(line.text)) return false;
  if (sentence.length <= line.text.length || !sentence.startsWith(line.text)) return false;
  const next = layout.lines[layout.lines.indexOf(line) + 1];
  return next !== undefined && (next.marker === 'bullet' || next.marker === 'number') && sentence.includes(next.text.slice(0, 20));
}

// What a former version of a thing had to do: "the old code had to handle 10 rows", "our previous
// importer needed to cope with …". The obligation is told in the past of something replaced.
const FORMER_NEED = /^(?:(?:but|and|so|also)[,\s]+)?(?:the\s+|our\s+|its\s+|their\s+)?(?:old|previous|prior|former|legacy|original|earlier)\s+(?:[\p{L}\p{N}-]+\s+){0,3}?(?:had to|needed to|(?:was|were) (?:required|supposed|meant) to|used to)\b/iu;
// Words that bring a sentence back to what holds now.
const NOW = /\b(?:now|still|from now on|going forward|anymore|any more|new one|instead)\b/iu;

// Modals that make an item something still to be done.
const STEP_MODAL = /\b(?:should|must|needs? to|has to|have to|will|going to|can)\b|['’]ll\b/iu;

function lastSentenceOf(text: string): string {
  const parts = text.split(/(?<=[.!?])\s+(?=\S)/u);
  return parts[parts.length - 1] ?? text;
}

function isPlanStep(line: LayoutLine, plain: string): boolean {
  if (line.marker !== 'bullet' && line.marker !== 'number') return false;
  // "- I put order search on meilisearch": an item told in the past reports a choice made, whatever
  // its lead-in says about what comes next.
  if (PAST_CHOICE_ITEM.test(plain)) return false;
  // A need measured by a value ("the export has to support 50k rows, so stream it") is what the
  // plan must meet, not a step of it.
  if (isMeasuredNeed(plain)) return false;
  // The plan must be announced where the list is introduced: in the lead-in's last sentence, or
  // anywhere in a lead-in that ends in a colon. A plan mentioned earlier in a paragraph of findings
  // does not make the rules listed after it steps.
  if (line.leadIn !== undefined && PLAN_LEAD_IN.test(/:\s*$/u.test(line.leadIn) ? line.leadIn : lastSentenceOf(line.leadIn))) {
    // An item that says, in the present tense, how the product behaves is a rule the plan keeps
    // to, not a step of it; what something should or needs to do is a step.
    return startsWithStepVerb(plain) || STEP_MODAL.test(plain) || !isBehaviourStatement(plain);
  }
  // "**Create a test directory**: `…`", "**Faster search**: Add an index": a step starts with its verb.
  return startsWithStepVerb(plain);
}

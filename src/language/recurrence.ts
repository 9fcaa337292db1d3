/**
 * Recurring processes: a statement that gives a job, a scan, a backup or a key a schedule ("the
 * image scan runs every 6 hours", "backups: 03:30 CET", "the signing keys rotate every 90 days",
 * "the purge job is on `15 2 * * *`") is durable, whoever says it and in passing or not; a later
 * statement giving the same process another schedule replaces it ("the snapshot moved to 01:00").
 * What makes the statement is a recurrence expression (a frequency word, "every" with a period or
 * a pipeline event, a cron expression, a weekday or a time of day, a rotation or expiry period)
 * in the same clause as a process noun. Chatter that repeats something once ("I'll check again in
 * a minute", "ran the tests twice", "every test in this file passes") carries no such expression.
 */

/** A process given a schedule, read from one clause. */
export interface Recurrence {
  /** The process nouns of the clause, singular and lower-case (`backup`, `scan`). */
  readonly processes: ReadonlySet<string>;
  /** The word in front of each process noun, when it names which one ("image" scan, "staging" snapshot). */
  readonly modifiers: ReadonlyMap<string, string>;
  /** The recurrence expressions found, normalised (`every 6 hours`, `03:30 cet`). */
  readonly schedule: readonly string[];
  /** The clause's words, singular and lower-case. */
  readonly words: ReadonlySet<string>;
  /** The same words in order. */
  readonly sequence: readonly string[];
}

/** The recurrences a statement gives processes, one per clause that states one. */
export function recurrencesOf(text: string): readonly Recurrence[] {
  // A fact is compared with many later statements; its reading never changes.
  let found = readings.get(text);
  if (found === undefined) {
    found = readRecurrences(text);
    if (readings.size >= MAX_CACHED_READINGS) readings.clear();
    readings.set(text, found);
  }
  return found;
}

/** Whether a statement gives a process a schedule (see {@link recurrencesOf}). */
export function isRecurringProcess(text: string): boolean {
  return recurrencesOf(text).length > 0;
}

/**
 * Whether a newer statement gives a process an older one scheduled a different schedule: both
 * name the same process (a shared process noun, with the same word in front of it where both have
 * one: "staging snapshot" and "production snapshot" are two processes) and the schedules differ.
 * Distinct processes never replace each other ("nightly backup at 02:00", "nightly report at 06:00").
 */
export function isRescheduling(older: string, newer: string): boolean {
  const before = recurrencesOf(older);
  if (before.length === 0) return false;
  for (const after of recurrencesOf(newer)) {
    for (const earlier of before) {
      if (isSameProcess(earlier, after) && !isSameSchedule(earlier.schedule, after.schedule)) return true;
    }
  }
  return false;
}

/**
 * What the schedules of two statements say about a revision: `true` when the newer reschedules the
 * older's process, `false` when both schedule processes and no process is shared ("the nightly
 * backup runs at 02:00" / "the nightly report runs at 06:00" are two facts), `undefined` when the
 * schedules do not decide (either states none, or they share a process with the same schedule).
 */
export function scheduleRevision(older: string, newer: string): boolean | undefined {
  const before = recurrencesOf(older);
  const after = before.length === 0 ? [] : recurrencesOf(newer);
  if (after.length === 0) return undefined;
  let isShared = false;
  for (const later of after) {
    for (const earlier of before) {
      if (!isSameProcess(earlier, later)) continue;
      if (!isSameSchedule(earlier.schedule, later.schedule)) return true;
      isShared = true;
    }
  }
  return isShared ? undefined : false;
}

// --- Internal helpers ---

function readRecurrences(text: string): readonly Recurrence[] {
  if (QUESTION_END.test(text.trim())) return [];
  const found: Recurrence[] = [];
  let label = '';
  for (const clause of clausesOf(text)) {
    // A short label names the process its value schedules ("purge job schedule: `15 2 * * *`").
    const recurrence = readClause(clause) ?? (label.length > 0 ? readClause(`${label} ${clause}`) : undefined);
    if (recurrence !== undefined) found.push(recurrence);
    label = LABEL.test(clause) ? clause : '';
  }
  return found;
}

const readings = new Map<string, readonly Recurrence[]>();
const MAX_CACHED_READINGS = 4_096;
const QUESTION_END = /\?\s*\)?$/u;
// A label of at most four words, as written before a colon.
const LABEL = /^[\w-]+(?:\s+[\w-]+){0,3}$/u;

// English data: words naming a process, a job or what it works on.
const PROCESS_NOUNS = new Set([
  'audit', 'backup', 'batch', 'billing', 'build', 'certificate', 'cert', 'check', 'cleanup', 'compaction', 'credential',
  'cron', 'crontab', 'deploy', 'deployment', 'digest', 'dump', 'email', 'export', 'handover', 'import', 'index',
  'ingest', 'invoice', 'job', 'key', 'lease', 'log', 'mail', 'password', 'pipeline', 'poll', 'purge', 'reindex',
  'renewal', 'repack', 'report', 'retention', 'rotation', 'scan', 'scanner', 'schedule', 'scrape',
  'secret', 'snapshot', 'suite', 'sweep', 'sync', 'task', 'test', 'timer', 'token', 'train', 'vacuum', 'worker',
  'environment', 'rebuild', 'refresh', 'standup', 'review', 'upgrade', 'heartbeat', 'healthcheck', 'crawl', 'archive', 'translation',
  'prune', 'release', 'benchmark', 'bench', 'poller', 'rollup', 'cutover', 'handoff', 'on-call', 'rota', 'rotate', 'warmup', 'warm-up',
  'lint', 'e2e', 'workflow', 'ci', 'env', 'retro', 'retrospective', 'planning', 'demo', 'freeze',
]);
const NOUN_ALIASES: Readonly<Record<string, string>> = { env: 'environment', retrospective: 'retro', poller: 'poll', rota: 'rotation', rotate: 'rotation', 'warm-up': 'warmup', bench: 'benchmark', handoff: 'handover', scanner: 'scan', cert: 'certificate', crontab: 'cron', deployment: 'deploy', mail: 'email', dump: 'backup', reindex: 'index' };
const MODIFIER_ALIASES: Readonly<Record<string, string>> = { db: 'database', prod: 'production' };

const UNIT = String.raw`(?:second|sec|minute|min|hour|hr|day|night|morning|evening|afternoon|week|weekday|weekend|fortnight|month|quarter|year|sprint)`;
const WEEKDAY = String.raw`(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)`;
const EVENT = String.raw`(?:push|merge|commit|deploy(?:ment)?|release|build|tag|pull request|merge request|PR|MR)`;
const COUNT = String.raw`(?:\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty-five|sixty|ninety)`;
const ORDINAL = String.raw`(?:first|second|third|fourth|last|1st|2nd|3rd|4th|other)`;

const FREQUENCY_WORD = String.raw`(?:nightly|daily|hourly|weekly|monthly|quarterly|yearly|annually|fortnightly|bi-?weekly)`;
// "The weekly audit", "the nightly job": a process that recurs, whose schedule is a plain day or
// time ("the weekly audit runs on Monday").
const FREQUENCY_ADJECTIVE = new RegExp(String.raw`\b${FREQUENCY_WORD}\s+[a-z]`, 'iu');
const SINGLE_DAY = new RegExp(String.raw`\b(?:on|to|until|till|from)\s+(?:${WEEKDAY}|the\s+\d{1,2}(?:st|nd|rd|th))\b`, 'giu');

// Each expression says "again and again" by itself.
const RECURRENCE_PATTERNS: readonly RegExp[] = [
  // A frequency word as an adverb ("runs nightly", "rotated weekly, on Mondays"); before a noun it
  // is part of a name ("the weekly report"), see FREQUENCY_ADJECTIVE.
  new RegExp(String.raw`\b${FREQUENCY_WORD}(?=\s*(?:$|[,.;:)!]|\s(?:at|on|in|and|or|so|for|from|with|by|but|to|since|because|until|before|after|except|which|while|unless|if|as|now|too)\b))`, 'giu'),
  new RegExp(String.raw`\bevery\s+(?:${ORDINAL}\s+|${COUNT}\s*)?(?:[\w-]+\s+)?(?:${UNIT}|${WEEKDAY}|${EVENT})s?\b`, 'giu'),
  new RegExp(String.raw`\bevery\s+\d+\s?(?:s|m|h|d|min|mins|hrs?)\b`, 'giu'),
  new RegExp(String.raw`\b(?:once|twice|thrice|${COUNT}\s+times)\s+(?:a|an|per|every|each)\s+${UNIT}\b`, 'giu'),
  // Not a rate: "25 calls per hour" counts things in a span of time, it repeats nothing.
  new RegExp(String.raw`(?<!\b(?:\d[\d,.]*|${COUNT})\s+(?:[\p{L}-]+\s+){0,2})\b(?:each|per)\s+(?:${UNIT}|${WEEKDAY})\b`, 'giu'),
  new RegExp(String.raw`\b${WEEKDAY}s\b(?:\s+and\s+${WEEKDAY}s\b)?`, 'giu'),
  new RegExp(String.raw`\b${ORDINAL}\s+${WEEKDAY}\b`, 'giu'),
  /\b(?:the\s+)?\d{1,2}(?:st|nd|rd|th)\s+of\s+(?:each|every|the)\s+month\b/giu,
  // A cron expression: five fields of digits, stars, ranges and steps.
  /(?<![\w*/,-])(?=[\d*/,-]*\*|(?:[\d*/,-]+\s+){1,4}[\d/,-]*\*)[\d*][\d*/,-]*(?:\s+[\d*][\d*/,A-Za-z-]*){4}(?![\w*/,-])/gu,
  // A time of day, with a zone when one is given (not a clock in a timestamp or a duration).
  /(?<![\d:.T-])(?:[01]?\d|2[0-3]):[0-5]\d(?![\d:])(?:\s?(?:am|pm))?(?:\s(?:UTC|GMT|CET|CEST|EST|EDT|PST|PDT|PT|ET|BST|IST|JST|AEST)\b)?/giu,
  /(?<![\w.])(?:1[0-2]|0?[1-9])\s?(?:am|pm)\b/giu,
  /\bat\s+(?:noon|midnight)\b/giu,
];

// A period of validity or keeping, which repeats when it names a rotation, an expiry or a retention.
const PERIOD = new RegExp(String.raw`\b${COUNT}\s+${UNIT}s?\b`, 'giu');
const EXPIRY_WORDS = /\b(?:rotat\w*|expir\w*|renew\w*|retention|retain\w*|kept|lifetime|ttl|lease\w*|reap\w*|idle|purg\w*|torn down|destroy\w*)\b/iu;

// Something that went wrong once, a one-off, or the speaker's own doing is no schedule.
const INCIDENT = /\b(?:fail(?:ed|s|ing)?|broke|broken|crash\w*|flak\w*|timed out|errored|hung|stuck|missed|yesterday|last night|tonight's|earlier today|(?<!(?:starting|from|as of|beginning|effective)\s)(?:today|tomorrow|tonight)|this (?:morning|afternoon|evening)|just now|an? (?:hour|minute) ago|\d+ (?:minutes?|hours?|days?) ago)\b|^(?:just\s+)?(?:ran|re-?ran|did|triggered|kicked off|started|restarted|executed)\b/iu;
// The speaker's belief or what they saw frames a statement about the process; it is not their own
// doing: "I think the backup runs around 3am", "looking at the workflow, I see the suite runs at 02:00".
const BELIEF_FRAME = /(?:^|(?<=,)\s*|\s)(?:I|we)(?:['’]m| am| are)?\s+(?:(?:can|could)\s+)?(?:think|believe|reckon|guess|suppose|see|saw|notice|noticed|found|read|tell|(?:fairly|pretty|quite)?\s*sure|remember|recall)(?:\s+that)?(?=\s)|^(?:iirc|afaik|afaict)\b,?/giu;
const FIRST_PERSON_SINGULAR = /(?:^|[^\w'])(?:I|I'(?:ll|m|ve|d)|me|my|let me)(?![\w'])/u;

// Clause breaks: a schedule and its process are read within one clause.
const CLAUSE_BREAK = /[;:]\s+|,\s+(?=(?:so|but|which|since|because|while|although|and then|then)\b)|\s+[-–—]\s+|\.\s+|\n+/u;

function clausesOf(text: string): string[] {
  // A code span stays whole: it may hold a cron expression with colons or dashes.
  const spans: string[] = [];
  const masked = text.replace(/`[^`\n]*`/gu, (span) => `\u0001${spans.push(span.slice(1, -1)) - 1}\u0001`);
  return masked
    .split(CLAUSE_BREAK)
    .map((clause) => clause.replace(/\u0001(\d+)\u0001/gu, (_, index: string) => spans[Number(index)] ?? '').trim())
    .filter((clause) => clause.length > 0);
}

function readClause(clause: string): Recurrence | undefined {
  if (INCIDENT.test(clause) || FIRST_PERSON_SINGULAR.test(clause.replace(BELIEF_FRAME, ' '))) return undefined;
  const schedule: string[] = [];
  for (const pattern of RECURRENCE_PATTERNS) {
    for (const match of clause.matchAll(pattern)) schedule.push(normalise(match[0]));
  }
  if (EXPIRY_WORDS.test(clause)) for (const match of clause.matchAll(PERIOD)) schedule.push(normalise(match[0]));
  if (schedule.length > 0 || FREQUENCY_ADJECTIVE.test(clause)) for (const match of clause.matchAll(SINGLE_DAY)) schedule.push(normalise(match[0].replace(/^\w+\s+/u, '')));
  if (schedule.length === 0) return undefined;
  // The words of the schedule itself ("every tagged build") name no process.
  const rest = RECURRENCE_PATTERNS.reduce((text, pattern) => text.replace(pattern, ' '), clause);
  const isNounForm = (word: string | undefined): boolean => word !== undefined && (PROCESS_NOUNS.has(word) || PROCESS_NOUNS.has(word.replace(/s$/u, '')));
  const raw = rest.toLowerCase().replace(/'s\b/gu, '').match(/[a-z][a-z0-9-]*/gu) ?? [];
  const words = raw.map((word) => (word.length > 3 && word.endsWith('s') ? word.slice(0, -1) : word));
  // "The CRM sync polls every 10 minutes": after a noun, a word that is mostly a verb with an -s is
  // the verb, and ends the noun phrase.
  const isVerb = (index: number): boolean => {
    const word = raw[index];
    return word !== undefined && word.endsWith('s') && VERB_LIKE.has(word.slice(0, -1)) && index > 0 && isNounForm(raw[index - 1]);
  };
  const processes = new Set<string>();
  const modifiers = new Map<string, string>();
  const add = (index: number): void => {
    const word = words[index] ?? '';
    const noun = processNoun(word);
    if (noun === undefined) return;
    processes.add(noun);
    // A verb form ("gets snapshotted") has no modifier in front of it.
    const before = isNounForm(word) ? words[index - 1] : undefined;
    if (before !== undefined && before.length > 1 && !MODIFIER_STOPWORDS.has(before) && !modifiers.has(noun) && !FREQUENCY_ONLY.test(before)) {
      modifiers.set(noun, processNoun(before) ?? MODIFIER_ALIASES[before] ?? before);
    }
  };
  words.forEach((word, index) => {
    // In a compound the last noun names the process ("the billing backup" is a backup); a generic
    // head names the one in front of it as well ("the purge job" is the purge).
    if (processNoun(word) === undefined || isVerb(index) || (isNounForm(words[index + 1]) && !isVerb(index + 1))) return;
    add(index);
    if (GENERIC_HEADS.has(processNoun(word) ?? '') && isNounForm(words[index - 1])) add(index - 1);
  });
  if (processes.size === 0) return undefined;
  return { processes, modifiers, schedule, words: new Set(words), sequence: words };
}

const DETERMINERS = new Set(['the', 'a', 'an', 'our', 'this', 'that', 'each', 'every']);
const FREQUENCY_ONLY = /^(?:every|each|per|nightly|daily|hourly|weekly|monthly|quarterly|yearly)$/u;
const VERB_LIKE = new Set(['poll', 'sweep', 'refresh', 'scrape', 'sync', 'check', 'scan', 'purge', 'build', 'deploy', 'test', 'export', 'import', 'audit', 'dump', 'crawl', 'archive', 'review', 'rebuild', 'upgrade', 'vacuum', 'repack', 'index', 'reindex', 'report', 'mail', 'email']);
const GENERIC_HEADS = new Set(['job', 'worker', 'task', 'cron', 'timer', 'schedule']);
const MODIFIER_STOPWORDS = new Set(['the', 'a', 'an', 'our', 'your', 'their', 'its', 'this', 'that', 'these', 'those', 'of', 'for', 'on', 'in', 'at', 'and', 'or', 'to', 'by', 'with', 'from', 'full', 'whole', 'new', 'old']);

function processNoun(word: string): string | undefined {
  // Plurals and verb forms name the process too ("backups", "snapshotted", "purged").
  // A hyphenated name is named by its last part ("perf-bench" is a benchmark).
  const last = word.includes('-') ? word.slice(word.lastIndexOf('-') + 1) : word;
  const singular = [word, word.replace(/s$/u, ''), word.replace(/d$/u, ''), word.replace(/ed$/u, ''), word.replace(/ted$/u, ''), last, last.replace(/s$/u, '')].find((form) => PROCESS_NOUNS.has(form));
  if (singular === undefined) return undefined;
  return NOUN_ALIASES[singular] ?? singular;
}

function normalise(expression: string): string {
  return expression.toLowerCase().replace(/\s+/gu, ' ').replace(/s\b/u, '').trim();
}

function isSameProcess(a: Recurrence, b: Recurrence): boolean {
  for (const noun of a.processes) {
    if (!b.processes.has(noun)) continue;
    // A generic head is told apart by what each clause says the job is ("the prune job" / "a
    // nightly job … rebuilds the search index" are two jobs).
    if (GENERIC_HEADS.has(noun) && isOtherJob(a, b)) continue;
    const left = a.modifiers.get(noun);
    const right = b.modifiers.get(noun);
    // "staging snapshot" / "production snapshot" are two processes.
    // A modifier the other clause names elsewhere ("the registry scanner sweeps our images" / "the
    // image scan") names the same process.
    if (left !== undefined && right !== undefined && left !== right && !a.words.has(right) && !b.words.has(left)) continue;
    // "the billing cron job" / "the payroll cron job": a job told apart by its cron's owner.
    if (left !== undefined && left === right && a.processes.has(left) && b.processes.has(left) && isRival(a.modifiers.get(left), b.modifiers.get(left), { a, b })) continue;
    // Any other word told apart the same way ("never deploy the billing service" / "… the search service").
    if (hasRivalWords(a, b)) return false;
    return true;
  }
  return false;
}

function isOtherJob(a: Recurrence, b: Recurrence): boolean {
  const left = jobNames(a);
  const right = jobNames(b);
  if (left.length === 0 || right.length === 0) return false;
  return !left.some((word) => b.words.has(word) || b.processes.has(word)) && !right.some((word) => a.words.has(word) || a.processes.has(word));
}

// The words that name which job a clause is about: its specific process nouns and the words in
// front of its generic heads.
function jobNames(recurrence: Recurrence): string[] {
  const names = [...recurrence.processes].filter((noun) => !GENERIC_HEADS.has(noun));
  for (const [noun, modifier] of recurrence.modifiers) if (GENERIC_HEADS.has(noun)) names.push(modifier);
  return names;
}

function isRival(left: string | undefined, right: string | undefined, options: { a: Recurrence; b: Recurrence }): boolean {
  return left !== undefined && right !== undefined && left !== right && !options.a.words.has(right) && !options.b.words.has(left);
}

function hasRivalWords(a: Recurrence, b: Recurrence): boolean {
  const before = new Map<string, string>();
  a.sequence.forEach((word, index) => {
    const previous = a.sequence[index - 1];
    if (index > 1 && previous !== undefined && !MODIFIER_STOPWORDS.has(previous) && DETERMINERS.has(a.sequence[index - 2] ?? '')) before.set(word, previous);
  });
  // Only within a noun phrase that opens on a determiner ("the billing service").
  return b.sequence.some((word, index) => {
    const previous = b.sequence[index - 1];
    if (word.length < 4 || previous === undefined || !DETERMINERS.has(b.sequence[index - 2] ?? '') || MODIFIER_STOPWORDS.has(previous) || FREQUENCY_ONLY.test(previous)) return false;
    return isRival(before.get(word), previous, { a, b });
  });
}

function isSameSchedule(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a);
  return b.length === left.size && b.every((expression) => left.has(expression));
}

// Scores a built window: which probes it retains (by the synth README's keyword rule), whether it
// holds recently touched files with their exact content, and how much of it a prompt cache could
// reuse from the previous window.
import type { ContextMessage, JsonValue, TokenCounter } from '../src/index.js';
import { COMPACTION_FACTS_HEADING, COMPACTION_SUMMARY_PREFIX } from './baselines.js';
import type { WindowItem } from './baselines.js';
import type { BenchSession, Checkpoint, Probe } from './session-source.js';

/**
 * Age buckets of probe retention, in minutes since the fact was stated. The last one only fills in
 * sessions longer than four hours; reports leave it out when it is empty.
 */
export const AGE_BUCKETS: readonly { readonly label: string; readonly from: number; readonly to: number }[] = [
  { label: '0–15 min', from: 0, to: 15 },
  { label: '15–60 min', from: 15, to: 60 },
  { label: '60–120 min', from: 60, to: 120 },
  { label: '120–240 min', from: 120, to: 240 },
  { label: '240+ min', from: 240, to: Number.POSITIVE_INFINITY },
];

/** How one probe fared in one window. */
export interface ProbeScore {
  /** Id of the probe scored (the newest of its supersession chain). */
  readonly id: string;
  /** Its category. */
  readonly category: string;
  /** Minutes since it was stated. */
  readonly age: number;
  /** Whether all its keywords occur in the window. */
  readonly isRetained: boolean;
  /** For an update: the newest value is present and no older value is presented as current. */
  readonly isNewestWinning?: boolean | undefined;
  /** For an update: whether only an older value is present (a model would answer with it). */
  readonly isStale?: boolean | undefined;
}

/** Whether recently touched files are in a window with their exact content. */
export interface FileStateScore {
  /** Files touched in the last events whose current content is known. */
  readonly checked: number;
  /** Of those, files whose exact current content occurs in the window. */
  readonly present: number;
  /** Paths that were checked and not found. */
  readonly missing: readonly string[];
  /** Recently touched files whose content the transcript does not reveal (not scored). */
  readonly unknown: number;
}

/** Where a value is stated in a window: on one line, all its keywords. */
export interface Statements {
  /** Position of the last statement in history (chronological text), or -1. */
  readonly lastInHistory: number;
  /** Whether a current-facts list (Mobius T2 or pins, a compaction summary's facts) states it. */
  readonly isInCurrentFacts: boolean;
}

/** Searchable text of a window: message contents and the string values of tool-call inputs. */
export interface WindowText {
  /** Everything, in window order. */
  readonly text: string;
  /** Returns the position of the last match of `keyword` by the probe rule, or -1. */
  lastMatch(keyword: string): number;
  /** Finds the lines on which all `keywords` match. */
  statements(keywords: readonly string[]): Statements;
}

/** Serialises a window for searching: contents and tool-call input strings, in order. */
export function windowText(items: readonly WindowItem[]): WindowText {
  const parts: string[] = [];
  const ranges: [number, number][] = [];
  let length = 0;
  const push = (part: string): void => {
    parts.push(part);
    length += part.length;
  };
  for (const { message } of items) {
    push(`\n<${message.role}>\n`);
    for (const [start, end] of currentFactRanges(message)) ranges.push([length + start, length + end]);
    push(message.content);
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) {
        push(`\n[${call.name}] `);
        const strings: string[] = [];
        collectStrings(call.input, strings);
        push(strings.join(''));
      }
    }
  }
  const text = parts.join('');
  let lower: string | undefined;
  const cache = new Map<string, number>();
  const lowered = (): string => (lower ??= text.toLowerCase());
  return {
    text,
    lastMatch(keyword) {
      const key = keyword.toLowerCase();
      const cached = cache.get(key);
      if (cached !== undefined) return cached;
      const position = lastKeywordMatch(lowered(), key);
      cache.set(key, position);
      return position;
    },
    statements(keywords) {
      const [first, ...rest] = keywords.map((keyword) => keyword.toLowerCase());
      if (first === undefined) return { lastInHistory: -1, isInCurrentFacts: false };
      const all = lowered();
      let lastInHistory = -1;
      let isInCurrentFacts = false;
      for (let index = lastKeywordMatch(all, first); index >= 0; index = index === 0 ? -1 : lastKeywordMatch(all, first, index - 1)) {
        const lineStart = all.lastIndexOf('\n', index) + 1;
        const lineEnd = all.indexOf('\n', index);
        const line = all.slice(lineStart, lineEnd < 0 ? all.length : lineEnd);
        if (!rest.every((keyword) => lastKeywordMatch(line, keyword) >= 0)) continue;
        if (ranges.some(([start, end]) => index >= start && index < end)) isInCurrentFacts = true;
        else if (lastInHistory < 0) lastInHistory = index;
        if (isInCurrentFacts && lastInHistory >= 0) break;
      }
      return { lastInHistory, isInCurrentFacts };
    },
  };
}

/**
 * The parts of a message that list current facts rather than tell history: the T2 facts and pins
 * blocks of a Mobius system message, and the facts list of a compaction summary.
 */
export function currentFactRanges(message: ContextMessage): [number, number][] {
  const content = message.content;
  const ranges: [number, number][] = [];
  if (message.role === 'system') {
    for (const heading of ['## Session facts', '## Pinned']) {
      const start = content.startsWith(heading) ? 0 : content.indexOf(`\n${heading}`);
      if (start < 0) continue;
      const next = content.indexOf('\n\n## ', start + heading.length);
      ranges.push([start, next < 0 ? content.length : next]);
    }
  } else if (message.role === 'user' && content.startsWith(COMPACTION_SUMMARY_PREFIX)) {
    const start = content.indexOf(`\n${COMPACTION_FACTS_HEADING}\n`);
    if (start >= 0) ranges.push([start, content.length]);
  }
  return ranges;
}

/**
 * Scores the probes of a checkpoint. A listed probe that was superseded is scored by the newest
 * probe of its chain; an update must have its value present and no older value presented after it.
 */
export function scoreProbes(options: { session: BenchSession; checkpoint: Checkpoint; window: WindowText }): ProbeScore[] {
  const { session, checkpoint, window } = options;
  const newest = newestOfChains(session.probes, checkpoint.lineIndex);
  const scores: ProbeScore[] = [];
  const seen = new Set<string>();
  for (const listed of checkpoint.probes) {
    const probe = newest.get(listed) ?? session.probes.get(listed);
    // The generator sometimes lists a probe at a checkpoint written just before the statement
    // (same timestamp): it is scored from the next checkpoint on.
    if (probe === undefined || probe.lineIndex > checkpoint.lineIndex || seen.has(probe.id)) continue;
    seen.add(probe.id);
    const positions = probe.keywords.map((keyword) => window.lastMatch(keyword));
    const isRetained = positions.every((position) => position >= 0);
    const base = { id: probe.id, category: probe.category, age: Math.max(0, checkpoint.minute - probe.minute), isRetained };
    const older = olderValues(session.probes, probe);
    if (older.length === 0) {
      scores.push(base);
      continue;
    }
    const current = new Set(probe.keywords.map((keyword) => keyword.toLowerCase()));
    const stated = window.statements(probe.keywords);
    // Present but never on one line: its history position is where its last keyword is.
    const newestInHistory = stated.lastInHistory >= 0 || stated.isInCurrentFacts ? stated.lastInHistory : Math.max(...positions);
    let isStale = false;
    let isShadowed = false;
    for (const value of older) {
      const distinct = value.keywords.filter((keyword) => !current.has(keyword.toLowerCase()));
      if (distinct.length === 0) continue;
      const olderStated = window.statements(distinct);
      if (olderStated.lastInHistory < 0 && !olderStated.isInCurrentFacts) continue;
      if (!isRetained) isStale = true;
      // A facts list that states both presents the old value as current; otherwise the value
      // stated last wins, and a current-facts list wins over history.
      else if (olderStated.isInCurrentFacts && stated.isInCurrentFacts) isShadowed = true;
      else if (!stated.isInCurrentFacts && olderStated.lastInHistory > newestInHistory) isShadowed = true;
    }
    scores.push({ ...base, isNewestWinning: isRetained && !isShadowed, isStale });
  }
  return scores;
}

/** Checks that each file's exact current content occurs in the window. */
export function scoreFileState(options: { paths: readonly string[]; contents: ReadonlyMap<string, string>; window: WindowText }): FileStateScore {
  let checked = 0;
  let present = 0;
  let unknown = 0;
  const missing: string[] = [];
  for (const path of new Set(options.paths)) {
    const content = options.contents.get(path);
    if (content === undefined) {
      unknown += 1;
      continue;
    }
    checked += 1;
    if (options.window.text.includes(content)) present += 1;
    else missing.push(path);
  }
  return { checked, present, missing, unknown };
}

/** The longest common prefix of two consecutive windows. */
export interface CommonPrefix {
  /** Tokens of the current window inside the shared prefix. */
  readonly tokens: number;
  /** Index of the first message that differs, or -1 when one window is a prefix of the other. */
  readonly messageIndex: number;
  /** Characters of that message's content that are still shared. */
  readonly sharedCharacters: number;
}

/**
 * The longest common prefix of `current` with `previous`: whole messages that are identical, plus
 * the tokens of the shared start of the first message that differs.
 */
export function commonPrefix(options: {
  previous: readonly WindowItem[];
  current: readonly WindowItem[];
  counter: TokenCounter;
}): CommonPrefix {
  const { previous, current, counter } = options;
  let tokens = 0;
  const length = Math.min(previous.length, current.length);
  for (let index = 0; index < length; index += 1) {
    const before = previous[index] as WindowItem;
    const after = current[index] as WindowItem;
    if (before.message === after.message || isSameMessage(before.message, after.message)) {
      tokens += after.tokens;
      continue;
    }
    let shared = 0;
    if (before.message.role === after.message.role) {
      shared = commonPrefixLength(before.message.content, after.message.content);
      if (shared > 0) tokens += Math.min(after.tokens, counter.count(after.message.content.slice(0, shared)));
    }
    return { tokens, messageIndex: index, sharedCharacters: shared };
  }
  return { tokens, messageIndex: -1, sharedCharacters: 0 };
}

/** Names the Mobius block in which a system-message offset falls, from the block headings. */
export function mobiusBlockAt(system: string, offset: number): string {
  const heading = system.lastIndexOf('\n## ', offset);
  if (heading < 0) return system.startsWith('## ') ? blockOfHeading(system) : 'prefix';
  return blockOfHeading(system.slice(heading + 1, heading + 40));
}

// --- Internal helpers ---

function collectStrings(value: JsonValue, parts: string[]): void {
  if (typeof value === 'string') parts.push(value, '\n');
  else if (Array.isArray(value)) for (const item of value as readonly JsonValue[]) collectStrings(item, parts);
  else if (value !== null && typeof value === 'object') for (const item of Object.values(value)) collectStrings(item, parts);
  else if (value !== null) parts.push(String(value), '\n');
}

const BEFORE = /[a-z0-9_.]/;
const AFTER = /[a-z0-9_]/;

// The synth README's rule, on lower-cased text: (?<![A-Za-z0-9_.])KW(?![A-Za-z0-9_]).
function lastKeywordMatch(lower: string, keyword: string, before: number = lower.length): number {
  if (keyword.length === 0) return -1;
  let from = before;
  for (;;) {
    const index = lower.lastIndexOf(keyword, from);
    if (index < 0) return -1;
    const before = index > 0 ? lower.charAt(index - 1) : '';
    const after = lower.charAt(index + keyword.length);
    if (!(before !== '' && BEFORE.test(before)) && !(after !== '' && AFTER.test(after))) return index;
    if (index === 0) return -1;
    from = index - 1;
  }
}

// For each probe id, the newest probe of its supersession chain stated before line `lineIndex`.
function newestOfChains(probes: ReadonlyMap<string, Probe>, lineIndex: number): Map<string, Probe> {
  const successor = new Map<string, Probe>();
  for (const probe of probes.values()) {
    if (probe.supersedes !== undefined && probe.lineIndex < lineIndex) successor.set(probe.supersedes, probe);
  }
  const newest = new Map<string, Probe>();
  for (const probe of probes.values()) {
    let current = probe;
    const visited = new Set<string>();
    for (let next = successor.get(current.id); next !== undefined && !visited.has(next.id); next = successor.get(current.id)) {
      visited.add(current.id);
      current = next;
    }
    newest.set(probe.id, current);
  }
  return newest;
}

function olderValues(probes: ReadonlyMap<string, Probe>, probe: Probe): Probe[] {
  const older: Probe[] = [];
  const visited = new Set<string>([probe.id]);
  for (let id = probe.supersedes; id !== undefined && !visited.has(id); ) {
    visited.add(id);
    const previous = probes.get(id);
    if (previous === undefined) break;
    older.push(previous);
    id = previous.supersedes;
  }
  return older;
}

function blockOfHeading(heading: string): string {
  if (heading.startsWith('## Session facts')) return 'facts';
  if (heading.startsWith('## Pinned')) return 'pins';
  if (heading.startsWith('## Earlier in this session')) return 'summaries';
  if (heading.startsWith('## Open files')) return 'scratchpad';
  return 'prefix';
}

function isSameMessage(a: ContextMessage, b: ContextMessage): boolean {
  if (a.role !== b.role || a.content !== b.content) return false;
  if (a.role === 'tool' && b.role === 'tool') return a.toolCallId === b.toolCallId && a.isError === b.isError;
  if (a.role === 'assistant' && b.role === 'assistant') {
    const callsA = a.toolCalls ?? [];
    const callsB = b.toolCalls ?? [];
    return callsA.length === callsB.length && (callsA.length === 0 || JSON.stringify(callsA) === JSON.stringify(callsB));
  }
  return true;
}

function commonPrefixLength(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  let low = 0;
  // Compare in blocks first: identical multi-kilobyte prefixes are the common case.
  const block = 1_024;
  while (low + block <= length && a.slice(low, low + block) === b.slice(low, low + block)) low += block;
  while (low < length && a.charCodeAt(low) === b.charCodeAt(low)) low += 1;
  return low;
}

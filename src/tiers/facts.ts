import { stringify } from 'yaml';
import { isReframedValue } from '../language/statement-frame.js';
import { extractIdentifiers, factKeyFor, isSameSubject, isSameTopic, isVaguerRestatement, topicWords } from '../graduation/retention.js';
import { isValueRevision, valueWords } from '../graduation/value-revision.js';
import { isKindRevision, isRoleRevision } from '../graduation/kind-revision.js';
import { hasRivalModifiers } from '../graduation/rival-modifiers.js';
import { scheduleRevision } from '../language/recurrence.js';
import { countJoined } from '../tokens/token-counter.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import type {
  ArchivedItem,
  Fact,
  FactCategory,
  FactUpdate,
  SequenceRange,
  Task,
  TaskUpdate,
} from '../types.js';

/** Order in which fact categories are rendered. */
export const FACT_CATEGORIES: readonly FactCategory[] = [
  'architecture',
  'decisions',
  'requirements',
  'constraints',
  'conventions',
  'preferences',
  'error-resolutions',
  'patterns',
];

/** What applying fact updates changed. */
export interface FactChanges {
  /** Facts that did not exist before. */
  readonly added: readonly Fact[];
  /** Facts whose value was replaced, with the value they had. */
  readonly superseded: readonly { readonly fact: Fact; readonly previous: string }[];
  /** Superseded values, to append to the archive. */
  readonly archived: readonly ArchivedItem[];
}

/** The rendered T2 block. */
export interface RenderedFacts {
  /** YAML text (empty when there are no facts or tasks). */
  readonly text: string;
  /** Tokens of `text`. */
  readonly tokens: number;
  /** Facts left out to fit the budget (they stay in the store). */
  readonly omitted: number;
}

/** T2: durable facts, one value per key (newest wins), and task status. */
export interface FactStore {
  /** Merges fact updates: newest wins per key, the superseded value is kept in history. */
  apply(options: {
    updates: readonly FactUpdate[];
    source: SequenceRange;
    seq: number;
  }): FactChanges;
  /** Merges task status updates; returns the tasks that changed. */
  applyTasks(options: { updates: readonly TaskUpdate[]; source: SequenceRange }): readonly Task[];
  /** Adds facts carried over from another session as they are (history included); existing keys are replaced, the replaced value going to the fact's history. */
  restore(options: { facts: readonly Fact[]; seq: number }): void;
  /** All facts in render order. */
  facts(): readonly Fact[];
  /** All tasks, in the order they were first seen. */
  tasks(): readonly Task[];
  /** Finds a fact by key. */
  get(key: string): Fact | undefined;
  /** Renders the YAML block within `maxTokens`, cached while nothing changes. */
  render(options: { maxTokens: number }): RenderedFacts;
  /** Number of facts, without copying them. */
  readonly size: number;
  /** Sum of the facts' cached token counts (`fact.tokens`), kept as a running total. */
  readonly totalTokens: number;
}

/** Serialisable contents of a {@link FactStore}. @internal */
export interface FactStoreData {
  readonly facts: readonly Fact[];
  readonly tasks: readonly Task[];
}

/** Creates a {@link FactStore}. */
export function createFactStore(options: {
  counter: TokenCounter;
  initial?: FactStoreData | undefined;
}): FactStore & { toJSON(): FactStoreData } {
  const { counter } = options;
  const facts = new Map<string, Fact>();
  const tasks = new Map<string, Task>();
  // Topic words of each fact, indexed once, so that matching an update looks only at the facts
  // that share a word with it (every match must) instead of re-reading every stored fact.
  const topicIndex = new Map<string, Set<string>>();
  const topicsOf = new Map<string, readonly string[]>();
  // Position of each key in the iteration order of `facts`: the last matching fact wins.
  const orderOf = new Map<string, number>();
  let nextOrder = 0;
  let totalTokens = 0;
  const store = (fact: Fact, options: { isMoved: boolean }): void => {
    const existing = facts.get(fact.key);
    if (existing !== undefined) {
      totalTokens -= existing.tokens;
      for (const word of topicsOf.get(fact.key) ?? []) topicIndex.get(word)?.delete(fact.key);
    }
    if (options.isMoved) facts.delete(fact.key);
    facts.set(fact.key, fact);
    totalTokens += fact.tokens;
    if (existing === undefined || options.isMoved) orderOf.set(fact.key, (nextOrder += 1));
    const words = topicWords(fact.value);
    topicsOf.set(fact.key, words);
    for (const word of words) {
      let keys = topicIndex.get(word);
      if (keys === undefined) {
        keys = new Set();
        topicIndex.set(word, keys);
      }
      keys.add(fact.key);
    }
  };
  const remove = (key: string): void => {
    const existing = facts.get(key);
    if (existing === undefined) return;
    totalTokens -= existing.tokens;
    for (const word of topicsOf.get(key) ?? []) topicIndex.get(word)?.delete(key);
    facts.delete(key);
    topicsOf.delete(key);
    orderOf.delete(key);
  };
  for (const fact of options.initial?.facts ?? []) store(fact, { isMoved: false });
  for (const task of options.initial?.tasks ?? []) tasks.set(normalizeTitle(task.title), task);
  let version = 0;
  // Renders by room, for the current version only: build() asks for its planned room and, when the
  // window has space left, for a larger one. The rooms asked for most recently are rendered again
  // as soon as the facts change (when a graduation commits), so that build() finds them ready.
  let cache: { version: number; byRoom: Map<number, RenderedFacts> } = { version: 0, byRoom: new Map() };
  const recentRooms: number[] = [];
  // The lists and the drop order change only with the facts: made once per version, not once
  // per room (the same task list also keys the rendered tasks section, see tasksYaml()).
  let lists: RenderLists | undefined;
  // Counts of the parts a render joins (category headings, fact lines, the tasks section), so that
  // a render for a new room adds up known counts instead of asking the counter again.
  const partCounts = new Map<string, number>();
  const countPart = (part: string): number => {
    let tokens = partCounts.get(part);
    if (tokens === undefined) {
      tokens = counter.count(part);
      if (partCounts.size >= MAX_PART_COUNTS) partCounts.clear();
      partCounts.set(part, tokens);
    }
    return tokens;
  };
  const renderRoom = (maxTokens: number): RenderedFacts => {
    if (cache.version !== version) cache = { version, byRoom: new Map() };
    const cached = cache.byRoom.get(maxTokens);
    if (cached !== undefined) return cached;
    if (lists?.version !== version) lists = renderLists({ version, facts: [...facts.values()], tasks: [...tasks.values()] });
    const rendered = renderWithin({ lists, maxTokens, counter, countPart });
    if (cache.byRoom.size >= 16) cache.byRoom.clear();
    cache.byRoom.set(maxTokens, rendered);
    return rendered;
  };
  const onChange = (): void => {
    version += 1;
    for (const room of recentRooms) renderRoom(room);
  };

  // The key an update goes to, whether it gives that fact's subject a new value, and the keys of
  // older facts that said the same value of that subject in other words: they leave with it.
  const findKey = (update: FactUpdate): { key: string; isRevision: boolean; restated: string[] } => {
    if (update.key !== undefined) return { key: update.key, isRevision: false, restated: [] };
    // The facts that share a topic word with the update: the only ones it can be about.
    const candidates = new Set<string>();
    for (const word of topicWords(update.value)) for (const key of topicIndex.get(word) ?? []) candidates.add(key);
    const found = findTarget(update, candidates);
    const target = facts.get(found.key);
    return { ...found, restated: target === undefined ? [] : restatementsOf(target, update, candidates) };
  };
  // Facts other than `target` that hold the same values as it (the same amount said twice in other
  // words: "the billing client is allowed 124 retries" and "give the billing client 124 retries")
  // and that the update speaks of as well.
  const restatementsOf = (target: Fact, update: FactUpdate, candidates: ReadonlySet<string>): string[] => {
    const values = valueSet(target.value);
    if (values.size === 0) return [];
    const isUpdate = update.isUpdate === true;
    const restated: string[] = [];
    for (const key of candidates) {
      const fact = facts.get(key);
      if (fact === undefined || key === target.key || !isRevisableCategory(fact.category, target.category)) continue;
      if (!isSameValueSet(valueSet(fact.value), values)) continue;
      if (isSameSubject(fact.value, update.value, { isUpdate }) || isValueRevision(fact.value, update.value)) restated.push(key);
    }
    return restated;
  };
  // The newest of the candidate facts that passes `test` (older candidates are not tested).
  const newestWhere = (candidates: ReadonlySet<string>, test: (fact: Fact) => boolean): Fact | undefined => {
    let newest: Fact | undefined;
    let newestOrder = -1;
    for (const key of candidates) {
      const fact = facts.get(key);
      const order = orderOf.get(key) ?? 0;
      if (fact === undefined || order < newestOrder || !test(fact)) continue;
      newest = fact;
      newestOrder = order;
    }
    return newest;
  };
  const findTarget = (update: FactUpdate, candidates: ReadonlySet<string>): { key: string; isRevision: boolean } => {
    const isUpdate = update.isUpdate === true;
    const updateValueWords = valueWords(update.value);
    let match = newestWhere(candidates, (fact) => {
      // Newest wins only for the same subject: two distinct facts that share words both stay.
      // An update that keeps a statement's frame and changes its value ("timestamps are epoch
      // milliseconds now" after "timestamps are ISO 8601 strings") is the same subject too.
      if (!isSameSubject(fact.value, update.value, { isUpdate }) && !(isUpdate && isReframedValue(fact.value, update.value))) return false;
      // Two processes with schedules of their own ("the ledger backup runs hourly", "the avatar
      // backup runs nightly") are two facts however many words they share.
      if (scheduleRevision(fact.value, update.value) === false) return false;
      // Two different words in front of the same one name two things ("never deploy the search
      // service on Friday" / "… the mailer service on Friday").
      if (hasRivalModifiers(fact.value, update.value, { ignored: new Set([...valueWords(fact.value), ...updateValueWords]) })) return false;
      return isUpdate || (fact.category === update.category && topicOverlap(fact.value, update.value) >= 0.5);
    });
    // A new schedule for the same process replaces the old one even when it carries fewer values.
    if (match !== undefined) return { key: match.key, isRevision: scheduleRevision(match.value, update.value) === true };
    // A plainly worded new value for a subject already held ("staging keeps 12 connections" after
    // "staging runs with a pool of 4 connections") replaces it too: the newest such fact wins.
    match = newestWhere(candidates, (fact) => isRevisableCategory(fact.category, update.category) && isValueRevision(fact.value, update.value));
    if (match === undefined && isUpdate) {
      // A changed choice of tool for the same role ("on second thought, Jotai as the state library"
      // after "Zustand is the state library I like") replaces it when said as an update. Only
      // choices of tools: a schedule or a limit that names a role ("the search index is rebuilt
      // nightly") is not replaced by another statement about that role.
      match = newestWhere(candidates, (fact) => TOOL_CHOICES.has(fact.category) && TOOL_CHOICES.has(update.category) && isKindRevision(fact.value, update.value));
      // Another name in a role however the role is worded ("search moves to Typesense" after "we'll
      // run search on OpenSearch").
      match ??= newestWhere(candidates, (fact) => isRevisableCategory(fact.category, update.category) && isRoleRevision(fact.value, update.value));
    }
    if (match !== undefined) return { key: match.key, isRevision: true };
    return { key: newKey(update.value, update.category), isRevision: false };
  };
  const newKey = (value: string, category: FactCategory): string => {
    const base = factKeyFor(value, category);
    let key = base;
    for (let suffix = 2; facts.has(key); suffix += 1) key = `${base}-${suffix}`;
    return key;
  };

  return {
    apply({ updates, source, seq }) {
      const added: Fact[] = [];
      const superseded: { fact: Fact; previous: string }[] = [];
      const archived: ArchivedItem[] = [];
      for (const update of updates) {
        const value = update.value.trim();
        if (value.length === 0) continue;
        const found = findKey(update);
        const { isRevision } = found;
        let { key } = found;
        const existing = facts.get(key);
        if (existing !== undefined && existing.value === value) continue;
        // A restatement with fewer values keeps the detailed one, unless it says it replaces it or
        // gives a new value.
        if (existing !== undefined && update.key === undefined && update.isUpdate !== true && !isRevision && isVaguerRestatement(existing.value, value)) continue;
        // The older statements of the value being replaced leave with it, so none stays beside the new one.
        const restated: Fact[] = [];
        if (existing !== undefined) {
          for (const restatedKey of found.restated) {
            const fact = facts.get(restatedKey);
            if (fact === undefined) continue;
            remove(restatedKey);
            restated.push(fact);
            archived.push({ type: 'fact', reason: 'superseded', key: fact.key, category: fact.category, value: fact.value, source: fact.source, archivedAt: seq });
          }
        }
        const tokens = counter.count(`  ${key}: ${value}`);
        if (existing === undefined) {
          const fact: Fact = Object.freeze({ key, category: update.category, value, source, history: [], tokens, ...salienceOf(update.salience) });
          store(fact, { isMoved: false });
          added.push(fact);
          continue;
        }
        // A key made from the old value ("two-space-indentation") would show it beside the new one.
        if (update.key === undefined && isKeyOfOldValue({ key, older: existing.value, newer: value })) {
          remove(key);
          key = newKey(value, existing.category);
        }
        const fact: Fact = Object.freeze({
          key,
          category: existing.category,
          value,
          source,
          history: [
            ...existing.history,
            { value: existing.value, source: existing.source, supersededAt: seq },
          ],
          tokens,
          ...salienceOf(update.salience ?? existing.salience),
        });
        // Re-insert so that a changed fact moves to the end: most recent facts render last.
        store(fact, { isMoved: true });
        superseded.push({ fact, previous: existing.value });
        for (const older of restated) superseded.push({ fact, previous: older.value });
        archived.push({
          type: 'fact',
          reason: 'superseded',
          key: existing.key,
          category: existing.category,
          value: existing.value,
          source: existing.source,
          archivedAt: seq,
        });
      }
      if (added.length > 0 || superseded.length > 0) onChange();
      return { added, superseded, archived };
    },
    applyTasks({ updates, source }) {
      const changed: Task[] = [];
      for (const update of updates) {
        const title = update.title.trim();
        if (title.length === 0) continue;
        const key = findTaskKey(tasks, title) ?? normalizeTitle(title);
        const existing = tasks.get(key);
        if (existing !== undefined && existing.status === update.status) continue;
        const task: Task = Object.freeze({
          title: existing?.title ?? title,
          status: update.status,
          source,
          tokens: counter.count(`    - ${title}`),
        });
        tasks.delete(key);
        tasks.set(key, task);
        changed.push(task);
      }
      if (changed.length > 0) onChange();
      return changed;
    },
    restore({ facts: imported, seq }) {
      for (const fact of imported) {
        const existing = facts.get(fact.key);
        const history = existing === undefined ? fact.history : [...existing.history, { value: existing.value, source: existing.source, supersededAt: seq }, ...fact.history];
        store(Object.freeze({ ...fact, history, tokens: counter.count(`  ${fact.key}: ${fact.value}`) }), { isMoved: false });
      }
      if (imported.length > 0) onChange();
    },
    facts: () => [...facts.values()],
    tasks: () => [...tasks.values()],
    get: (key) => facts.get(key),
    render({ maxTokens }) {
      const index = recentRooms.indexOf(maxTokens);
      if (index !== 0) {
        if (index > 0) recentRooms.splice(index, 1);
        recentRooms.unshift(maxTokens);
        if (recentRooms.length > RECENT_ROOMS) recentRooms.pop();
      }
      return renderRoom(maxTokens);
    },
    get size() {
      return facts.size;
    },
    get totalTokens() {
      return totalTokens;
    },
    toJSON: () => ({ facts: [...facts.values()], tasks: [...tasks.values()] }),
  };
}

// --- Internal helpers ---

const OPEN_TASKS_SHOWN = 10;
/** Rooms rendered again as soon as the facts change: build()'s planned room and its fill rooms. */
const RECENT_ROOMS = 3;
const DONE_TASKS_SHOWN = 8;
/** Part counts a fact store keeps before it starts over. */
const MAX_PART_COUNTS = 8_192;

/** One version of the store's contents, with what every render of that version shares. */
interface RenderLists {
  readonly version: number;
  readonly facts: readonly Fact[];
  readonly tasks: readonly Task[];
  /** The facts in the order they are dropped when the block must shrink. */
  readonly byAge: readonly Fact[];
  /** The estimate of the whole block from the cached per-fact counts. */
  readonly estimate: number;
  /** Renders by facts dropped and done tasks shown: rooms close to each other share them. */
  readonly renders: Map<number, { readonly text: string; readonly tokens: number }>;
  /**
   * The facts in render order (category, then key order) with each one's place in `byAge`, so
   * that a render picks the facts it keeps in one pass; `undefined` when a key cannot be a plain
   * object's own key (such renders take the document path).
   */
  readonly ordered: { readonly facts: readonly Fact[]; readonly dropIndex: Int32Array } | undefined;
}

function renderLists(options: { version: number; facts: readonly Fact[]; tasks: readonly Task[] }): RenderLists {
  const { facts, tasks } = options;
  let estimate = FACT_CATEGORIES.length * 2 + tasksEstimate(tasks);
  for (let index = 0; index < facts.length; index += 1) estimate += (facts[index] as Fact).tokens;
  const byAge = sortForDropping(facts);
  return { version: options.version, facts, tasks, byAge, estimate, renders: new Map(), ordered: renderOrder(facts, byAge) };
}

/**
 * The facts in the order renderYamlParts() renders them (so any subset keeps this order), each
 * with its index in `byAge`.
 */
function renderOrder(facts: readonly Fact[], byAge: readonly Fact[]): RenderLists['ordered'] {
  const ordered: Fact[] = [];
  for (const category of FACT_CATEGORIES) {
    const inCategory = facts.filter((fact) => fact.category === category);
    const byKey: Record<string, Fact> = {};
    for (const fact of inCategory) byKey[fact.key] = fact;
    const keys = Object.keys(byKey);
    if (keys.length !== inCategory.length) return undefined;
    for (const key of keys) ordered.push(byKey[key] as Fact);
  }
  const ageIndex = new Map<Fact, number>();
  byAge.forEach((fact, index) => ageIndex.set(fact, index));
  return { facts: ordered, dropIndex: Int32Array.from(ordered, (fact) => ageIndex.get(fact) as number) };
}

function renderWithin(options: {
  lists: RenderLists;
  maxTokens: number;
  counter: TokenCounter;
  countPart: (part: string) => number;
}): RenderedFacts {
  const { lists, maxTokens } = options;
  if (lists.facts.length === 0 && lists.tasks.length === 0) {
    return { text: '', tokens: 0, omitted: 0 };
  }
  const { byAge } = lists;
  let doneShown = DONE_TASKS_SHOWN;
  // Estimate from the cached per-fact counts, then correct with exact counts of the rendered text:
  // YAML quoting and category headings make the sum a little off, never by much.
  let dropped = 0;
  let estimate = lists.estimate;
  while (dropped < byAge.length && estimate > maxTokens) {
    estimate -= byAge[dropped]?.tokens ?? 0;
    dropped += 1;
  }
  for (;;) {
    const key = dropped * 2 + (doneShown > 0 ? 1 : 0);
    let render = lists.renders.get(key);
    if (render === undefined) {
      const { ordered } = lists;
      let kept: Fact[];
      if (ordered === undefined) {
        const isKept = new Set(byAge.slice(dropped));
        kept = lists.facts.filter((fact) => isKept.has(fact));
      } else {
        // The facts kept, in render order, in one pass over numbers.
        kept = [];
        for (let index = 0; index < ordered.facts.length; index += 1) if ((ordered.dropIndex[index] as number) >= dropped) kept.push(ordered.facts[index] as Fact);
      }
      render = renderCounted({ facts: kept, isOrdered: ordered !== undefined, tasks: lists.tasks, doneShown, counter: options.counter, countPart: options.countPart });
      lists.renders.set(key, render);
    }
    const { text, tokens } = render;
    if (tokens <= maxTokens) return { text, tokens, omitted: dropped };
    if (doneShown > 0) {
      doneShown = 0;
      continue;
    }
    if (dropped >= byAge.length) return { text: '', tokens: 0, omitted: lists.facts.length };
    // Drop about as many facts as the overshoot is worth, at least one.
    let overshoot = tokens - maxTokens;
    do {
      overshoot -= byAge[dropped]?.tokens ?? overshoot;
      dropped += 1;
    } while (overshoot > 0 && dropped < byAge.length);
  }
}

/** What is dropped first when the block must shrink: the facts that carry least, oldest first. */
function sortForDropping(facts: readonly Fact[]): Fact[] {
  return [...facts].sort((a, b) => dropRank(a) - dropRank(b) || a.source.to - b.source.to || compareText(a.key, b.key));
}

/**
 * Renders the YAML and counts it. The text is made of cached per-fact lines, so it is counted as
 * the sum of their cached counts where the counter allows (see `countJoined`): a render for a new
 * room costs lookups, not a tokenization of the whole block.
 */
function renderCounted(options: { facts: readonly Fact[]; isOrdered: boolean; tasks: readonly Task[]; doneShown: number; counter: TokenCounter; countPart: (part: string) => number }): { text: string; tokens: number } {
  const parts = options.isOrdered ? orderedParts(options) : renderYamlParts(options);
  if (parts === undefined) {
    const text = renderYamlDocument(options);
    return { text, tokens: text.length === 0 ? 0 : options.counter.count(text) };
  }
  const text = parts.join('').trimEnd();
  const last = (parts[parts.length - 1] ?? '').trimEnd();
  if (last.length === 0) return { text, tokens: text.length === 0 ? 0 : options.counter.count(text) };
  parts[parts.length - 1] = last;
  return { text, tokens: countJoined(options.counter, parts, options.countPart) };
}

/** Facts without a salience (from a custom summarizer or an older snapshot) rank as durable. */
const DEFAULT_SALIENCE = 4;

function dropRank(fact: Fact): number {
  // Coarse bands, so that among facts of about the same weight the oldest goes first.
  return Math.min(6, Math.floor(fact.salience ?? DEFAULT_SALIENCE));
}

function salienceOf(salience: number | undefined): { salience?: number } {
  return salience === undefined ? {} : { salience: Math.round(salience * 100) / 100 };
}

function tasksEstimate(tasks: readonly Task[]): number {
  const open = tasks.filter((task) => task.status === 'open').slice(-OPEN_TASKS_SHOWN);
  const done = tasks.filter((task) => task.status === 'done').slice(-DONE_TASKS_SHOWN);
  return [...open, ...done].reduce((sum, task) => sum + task.tokens, 0) + (tasks.length > 0 ? 6 : 0);
}

function renderYamlParts(options: { facts: readonly Fact[]; tasks: readonly Task[]; doneShown: number }): string[] | undefined {
  // The document is a mapping of mappings, so its YAML is the concatenation of each category's
  // heading and each fact's lines, which are rendered once per fact: a render after a graduation
  // costs string joins, not a YAML serialisation of every fact.
  const parts: string[] = [];
  for (const category of FACT_CATEGORIES) {
    const inCategory = options.facts.filter((fact) => fact.category === category);
    if (inCategory.length === 0) continue;
    // Built the way a plain object orders its keys (integer-like keys first), as YAML would see it.
    const byKey: Record<string, Fact> = {};
    for (const fact of inCategory) byKey[fact.key] = fact;
    const keys = Object.keys(byKey);
    if (keys.length !== inCategory.length) return undefined;
    parts.push(CATEGORY_HEADINGS[category]);
    for (const key of keys) parts.push(factLines(byKey[key] as Fact));
  }
  const tasks = tasksYaml(options);
  if (tasks !== undefined) parts.push(tasks);
  return parts.length === 0 ? undefined : parts;
}

/** The parts renderYamlParts() makes, for facts already in render order (see renderOrder()). */
function orderedParts(options: { facts: readonly Fact[]; tasks: readonly Task[]; doneShown: number }): string[] | undefined {
  const parts: string[] = [];
  let category: FactCategory | undefined;
  for (let index = 0; index < options.facts.length; index += 1) {
    const fact = options.facts[index] as Fact;
    if (fact.category !== category) {
      category = fact.category;
      parts.push(CATEGORY_HEADINGS[category]);
    }
    parts.push(factLines(fact));
  }
  const tasks = tasksYaml(options);
  if (tasks !== undefined) parts.push(tasks);
  return parts.length === 0 ? undefined : parts;
}

/** The facts block rendered as one YAML document; {@link renderYamlParts} gives the same text faster. */
function renderYamlDocument(options: { facts: readonly Fact[]; tasks: readonly Task[]; doneShown: number }): string {
  const document: Record<string, unknown> = {};
  for (const category of FACT_CATEGORIES) {
    const inCategory = options.facts.filter((fact) => fact.category === category);
    if (inCategory.length === 0) continue;
    const values: Record<string, string> = {};
    for (const fact of inCategory) values[fact.key] = fact.value;
    document[category] = values;
  }
  const tasks = taskDocument(options);
  if (tasks !== undefined) document['tasks'] = tasks;
  // Nothing left to show is an empty block, not the YAML of an empty mapping (`{}`).
  if (Object.keys(document).length === 0) return '';
  return stringify(document, { lineWidth: 0 }).trimEnd();
}

// The tasks section by task list (one list per version of the store) and by done tasks shown:
// serialising it is the costliest part of a render, and a build may ask for several rooms.
const tasksYamlCache = new WeakMap<readonly Task[], Map<number, string | undefined>>();

function tasksYaml(options: { tasks: readonly Task[]; doneShown: number }): string | undefined {
  let byDoneShown = tasksYamlCache.get(options.tasks);
  if (byDoneShown === undefined) {
    byDoneShown = new Map();
    tasksYamlCache.set(options.tasks, byDoneShown);
  }
  if (byDoneShown.has(options.doneShown)) return byDoneShown.get(options.doneShown);
  const tasks = taskDocument(options);
  const text = tasks === undefined ? undefined : stringify({ tasks }, { lineWidth: 0 });
  byDoneShown.set(options.doneShown, text);
  return text;
}

function taskDocument(options: { tasks: readonly Task[]; doneShown: number }): Record<string, string[]> | undefined {
  const open = options.tasks.filter((task) => task.status === 'open').slice(-OPEN_TASKS_SHOWN);
  const done = options.tasks.filter((task) => task.status === 'done');
  const doneShown = options.doneShown === 0 ? [] : done.slice(-options.doneShown);
  if (open.length === 0 && doneShown.length === 0) return undefined;
  const document: Record<string, string[]> = {};
  if (open.length > 0) document['open'] = open.map((task) => task.title);
  if (doneShown.length > 0) document['done'] = doneShown.map((task) => task.title);
  return document;
}

/** Each category's heading line, made once (a part of every render). */
const CATEGORY_HEADINGS: Readonly<Record<FactCategory, string>> = Object.fromEntries(FACT_CATEGORIES.map((category) => [category, `${category}:\n`])) as Record<FactCategory, string>;

// Facts are frozen and replaced when they change, so a fact's lines never go stale.
const factLineCache = new WeakMap<Fact, string>();

/** The lines of one fact inside its category's mapping, with their final newline. */
function factLines(fact: Fact): string {
  let lines = factLineCache.get(fact);
  if (lines === undefined) {
    const single: Record<string, string> = {};
    single[fact.key] = fact.value;
    const text = stringify({ category: single }, { lineWidth: 0 });
    lines = text.slice(text.indexOf('\n') + 1);
    factLineCache.set(fact, lines);
  }
  return lines;
}

/**
 * Whether a fact's key names something its old value says and its new one does not: a value (a
 * name, a count) or any other topic word the key was made of ("date-fns-date-handling" once date
 * handling moves to Day.js). Such a key would show the old value beside the new one.
 */
function isKeyOfOldValue(options: { key: string; older: string; newer: string }): boolean {
  const gone = new Set([...valueWords(options.older), ...topicWords(options.older)]);
  for (const word of [...valueWords(options.newer), ...topicWords(options.newer)]) gone.delete(word);
  const keyWords = options.key.split('-');
  return [...gone].some((word) => keyWords.includes(word) || (word.includes('-') && options.key.includes(word)));
}

/** Categories whose statements give a subject a value (a fix or a pattern is revised only by its own kind). */
// The categories in which a fact can be a choice of tool for a role.
const TOOL_CHOICES: ReadonlySet<FactCategory> = new Set(['architecture', 'decisions', 'preferences']);
const VALUED_CATEGORIES: ReadonlySet<FactCategory> = new Set(['architecture', 'decisions', 'requirements', 'constraints', 'conventions', 'preferences']);

/** Whether a fact of one category may take a new value stated in another (see isValueRevision). */
function isRevisableCategory(stored: FactCategory, stated: FactCategory): boolean {
  return stored === stated || (VALUED_CATEGORIES.has(stored) && VALUED_CATEGORIES.has(stated));
}

// The identifiers and numbers a fact value states, lower-cased.
function valueSet(value: string): ReadonlySet<string> {
  const values = new Set(extractIdentifiers(value).map((identifier) => identifier.toLowerCase()));
  for (const number of value.match(NUMBER) ?? []) values.add(number);
  return values;
}

const NUMBER = /(?<![\p{L}\p{N}_.])\d+(?:[.,]\d+)?(?![\p{L}\p{N}_])/gu;

function isSameValueSet(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  if (a.size !== b.size) return false;
  for (const value of a) if (!b.has(value)) return false;
  return true;
}

/** Jaccard overlap of the topic words of two fact values. */
function topicOverlap(a: string, b: string): number {
  const left = new Set(topicWords(a));
  const right = new Set(topicWords(b));
  let shared = 0;
  for (const word of left) if (right.has(word)) shared += 1;
  const union = left.size + right.size - shared;
  return union === 0 ? 0 : shared / union;
}

const TASK_LEAD = /^(?:(?:ok(?:ay)?|so|now|next(?: up)?|first(?: thing)?|then|also)[,:]?\s+)*(?:(?:can|could|would) you\s+(?:please\s+)?(?:look at|take|do|work on|handle|start on)\s+|let'?s\s+(?:work on|do|look at|tackle|start on|switch to)\s+|please\s+)?/i;

/** Lower-cased task title without request phrasing ("can you look at …", "now let's work on …"). */
function normalizeTitle(title: string): string {
  return title.toLowerCase().replace(/\s+/g, ' ').trim().replace(TASK_LEAD, '').replace(/[.!?:;,\s]+$/, '');
}

/** Finds the key of a tracked task with the same title, loosely: one contains the other or same topic. */
function findTaskKey(tasks: ReadonlyMap<string, Task>, title: string): string | undefined {
  const normalized = normalizeTitle(title);
  if (tasks.has(normalized)) return normalized;
  let match: string | undefined;
  for (const key of tasks.keys()) {
    const isContained = Math.min(key.length, normalized.length) >= 8 && (key.includes(normalized) || normalized.includes(key));
    if (isContained || isSameTopic(key, normalized)) match = key;
  }
  return match;
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

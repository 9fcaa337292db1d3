import type { BoundaryScore } from '../boundaries/boundary-detector.js';
import { InvalidArgumentError, describeValue } from '../errors.js';
import type { Scratchpad } from '../scratchpad/scratchpad.js';
import { renderSummary } from '../session-view.js';
import { PENDING_RESULT_TEXT } from '../tool-calls.js';
import { createEntryExpansion } from './entry-expansion.js';
import { createGraduatedTail } from './graduated-tail.js';
import { callMessages, createHistoryRenderer, isSameList, uniqueId } from './history-messages.js';
import { pairToolCalls, resultNoteText } from './tool-pairing.js';
import { createWorkingUnits } from './working-units.js';
import type { Unit } from './working-units.js';
import type { TierStore } from '../tiers/tier-store.js';
import { MESSAGE_OVERHEAD_TOKENS } from '../tokens/token-counter.js';
import type { TokenCounter } from '../tokens/token-counter.js';
import type { BlockName, BlockTokens, ContextMessage, Entry, WindowOmissions } from '../types.js';
import type { ResolvedTierBudgets } from '../options.js';

/** The result of `build()`: provider-neutral messages plus a per-block token breakdown. */
export interface BuiltContext {
  /** The window: one system message (prefix, facts, pins, summaries, open files), then T0. */
  readonly messages: readonly ContextMessage[];
  /** The system message's text, for APIs that take the system prompt separately. */
  readonly system: string;
  /**
   * The system message per block, most stable first (only blocks shown in this window); their
   * texts joined with a blank line are `system`. Lets a provider format place prompt-cache
   * breakpoints at the edge of the stable prefix.
   */
  readonly systemBlocks: readonly SystemBlock[];
  /** T0 as messages (everything after the system message). */
  readonly history: readonly ContextMessage[];
  /** Token accounting of this window. */
  readonly tokens: {
    /** Total tokens of `messages`; never more than `budget`. */
    readonly total: number;
    /** The budget the window was built for. */
    readonly budget: number;
    /** Tokens per block. */
    readonly blocks: BlockTokens;
  };
  /** What was left out to stay within budget (all of it is still stored). */
  readonly omitted: WindowOmissions;
}

/** One block of a built window's system message. */
export interface SystemBlock {
  /** Which block this is. */
  readonly name: Exclude<BlockName, 'working'>;
  /** The block's text as rendered in `system`, header included. */
  readonly text: string;
  /**
   * Whether the block belongs to the stable prefix: the static prefix, facts, pins and summaries
   * change only when a pin or graduation changes them; open files and recalled text change often.
   */
  readonly isStablePrefix: boolean;
}

/** Text recalled from the archive for the next window, with its token count. @internal */
export interface RecalledBlock {
  readonly text: string;
  readonly tokens: number;
}


/**
 * Assembles the window from cached, pre-counted parts: no item is re-tokenised unless it changed,
 * and nothing is proportional to the archive. Blocks run from most stable to most volatile.
 * When the budget is tight, it keeps, in order: the prefix, the newest T0 turn, pins, facts,
 * open files (least recently touched ones become stubs first), older T0, then T1 summaries.
 * @internal
 */
export function createWindowBuilder(options: {
  counter: TokenCounter;
  systemPrompt: string;
  budgets: ResolvedTierBudgets;
  scoreGaps: (entries: readonly Entry[]) => readonly BoundaryScore[];
  /** Runs work that only makes later builds faster in the background (see GraduationQueue.speedUp). */
  speedUp?: ((task: () => void) => void) | undefined;
  /** The budget `build()` is usually called with: work done ahead is done for it. */
  budget?: number | undefined;
}): {
  build(budget: number, tiers: TierStore, scratchpad: Scratchpad, recalled?: RecalledBlock | undefined): BuiltContext;
  /**
   * Scores and groups the T0 entries recorded since the last call, so that build() finds them
   * ready; the longer forms of shortened texts among them are made in the background.
   */
  prepare(tiers: TierStore): void;
  /**
   * Does ahead what the first build after a graduation does (T0's units, the graduated pages it
   * may show again for the usual budget), so that build finds them ready. Changes no window.
   */
  prepareAfterGraduation(tiers: TierStore): void;
} {
  const { counter, budgets } = options;
  const prefix = options.systemPrompt;
  const prefixTokens = counter.count(prefix);
  const header = (text: string): { text: string; tokens: number } => ({ text, tokens: counter.count(text) + SEPARATOR_TOKENS });
  const headers = {
    facts: header('## Session facts (YAML; newest value wins)'),
    pins: header('## Pinned'),
    summaries: header('## Earlier in this session'),
    scratchpad: header('## Open files (current content; history below records only changes)'),
    recalled: header('## Recalled from the archive'),
  };
  const stubCache = new Map<string, { text: string; tokens: number }>();
  const graduatedTail = createGraduatedTail({ scoreGaps: options.scoreGaps });
  const entryExpansion = createEntryExpansion({ counter });
  // Summaries are immutable: each is rendered once.
  const summaryTexts = new WeakMap<object, string>();
  const summaryText = (summary: Parameters<typeof renderSummary>[0]): string => {
    let text = summaryTexts.get(summary);
    if (text === undefined) {
      text = renderSummary(summary);
      summaryTexts.set(summary, text);
    }
    return text;
  };
  // The system text and the history of the previous build, with what they were made of: when the
  // parts are the same, so is the text, and joining a window-sized string again is the largest
  // cost left in a build (and most of its garbage).
  let systemCache: { parts: readonly string[]; blocks: readonly SystemBlock[]; text: string } | undefined;
  let historyCache: { entries: readonly Entry[]; messages: readonly ContextMessage[] } | undefined;
  const historyRenderer = createHistoryRenderer();

  // Results render right after their calls (late ones too), unanswered calls get a placeholder
  // result, and results whose call has left T0 render as notes: each unit holds, and is charged
  // for, exactly what it renders. Kept from build to build (see createWorkingUnits()).
  const noteTokens = new WeakMap<Entry, number>();
  const working = createWorkingUnits({
    scoreGaps: options.scoreGaps,
    pendingResultTokens: counter.count(PENDING_RESULT_TEXT) + MESSAGE_OVERHEAD_TOKENS,
    noteTokens: (entry) => {
      let tokens = noteTokens.get(entry);
      if (tokens === undefined) {
        tokens = counter.count(resultNoteText(entry)) + MESSAGE_OVERHEAD_TOKENS;
        noteTokens.set(entry, tokens);
      }
      return tokens;
    },
  });
  const unitsOf = (entries: readonly Entry[]): readonly Unit[] => working.unitsOf(entries);

  const stubFor = (path: string, lineCount: number, edits: number): { text: string; tokens: number } => {
    const text = `### ${path} (${lineCount} lines, ${edits} edits) — still open; content left out of this window to fit the budget`;
    let stub = stubCache.get(text);
    if (stub === undefined) {
      stub = { text, tokens: counter.count(text) + SEPARATOR_TOKENS };
      if (stubCache.size > 1_000) stubCache.clear();
      stubCache.set(text, stub);
    }
    return stub;
  };

  // Excerpting and counting a long text's longer forms is the costliest part of the build that
  // first shows it (the tokenizer meets new text): done in the background after the recording call.
  let preparedSeq = 0;
  let formsTiers: TierStore | undefined;
  const makeForms = (): void => {
    if (formsTiers !== undefined) entryExpansion.makeForms(formsTiers.entries());
  };

  return {
    prepare(tiers) {
      const entries = tiers.entries();
      unitsOf(entries);
      const { speedUp } = options;
      let isShortened = false;
      for (let index = entries.length - 1; index >= 0; index -= 1) {
        const entry = entries[index] as Entry;
        if (entry.seq <= preparedSeq) break;
        if (entry.display !== entry.text) isShortened = true;
      }
      preparedSeq = entries[entries.length - 1]?.seq ?? preparedSeq;
      if (isShortened && speedUp !== undefined) {
        formsTiers = tiers;
        speedUp(makeForms);
      }
    },
    prepareAfterGraduation(tiers) {
      const units = unitsOf(tiers.entries());
      // As build() asks: the pages before the oldest T0 entry.
      if (options.budget !== undefined) graduatedTail.prepare({ archive: tiers.archive, beforeSeq: units[0]?.entries[0]?.seq ?? 0, budget: options.budget });
    },
    build(budget, tiers, scratchpad, recalled) {
      let remaining = budget - MESSAGE_OVERHEAD_TOKENS - prefixTokens;
      if (remaining < 0) {
        throw new InvalidArgumentError({
          parameter: 'budget',
          value: budget,
          code: 'BUDGET_TOO_SMALL',
          message: `build(): \`budget\` ${describeValue(budget)} cannot hold the static prefix (${prefixTokens + MESSAGE_OVERHEAD_TOKENS} tokens). Pass a larger budget, e.g. build({ budget: 28_000 }), or shorten \`systemPrompt\`.`,
        });
      }
      const blocks: Record<BlockName, number> = { prefix: prefixTokens + MESSAGE_OVERHEAD_TOKENS, facts: 0, pins: 0, summaries: 0, scratchpad: 0, recalled: 0, working: 0 };

      // 1. The newest T0 turn: the message the model must answer.
      const units = unitsOf(tiers.entries());
      const shownUnits: Unit[] = [];
      let workingUsed = 0;
      const newest = units[units.length - 1];
      if (newest !== undefined && newest.tokens <= remaining) {
        shownUnits.push(newest);
        workingUsed += newest.tokens;
        remaining -= newest.tokens;
      }

      // 1b. Items recalled from the archive for this turn: asked for explicitly, so kept early.
      let recalledText = '';
      if (recalled !== undefined && recalled.tokens > 0) {
        const cost = recalled.tokens + headers.recalled.tokens + SEPARATOR_TOKENS;
        if (cost <= remaining) {
          recalledText = recalled.text;
          blocks.recalled = cost;
          remaining -= cost;
        }
      }

      // 2. Pins.
      const pins = tiers.renderPins();
      let pinsText = '';
      let isPinsOmitted = false;
      if (pins.tokens > 0) {
        const cost = pins.tokens + headers.pins.tokens + SEPARATOR_TOKENS;
        if (cost <= remaining) {
          pinsText = pins.text;
          blocks.pins = cost;
          remaining -= cost;
        } else {
          isPinsOmitted = true;
        }
      }

      // 3. Facts.
      let factsText = '';
      let factsOmitted = 0;
      const factsRoom = Math.min(budgets.facts, remaining) - headers.facts.tokens - SEPARATOR_TOKENS;
      // Asked even while there are no facts (the answer is then empty and cached): the fact store
      // renders the rooms it was asked for as soon as facts arrive, so build() finds them ready.
      if (factsRoom > 0) {
        const rendered = tiers.facts.render({ maxTokens: factsRoom });
        factsOmitted = rendered.omitted;
        if (rendered.tokens > 0) {
          factsText = rendered.text;
          blocks.facts = rendered.tokens + headers.facts.tokens + SEPARATOR_TOKENS;
          remaining -= blocks.facts;
        }
      } else {
        factsOmitted = tiers.facts.size;
      }

      // 4. Open files; the least recently touched become stubs first.
      const files = scratchpad.files();
      let filesOmitted = 0;
      const fileParts: { path: string; text: string | undefined; tokens: number }[] = [];
      if (files.length > 0) {
        const room = Math.min(budgets.scratchpad, remaining) - headers.scratchpad.tokens - SEPARATOR_TOKENS;
        let used = files.reduce((sum, file) => sum + file.tokens + SEPARATOR_TOKENS, 0);
        const stubbed = new Set<string>();
        const dropped = new Set<string>();
        if (used > room) {
          const byAge = [...files].sort((a, b) => a.touchedAt - b.touchedAt);
          for (const file of byAge) {
            if (used <= room) break;
            const stub = stubFor(file.path, file.lineCount, file.edits);
            used += stub.tokens - file.tokens - SEPARATOR_TOKENS;
            stubbed.add(file.path);
          }
          for (const file of byAge) {
            if (used <= room) break;
            used -= stubFor(file.path, file.lineCount, file.edits).tokens;
            dropped.add(file.path);
          }
        }
        filesOmitted = stubbed.size;
        if (used > 0 && used <= room) {
          for (const file of files) {
            if (dropped.has(file.path)) continue;
            if (stubbed.has(file.path)) {
              const stub = stubFor(file.path, file.lineCount, file.edits);
              fileParts.push({ path: file.path, text: stub.text, tokens: stub.tokens });
            } else {
              fileParts.push({ path: file.path, text: undefined, tokens: file.tokens + SEPARATOR_TOKENS });
            }
          }
          blocks.scratchpad = used + headers.scratchpad.tokens + SEPARATOR_TOKENS;
          remaining -= blocks.scratchpad;
        } else {
          filesOmitted = files.length;
        }
      }

      // 5. Older T0 turns, newest first, within the working budget.
      let entriesOmitted = 0;
      const workingRoom = Math.max(0, budgets.working - workingUsed);
      let workingLeft = Math.min(workingRoom, remaining);
      let isCut = false;
      for (let index = units.length - 2; index >= 0; index -= 1) {
        const unit = units[index];
        if (unit === undefined) continue;
        if (!isCut && unit.tokens <= workingLeft) {
          shownUnits.push(unit);
          workingLeft -= unit.tokens;
          workingUsed += unit.tokens;
          remaining -= unit.tokens;
        } else {
          // Keep the shown history contiguous: once a turn does not fit, older ones are left out.
          isCut = true;
          entriesOmitted += unit.entries.length;
        }
      }
      if (newest !== undefined && !shownUnits.includes(newest)) entriesOmitted += newest.entries.length;
      blocks.working = workingUsed;

      // 6. T1 summaries, newest first, within their budget.
      const summaries = tiers.summaries();
      const shownSummaries: string[] = [];
      let summariesOmitted = 0;
      let summaryRoom = Math.min(budgets.summaries, remaining) - headers.summaries.tokens - SEPARATOR_TOKENS;
      let summaryUsed = 0;
      for (let index = summaries.length - 1; index >= 0; index -= 1) {
        const summary = summaries[index];
        if (summary === undefined) continue;
        const cost = summary.tokens + SEPARATOR_TOKENS;
        if (summariesOmitted === 0 && cost <= summaryRoom) {
          shownSummaries.unshift(summaryText(summary));
          summaryRoom -= cost;
          summaryUsed += cost;
        } else {
          summariesOmitted += 1;
        }
      }
      if (shownSummaries.length > 0) {
        blocks.summaries = summaryUsed + headers.summaries.tokens + SEPARATOR_TOKENS;
        remaining -= blocks.summaries;
      }

      // 7. Fill: the room the other blocks left goes to the facts left out, then to older
      // summaries, then to older T0 turns, so the window sits near its budget.
      if (factsOmitted > 0 && remaining > FILL_STEP) {
        const room = blocks.facts > 0 ? blocks.facts - headers.facts.tokens - SEPARATOR_TOKENS + remaining : remaining - headers.facts.tokens - SEPARATOR_TOKENS;
        // Rounded down so that consecutive builds ask the fact store for the same render.
        const rendered = tiers.facts.render({ maxTokens: Math.floor(room / FILL_STEP) * FILL_STEP });
        if (rendered.tokens > 0 && rendered.omitted < factsOmitted) {
          remaining += blocks.facts;
          factsText = rendered.text;
          factsOmitted = rendered.omitted;
          blocks.facts = rendered.tokens + headers.facts.tokens + SEPARATOR_TOKENS;
          remaining -= blocks.facts;
        }
      }
      if (summariesOmitted > 0 && remaining > 0) {
        let cost = shownSummaries.length === 0 ? headers.summaries.tokens + SEPARATOR_TOKENS : 0;
        for (let index = summaries.length - 1 - shownSummaries.length; index >= 0; index -= 1) {
          const summary = summaries[index];
          if (summary === undefined) break;
          cost += summary.tokens + SEPARATOR_TOKENS;
          if (cost > remaining) break;
          shownSummaries.unshift(summaryText(summary));
          blocks.summaries += cost;
          remaining -= cost;
          summariesOmitted -= 1;
          cost = 0;
        }
      }
      if (isCut && remaining > 0) {
        const shownCount = shownUnits.length;
        for (let index = units.length - 1 - shownCount; index >= 0; index -= 1) {
          const unit = units[index];
          if (unit === undefined || unit.tokens > remaining || shownUnits.includes(unit)) break;
          shownUnits.push(unit);
          blocks.working += unit.tokens;
          remaining -= unit.tokens;
          entriesOmitted -= unit.entries.length;
        }
      }

      // Assemble, most stable first.
      const rendered = fileParts.map((part) => part.text ?? scratchpad.renderSection(part.path));
      // Block markers keep parts of different blocks from being taken for each other.
      const parts = [factsText, '\u0000', pinsText, '\u0001'].concat(shownSummaries, '\u0002', rendered, '\u0003', recalledText);
      // 8. Room still unused once all of T0 is shown: the most recently graduated entries,
      // verbatim again before T0 (their summaries stay in T1). The start of the history moves
      // freely only when the system text changes anyway; otherwise only when it must.
      const tailEntries: Entry[] = [];
      const oldestShown = units[0]?.entries[0];
      const isSystemChanged = systemCache === undefined || !isSameList(systemCache.parts, parts);
      {
        const tail = graduatedTail.select({
          archive: tiers.archive,
          beforeSeq: oldestShown?.seq ?? 0,
          room: oldestShown !== undefined && shownUnits.length === units.length ? remaining : 0,
          budget,
          isFree: isSystemChanged,
        });
        for (const page of tail) {
          tailEntries.push(...page.entries);
          blocks.working += page.tokens;
          remaining -= page.tokens;
        }
      }
      // 9. Then entries shortened to fit one entry's share, shown more fully (same rule).
      const unitEntries = inSeqOrder(shownUnits);
      const shownEntries = tailEntries.length === 0 ? unitEntries : inSeqOrder([{ entries: tailEntries, tokens: 0 }, ...shownUnits]);
      const expanded = entryExpansion.expand({ entries: shownEntries, room: remaining, budget, isFree: isSystemChanged });
      blocks.working += expanded.tokens;
      remaining -= expanded.tokens;
      if (systemCache === undefined || !isSameList(systemCache.parts, parts)) {
        const blocks: SystemBlock[] = [];
        const section = (name: SystemBlock['name'], text: string): void =>
          void blocks.push(Object.freeze({ name, text, isStablePrefix: name !== 'scratchpad' && name !== 'recalled' }));
        if (prefix.length > 0) section('prefix', prefix);
        if (factsText.length > 0) section('facts', `${headers.facts.text}\n${factsText}`);
        if (pinsText.length > 0) section('pins', `${headers.pins.text}\n${pinsText}`);
        if (shownSummaries.length > 0) section('summaries', `${headers.summaries.text}\n${joinLazily(shownSummaries, '\n\n')}`);
        if (rendered.length > 0) section('scratchpad', `${headers.scratchpad.text}\n${joinLazily(rendered, '\n\n')}`);
        if (recalledText.length > 0) section('recalled', `${headers.recalled.text}\n${recalledText}`);
        systemCache = { parts, blocks, text: joinLazily(blocks.map((block) => block.text), '\n\n') };
      }
      const system = systemCache.text;
      // Fresh arrays each build, so that a caller changing one cannot change the next window.
      const systemBlocks = systemCache.blocks.slice();
      if (historyCache === undefined || !isSameList(historyCache.entries, expanded.entries)) {
        // The incremental renderer knows the pairing of T0's own entries only (longer forms of
        // them included): graduated pages shown again are converted by toMessages().
        const fromUnits = tailEntries.length === 0 ? historyRenderer.render(unitEntries, working.pairing, expanded.forms) : undefined;
        // Frozen: the same message objects are handed out while the history is unchanged.
        historyCache = { entries: expanded.entries, messages: fromUnits ?? toMessages(expanded.entries).map((message) => Object.freeze(message)) };
      }
      const history = historyCache.messages.slice();
      const total = blocks.prefix + blocks.facts + blocks.pins + blocks.summaries + blocks.scratchpad + blocks.recalled + blocks.working;
      return {
        messages: [{ role: 'system', content: system } as ContextMessage].concat(history),
        system,
        systemBlocks,
        history,
        tokens: { total, budget, blocks },
        omitted: {
          entries: entriesOmitted,
          summaries: summariesOmitted,
          facts: factsOmitted,
          files: filesOmitted,
          isPinsOmitted,
          isNewestTurnOmitted: newest !== undefined && !shownUnits.includes(newest),
        },
      };
    },
  };
}

/**
 * Converts T0 entries to messages. Each assistant message with tool calls is followed at once by
 * one `tool` message per call, in call order, whatever order the results were recorded in: the
 * recorded result (a late one replaces the "no result" marker), or a placeholder for a call still
 * waiting. A result whose call is not among the entries becomes a note, never a stray `tool`
 * message. A call id repeated in the window is made unique (`id_<seq>`). File records that are not
 * a tool's result are merged into one user message per run.
 */
export function toMessages(entries: readonly Entry[]): ContextMessage[] {
  const ordered = entries.every((entry, index) => index === 0 || (entries[index - 1] as Entry).seq <= entry.seq)
    ? entries
    : [...entries].sort((a, b) => a.seq - b.seq);
  const pairing = pairToolCalls(ordered);
  const messages: ContextMessage[] = [];
  const usedIds = new Set<string>();
  let notes: string[] = [];
  const flushNotes = (): void => {
    if (notes.length > 0) {
      messages.push({ role: 'user', content: notes.join('\n') });
      notes = [];
    }
  };
  for (const entry of ordered) {
    if (pairing.hidden.has(entry) || pairing.callOf.has(entry)) continue;
    const calls = entry.displayToolCalls ?? entry.toolCalls ?? [];
    if (entry.kind === 'assistant' || calls.length > 0) {
      flushNotes();
      if (calls.length === 0) {
        messages.push({ role: 'assistant', content: entry.display });
        continue;
      }
      const ids = calls.map((call) => uniqueId({ id: call.id, seq: entry.seq, used: usedIds }));
      messages.push(...callMessages(entry, calls, ids, pairing.answers.get(entry) ?? []));
    } else if (entry.kind === 'user') {
      flushNotes();
      messages.push({ role: 'user', content: entry.display });
    } else if (entry.role === 'tool' && entry.callId !== undefined) {
      // A marker without its call has nothing to answer; any other result is kept as a note.
      if (entry.kind !== 'tool-call-orphan') notes.push(resultNoteText(entry));
    } else {
      notes.push(entry.display);
    }
  }
  flushNotes();
  return messages;
}

/**
 * Counts the tokens of built messages from scratch, the way `build()` accounts for them: each
 * message's content plus its framing, and each tool call's name and input. For tests and
 * benchmarks; `build()` itself uses cached counts.
 */
export function countMessageTokens(messages: readonly ContextMessage[], counter: TokenCounter): number {
  let total = 0;
  for (const message of messages) {
    total += counter.count(message.content) + MESSAGE_OVERHEAD_TOKENS;
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) {
        total += counter.count(call.name) + counter.count(JSON.stringify(call.input)) + 3;
      }
    }
  }
  return total;
}

// --- Internal helpers ---

/** Tokens charged for the blank line between two sections. */
const SEPARATOR_TOKENS = 1;

/** Granularity of the room offered to the facts block when filling the window. */
const FILL_STEP = 128;

/**
 * Joins texts with `+` rather than `Array.prototype.join()`: the engine then links the parts
 * instead of copying a window-sized string at every build (most of a build's garbage); the text is
 * made flat once, by whoever reads it first.
 */
function joinLazily(parts: readonly string[], separator: string): string {
  let text = parts[0] ?? '';
  for (let index = 1; index < parts.length; index += 1) text = text + separator + (parts[index] as string);
  return text;
}

/** Whether two lists hold the same items in the same order (strings compared by value). */
/** The entries of the shown units ordered by sequence number, as `toMessages()` wants them. */
function inSeqOrder(units: readonly Unit[]): Entry[] {
  const entries: Entry[] = [];
  for (let index = 0; index < units.length; index += 1) {
    const unit = units[index] as Unit;
    for (let member = 0; member < unit.entries.length; member += 1) entries.push(unit.entries[member] as Entry);
  }
  // Units are collected newest first; a stable sort by seq puts them in recorded order.
  return entries.sort((a, b) => a.seq - b.seq);
}


import { isRelayedAnswer } from './language/relayed-answer.js';
import { InvalidArgumentError, describeValue } from './errors.js';
import type { Scratchpad, ScratchpadData } from './scratchpad/scratchpad.js';
import { displayPath } from './scratchpad/render-diff.js';
import { createSecretLedger } from './redaction/secret-ledger.js';
import type { SecretLedger, SecretRecord } from './redaction/secret-ledger.js';
import { createScratchpad } from './scratchpad/scratchpad.js';
import type { SessionEvent } from './session-event.js';
import { createEntry } from './tiers/entry.js';
import type { FactChanges } from './tiers/facts.js';
import type { TierStore, TierStoreData } from './tiers/tier-store.js';
import { createTierStore } from './tiers/tier-store.js';
import type { TokenCounter } from './tokens/token-counter.js';
import { NO_RESULT_TEXT, createToolCallLedger } from './tool-calls.js';
import type { ToolCallOrphanReason, ToolCallRecord } from './tool-calls.js';
import type { ArchivedItem, Entry, OpenFile, Pin, Summary, Task } from './types.js';

/** What applying one event changed, for the facade to report as typed events. */
export interface EventEffects {
  /** T0 entry created by the event. */
  readonly entry?: Entry | undefined;
  /** File opened or updated, with its history lines. */
  readonly file?: { readonly kind: 'open' | 'update'; readonly file: OpenFile; readonly lines: readonly string[]; readonly isDiffSkipped: boolean } | undefined;
  /** File closed. */
  readonly closed?: { readonly path: string; readonly cause: 'explicit' | 'auto' | 'evicted'; readonly edits: number } | undefined;
  /** Tool call closed without a result. */
  readonly orphan?: {
    readonly callId: string;
    readonly callSeq: number;
    readonly toolName: string;
    readonly reason: ToolCallOrphanReason;
  } | undefined;
  /** Pin added or removed. */
  readonly pin?: { readonly kind: 'add' | 'remove'; readonly pin: Pin } | undefined;
  /** Graduation applied. */
  readonly graduation?: {
    readonly summary: Summary;
    readonly removed: readonly ArchivedItem[];
    readonly facts: FactChanges;
    readonly tasks: readonly Task[];
  } | undefined;
}

/** Serialisable folded view of a session. @internal */
export interface SessionViewData {
  readonly lastSeq: number;
  readonly exchange: number;
  /** Pending call ids → tool names (kept for snapshots written before `toolCalls`). */
  readonly pendingCalls: readonly (readonly [string, string])[];
  /** Known call ids → tool names (kept for snapshots written before `toolCalls`). */
  readonly knownCalls: readonly (readonly [string, string])[];
  /** The newest call of each id, with its status; absent in older snapshots. */
  readonly toolCalls?: readonly ToolCallRecord[] | undefined;
  readonly entrySeqs: readonly number[];
  readonly tiers: TierStoreData;
  readonly scratchpad: ScratchpadData;
  /** Placeholders given to redacted secrets, by digest; absent in older snapshots. */
  readonly secrets?: readonly SecretRecord[] | undefined;
}

/**
 * The tiers and scratchpad as a fold of the event log. Applying the same events in the same
 * order gives the same view; nothing here calls a summarizer or does I/O.
 * @internal
 */
export interface SessionView {
  /** Applies one event (which must carry `seq > lastSeq`). Throws without changing anything when it is invalid. */
  apply(event: SessionEvent): EventEffects;
  /** Sequence number of the last applied event. */
  readonly lastSeq: number;
  /** Number of user messages recorded (the exchange counter). */
  readonly exchange: number;
  /** Tool calls waiting for their result, by id → tool name. */
  pendingCall(callId: string): string | undefined;
  /** Whether a tool call with this id was ever recorded. */
  hasCall(callId: string): boolean;
  /** The newest tool call with this id, with its status. */
  toolCall(callId: string): ToolCallRecord | undefined;
  /** Tool calls waiting for their result, oldest first. */
  pendingToolCalls(): readonly ToolCallRecord[];
  /** Seqs of every event that produced a T0 entry, in order. */
  entrySeqs(): readonly number[];
  /** T0, T1, T2, pins and archive. */
  readonly tiers: TierStore;
  /** Open files. */
  readonly scratchpad: Scratchpad;
  /** Placeholders given to redacted secrets so far (a fold of the events' `secrets`). */
  readonly secrets: SecretLedger;
  /** Serialises the view. */
  toJSON(): SessionViewData;
}

/** Creates a {@link SessionView}, empty or from serialised data. @internal */
export function createSessionView(options: {
  counter: TokenCounter;
  maxEntryTokens: number;
  scratchpadBudget: number;
  autoCloseAfter: number;
  maxDiffBytes?: number | undefined;
  isPathCaseInsensitive?: boolean | undefined;
  initial?: SessionViewData | undefined;
}): SessionView {
  const { counter, maxEntryTokens } = options;
  const tiers = createTierStore({ counter, initial: options.initial?.tiers });
  const scratchpad = createScratchpad({
    counter,
    budget: options.scratchpadBudget,
    autoCloseAfter: options.autoCloseAfter,
    maxDiffBytes: options.maxDiffBytes,
    isCaseInsensitive: options.isPathCaseInsensitive,
    initial: options.initial?.scratchpad,
  });
  let lastSeq = options.initial?.lastSeq ?? 0;
  let exchange = options.initial?.exchange ?? 0;
  const calls = createToolCallLedger({
    initial: options.initial?.toolCalls,
    legacy: options.initial,
    findCallSeq: (id) => [...tiers.entries()].reverse().find((entry) => entry.toolCalls?.some((call) => call.id === id))?.seq,
  });
  const entrySeqs: number[] = [...(options.initial?.entrySeqs ?? [])];
  const secrets = createSecretLedger(options.initial?.secrets);

  // Fields are copied one by one into one shape: a spread of the differently shaped literals of
  // each event type is slow on the path that runs for every recorded event.
  const entryFor = (
    event: SessionEvent,
    fields: Omit<Parameters<typeof createEntry>[0], 'seq' | 'counter' | 'maxEntryTokens' | 'exchange' | 'at'>,
  ): Entry =>
    createEntry({
      kind: fields.kind,
      role: fields.role,
      text: fields.text,
      toolCalls: fields.toolCalls,
      callId: fields.callId,
      callSeq: fields.callSeq,
      isLate: fields.isLate,
      isRelayedAnswer: fields.isRelayedAnswer,
      toolName: fields.toolName,
      isError: fields.isError,
      path: fields.path,
      seq: event.seq,
      counter,
      maxEntryTokens,
      exchange,
      at: 'at' in event ? event.at : undefined,
    });

  const addEntry = (entry: Entry): void => {
    tiers.addEntry(entry);
    entrySeqs.push(entry.seq);
  };

  // A file event tied to a tool call is that call's result in the window.
  const fileRole = (callId: string | undefined): { role: Entry['role']; toolName?: string; callId?: string; callSeq?: number; isLate?: boolean } => {
    if (callId === undefined) return { role: 'user' };
    const call = calls.resolveResult(callId);
    return { role: 'tool', toolName: call.name, callId, callSeq: call.seq, isLate: call.status === 'orphaned' };
  };

  return {
    apply(event) {
      if (event.seq <= lastSeq) {
        throw new InvalidArgumentError({
          parameter: 'event.seq',
          value: event.seq,
          message: `apply(): events must be applied in order, got seq ${describeValue(event.seq)} after ${lastSeq}. Replay the log from the beginning or from a snapshot.`,
        });
      }
      let effects: EventEffects = {};
      switch (event.type) {
        case 'message': {
          const nextExchange = event.role === 'user' ? exchange + 1 : exchange;
          calls.checkCalls(event.toolCalls ?? []);
          exchange = nextExchange;
          const entry = entryFor(event, {
            kind: event.role,
            role: event.role,
            text: event.content,
            toolCalls: event.toolCalls,
            isRelayedAnswer: event.role === 'user' && isRelayedAnswer(event.content, tiers.entries()),
          });
          calls.addMessage({ calls: event.toolCalls ?? [], seq: event.seq });
          addEntry(entry);
          effects = { entry };
          break;
        }
        case 'tool-result': {
          const call = calls.resolveResult(event.callId);
          const entry = entryFor(event, {
            kind: 'tool-result',
            role: 'tool',
            text: event.output,
            callId: event.callId,
            callSeq: call.seq,
            isLate: call.status === 'orphaned',
            toolName: event.toolName,
            isError: event.isError,
          });
          calls.answer({ id: event.callId, seq: event.seq });
          addEntry(entry);
          effects = { entry };
          break;
        }
        case 'tool-call-orphan': {
          const call = calls.checkOrphan({ id: event.callId, callSeq: event.callSeq });
          const entry = entryFor(event, {
            kind: 'tool-call-orphan',
            role: 'tool',
            text: NO_RESULT_TEXT,
            callId: event.callId,
            callSeq: call.seq,
            toolName: event.toolName,
          });
          calls.orphan({ id: event.callId, seq: event.seq });
          addEntry(entry);
          effects = { entry, orphan: { callId: event.callId, callSeq: call.seq, toolName: event.toolName, reason: event.reason } };
          break;
        }
        case 'file-open':
        case 'file-update': {
          const role = fileRole(event.callId);
          const isOpen = scratchpad.has(event.path);
          if (event.type === 'file-update' && !isOpen) {
            throw new InvalidArgumentError({
              parameter: 'path',
              value: event.path,
              code: 'UNKNOWN_FILE',
              message: `updateFile(): ${describeValue(event.path)} is not open in the scratchpad. Open it first with openFile({ path, content }).`,
            });
          }
          const change =
            event.type === 'file-open'
              ? scratchpad.open({ path: event.path, content: event.content, seq: event.seq, exchange, ...(event.at === undefined ? {} : { at: event.at }) })
              : scratchpad.update({
                  path: event.path,
                  content: event.content,
                  seq: event.seq,
                  exchange,
                  ...(event.reason === undefined ? {} : { reason: event.reason }),
                  ...(event.at === undefined ? {} : { at: event.at }),
                });
          const lines = change.lines.length > 0 ? change.lines : [`[updated ${displayPath(change.file.path)}, no changes]`];
          if (event.callId !== undefined) calls.answer({ id: event.callId, seq: event.seq });
          const entry = entryFor(event, {
            kind: event.type,
            role: role.role,
            text: lines.join('\n'),
            path: change.file.path,
            callId: role.callId,
            callSeq: role.callSeq,
            isLate: role.isLate,
            toolName: role.toolName,
          });
          addEntry(entry);
          effects = { entry, file: { kind: event.type === 'file-open' && !isOpen ? 'open' : 'update', file: change.file, lines, isDiffSkipped: change.diff?.isSkipped === true } };
          break;
        }
        case 'file-close': {
          const role = fileRole(event.callId);
          if (!scratchpad.has(event.path)) {
            throw new InvalidArgumentError({
              parameter: 'path',
              value: event.path,
              code: 'UNKNOWN_FILE',
              message: `closeFile(): ${describeValue(event.path)} is not open in the scratchpad. Check the path against files().`,
            });
          }
          const change = scratchpad.close({ path: event.path, cause: event.cause });
          if (event.callId !== undefined) calls.answer({ id: event.callId, seq: event.seq });
          const entry = entryFor(event, {
            kind: 'file-close',
            role: role.role,
            text: change.lines.join('\n'),
            path: change.file.path,
            callId: role.callId,
            callSeq: role.callSeq,
            isLate: role.isLate,
            toolName: role.toolName,
          });
          addEntry(entry);
          effects = { entry, closed: { path: change.file.path, cause: event.cause, edits: change.edits } };
          break;
        }
        case 'note': {
          const entry = entryFor(event, { kind: 'note', role: 'user', text: event.content });
          addEntry(entry);
          effects = { entry };
          break;
        }
        case 'import': {
          tiers.facts.restore({ facts: event.facts, seq: event.seq });
          event.pins.forEach((text, index) => {
            tiers.addPin(Object.freeze({ id: `pin-${event.seq}-${index + 1}`, text, seq: event.seq, tokens: counter.count(`- ${text}`) }));
          });
          break;
        }
        case 'pin': {
          const pin: Pin = Object.freeze({ id: event.pinId, text: event.text, seq: event.seq, tokens: counter.count(`- ${event.text}`) });
          tiers.addPin(pin);
          effects = { pin: { kind: 'add', pin } };
          break;
        }
        case 'unpin': {
          const pin = tiers.removePin({ id: event.pinId, seq: event.seq });
          effects = pin === undefined ? {} : { pin: { kind: 'remove', pin } };
          break;
        }
        case 'graduation': {
          const entries = tiers.entries();
          const first = entries.find((entry) => entry.seq === event.entrySeqs[0]);
          const last = entries.find((entry) => entry.seq === event.entrySeqs[event.entrySeqs.length - 1]);
          const summaryId = event.summary.id;
          const summaryBase = {
            id: summaryId,
            source: event.source,
            text: event.summary.text,
            level: event.summary.level,
            ...(event.summary.sections === undefined ? {} : { sections: event.summary.sections }),
          };
          let period: Summary['period'];
          if (event.mode === 'chunk' && (first?.at !== undefined || last?.at !== undefined)) {
            period = { from: first?.at, to: last?.at };
          } else if (event.mode === 'consolidate') {
            const merged = tiers.summaries().filter((summary) => event.summaryIds.includes(summary.id));
            const from = merged[0]?.period?.from;
            const to = merged[merged.length - 1]?.period?.to;
            if (from !== undefined || to !== undefined) period = { from, to };
          }
          const summary: Summary = Object.freeze({
            ...summaryBase,
            ...(period === undefined ? {} : { period }),
            tokens: counter.count(renderSummary({ ...summaryBase, period })),
          });
          const removed =
            event.mode === 'chunk'
              ? tiers.graduateEntries({ seqs: event.entrySeqs, summaryId, seq: event.seq })
              : tiers.consolidateSummaries({ ids: event.summaryIds, summary, seq: event.seq });
          if (event.mode === 'chunk') tiers.addSummary(summary);
          const facts = tiers.facts.apply({ updates: event.facts, source: event.source, seq: event.seq });
          tiers.archive.append(facts.archived);
          const tasks = tiers.facts.applyTasks({ updates: event.tasks, source: event.source });
          effects = { graduation: { summary, removed, facts, tasks } };
          break;
        }
      }
      if ('secrets' in event && event.secrets !== undefined) secrets.add(event.secrets);
      lastSeq = event.seq;
      return effects;
    },
    get lastSeq() {
      return lastSeq;
    },
    get exchange() {
      return exchange;
    },
    pendingCall: (callId) => {
      const call = calls.get(callId);
      return call?.status === 'pending' ? call.name : undefined;
    },
    hasCall: (callId) => calls.get(callId) !== undefined,
    toolCall: (callId) => calls.get(callId),
    pendingToolCalls: () => calls.pending(),
    entrySeqs: () => entrySeqs,
    tiers,
    scratchpad,
    secrets,
    toJSON: () => ({
      lastSeq,
      exchange,
      pendingCalls: calls.pending().map((call) => [call.id, call.name] as const),
      knownCalls: calls.toJSON().map((call) => [call.id, call.name] as const),
      toolCalls: calls.toJSON(),
      entrySeqs: [...entrySeqs],
      tiers: tiers.toJSON(),
      scratchpad: scratchpad.toJSON(),
      secrets: secrets.toJSON(),
    }),
  } satisfies SessionView & { toJSON(): SessionViewData };
}

/** Renders one T1 summary as it appears in the window. */
export function renderSummary(summary: {
  readonly source: { readonly from: number; readonly to: number };
  readonly text: string;
  readonly period?: { readonly from?: string | undefined; readonly to?: string | undefined } | undefined;
}): string {
  const period = summary.period;
  const time =
    period?.from !== undefined && period.to !== undefined
      ? ` ${clockTime(period.from)}–${clockTime(period.to)}`
      : '';
  return `### #${summary.source.from}–${summary.source.to}${time}\n${summary.text.trim()}`;
}

// --- Internal helpers ---

function clockTime(iso: string): string {
  const match = /T(\d{2}:\d{2})/.exec(iso);
  return match?.[1] ?? iso;
}

import type { ConflictError, MobiusError, StorageError, SummarizerError } from './errors.js';
import type { SecretRedaction } from './redaction/redactor.js';
import type { ToolCallOrphanReason } from './tool-calls.js';
import type {
  ArchivedItem,
  Entry,
  Fact,
  OpenFile,
  Pin,
  SequenceRange,
  Summary,
  Task,
  WindowOmissions,
} from './types.js';

/** Payload of `entry-add`: a new T0 entry was recorded. */
export interface EntryAddEvent {
  /** The new entry. */
  readonly entry: Entry;
}

/** Payload of `file-open` (also for a re-read of an open file). */
export interface FileOpenEvent {
  /** The file as it is now in the scratchpad. */
  readonly file: OpenFile;
  /** The history lines recorded for it, exactly as in the T0 entry. */
  readonly lines: readonly string[];
  /**
   * Whether a re-read with changed content was too large a change to diff line by line
   * (`maxDiffBytes`): it is recorded as `+N/-M lines` and `fileHistory()` restarts here.
   */
  readonly isDiffSkipped: boolean;
}

/** Payload of `file-update`. */
export interface FileUpdateEvent {
  /** The file as it is now in the scratchpad. */
  readonly file: OpenFile;
  /** The history lines recorded, exactly as in the T0 entry: one compact line per hunk. */
  readonly lines: readonly string[];
  /**
   * Whether the change was too large to diff line by line (`maxDiffBytes`): it is recorded as
   * `+N/-M lines` and `fileHistory()` restarts at this content.
   */
  readonly isDiffSkipped: boolean;
}

/**
 * Payload of `file-oversize`: a file larger than `maxFileBytes` was recorded as a one-line digest
 * instead of its content (the `file-open` or `file-update` event came first).
 */
export interface FileOversizeEvent {
  /** The file's path. */
  readonly path: string;
  /** Which call recorded it. */
  readonly method: 'openFile' | 'updateFile';
  /** Its size in UTF-8 bytes. */
  readonly bytes: number;
  /** The `maxFileBytes` limit it exceeded. */
  readonly limit: number;
  /** FNV-1a 64 hash of its content (hex), to tell versions apart. */
  readonly hash: string;
}

/** Payload of `file-close`. */
export interface FileCloseEvent {
  /** The path that was closed. */
  readonly path: string;
  /** Why: the caller closed it, it was untouched too long, or the scratchpad was over budget. */
  readonly cause: 'explicit' | 'auto' | 'evicted';
  /** Number of edits made while it was open. */
  readonly edits: number;
}

/**
 * Payload of `tool-call-orphan`: a tool call was closed without a result, because the agent moved
 * on (a later message) or reused its id. A "no result" marker now answers it in the window; a
 * result that still arrives is recorded as a late result of the call.
 */
export interface ToolCallOrphanEvent {
  /** Id of the call. */
  readonly callId: string;
  /** The tool's name. */
  readonly toolName: string;
  /** Seq of the assistant message that made the call. */
  readonly callSeq: number;
  /** Seq of the "no result" marker in the log. */
  readonly seq: number;
  /**
   * `'later-message'`: `orphanCallsAfter` messages were recorded after the call without its
   * result. `'id-reused'`: a new call reused its id.
   */
  readonly reason: ToolCallOrphanReason;
}

/**
 * Payload of `secret-redact`: secrets were replaced with placeholders in an input before it was
 * recorded. It says what kind of secret was where, and which placeholder stands for it; it never
 * carries a secret.
 */
export interface SecretRedactEvent {
  /**
   * The recording method whose input was redacted: `'addMessage'`, `'addToolResult'`,
   * `'openFile'`, `'updateFile'`, `'addNote'`, `'pin'`, or `'projectMemory'` for the memory
   * imported by the constructor (emitted before any listener can be attached; the import's log
   * event records it).
   */
  readonly method: 'addMessage' | 'addToolResult' | 'openFile' | 'updateFile' | 'addNote' | 'pin' | 'projectMemory';
  /** Seq of the recorded event that carries the redacted text. */
  readonly seq: number;
  /** One item per kind of secret and field, e.g. `{ kind: 'aws-key', field: 'content', count: 2, placeholders: ['[secret:aws-key#1]'] }`. */
  readonly redactions: readonly SecretRedaction[];
}

/** Payload of `pin-add` and `pin-remove`. */
export interface PinEvent {
  /** The pin. */
  readonly pin: Pin;
}

/** Payload of `graduation-start`. */
export interface GraduationStartEvent {
  /** `'chunk'`: T0 → T1. `'consolidate'`: T1 → one older summary. */
  readonly mode: 'chunk' | 'consolidate';
  /** Sequence range being summarised. */
  readonly source: SequenceRange;
  /** Tokens being summarised. */
  readonly tokens: number;
}

/** One item that left a tier in a graduation, and where it went. */
export interface GraduatedItem {
  /** Sequence number (entries) or summary id (summaries). */
  readonly id: number | string;
  /** What it was, e.g. `'user'`, `'file-update'`, `'summary'`. */
  readonly kind: string;
  /** Its tokens in the window before it left. */
  readonly tokens: number;
  /** Where it is now: always the archive, represented by `summaryId`. */
  readonly archivedAs: string;
}

/**
 * Payload of `graduation-end`: the report of what left T0 (or T1) and where it went, so that
 * "what was lost?" is always answerable.
 */
export interface GraduationReport {
  /** Sequence number of the graduation event in the log. */
  readonly seq: number;
  /** `'chunk'`: T0 → T1. `'consolidate'`: T1 → one older summary. */
  readonly mode: 'chunk' | 'consolidate';
  /** Sequence range now represented by the new summary. */
  readonly source: SequenceRange;
  /** Items that left the tier (all archived). */
  readonly removed: readonly GraduatedItem[];
  /** The summary that represents them. */
  readonly summary: Summary;
  /** Keys of facts added to T2. */
  readonly factsAdded: readonly string[];
  /** Keys of facts whose value was superseded (old value archived). */
  readonly factsSuperseded: readonly string[];
  /** Tasks whose status changed. */
  readonly tasks: readonly Task[];
  /** Tokens that left the tier. */
  readonly tokensIn: number;
  /** Tokens of the summary plus the new facts. */
  readonly tokensOut: number;
  /** The boundary the cut was made at (chunk mode). */
  readonly boundary: string | undefined;
  /** Which summarizer produced the committed output. */
  readonly summarizer: string;
  /** Whether the fallback ran because the configured summarizer failed. */
  readonly isFallback: boolean;
}

/** Payload of `summarizer-fallback`: the configured summarizer failed; the fallback ran instead. */
export interface SummarizerFallbackEvent {
  /** The failure, wrapped; its `cause` is what the summarizer threw. */
  readonly error: SummarizerError;
  /**
   * Why it failed: `'threw'` (including a result whose getters throw), `'timeout'`,
   * `'invalid-output'` (not `{ summary, facts?, tasks? }`, or far above `targetTokens`), or
   * `'oversized'` (a summary not smaller than its input, see `maxSummaryRatio`).
   */
  readonly reason: 'threw' | 'timeout' | 'invalid-output' | 'oversized';
  /** How many attempts were made. */
  readonly attempts: number;
}

/**
 * Payload of `graduation-error`: a graduation was abandoned before its commit (nothing left T0),
 * or a listener of a graduation event threw after the commit.
 */
export interface GraduationErrorEvent {
  /** What went wrong. */
  readonly error: MobiusError;
  /** Whether the graduation had been committed when the error happened. */
  readonly isCommitted: boolean;
}

/**
 * Payload of `graduation-stall`: a tier is over its budget and graduation stopped without
 * bringing it down. It runs again after the next record; the event is not repeated until a
 * graduation commits or the cause changes.
 */
export interface GraduationStallEvent {
  /** The tier that stays over its budget. */
  readonly tier: 'working' | 'summaries';
  /**
   * `'no-allowed-cut'`: every cut would split a tool call from its result or a code block.
   * `'no-shrink'`: what could be graduated is too small to be summarised smaller, or a
   * graduation did not make the tier smaller. `'fully-consolidated'`: T1 holds one summary that
   * was consolidated as often as allowed.
   */
  readonly reason: 'no-allowed-cut' | 'no-shrink' | 'fully-consolidated';
  /** Tokens the tier holds. */
  readonly tokens: number;
  /** Its budget. */
  readonly limit: number;
}

/**
 * Payload of `summary-trim`: even the extractive fallback's summary was not smaller than its
 * input, so it was cut to size before the commit (the originals stay in the archive).
 */
export interface SummaryTrimEvent {
  /** Id of the committed summary. */
  readonly summaryId: string;
  /** Sequence range it represents. */
  readonly source: SequenceRange;
  /** Tokens the summary had before the cut. */
  readonly tokens: number;
  /** Tokens it was cut to at most. */
  readonly limit: number;
}

/** Payload of `fact-add` and `fact-supersede`. */
export interface FactEvent {
  /** The fact as it is now. */
  readonly fact: Fact;
  /** For `fact-supersede`: the value it replaced. */
  readonly previous?: string | undefined;
}

/** Payload of `task-update`. */
export interface TaskEvent {
  /** The task as it is now. */
  readonly task: Task;
}

/**
 * Payload of `archive-spill`: archive groups were written to storage and dropped from memory, or
 * (`isUnsupported`, once per manager) the storage cannot hold them, so the archive stays in memory.
 */
export interface ArchiveSpillEvent {
  /** Groups spilled by this step (0 when unsupported). */
  readonly groups: number;
  /** Items spilled by this step (0 when unsupported). */
  readonly items: number;
  /** Archived items still held in memory. */
  readonly memoryItems: number;
  /** Archived items held only in storage, in all. */
  readonly spilledItems: number;
  /** The storage has no `appendArchive()`/`readArchive()`: nothing was spilled, nor will be. */
  readonly isUnsupported: boolean;
}

/** Payload of `archive-add`. */
export interface ArchiveEvent {
  /** Items appended to the archive. */
  readonly items: readonly ArchivedItem[];
}

/** Payload of `window-trim`: `build()` left something out to stay within its budget. */
export interface WindowTrimEvent {
  /** The budget of the call. */
  readonly budget: number;
  /** What was left out; the same object as `BuiltContext.omitted`. */
  readonly omitted: WindowOmissions;
}

/** Payload of `storage-error`: persisting failed; the in-memory state is intact. */
export interface StorageErrorEvent {
  /** The failure: a `StorageError` (its `cause` is what the storage threw), or a `ConflictError` when another writer got there first. */
  readonly error: StorageError | ConflictError;
  /** Which storage method failed (`appendArchive`: a spill of the archive; the items stay in memory). */
  readonly operation: 'append' | 'saveSnapshot' | 'appendArchive';
  /** Recorded events not yet in storage (kept in memory and retried). */
  readonly pendingEvents: number;
}

/** Payload of `pressure`: the window passed the auto-save threshold of its budget. */
export interface PressureEvent {
  /** Estimated tokens of the full window (every tier at its current size). */
  readonly tokens: number;
  /** The budget. */
  readonly budget: number;
  /** `tokens / budget`. */
  readonly ratio: number;
}

/** Why an automatic save ran. */
export type AutoSaveReason = 'task-done' | 'decision' | 'every-messages' | 'leaving' | 'pressure';

/**
 * Payload of `session-save`: a save (automatic or explicit) completed; every event recorded before
 * it is in storage.
 */
export interface SessionSaveEvent {
  /** The newest snapshot version in storage: the one written, or the previous one when `isSnapshot` is false. */
  readonly version: number;
  /** What triggered it; `'explicit'` for `save()`, `snapshot()`, `rollback()` and `fork()`. */
  readonly reason: AutoSaveReason | 'explicit';
  /** Whether a snapshot was written; an automatic save writes one only as the log grows (`autoSave.snapshotGrowth`). */
  readonly isSnapshot: boolean;
}

/**
 * Events emitted by {@link ContextManager}, after the state change is committed. Payload objects
 * are frozen. A listener that throws does not undo the change: the error reaches the caller of
 * the recording method after all its work is done (or `graduation-error` for background work).
 */
export interface ContextEvents {
  'entry-add': [event: EntryAddEvent];
  'file-open': [event: FileOpenEvent];
  'file-update': [event: FileUpdateEvent];
  'file-close': [event: FileCloseEvent];
  'file-oversize': [event: FileOversizeEvent];
  'secret-redact': [event: SecretRedactEvent];
  'tool-call-orphan': [event: ToolCallOrphanEvent];
  'pin-add': [event: PinEvent];
  'pin-remove': [event: PinEvent];
  'graduation-start': [event: GraduationStartEvent];
  'graduation-end': [event: GraduationReport];
  'graduation-error': [event: GraduationErrorEvent];
  'graduation-stall': [event: GraduationStallEvent];
  'summary-trim': [event: SummaryTrimEvent];
  'summarizer-fallback': [event: SummarizerFallbackEvent];
  'fact-add': [event: FactEvent];
  'fact-supersede': [event: FactEvent];
  'task-update': [event: TaskEvent];
  'archive-add': [event: ArchiveEvent];
  'window-trim': [event: WindowTrimEvent];
  'storage-error': [event: StorageErrorEvent];
  'archive-spill': [event: ArchiveSpillEvent];
  'pressure': [event: PressureEvent];
  'session-save': [event: SessionSaveEvent];
}

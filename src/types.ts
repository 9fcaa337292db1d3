/** A value that may be returned directly or as a promise, for methods that callers implement. */
export type Awaitable<T> = T | PromiseLike<T>;

/** JSON-compatible data, used for tool-call inputs. */
export type JsonValue =
  | string
  | number
  | boolean
  | null
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue };

/** An inclusive range of sequence numbers in the event log. */
export interface SequenceRange {
  /** First sequence number covered. */
  readonly from: number;
  /** Last sequence number covered (inclusive). */
  readonly to: number;
}

/** A tool call made by the assistant, kept intact with its result. */
export interface ToolCall {
  /** The provider's call id; the result must carry the same id. */
  readonly id: string;
  /** The tool's name. */
  readonly name: string;
  /** The arguments the model passed. */
  readonly input: JsonValue;
}

/**
 * What kind of T0 entry this is (an assistant entry may carry tool calls). `'tool-call-orphan'`
 * is the "no result" marker of a tool call that was closed without a result.
 */
export type EntryKind =
  | 'user'
  | 'assistant'
  | 'tool-result'
  | 'tool-call-orphan'
  | 'file-open'
  | 'file-update'
  | 'file-close'
  | 'note';

/**
 * One verbatim item of working memory (T0). Its token count is computed once, when it is
 * recorded, and never again.
 */
export interface Entry {
  /** Sequence number of the recorded event this entry represents. */
  readonly seq: number;
  /** What kind of entry this is. */
  readonly kind: EntryKind;
  /** Message role this entry is rendered with. */
  readonly role: 'user' | 'assistant' | 'tool';
  /** Full text of the entry (for file events, the compact history record). */
  readonly text: string;
  /**
   * Text shown in the window. Equal to `text` unless the entry is larger than the per-entry
   * limit, in which case it is a head/tail excerpt with an explicit marker.
   */
  readonly display: string;
  /** Tokens of `display` plus the message framing, counted once. */
  readonly tokens: number;
  /** Tool calls made in this assistant entry, exactly as recorded. */
  readonly toolCalls?: readonly ToolCall[] | undefined;
  /** The tool calls as shown in the window, when long input strings had to be shortened. */
  readonly displayToolCalls?: readonly ToolCall[] | undefined;
  /** For tool results: the id of the call this answers. */
  readonly callId?: string | undefined;
  /** For tool results: seq of the assistant message that made the call (ids may be reused). */
  readonly callSeq?: number | undefined;
  /** For tool results: recorded after the call was closed without a result (a late result). */
  readonly isLate?: boolean | undefined;
  /**
   * For user messages: the message repeats one of the assistant's latest answers word for word
   * (an agent loop handing an answer on to the next model), so its words are read as the assistant's.
   */
  readonly isRelayedAnswer?: boolean | undefined;
  /** For tool results: the tool's name. */
  readonly toolName?: string | undefined;
  /** For tool results: whether the tool reported an error. */
  readonly isError?: boolean | undefined;
  /** For file entries: the file's path. */
  readonly path?: string | undefined;
  /** Caller-supplied timestamp (ISO-8601), if any. */
  readonly at?: string | undefined;
  /** Number of user turns recorded before and including this entry. */
  readonly exchange: number;
}

/** The retention class of a sentence or entry (DESIGN.md "content-aware retention"). */
export type RetentionClass =
  | 'decision'
  | 'requirement'
  | 'constraint'
  | 'convention'
  | 'preference'
  | 'error-resolution'
  | 'task-status'
  | 'routine'
  | 'chit-chat';

/** Categories under which T2 facts are grouped in the rendered YAML. */
export type FactCategory =
  | 'architecture'
  | 'decisions'
  | 'requirements'
  | 'constraints'
  | 'conventions'
  | 'preferences'
  | 'error-resolutions'
  | 'patterns';

/** A fact as proposed by a summarizer: the store decides whether it is new or supersedes one. */
export interface FactUpdate {
  /**
   * Stable identifier of what the fact is about, e.g. `"db-timeout"`. A later update with the same
   * key replaces the value (newest wins). Leave it out to let the store match by content.
   */
  readonly key?: string | undefined;
  /** The category it is rendered under. */
  readonly category: FactCategory;
  /** The fact itself, one sentence. */
  readonly value: string;
  /** Whether the wording says it replaces an earlier value ("change … to", "instead"). */
  readonly isUpdate?: boolean | undefined;
  /**
   * How much durable content the statement carries (identifiers, values, cue words; see
   * `scoreSalience`). When the facts block is full, facts with less are left out first.
   */
  readonly salience?: number | undefined;
}

/** A value a fact used to have, kept when it was superseded. */
export interface FactVersion {
  /** The earlier value. */
  readonly value: string;
  /** Entries the earlier value came from. */
  readonly source: SequenceRange;
  /** Sequence number of the graduation that replaced it. */
  readonly supersededAt: number;
}

/** A durable fact in T2. */
export interface Fact {
  /** Stable key; one value per key. */
  readonly key: string;
  /** The category it is rendered under. */
  readonly category: FactCategory;
  /** The current value (newest wins). */
  readonly value: string;
  /** Entries the current value came from (provenance). */
  readonly source: SequenceRange;
  /** Earlier values, oldest first. Never deleted. */
  readonly history: readonly FactVersion[];
  /** Tokens of the rendered YAML line, counted once. */
  readonly tokens: number;
  /** How much durable content the current value carries; facts with less are left out first. */
  readonly salience?: number | undefined;
}

/** Status of a task tracked across graduations. */
export type TaskStatus = 'open' | 'done';

/** A task update proposed by a summarizer. */
export interface TaskUpdate {
  /** Short title of the task, used as its key (case-insensitive). */
  readonly title: string;
  /** New status. */
  readonly status: TaskStatus;
}

/** A task tracked in T2, so that finished work is never presented as pending. */
export interface Task {
  /** Short title, also the key. */
  readonly title: string;
  /** Current status. */
  readonly status: TaskStatus;
  /** Entries the latest status came from. */
  readonly source: SequenceRange;
  /** Tokens of the rendered line, counted once. */
  readonly tokens: number;
}

/**
 * A section of a structured summary. `Text` holds free text (what a summarizer that returns only
 * `summary: string` wrote), rendered as is; the others render as `Name: item` or a bullet list.
 */
export type SummarySectionName = 'Completed' | 'Problems solved' | 'Files' | 'Commands' | 'Notes' | 'Open' | 'Text';

/** One item of a structured summary section, with where it came from. */
export interface SummaryItem {
  /** The item as rendered (without the bullet marker). */
  readonly text: string;
  /** The sequence range of the entries it came from (provenance). */
  readonly source: SequenceRange;
  /** How much durable content a note carries; when consolidating, notes with less are dropped first. */
  readonly salience?: number | undefined;
  /** `Notes`: the user's own words (what they asked for, how it should behave); outranks narration when consolidating. */
  readonly isUserSpeech?: boolean | undefined;
  /** `Notes`: the agent describing how the product works; ranks with the user's words when consolidating, below their statements. */
  readonly isProductStatement?: boolean | undefined;
  /** `Files`: the file's path. */
  readonly path?: string | undefined;
  /** `Files`: edits counted to the file (0 or absent: only read). */
  readonly edits?: number | undefined;
  /** `Commands`: the command, the key under which runs of it are merged. */
  readonly command?: string | undefined;
  /** `Commands`: whether the command is a graded run (tests, type checks, linters). */
  readonly isTestRun?: boolean | undefined;
  /** `Open`: a failure that was still failing at the end of the chunk. */
  readonly isStillFailing?: boolean | undefined;
}

/** A section of a structured summary: its name and items, rendered in order. */
export interface SummarySectionData {
  /** The section's name, also its header when rendered. */
  readonly name: SummarySectionName;
  /** The section's items, oldest first. */
  readonly items: readonly SummaryItem[];
}

/** A T1 summary of a graduated chunk of T0 (or of older summaries). */
export interface Summary {
  /** Identifier, e.g. `"s12"`. */
  readonly id: string;
  /** The sequence range of the entries it represents (provenance). */
  readonly source: SequenceRange;
  /** Markdown text of the summary (the rendering of `sections` when it has them). */
  readonly text: string;
  /**
   * The summary as data: sections of items with provenance. Absent on summaries committed before
   * structured summaries existed; those are read from `text`.
   */
  readonly sections?: readonly SummarySectionData[] | undefined;
  /** Tokens of `text`, counted once. */
  readonly tokens: number;
  /** 1 for a summary of T0 entries, 2+ for a consolidation of summaries. */
  readonly level: number;
  /** Caller timestamps of the first and last entry, when given. */
  readonly period?: { readonly from?: string | undefined; readonly to?: string | undefined } | undefined;
}

/** A pinned item: always rendered, never graduated. */
export interface Pin {
  /** Identifier returned by `pin()`. */
  readonly id: string;
  /** The pinned text. */
  readonly text: string;
  /** Sequence number of the pin event. */
  readonly seq: number;
  /** Tokens of the rendered line, counted once. */
  readonly tokens: number;
}

/** Why something was moved to the archive. */
export type ArchiveReason = 'graduated' | 'consolidated' | 'superseded' | 'unpinned';

/** Something that left the window and can be recalled. The archive is append-only. */
export type ArchivedItem =
  | {
      readonly type: 'entry';
      readonly reason: 'graduated';
      /** The entry as it was in T0. */
      readonly entry: Entry;
      /** Summary that now represents it. */
      readonly summaryId: string;
      /** Sequence number of the graduation. */
      readonly archivedAt: number;
    }
  | {
      readonly type: 'summary';
      readonly reason: 'consolidated';
      readonly summary: Summary;
      /** Summary that now represents it. */
      readonly summaryId: string;
      readonly archivedAt: number;
    }
  | {
      readonly type: 'fact';
      readonly reason: 'superseded';
      readonly key: string;
      readonly category: FactCategory;
      /** The value that was replaced. */
      readonly value: string;
      readonly source: SequenceRange;
      readonly archivedAt: number;
    }
  | {
      readonly type: 'pin';
      readonly reason: 'unpinned';
      readonly pin: Pin;
      readonly archivedAt: number;
    };

/** A file currently open in the scratchpad. */
export interface OpenFile {
  /** The path as given by the caller. */
  readonly path: string;
  /** The current content, exactly as last given. */
  readonly content: string;
  /** Number of lines in `content`. */
  readonly lineCount: number;
  /** Hash of `content` (FNV-1a 64-bit, hex), for staleness checks. */
  readonly hash: string;
  /** Tokens of the rendered section (header + content or its head/tail window), counted once. */
  readonly tokens: number;
  /** Whether the content is shown as a head/tail window because it exceeds the budget. */
  readonly isWindowed: boolean;
  /** Number of updates since the file was opened. */
  readonly edits: number;
  /** Sequence number of the open event. */
  readonly openedAt: number;
  /** Sequence number of the last open/update. */
  readonly touchedAt: number;
  /** User-turn counter when the file was last touched (drives auto-close). */
  readonly touchedExchange: number;
  /** Caller timestamp of the last touch, when given. */
  readonly touchedTime?: string | undefined;
}

/** A provider-neutral message produced by `build()`. */
export type ContextMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string }
  | {
      readonly role: 'assistant';
      readonly content: string;
      readonly toolCalls?: readonly ToolCall[] | undefined;
    }
  | {
      readonly role: 'tool';
      readonly toolCallId: string;
      readonly toolName: string;
      readonly content: string;
      readonly isError?: boolean | undefined;
    };

/** The blocks of a built window, in the order they are rendered. */
export type BlockName = 'prefix' | 'facts' | 'pins' | 'summaries' | 'scratchpad' | 'recalled' | 'working';

/** Tokens used by each block of a built window. */
export type BlockTokens = { readonly [block in BlockName]: number };

/** What `build()` left out of a window to stay within its budget; all of it is still stored. */
export interface WindowOmissions {
  /** T0 entries not shown (the oldest ones). */
  readonly entries: number;
  /** T1 summaries not shown (the oldest ones). */
  readonly summaries: number;
  /** Facts left out of the YAML (the oldest ones). */
  readonly facts: number;
  /** Open files whose content was not shown: replaced by a one-line stub, or left out entirely. */
  readonly files: number;
  /** Whether the pins block was left out. */
  readonly isPinsOmitted: boolean;
  /**
   * Whether the newest T0 turn (the message the model must answer) did not fit next to the static
   * prefix. Its entries are counted in `entries`; the framework adapters refuse such a window.
   */
  readonly isNewestTurnOmitted: boolean;
}

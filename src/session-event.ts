import type { SecretRecord } from './redaction/secret-ledger.js';
import type { ToolCallOrphanReason } from './tool-calls.js';
import type { Fact, FactUpdate, SequenceRange, SummarySectionData, TaskUpdate, ToolCall } from './types.js';

/**
 * One event of a session's append-only log. The tiers are a fold of this log: replaying the same
 * events gives the same window, and summaries live in the log so replay never calls a model.
 */
export type SessionEvent =
  | {
      readonly type: 'message';
      readonly seq: number;
      readonly role: 'user' | 'assistant';
      readonly content: string;
      readonly toolCalls?: readonly ToolCall[] | undefined;
      readonly at?: string | undefined;
      /** Ledger records of secrets first redacted in this event (digests, never the secrets). */
      readonly secrets?: readonly SecretRecord[] | undefined;
    }
  | {
      readonly type: 'tool-result';
      readonly seq: number;
      readonly callId: string;
      readonly toolName: string;
      readonly output: string;
      readonly isError?: boolean | undefined;
      readonly at?: string | undefined;
      /** Ledger records of secrets first redacted in this event (digests, never the secrets). */
      readonly secrets?: readonly SecretRecord[] | undefined;
    }
  | {
      /** A pending tool call closed without a result: the agent moved on without recording one. */
      readonly type: 'tool-call-orphan';
      readonly seq: number;
      /** Id of the call. */
      readonly callId: string;
      /** Seq of the message that made the call (ids may be reused, this pair is unique). */
      readonly callSeq: number;
      readonly toolName: string;
      /** Why it was closed. */
      readonly reason: ToolCallOrphanReason;
      readonly at?: string | undefined;
    }
  | {
      readonly type: 'file-open';
      readonly seq: number;
      readonly path: string;
      readonly content: string;
      readonly callId?: string | undefined;
      readonly at?: string | undefined;
      /** Ledger records of secrets first redacted in this event (digests, never the secrets). */
      readonly secrets?: readonly SecretRecord[] | undefined;
    }
  | {
      readonly type: 'file-update';
      readonly seq: number;
      readonly path: string;
      readonly content: string;
      readonly reason?: string | undefined;
      readonly callId?: string | undefined;
      readonly at?: string | undefined;
      /** Ledger records of secrets first redacted in this event (digests, never the secrets). */
      readonly secrets?: readonly SecretRecord[] | undefined;
    }
  | {
      readonly type: 'file-close';
      readonly seq: number;
      readonly path: string;
      readonly cause: 'explicit' | 'auto' | 'evicted';
      readonly callId?: string | undefined;
      readonly at?: string | undefined;
    }
  | {
      readonly type: 'note';
      readonly seq: number;
      readonly content: string;
      readonly at?: string | undefined;
      /** Ledger records of secrets first redacted in this event (digests, never the secrets). */
      readonly secrets?: readonly SecretRecord[] | undefined;
    }
  | {
      readonly type: 'import';
      readonly seq: number;
      /** Facts carried over from earlier sessions, with their history. */
      readonly facts: readonly Fact[];
      /** Pinned texts carried over. */
      readonly pins: readonly string[];
      /** Ledger records of secrets first redacted in this event (digests, never the secrets). */
      readonly secrets?: readonly SecretRecord[] | undefined;
    }
  | {
      readonly type: 'pin';
      readonly seq: number;
      readonly pinId: string;
      readonly text: string;
      /** Ledger records of secrets first redacted in this event (digests, never the secrets). */
      readonly secrets?: readonly SecretRecord[] | undefined;
    }
  | { readonly type: 'unpin'; readonly seq: number; readonly pinId: string }
  | {
      readonly type: 'graduation';
      readonly seq: number;
      /** `'chunk'`: T0 → T1. `'consolidate'`: oldest T1 summaries → one summary. */
      readonly mode: 'chunk' | 'consolidate';
      /** Sequence range the new summary represents. */
      readonly source: SequenceRange;
      /** Seqs of the T0 entries that left T0 (chunk mode). */
      readonly entrySeqs: readonly number[];
      /** Ids of the summaries that were merged (consolidate mode). */
      readonly summaryIds: readonly string[];
      /**
       * The summary that now represents them: its text (as shown) and, in logs written since
       * summaries are structured, its sections as data.
       */
      readonly summary: {
        readonly id: string;
        readonly text: string;
        readonly level: number;
        readonly sections?: readonly SummarySectionData[] | undefined;
      };
      readonly facts: readonly FactUpdate[];
      readonly tasks: readonly TaskUpdate[];
      /** Name of the summarizer whose output was committed. */
      readonly summarizer: string;
      /** Whether the configured summarizer failed and the extractive fallback ran. */
      readonly isFallback: boolean;
    };

/** The `type` of a {@link SessionEvent}. */
export type SessionEventType = SessionEvent['type'];


export { ContextManager, SNAPSHOT_FORMAT_VERSION } from './context-manager.js';
export type {
  BuildOptions,
  CloseFileInput,
  RecallOptions,
  MessageInput,
  OpenFileInput,
  SessionState,
  SettleResult,
  ToolResultInput,
  UpdateFileInput,
} from './context-manager.js';
export { countMessageTokens, toMessages } from './build/window-builder.js';
export type { BuiltContext, SystemBlock } from './build/window-builder.js';
export { DEFAULTS, KNOWN_CONTEXT_WINDOWS } from './options.js';
export { loadProjectMemory, saveProjectMemory } from './project-memory.js';
export type { AutoSaveOptions, ContextManagerOptions, ProjectMemory, StorageRetryOptions, TierBudgets, TokenBudget } from './options.js';
export {
  ConflictError,
  CorruptStateError,
  InvalidArgumentError,
  MobiusError,
  StorageError,
  SummarizerError,
} from './errors.js';
export type { ErrorCode } from './errors.js';
export type {
  ArchiveEvent,
  ContextEvents,
  EntryAddEvent,
  FactEvent,
  FileCloseEvent,
  FileOpenEvent,
  FileUpdateEvent,
  GraduatedItem,
  GraduationErrorEvent,
  GraduationReport,
  GraduationStallEvent,
  GraduationStartEvent,
  PinEvent,
  SecretRedactEvent,
  StorageErrorEvent,
  SummarizerFallbackEvent,
  SummaryTrimEvent,
  TaskEvent,
  ToolCallOrphanEvent,
  WindowTrimEvent,
} from './events.js';
export type { ToolCallOrphanReason } from './tool-calls.js';
export type { SessionEvent, SessionEventType } from './session-event.js';
export { findSecrets, redactSecrets } from './redaction/redactor.js';
export type { RedactedSecret, RedactionOptions, SecretPattern, SecretRedaction } from './redaction/redactor.js';
export { SECRET_KINDS } from './redaction/detectors.js';
export type { SecretFinding, SecretKind } from './redaction/detectors.js';
export type { SecretRecord } from './redaction/secret-ledger.js';
// The detector list, ledger and scope are not exported: extend detection with the `patterns` option.
export type {
  ArchiveReason,
  ArchivedItem,
  Awaitable,
  BlockName,
  BlockTokens,
  ContextMessage,
  Entry,
  EntryKind,
  Fact,
  FactCategory,
  FactUpdate,
  FactVersion,
  JsonValue,
  OpenFile,
  Pin,
  RetentionClass,
  SequenceRange,
  Summary,
  SummaryItem,
  SummarySectionData,
  SummarySectionName,
  Task,
  TaskStatus,
  WindowOmissions,
  TaskUpdate,
  ToolCall,
} from './types.js';
export { createTokenCounter, encodingForModel, MESSAGE_OVERHEAD_TOKENS } from './tokens/token-counter.js';
export type { EncodingName, TokenCounter, TokenCounterOptions } from './tokens/token-counter.js';
export { isSummarizer } from './summarizer/summarizer.js';
export type { SummarizeRequest, SummarizeResult, Summarizer } from './summarizer/summarizer.js';
export { createExtractiveSummarizer } from './summarizer/extractive.js';
export { createBm25Retriever } from './tiers/recall.js';
export type { Bm25Options, RecallDocument, RecallHit, Retriever } from './tiers/recall.js';
export { createMemoryStorage } from './storage/memory.js';
export type { MemoryStorageOptions } from './storage/memory.js';
export { isStorage } from './storage/storage.js';
export type { SaveSnapshotOptions, SessionSnapshot, Storage, VersionInfo } from './storage/storage.js';
export { createBoundaryDetector } from './boundaries/boundary-detector.js';
export type { BoundaryDetector, BoundaryScore } from './boundaries/boundary-detector.js';
export { mergePatternPacks } from './boundaries/pattern-pack.js';
export type { PatternPack } from './boundaries/pattern-pack.js';
export { englishPatterns } from './boundaries/patterns/en.js';
export { vietnamesePatterns } from './boundaries/patterns/vi.js';
export { defaultPatterns } from './boundaries/patterns/default.js';
export { createScratchpad, replayPatches } from './scratchpad/scratchpad.js';
export type { Scratchpad, ScratchpadOptions } from './scratchpad/scratchpad.js';
// The session view, tier store, window builder internals and graduator are deliberately not
// exported: they are composed by ContextManager and their shapes may change between minors.

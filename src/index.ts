export { ContextManager } from './context-manager.js';
export { SNAPSHOT_FORMAT_VERSION } from './persistence/snapshot-format.js';
export type {
  BuildOptions,
  CloseFileInput,
  RecallOptions,
  MessageInput,
  OpenFileInput,
  SessionState,
  ToolResultInput,
  UpdateFileInput,
} from './context-manager-inputs.js';
export type { SettleResult } from './persistence/session-persistence.js';
export { countMessageTokens, toMessages } from './build/window-builder.js';
export type { BuiltContext, SystemBlock } from './build/window-builder.js';
export { DEFAULTS, KNOWN_CONTEXT_WINDOWS } from './options.js';
export { loadProjectMemory, saveProjectMemory } from './project-memory.js';
export type { ArchiveOptions, AutoSaveOptions, ContextManagerOptions, ProjectMemory, StorageRetryOptions, TierBudgets, TokenBudget } from './options.js';
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
  ArchiveSpillEvent,
  ContextEvents,
  EntryAddEvent,
  FactEvent,
  FileCloseEvent,
  FileOversizeEvent,
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
export { isArchiveStorage, isStorage } from './storage/storage.js';
export { isStorageBackend } from './storage/backend.js';
export type { QuarantinedVersion, StorageBackend, StoredRecord, StoredVersion, VersionText } from './storage/backend.js';
export { createMemoryBackend } from './storage/memory.js';
export { createVersionedStorage } from './storage/versioned.js';
export type { VersionRecovery, VersionedStorageOptions } from './storage/versioned.js';
export type { ArchiveGroup, SaveSnapshotOptions, SessionSnapshot, Storage, VersionInfo } from './storage/storage.js';
export { createBoundaryDetector } from './boundaries/boundary-detector.js';
// The factory's plain-object result, named apart from the BoundaryDetector class.
export type { BoundaryDetector as EntryGapScorer, BoundaryDetectorOptions as CreateBoundaryDetectorOptions, BoundaryScore, BoundaryStrength } from './boundaries/boundary-detector.js';
export { BoundaryDetector } from './boundaries/boundary-detector-class.js';
export type { BoundaryDetectorOptions, BoundaryItem } from './boundaries/boundary-detector-class.js';
export { mergePatternPacks } from './boundaries/pattern-pack.js';
export type { PatternPack } from './boundaries/pattern-pack.js';
export { englishPatterns } from './boundaries/patterns/en.js';
export { vietnamesePatterns } from './boundaries/patterns/vi.js';
export { defaultPatterns } from './boundaries/patterns/default.js';
export { createScratchpad, replayPatches } from './scratchpad/scratchpad.js';
// The factory's plain-object result and options, named apart from the Scratchpad class.
export type {
  Scratchpad as ScratchpadState,
  ScratchpadCloseResult,
  ScratchpadData,
  ScratchpadFileHistory,
  ScratchpadOpenResult,
  ScratchpadOptions as CreateScratchpadOptions,
  ScratchpadUpdateResult,
} from './scratchpad/scratchpad.js';
export type { DiffRecord } from './scratchpad/diff-record.js';
export { Scratchpad } from './scratchpad/scratchpad-class.js';
export type { ScratchpadOptions, ScratchpadPosition } from './scratchpad/scratchpad-class.js';
export { TierStore } from './tiers/tier-store-class.js';
export type { TierStoreOptions, TierStoreSnapshot } from './tiers/tier-store-class.js';
export { GRADUATOR_DEFAULTS, Graduator } from './graduation/graduator.js';
export type { GraduationEvent, GraduationReporter, GraduationSubject, GraduatorOptions } from './graduation/graduator.js';
export type { TierLimits } from './graduation/tier-limits.js';
export { admitFacts, hasJudgedFacts, markFactsJudged } from './graduation/fact-admission.js';
export type { FactAdmission, RejectedFact } from './graduation/fact-admission.js';
export type { FactRejection } from './language/fact-worth.js';
export { withFallback, withRetry, withSizeLimit, withTimeout, withValidation, wrapSummarizer } from './summarizer/summarizer-middleware.js';
export type { SummarizerFailureReason, SummarizerMiddleware } from './summarizer/summarizer-middleware.js';
// The session view, window builder internals and the manager's own wiring (recorder, persistence,
// graduation queue) are deliberately not exported: their shapes may change between minors.

import { MAX_TAIL_BUDGETS } from './build/graduated-tail.js';
import { createBoundaryDetector, scoreGapsShared } from './boundaries/boundary-detector.js';
import { matcherFor } from './boundaries/pattern-pack.js';
import { defaultPatterns } from './boundaries/patterns/default.js';
import { isBuildPathCold, warmUpBuildPath } from './build/warm-up.js';
import { createWindowBuilder } from './build/window-builder.js';
import type { EventRelay } from './event-relay.js';
import { GraduationQueue } from './graduation/graduation-queue.js';
import { Graduator } from './graduation/graduator.js';
import type { ResolvedOptions } from './options.js';
import { AutoSavePolicy } from './persistence/auto-save-policy.js';
import { SessionPersistence } from './persistence/session-persistence.js';
import { SessionRecorder } from './session-recorder.js';
import type { SessionViewData } from './session-view.js';
import { MobiusError } from './errors.js';
import { storageError } from './persistence/snapshot-format.js';
import { isArchiveStorage } from './storage/storage.js';
import type { ArchiveLoader } from './tiers/archive-reader.js';
import { readArchiveGroups } from './tiers/archive-reader.js';
import { createBm25Retriever } from './tiers/recall.js';
import { RecallIndex } from './tiers/recall-index.js';
import type { TokenCounter } from './tokens/token-counter.js';
import { createTokenCounter } from './tokens/token-counter.js';

/** The components one session is made of, wired together. @internal */
export interface SessionComponents {
  readonly counter: TokenCounter;
  readonly recorder: SessionRecorder;
  readonly persistence: SessionPersistence;
  readonly graduations: GraduationQueue;
  readonly recall: RecallIndex;
  readonly builder: ReturnType<typeof createWindowBuilder>;
  /** Reads spilled archive groups back from storage. */
  readonly loadSpilled: ArchiveLoader;
  /**
   * Asks for the build preparation of the entries recorded since (boundary features, gap scores,
   * T0 units) to run at the start of the next `settle()`, ahead of any graduation queued after
   * it. `build()` does the same work itself when it comes first; windows are the same either way.
   */
  prepareBuild(): void;
}

/**
 * Wires the components of a session from resolved options: one boundary detector shared by the
 * Graduator and the window builder, the graduation queue that persistence waits for, and the
 * recorder that commits events to the view and hands them to persistence. Does no I/O.
 * @internal
 */
export function createSessionComponents(options: { options: ResolvedOptions; events: EventRelay; initialState: SessionViewData | undefined }): SessionComponents {
  const { options: resolved, events } = options;
  const counter = resolved.tokenCounter ?? createTokenCounter({ model: resolved.model });
  const patterns = resolved.patterns ?? defaultPatterns;
  const detector = createBoundaryDetector({ patterns });
  const graduator = new Graduator({
    boundaryDetector: detector,
    summarizer: resolved.summarizer,
    patterns,
    tokenCounter: counter,
    timeoutMs: resolved.summarizerTimeoutMs,
    retries: resolved.summarizerRetries,
    factAdmission: resolved.factAdmission,
    graduationTarget: resolved.graduationTarget,
    maxSummaryRatio: resolved.maxSummaryRatio,
  });
  // Set below: the builder does ahead, after each graduation, what the next build would do first.
  let afterGraduation: (() => void) | undefined;
  const graduations = new GraduationQueue({ graduator, events, afterGraduation: () => afterGraduation?.() });
  const storage = resolved.storage;
  if ((options.initialState?.tiers.archiveSpilled ?? []).length > 0 && (storage === undefined || !isArchiveStorage(storage))) {
    throw new MobiusError('UNSUPPORTED', `new ContextManager(): the saved state has archive groups spilled to storage, but ${storage === undefined ? 'no `storage` is configured' : `storage "${storage.name}" has no appendArchive()/readArchive()`}. Load the session with the storage that spilled them.`);
  }
  const loadSpilled: ArchiveLoader = async (seqs) => {
    if (storage === undefined || !isArchiveStorage(storage)) return [];
    try {
      return await storage.readArchive(resolved.sessionId, { seqs });
    } catch (error) {
      if (MobiusError.isInstance(error)) throw error;
      throw storageError(storage, 'readArchive', error);
    }
  };
  // The recorder is created after persistence, which snapshots the recorder's view when saving.
  let recorder: SessionRecorder | undefined;
  const archive = () => (recorder as SessionRecorder).view.tiers.archive;
  const recall = new RecallIndex({
    retriever: resolved.retriever ?? createBm25Retriever(),
    counter,
    read: (seqs) => readArchiveGroups({ archive: archive(), load: loadSpilled, seqs }),
  });
  const persistence = new SessionPersistence({
    storage: resolved.storage,
    options: resolved,
    events,
    policy: resolved.autoSave === false ? undefined : new AutoSavePolicy({ autoSave: resolved.autoSave, matcher: matcherFor(patterns) }),
    work: graduations.queue,
    snapshot: () => {
      const view = (recorder as SessionRecorder).view;
      return { seq: view.lastSeq, state: view.toJSON() };
    },
    spill: resolved.archive === undefined ? undefined : { memoryItems: resolved.archive.memoryItems, keepEntryTokens: MAX_TAIL_BUDGETS * resolved.budget, archive },
  });
  recorder = new SessionRecorder({ options: resolved, counter, events, persistence, recall, initialState: options.initialState });
  if (resolved.projectMemory !== undefined && options.initialState === undefined) recorder.importProjectMemory(resolved.projectMemory);
  const builder = createWindowBuilder({ counter, systemPrompt: resolved.systemPrompt, budgets: resolved.budgets, scoreGaps: (entries) => scoreGapsShared(detector, entries), speedUp: (task) => graduations.speedUp(task), budget: resolved.budget });
  afterGraduation = () => builder.prepareAfterGraduation((recorder as SessionRecorder).view.tiers);
  // The first session of a process compiles the build path in the background, not in its first build().
  if (isBuildPathCold()) graduations.speedUp(() => warmUpBuildPath({ scoreGaps: (entries) => scoreGapsShared(detector, entries) }));
  // One function object, so that the queue runs it once however many records ask for it.
  const prepare = (): void => builder.prepare((recorder as SessionRecorder).view.tiers);
  return { counter, recorder, persistence, graduations, recall, builder, loadSpilled, prepareBuild: () => graduations.speedUpLater(prepare) };
}

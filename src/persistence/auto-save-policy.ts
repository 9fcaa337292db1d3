import type { PatternMatcher } from '../boundaries/pattern-pack.js';
import type { AutoSaveReason, PressureEvent } from '../events.js';
import type { ResolvedOptions } from '../options.js';
import type { SessionEvent } from '../session-event.js';

/** What the policy decided for one recorded event. @internal */
export interface AutoSaveDecision {
  /** Why to save now, or `undefined` to not save. */
  readonly reason: AutoSaveReason | undefined;
  /** Set when the window just passed the pressure threshold. */
  readonly pressure: PressureEvent | undefined;
}

/**
 * Decides when a manager with storage saves by itself (seed 003's triggers): a message that says
 * the user is leaving, a task is done or a decision was made (the pattern pack's `leaving`,
 * `completion` and `decision` groups, in any of its languages), every N messages, or the window
 * passing a share of its budget.
 * @internal
 */
export class AutoSavePolicy {
  readonly #options: Exclude<ResolvedOptions['autoSave'], false>;
  readonly #matcher: PatternMatcher;
  #messagesSinceSave = 0;
  #isUnderPressure = false;

  constructor(options: { autoSave: Exclude<ResolvedOptions['autoSave'], false>; matcher: PatternMatcher }) {
    this.#options = options.autoSave;
    this.#matcher = options.matcher;
  }

  /** Whether a full snapshot is due, given the bytes appended since the last one and its size. */
  isSnapshotDue(options: { journalBytes: number; snapshotBytes: number }): boolean {
    return options.journalBytes >= options.snapshotBytes * this.#options.snapshotGrowth;
  }

  /** Decides for a committed event, given the window's estimated size and budget. */
  check(options: { event: SessionEvent; tokens: () => number; budget: number }): AutoSaveDecision {
    const { event } = options;
    const autoSave = this.#options;
    let reason: AutoSaveReason | undefined;
    if (event.type === 'message' && event.content.length > 0) {
      this.#messagesSinceSave += 1;
      // Trigger wording sits at the start of a message; a long paste is not scanned in full.
      const text = event.content.length > MAX_SCANNED_CHARS ? event.content.slice(0, MAX_SCANNED_CHARS) : event.content;
      if (autoSave.onLeaving && event.role === 'user' && this.#matcher.test('leaving', text)) reason = 'leaving';
      else if (autoSave.onTaskDone && this.#matcher.test('completion', text)) reason = 'task-done';
      else if (autoSave.onDecision && this.#matcher.test('decision', text)) reason = 'decision';
      else if (autoSave.everyMessages > 0 && this.#messagesSinceSave >= autoSave.everyMessages) reason = 'every-messages';
    }
    let pressure: PressureEvent | undefined;
    if (autoSave.pressureThreshold > 0) {
      const tokens = options.tokens();
      const ratio = tokens / options.budget;
      const isOver = ratio > autoSave.pressureThreshold;
      if (isOver && !this.#isUnderPressure) {
        pressure = { tokens, budget: options.budget, ratio };
        reason ??= 'pressure';
      }
      this.#isUnderPressure = isOver;
    }
    return { reason, pressure };
  }

  /** Restarts the message count after a save. */
  saved(): void {
    this.#messagesSinceSave = 0;
  }
}

// --- Internal helpers ---

const MAX_SCANNED_CHARS = 4_000;

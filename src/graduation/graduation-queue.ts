import PQueue from 'p-queue';
import type { EventRelay } from '../event-relay.js';
import type { ContextEvents } from '../events.js';
import { MobiusError } from '../errors.js';
import type { GraduationReporter, GraduationSubject, Graduator } from './graduator.js';

/**
 * A session's background graduation work: one graduation run at a time, on a `p-queue`, started
 * after the recording call that made a tier exceed its limit. What the run reports becomes the
 * manager's events; a failed run becomes `graduation-error` (nothing was committed by it).
 * @internal
 */
export class GraduationQueue {
  /** The queue itself: persistence waits for it to be idle before it saves. */
  readonly queue: PQueue = new PQueue({ concurrency: 1 });
  readonly #graduator: Graduator;
  readonly #events: EventRelay;
  readonly #reporter: GraduationReporter;
  // Graduation runs queued or running: speed-up tasks on the same queue do not count.
  #graduations = 0;
  readonly #waitingSpeedUps = new Set<() => void>();
  // Speed-ups asked for by recording calls, not yet on the queue (see speedUpLater).
  readonly #laterSpeedUps = new Set<() => void>();
  readonly #afterGraduation: (() => void) | undefined;

  constructor(options: {
    graduator: Graduator;
    events: EventRelay;
    /** Speed-up work (see {@link GraduationQueue.speedUp}) to run after each graduation run. */
    afterGraduation?: (() => void) | undefined;
  }) {
    this.#graduator = options.graduator;
    this.#afterGraduation = options.afterGraduation;
    const events = (this.#events = options.events);
    const background = <K extends 'summary-trim' | 'graduation-stall'>(name: K, payload: ContextEvents[K][0]): void => {
      events.emit(name, payload);
      events.reportBackground();
    };
    this.#reporter = {
      start: (event) => events.emit('graduation-start', event),
      fallback: (event) => events.emit('summarizer-fallback', event),
      trim: (event) => background('summary-trim', event),
      stall: (event) => background('graduation-stall', event),
    };
  }

  /** Schedules a graduation run unless one is queued or running, or no tier is over its limit. */
  schedule(subject: GraduationSubject): void {
    const queue = this.queue;
    if (this.#graduations > 0 || this.#graduator.tierToGraduate(subject) === undefined) return;
    // Speed-ups asked for before this run go first, as if queued when asked for.
    this.queueLaterSpeedUps();
    this.#graduations += 1;
    void queue.add(async () => {
      // p-queue starts a task at once: yield so that graduation runs after the recording call.
      await Promise.resolve();
      try {
        await this.#graduator.graduate({ subject, reporter: this.#reporter });
      } catch (error) {
        const wrapped = MobiusError.isInstance(error) ? error : new MobiusError('GRADUATION_FAILED', String(error), { cause: error });
        this.#events.emit('graduation-error', { error: wrapped, isCommitted: false });
        this.#events.reportBackground();
      } finally {
        this.#graduations -= 1;
        this.queueLaterSpeedUps();
        if (this.#afterGraduation !== undefined) this.speedUp(this.#afterGraduation);
      }
    });
  }

  /**
   * Runs `task` on the queue after the current call, so that `settle()` waits for it: work that
   * only makes a later `build()` faster (its result is what build() would compute itself) and
   * changes no state a window is made from. A task asked for again while it waits runs once, so
   * it must do all the work pending when it runs.
   */
  speedUp(task: () => void): void {
    if (this.#waitingSpeedUps.has(task)) return;
    this.#waitingSpeedUps.add(task);
    void this.queue.add(async () => {
      await Promise.resolve();
      this.#waitingSpeedUps.delete(task);
      try {
        task();
      } catch {
        // The same work runs again in build(), which reports what goes wrong there.
      }
    });
  }

  /**
   * Asks for a {@link GraduationQueue.speedUp} that is queued only when {@link queueLaterSpeedUps}
   * runs (at the start of `settle()`) or before the next graduation run is queued, whichever comes
   * first: a recording call asks for the build preparation every time, and a set insertion costs
   * it far less than a queue task.
   */
  speedUpLater(task: () => void): void {
    this.#laterSpeedUps.add(task);
  }

  /** Queues the speed-ups asked for with {@link speedUpLater}, in the order asked. */
  queueLaterSpeedUps(): void {
    if (this.#laterSpeedUps.size === 0) return;
    const tasks = [...this.#laterSpeedUps];
    this.#laterSpeedUps.clear();
    for (const task of tasks) this.speedUp(task);
  }
}

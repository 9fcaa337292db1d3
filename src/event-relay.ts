import type { EventEmitter } from 'eventemitter3';
import { MobiusError } from './errors.js';
import type { ContextEvents } from './events.js';

/**
 * Emits a manager's events after their state change is committed. A listener that throws must not
 * stop the rest of the work (eviction, graduation scheduling): its error is kept and rethrown to
 * the caller at the end of the public method, or, for background work that has no caller,
 * reported as a `graduation-error` with code `LISTENER_FAILED`.
 * @internal
 */
export class EventRelay {
  readonly #emitter: EventEmitter<ContextEvents>;
  #errors: unknown[] = [];

  constructor(emitter: EventEmitter<ContextEvents>) {
    this.#emitter = emitter;
  }

  /** Emits a frozen copy of `payload`; a listener's error is kept for later. */
  readonly emit = <K extends keyof ContextEvents>(name: K, payload: ContextEvents[K][0]): void => {
    // Recording emits for every event: without a listener there is nothing to copy.
    if (this.#emitter.listenerCount(name) === 0) return;
    try {
      this.#emitter.emit(name, ...([Object.freeze({ ...payload })] as unknown as EventEmitter.EventArgs<ContextEvents, K>));
    } catch (error) {
      this.#errors.push(error);
    }
  };

  /** Throws the first error a listener threw since the last call, if any. */
  readonly rethrow = (): void => {
    if (this.#errors.length === 0) return;
    const [first] = this.#errors;
    this.#errors = [];
    throw first;
  };

  /** Forgets the listener errors kept so far (their work reported its own outcome). */
  readonly clear = (): void => {
    this.#errors = [];
  };

  /** Reports kept listener errors as `graduation-error` events: background work has no caller. */
  readonly reportBackground = (): void => {
    const errors = this.#errors;
    this.#errors = [];
    for (const error of errors) {
      const wrapped = new MobiusError('LISTENER_FAILED', `a listener threw while Mobius reported background work (the change was committed): ${error instanceof Error ? error.message : String(error)}. Make event listeners catch their own errors.`, { cause: error });
      try {
        this.#emitter.emit('graduation-error', Object.freeze({ error: wrapped, isCommitted: true }));
      } catch {
        // A graduation-error listener that throws has nowhere left to report to.
      }
    }
  };
}

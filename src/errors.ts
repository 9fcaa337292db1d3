const MARKER: unique symbol = Symbol.for('mobius-context.error');

/** Machine-readable codes carried by every {@link MobiusError}. */
export type ErrorCode =
  | 'INVALID_ARGUMENT'
  | 'BUDGET_TOO_SMALL'
  | 'UNKNOWN_FILE'
  | 'UNKNOWN_TOOL_CALL'
  | 'UNSUPPORTED'
  | 'STORAGE_FAILED'
  | 'SUMMARIZER_FAILED'
  | 'CORRUPT_STATE'
  | 'CONFLICT'
  | 'GRADUATION_FAILED'
  | 'LISTENER_FAILED'
  | 'ARCHIVE_SPILLED';

/**
 * Base class of every error Mobius throws. Test with `MobiusError.isInstance(error)`, which also
 * works across duplicate installs of the package.
 */
export class MobiusError extends Error {
  override name = 'MobiusError';
  /** What went wrong, for programs: branch on this rather than on the message. */
  readonly code: ErrorCode;
  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(`[mobius] ${message}`, options);
    this.code = code;
    // A registry symbol, not `instanceof`: survives duplicate installs of the package.
    Object.defineProperty(this, MARKER, { value: true });
  }

  /** Tells whether `error` is any error thrown by Mobius. */
  static isInstance(error: unknown): error is MobiusError {
    return typeof error === 'object' && error !== null && MARKER in error;
  }
}

/** Thrown when an argument or option is invalid; nothing was changed. */
export class InvalidArgumentError extends MobiusError {
  override name = 'InvalidArgumentError';
  /** The parameter (or option path) that was wrong. */
  readonly parameter: string;
  /** The value that was given. */
  readonly value: unknown;
  constructor(options: {
    parameter: string;
    value: unknown;
    message: string;
    code?: 'INVALID_ARGUMENT' | 'BUDGET_TOO_SMALL' | 'UNKNOWN_FILE' | 'UNKNOWN_TOOL_CALL';
    cause?: unknown;
  }) {
    super(options.code ?? 'INVALID_ARGUMENT', options.message, { cause: options.cause });
    this.parameter = options.parameter;
    this.value = options.value;
  }

  /** Tells whether `error` is an {@link InvalidArgumentError}. */
  static override isInstance(error: unknown): error is InvalidArgumentError {
    return MobiusError.isInstance(error) && error.name === 'InvalidArgumentError';
  }
}

/** Thrown when a {@link Storage} call fails; the in-memory state is unchanged. */
export class StorageError extends MobiusError {
  override name = 'StorageError';
  /** The `name` of the storage that failed. */
  readonly storage: string;
  /** The storage method that failed, e.g. `"append"`. */
  readonly operation: string;
  constructor(options: { storage: string; operation: string; message: string; cause?: unknown }) {
    super('STORAGE_FAILED', options.message, { cause: options.cause });
    this.storage = options.storage;
    this.operation = options.operation;
  }

  /** Tells whether `error` is a {@link StorageError}. */
  static override isInstance(error: unknown): error is StorageError {
    return MobiusError.isInstance(error) && error.code === 'STORAGE_FAILED';
  }
}

/** Describes a summarizer failure; graduation falls back to the extractive summarizer. */
export class SummarizerError extends MobiusError {
  override name = 'SummarizerError';
  /** The `name` of the summarizer that failed. */
  readonly summarizer: string;
  /** What it was asked to do: summarise a chunk of T0 or consolidate T1 summaries. */
  readonly mode: 'chunk' | 'consolidate' | undefined;
  /** The sequence range of the request. */
  readonly source: { readonly from: number; readonly to: number } | undefined;
  /** How it failed, when known: it threw, timed out, returned invalid output or too large a summary. */
  readonly reason: 'threw' | 'timeout' | 'invalid-output' | 'oversized' | undefined;
  constructor(options: {
    summarizer: string;
    message: string;
    mode?: 'chunk' | 'consolidate' | undefined;
    source?: { readonly from: number; readonly to: number } | undefined;
    reason?: 'threw' | 'timeout' | 'invalid-output' | 'oversized' | undefined;
    cause?: unknown;
  }) {
    super('SUMMARIZER_FAILED', options.message, { cause: options.cause });
    this.summarizer = options.summarizer;
    this.mode = options.mode;
    this.source = options.source;
    this.reason = options.reason;
  }

  /** Tells whether `error` is a {@link SummarizerError}. */
  static override isInstance(error: unknown): error is SummarizerError {
    return MobiusError.isInstance(error) && error.code === 'SUMMARIZER_FAILED';
  }
}

/** Thrown when persisted state cannot be read or has the wrong shape or version. */
export class CorruptStateError extends MobiusError {
  override name = 'CorruptStateError';
  /** The format version found, when one could be read. */
  readonly version: number | undefined;
  constructor(options: { message: string; version?: number | undefined; cause?: unknown }) {
    super('CORRUPT_STATE', options.message, { cause: options.cause });
    this.version = options.version;
  }

  /** Tells whether `error` is a {@link CorruptStateError}. */
  static override isInstance(error: unknown): error is CorruptStateError {
    return MobiusError.isInstance(error) && error.code === 'CORRUPT_STATE';
  }
}

/**
 * Thrown when another writer saved the same session first (optimistic concurrency). Nothing this
 * manager recorded is lost: load the session again and re-apply the events it recorded since.
 */
export class ConflictError extends MobiusError {
  override name = 'ConflictError';
  /** The `name` of the storage that detected the conflict. */
  readonly storage: string;
  /** The version (or last seq) the writer expected. */
  readonly expected: number;
  /** The version (or last seq) found in storage. */
  readonly actual: number;
  constructor(options: { storage: string; expected: number; actual: number; message: string; cause?: unknown }) {
    super('CONFLICT', options.message, { cause: options.cause });
    this.storage = options.storage;
    this.expected = options.expected;
    this.actual = options.actual;
  }

  /** Tells whether `error` is a {@link ConflictError}. */
  static override isInstance(error: unknown): error is ConflictError {
    return MobiusError.isInstance(error) && error.code === 'CONFLICT';
  }
}

/** Formats a value for an error message: `` `-5` (number) ``. */
export function describeValue(value: unknown): string {
  let shown: string;
  if (typeof value === 'string') {
    shown = value.length > 60 ? `${JSON.stringify(value.slice(0, 60))}…` : JSON.stringify(value);
  } else if (typeof value === 'function') {
    shown = 'function';
  } else {
    try {
      shown = JSON.stringify(value) ?? String(value);
    } catch {
      shown = String(value);
    }
    if (shown.length > 80) shown = `${shown.slice(0, 80)}…`;
  }
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  return `\`${shown}\` (${type})`;
}

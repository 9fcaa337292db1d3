import { describe, expect, it } from 'vitest';
import { ContextManager, CorruptStateError, InvalidArgumentError, MobiusError, StorageError, SummarizerError, createMemoryStorage } from '../../src/index.js';

function caught(action: () => unknown): MobiusError {
  try {
    action();
  } catch (error) {
    if (MobiusError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a throw');
}

describe('MobiusError', () => {
  it('is recognised by isInstance across subclasses, with a code and the [mobius] prefix', () => {
    const error = new StorageError({ storage: 'fs', operation: 'save', message: 'x' });
    expect(MobiusError.isInstance(error)).toBe(true);
    expect(StorageError.isInstance(error)).toBe(true);
    expect(SummarizerError.isInstance(error)).toBe(false);
    expect(error.message.startsWith('[mobius] ')).toBe(true);
    expect(MobiusError.isInstance(new Error('plain'))).toBe(false);
  });

  it('INVALID_ARGUMENT says what was wrong, the value, and how to fix it', () => {
    const error = caught(() => new ContextManager().build({ budget: -5 }));
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect(error.code).toBe('INVALID_ARGUMENT');
    expect(error.message).toContain('build()');
    expect(error.message).toContain('`-5` (number)');
    expect(error.message).toContain('Example: build({ budget: 28_000 })');
  });

  it('UNKNOWN_FILE tells to open the file first', () => {
    const error = caught(() => new ContextManager().updateFile({ path: 'a.ts', content: '' }));
    expect(error.code).toBe('UNKNOWN_FILE');
    expect(error.message).toContain('Open it first');
  });

  it('CORRUPT_STATE names the session and says how to recover', async () => {
    const storage = createMemoryStorage();
    await storage.saveSnapshot('s1', { formatVersion: 99, seq: 0, state: {} });
    const error = await ContextManager.load({ storage, sessionId: 's1' }).catch((reason: unknown) => reason);
    expect(CorruptStateError.isInstance(error)).toBe(true);
    expect((error as CorruptStateError).version).toBe(99);
    expect((error as Error).message).toContain('start a new session id');
  });

  it('refuses a session id with path separators', () => {
    expect(() => new ContextManager({ sessionId: '../etc' })).toThrow(InvalidArgumentError);
  });
});

describe('factory validation', () => {
  it('rejects invalid factory options with a typed error and an example', async () => {
    const { createTokenCounter, createExtractiveSummarizer, createBoundaryDetector } = await import('../../src/index.js');
    expect(() => createTokenCounter({ encoding: 'p50k' as never })).toThrow(/createTokenCounter\(\): invalid input at `encoding`/);
    expect(() => createMemoryStorage({ nam: 'x' } as never)).toThrow(InvalidArgumentError);
    expect(() => createExtractiveSummarizer({ patterns: { completion: [''] } as never })).toThrow(/PatternPack/);
    expect(() => createBoundaryDetector({ patterns: 5 as never })).toThrow(/Example: createBoundaryDetector/);
  });
});

import { describe, expectTypeOf, it } from 'vitest';
import { ContextManager } from '../../src/index.js';
import type { ConflictError, GraduationStallEvent, SettleResult, StorageError, SummaryTrimEvent } from '../../src/index.js';

describe('durability and fault types', () => {
  it('types what settle() reports', () => {
    const manager = new ContextManager();
    expectTypeOf(manager.settle()).toEqualTypeOf<Promise<SettleResult>>();
    expectTypeOf<SettleResult['error']>().toEqualTypeOf<StorageError | ConflictError | undefined>();
    expectTypeOf<SettleResult['pendingEvents']>().toEqualTypeOf<number>();
  });

  it('types the fault events by name', () => {
    const manager = new ContextManager();
    manager.on('graduation-stall', (event) => expectTypeOf(event).toEqualTypeOf<GraduationStallEvent>());
    manager.on('graduation-stall', (event) => expectTypeOf(event.reason).toEqualTypeOf<'no-allowed-cut' | 'no-shrink' | 'fully-consolidated'>());
    manager.on('summary-trim', (event) => expectTypeOf(event).toEqualTypeOf<SummaryTrimEvent>());
    manager.on('storage-error', (event) => expectTypeOf(event.pendingEvents).toEqualTypeOf<number>());
    manager.on('summarizer-fallback', (event) => expectTypeOf(event.reason).toEqualTypeOf<'threw' | 'timeout' | 'invalid-output' | 'oversized'>());
    manager.on('file-update', (event) => expectTypeOf(event.isDiffSkipped).toEqualTypeOf<boolean>());
    manager.on('session-save', (event) => expectTypeOf(event.isSnapshot).toEqualTypeOf<boolean>());
    // @ts-expect-error: the stall event names the tier, not a path
    manager.on('graduation-stall', (event) => event.path);
  });

  it('types the new options', () => {
    // @ts-expect-error: pathCase is 'sensitive' or 'insensitive'
    new ContextManager({ pathCase: 'ignore' });
    new ContextManager({ maxSummaryRatio: 0.8, maxDiffBytes: 1_000, storageRetry: false, autoSave: { snapshotGrowth: 2 } });
  });
});

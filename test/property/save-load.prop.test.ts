import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContextManager, createMemoryStorage } from '../../src/index.js';
import { applyOperations } from '../../src/testing/index.js';
import { PROPERTY_RUNS, createSmallManager } from '../helpers.js';
import { sessions } from './run-session.js';

const SMALL = { budget: 3_000, budgets: { facts: 400, pins: 200, summaries: 250, scratchpad: 1_200, working: 600 }, maxEntryTokens: 200 } as const;

describe('invariant 6: save → load round-trips', () => {
  it('to an equal state and the same build() output, with events recorded after the save replayed', async () => {
    await fc.assert(
      fc.asyncProperty(sessions, fc.nat(), async (operations, split) => {
        const storage = createMemoryStorage();
        const manager = createSmallManager({ storage, sessionId: 'p', autoSave: false });
        const cut = operations.length === 0 ? 0 : split % (operations.length + 1);
        applyOperations(manager, operations.slice(0, cut));
        await manager.save();
        applyOperations(manager, operations.slice(cut));
        await manager.settle();
        const loaded = await ContextManager.load({ ...SMALL, storage, sessionId: 'p', autoSave: false });
        expect(loaded.state()).toEqual(manager.state());
        expect(JSON.stringify(loaded.build())).toBe(JSON.stringify(manager.build()));
      }),
      { numRuns: PROPERTY_RUNS, timeout: 20_000, endOnFailure: true },
    );
  });
});

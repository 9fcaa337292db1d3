import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countMessageTokens } from '../../src/index.js';
import { PROPERTY_RUNS } from '../helpers.js';
import { runSession, sessions } from './run-session.js';

describe('invariant 1: build() stays within its budget', () => {
  it('for any event sequence and any budget that holds the prefix', async () => {
    await fc.assert(
      fc.asyncProperty(sessions, fc.integer({ min: 8, max: 4_000 }), async (operations, budget) => {
        const { manager } = await runSession(operations);
        const built = manager.build({ budget });
        expect(built.tokens.total).toBeLessThanOrEqual(budget);
        expect(countMessageTokens(built.messages, manager.tokenCounter)).toBeLessThanOrEqual(budget);
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });

  it('also while a graduation is still in flight', async () => {
    await fc.assert(
      fc.asyncProperty(sessions, async (operations) => {
        const { manager } = await runSession([]);
        const { applyOperations } = await import('../../src/testing/index.js');
        applyOperations(manager, operations);
        const built = manager.build();
        expect(countMessageTokens(built.messages, manager.tokenCounter)).toBeLessThanOrEqual(manager.budgets.total);
        await manager.settle();
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });
});

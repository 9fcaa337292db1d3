import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMockSummarizer } from '../../src/testing/index.js';
import { applyOperations } from '../../src/testing/index.js';
import { PROPERTY_RUNS, createSmallManager } from '../helpers.js';
import { sessions } from './run-session.js';

const factUpdate = fc.record({
  key: fc.constantFrom('db-timeout', 'cache-ttl', 'id-format', 'node-version'),
  category: fc.constantFrom('decisions' as const, 'constraints' as const),
  value: fc.lorem({ maxCount: 6 }).filter((value) => value.trim().length > 0),
});

describe('invariant 5: one value per key, newest wins; pins survive', () => {
  it('holds for any sequence of fact updates across graduations', async () => {
    await fc.assert(
      fc.asyncProperty(sessions, fc.array(fc.array(factUpdate, { maxLength: 4 }), { minLength: 1, maxLength: 8 }), async (operations, batches) => {
        const summarizer = createMockSummarizer(batches.map((facts) => ({ summary: 'Summary of a chunk.', facts })));
        const manager = createSmallManager({ summarizer });
        const model = applyOperations(manager, operations);
        await manager.settle();
        const state = manager.state();
        const keys = state.facts.map((fact) => fact.key);
        expect(new Set(keys).size).toBe(keys.length);
        // The value of each key is the newest one the summarizer returned for it.
        const calls = summarizer.calls.length;
        const applied = batches.slice(0, calls).concat(calls > batches.length ? Array.from({ length: calls - batches.length }, () => batches[batches.length - 1] ?? []) : []);
        const newest = new Map<string, string>();
        for (const batch of applied) for (const update of batch) newest.set(update.key, update.value.trim());
        for (const fact of state.facts) expect(fact.value).toBe(newest.get(fact.key));
        for (const pinId of model.pinIds) expect(state.pins.some((pin) => pin.id === pinId)).toBe(true);
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyOperations, arbitraries } from '../../src/testing/index.js';
import { createSmallManager } from '../helpers.js';

// build() keeps T0 units, boundary scores and history messages from one build to the next and
// extends them with what was recorded since. A manager that builds after every operation must
// give the same windows as one that builds only now and then (its caches jump many entries at
// once, or start over after a graduation).
const RUNS = Math.max(10, Math.floor(Number(process.env['MOBIUS_PROPERTY_RUNS'] ?? 1_000) / 40));

describe('incremental build()', () => {
  it('builds the same window as a manager that builds only at some of the same points', async () => {
    const operations = arbitraries.operations({ maxLength: 40, hasHugeStrings: false });
    await fc.assert(
      fc.asyncProperty(operations, fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }), async (steps, checkpoints) => {
        const everyStep = createSmallManager();
        const sometimes = createSmallManager();
        for (const [index, step] of steps.entries()) {
          applyOperations(everyStep, [step]);
          applyOperations(sometimes, [step]);
          await everyStep.settle();
          const built = everyStep.build();
          if (checkpoints[index] === true || index === steps.length - 1) {
            await sometimes.settle();
            expect(JSON.stringify(sometimes.build())).toBe(JSON.stringify(built));
          }
        }
      }),
      { numRuns: RUNS },
    );
  });
});

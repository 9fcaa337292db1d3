import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyOperations, arbitraries, assertProviderValid } from '../../src/testing/index.js';
import { createSmallManager } from '../helpers.js';

// build() keeps T0 units, boundary scores and history messages from one build to the next and
// extends them with what was recorded since. A manager that builds after every operation must
// give the same system blocks as one that builds only now and then (its caches jump many entries
// at once, or start over after a graduation). The history may differ by design: the room fill
// (graduated turns shown again, longer forms of cut entries) keeps the previous build's choice
// while it fits, for prompt-cache reuse, so it depends on when builds ran; both must be windows a
// provider accepts, within budget.
const RUNS = Math.max(10, Math.floor(Number(process.env['MOBIUS_PROPERTY_RUNS'] ?? 1_000) / 40));

describe('incremental build()', () => {
  it('builds the same system blocks as a manager that builds only at some of the same points', async () => {
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
            const other = sometimes.build();
            expect(JSON.stringify(other.systemBlocks)).toBe(JSON.stringify(built.systemBlocks));
            expect(other.system).toBe(built.system);
            for (const window of [built, other]) {
              assertProviderValid(window);
              expect(window.tokens.total).toBeLessThanOrEqual(window.tokens.budget);
            }
          }
        }
      }),
      { numRuns: RUNS },
    );
  });
});

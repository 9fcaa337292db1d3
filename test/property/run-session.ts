import fc from 'fast-check';
import type { ContextManager } from '../../src/index.js';
import { applyOperations, arbitraries } from '../../src/testing/index.js';
import type { OperationModel, SessionOperation } from '../../src/testing/index.js';
import { createSmallManager } from '../helpers.js';

/** Generated sessions used by the property tests. */
export const sessions: fc.Arbitrary<SessionOperation[]> = arbitraries.operations({ maxLength: 40 });

/** Replays a generated session on a small manager (tiers fill quickly) and waits for graduation. */
export async function runSession(operations: readonly SessionOperation[]): Promise<{ manager: ContextManager; model: OperationModel }> {
  const manager = createSmallManager();
  const model = applyOperations(manager, operations);
  await manager.settle();
  return { manager, model };
}

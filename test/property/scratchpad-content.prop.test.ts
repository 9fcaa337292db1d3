import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { replayPatches } from '../../src/index.js';
import { PROPERTY_RUNS } from '../helpers.js';
import { runSession, sessions } from './run-session.js';

describe('invariant 3: the scratchpad holds the last content given', () => {
  it('and replaying the diff records from the opened content reproduces it', async () => {
    await fc.assert(
      fc.asyncProperty(sessions, async (operations) => {
        const { manager, model } = await runSession(operations);
        for (const file of manager.state().files) {
          expect(file.content).toBe(model.lastContent.get(file.path));
          const history = manager.fileHistory({ path: file.path });
          expect(replayPatches(history.openContent, history.patches)).toBe(file.content);
        }
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });
});

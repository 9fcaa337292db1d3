import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROPERTY_RUNS } from '../helpers.js';
import { runSession, sessions } from './run-session.js';

describe('invariant 7: determinism', () => {
  it('the same events with the extractive summarizer give the same context and state', async () => {
    await fc.assert(
      fc.asyncProperty(sessions, async (operations) => {
        const first = await runSession(operations);
        const second = await runSession(operations);
        expect(JSON.stringify(second.manager.build())).toBe(JSON.stringify(first.manager.build()));
        expect(second.manager.state()).toEqual(first.manager.state());
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });
});

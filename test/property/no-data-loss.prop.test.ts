import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROPERTY_RUNS } from '../helpers.js';
import { runSession, sessions } from './run-session.js';

describe('invariant 2: no data loss', () => {
  it('every recorded entry is in T0 or archived, cited by a summary that covers it and reachable through expand()', async () => {
    await fc.assert(
      fc.asyncProperty(sessions, async (operations) => {
        const { manager } = await runSession(operations);
        const state = manager.state();
        const archived = new Map(state.archive.flatMap((item) => (item.type === 'entry' ? [[item.entry.seq, item] as const] : [])));
        const sources = new Map([...state.summaries, ...state.archive.flatMap((item) => (item.type === 'summary' ? [item.summary] : []))].map((summary) => [summary.id, summary.source]));
        for (const seq of state.entrySeqs) {
          const inWorking = state.entries.some((entry) => entry.seq === seq);
          const item = archived.get(seq);
          expect(inWorking !== (item !== undefined)).toBe(true);
          if (item !== undefined) {
            const source = sources.get(item.summaryId);
            expect(source).toBeDefined();
            expect(seq).toBeGreaterThanOrEqual(source?.from ?? Infinity);
            expect(seq).toBeLessThanOrEqual(source?.to ?? -Infinity);
          }
        }
        // Reachable, not just stored: the current T1 summaries expand (through every consolidation)
        // to exactly the archived entries, and each entry id expands to its own entry.
        const reachable = state.summaries.flatMap((summary) => manager.expand(summary.id).map((entry) => entry.seq));
        expect([...reachable].sort((a, b) => a - b)).toEqual([...archived.keys()].sort((a, b) => a - b));
        for (const seq of state.entrySeqs) expect(manager.expand(`e${seq}`).map((entry) => entry.seq)).toEqual([seq]);
        // Full text is kept: an archived entry holds exactly what was recorded.
        for (const item of archived.values()) expect(item.entry.text.length).toBeGreaterThanOrEqual(item.entry.display.length - 400);
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });
});

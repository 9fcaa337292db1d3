import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runSession, sessions } from './run-session.js';

// The invariant properties are only as strong as the sessions they run on: check that the
// generated sessions actually drive the manager through graduation and consolidation.
describe('generated sessions', () => {
  it('reach graduation in most runs, and consolidation in some', async () => {
    const samples = fc.sample(sessions, { numRuns: 200, seed: 42 });
    let graduated = 0;
    let consolidated = 0;
    for (const operations of samples) {
      const { manager } = await runSession(operations);
      const state = manager.state();
      if (state.archive.some((item) => item.type === 'entry')) graduated += 1;
      if (state.archive.some((item) => item.type === 'summary')) consolidated += 1;
    }
    expect(graduated / samples.length).toBeGreaterThan(0.6);
    expect(consolidated).toBeGreaterThan(0);
  });
});

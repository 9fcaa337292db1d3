import { describe, expect, it } from 'vitest';
import { Graduator, InvalidArgumentError, TierStore } from '../../src/index.js';
import type { GraduationSubject, SummarizeRequest } from '../../src/index.js';
import { createMockSummarizer } from '../../src/testing/index.js';

function filledStore(steps = 10): TierStore {
  const store = new TierStore();
  for (let step = 1; step <= steps; step += 1) {
    store.addMessage({ role: 'user', content: `Step ${step}: move query ${step} into src/orders/repository.ts and keep the 5 s timeout.` });
    store.addMessage({ role: 'assistant', content: `Done: query ${step} moved; its test passes.` });
  }
  return store;
}

describe('Graduator', () => {
  describe('graduate()', () => {
    it('asks for a summary sized by chunkSummaryRatio (a named option, not a constant)', async () => {
      const targets: number[] = [];
      const summarizer = createMockSummarizer((request: SummarizeRequest) => {
        targets.push(request.targetTokens);
        return { summary: 'Moved the order queries.' };
      });
      const store = filledStore(30);
      await new Graduator({ summarizer, chunkSummaryRatio: 0.5, minTargetTokens: 1 }).graduate({ subject: store.graduationSubject({ limits: { working: 200, summaries: 4_000 } }) });
      const chunkTokens = store.archive().reduce((sum, item) => sum + (item.type === 'entry' ? item.entry.tokens : 0), 0);
      expect(targets[0]).toBeGreaterThanOrEqual(Math.round(chunkTokens * 0.5) - 1);
    });

    it('consolidates T1 over its limit, and stops with fully-consolidated past maxConsolidationLevel', async () => {
      const store = filledStore(30);
      const stalls: string[] = [];
      const graduator = new Graduator({ maxConsolidationLevel: 1 });
      await graduator.graduate({ subject: store.graduationSubject({ limits: { working: 120, summaries: 1 } }), reporter: { stall: (event) => stalls.push(`${event.tier}:${event.reason}`) } });
      expect(store.summaries()).toHaveLength(1);
      expect(store.summaries()[0]?.level).toBe(2);
      expect(stalls).toContain('summaries:fully-consolidated');
    });

    it('reports a stall instead of looping when no cut is allowed', async () => {
      const store = new TierStore();
      store.addMessage({ role: 'assistant', content: 'x '.repeat(400), toolCalls: [{ id: 'c1', name: 'bash', input: {} }] });
      store.addMessage({ role: 'assistant', content: 'still waiting '.repeat(50) });
      const stalls: string[] = [];
      await new Graduator().graduate({ subject: store.graduationSubject({ limits: { working: 10, summaries: 4_000 } }), reporter: { stall: (event) => stalls.push(event.reason) } });
      expect(stalls).toEqual(['no-allowed-cut']);
    });

    it('labels a failure outside the summarizer GRADUATION_FAILED, not SUMMARIZER_FAILED, and commits nothing', async () => {
      const store = filledStore();
      const subject: GraduationSubject = {
        ...store.graduationSubject({ limits: { working: 100, summaries: 4_000 } }),
        entries: () => store.entries(),
        summaries: () => store.summaries(),
        workingTokens: store.workingTokens,
        summaryTokens: store.summaryTokens,
        commit: () => {
          throw new Error('disk on fire');
        },
      };
      await expect(new Graduator().graduate({ subject })).rejects.toMatchObject({ code: 'GRADUATION_FAILED' });
      expect(store.summaries()).toHaveLength(0);
    });
  });

  describe('constructor', () => {
    it('rejects an invalid ratio with an InvalidArgumentError naming it', () => {
      expect(() => new Graduator({ consolidateShare: 2 })).toThrow(InvalidArgumentError);
      expect(() => new Graduator({ consolidateShare: 2 })).toThrow(/consolidateShare/);
    });
  });
});

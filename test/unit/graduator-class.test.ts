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

/** A store whose first chunk states a setting, and whose later chunks mention `later` in passing. */
async function revisedStore(later: { role: 'user' | 'assistant'; content: string }): Promise<TierStore> {
  const store = new TierStore();
  let calls = 0;
  // Only the first chunk's summary returns a fact: the later statement is left to the graduator.
  const summarizer = createMockSummarizer(() => {
    calls += 1;
    return calls === 1 ? { summary: 'Set up the image cache.', facts: [{ category: 'constraints', value: 'The image cache keeps 200 entries per node' }] } : { summary: 'More cache work.' };
  });
  const graduator = new Graduator({ summarizer, minTargetTokens: 1 });
  const subject = store.graduationSubject({ limits: { working: 60, summaries: 4_000 } });
  store.addMessage({ role: 'user', content: 'The image cache keeps 200 entries per node.' });
  store.addMessage({ role: 'assistant', content: 'Understood, I will keep the cache at that size while I refactor the loader.' });
  for (let step = 1; step <= 3; step += 1) {
    store.addMessage({ role: 'user', content: `Start with loader part ${step}.` });
    store.addMessage({ role: 'assistant', content: `Loader part ${step} is refactored and its test passes.` });
  }
  await graduator.graduate({ subject });
  expect(store.facts()).toHaveLength(1);
  for (let step = 1; step <= 6; step += 1) {
    store.addMessage({ role: 'user', content: `Next, tidy loader step ${step} and rerun the suite.` });
    store.addMessage(step === 2 ? later : { role: 'assistant', content: `Loader step ${step} is tidy; the suite passes again.` });
  }
  await graduator.graduate({ subject });
  return store;
}

describe('Graduator', () => {
  describe('revisions said in passing', () => {
    it.each([
      { role: 'assistant' as const, content: 'Loader step 2 is tidy. While there I set the image cache to 500 entries per node, the hit rate was poor.' },
      { role: 'user' as const, content: 'ok. by the way the image cache keeps 500 entries per node from today' },
    ])('replaces the held fact with a later statement of a new value for it, even when the summary kept it as no fact: $content', async (later) => {
      const store = await revisedStore(later);
      const facts = store.facts();
      expect(facts).toHaveLength(1);
      expect(facts[0]?.value).toContain('500 entries');
      expect(facts[0]?.history.map((version) => version.value)).toEqual(['The image cache keeps 200 entries per node']);
    });

    it.each([
      { role: 'assistant' as const, content: 'Loader step 2 is tidy. The avatar cache keeps 500 entries per node, which I left alone.' },
      { role: 'user' as const, content: 'the crash log showed `image cache full at 500 entries` once, ignore it' },
    ])('leaves the held fact alone when the later statement is about something else: $content', async (later) => {
      const store = await revisedStore(later);
      expect(store.facts().map((fact) => fact.value)).toEqual(['The image cache keeps 200 entries per node']);
    });
  });

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

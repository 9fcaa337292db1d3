import { describe, expect, it } from 'vitest';
import { admitFacts, ContextManager, createExtractiveSummarizer, hasJudgedFacts, markFactsJudged, withRetry, withTimeout, wrapSummarizer } from '../../src/index.js';
import type { FactUpdate, SummarizeResult } from '../../src/index.js';
import { createMockSummarizer } from '../../src/testing/index.js';
import { createTokenCounter } from '../../src/tokens/token-counter.js';
import { createSmallManager, prose } from '../helpers.js';

const counter = createTokenCounter();
const countTokens = (text: string): number => counter.count(text);

// What an over-eager model might hand back as "facts" of a chunk: two durable statements, four not.
const GOOD: FactUpdate[] = [
  { category: 'decisions', value: 'The ingest service runs on Fastify 4 with pino for request logs.' },
  { category: 'constraints', value: 'Secrets never go into .env files in the repo; they are read from Vault at boot.' },
];
const JUNK: FactUpdate[] = [
  { category: 'decisions', value: "Now let's rerun the whole suite to see where we stand." },
  { category: 'requirements', value: 'Which version of Postgres does the staging box run?' },
  { category: 'decisions', value: '[Request interrupted by user]' },
  { category: 'conventions', value: 'Here is the updated handler:' },
];

function fill(manager: ContextManager, turns: number): void {
  for (let turn = 0; turn < turns; turn += 1) {
    manager.addMessage({ role: 'user', content: `Turn ${turn}: please tidy src/ingest/part${turn}.ts.` });
    manager.addMessage({ role: 'assistant', content: prose(60, turn) });
  }
}

async function graduateWith(options: { factAdmission?: 'judged' | 'trusted' } = {}): Promise<ContextManager> {
  const summarizer = createMockSummarizer([{ summary: 'Worked on the ingest service.', facts: [...JUNK, ...GOOD] }]);
  const manager = createSmallManager({ summarizer, ...options });
  fill(manager, 8);
  await manager.settle();
  return manager;
}

describe('fact admission for every summarizer', () => {
  it('lets only durable statements of a custom summarizer into T2', async () => {
    const manager = await graduateWith();
    const values = manager.state().facts.map((fact) => fact.value);
    for (const fact of GOOD) expect(values).toContain(fact.value);
    for (const fact of JUNK) expect(values).not.toContain(fact.value);
  });

  it('keeps the rejected facts as notes of the summary, so nothing is lost', async () => {
    const manager = await graduateWith();
    const summary = manager.state().summaries[0];
    expect(summary?.text).toContain('Worked on the ingest service.');
    const notes = summary?.sections?.find((section) => section.name === 'Notes')?.items.map((item) => item.text) ?? [];
    expect(notes).toContain(JUNK[0]?.value);
    expect(notes).toContain(JUNK[1]?.value);
    expect(summary?.text).toContain('Which version of Postgres does the staging box run?');
  });

  it("trusts every fact with factAdmission: 'trusted'", async () => {
    const manager = await graduateWith({ factAdmission: 'trusted' });
    const values = manager.state().facts.map((fact) => fact.value);
    for (const fact of [...GOOD, ...JUNK]) expect(values).toContain(fact.value);
  });

  it('rejects an unknown factAdmission value', () => {
    expect(() => new ContextManager({ factAdmission: 'sometimes' as 'judged' })).toThrow(/factAdmission/u);
  });

  it('leaves the facts of a summarizer marked as judging them itself as they are', async () => {
    const summarizer = markFactsJudged(createMockSummarizer([{ summary: 'Worked on the ingest service.', facts: [...JUNK, ...GOOD] }]));
    const manager = createSmallManager({ summarizer });
    fill(manager, 8);
    await manager.settle();
    expect(manager.state().facts.map((fact) => fact.value)).toContain(JUNK[0]?.value);
  });

  it('keeps the mark through wrapSummarizer(), so a wrapped extractive summarizer keeps user decisions as facts', async () => {
    const extractive = createExtractiveSummarizer();
    const wrapped = wrapSummarizer({ summarizer: extractive, middleware: [withRetry({ retries: 1 }), withTimeout({ timeoutMs: 60_000 })] });
    expect(hasJudgedFacts(wrapped)).toBe(true);
    expect(hasJudgedFacts(wrapSummarizer({ summarizer: createMockSummarizer([]), middleware: [withRetry({ retries: 1 })] }))).toBe(false);
    // Said by the user, these are a decision and a requirement; judged again as the summarizer's own
    // words, they read as narration and a plan step.
    const said = ["Let's write logs as JSON lines going forward.", 'I changed my mind: set the retry limit to 4 attempts per job.'];
    const facts = async (summarizer: typeof extractive): Promise<string[]> => {
      const manager = createSmallManager({ summarizer });
      for (const content of said) manager.addMessage({ role: 'user', content });
      fill(manager, 8);
      await manager.settle();
      return manager.state().facts.map((fact) => fact.value);
    };
    const plain = await facts(extractive);
    expect(plain.some((value) => value.includes('JSON lines'))).toBe(true);
    expect(plain.some((value) => value.includes('4 attempts'))).toBe(true);
    expect(await facts(wrapped)).toEqual(plain);
  });

  describe('admitFacts()', () => {
    const result: SummarizeResult = {
      summary: 'Completed: wired the queue',
      sections: [{ name: 'Completed', items: [{ text: 'wired the queue', source: { from: 1, to: 9 } }] }],
      facts: [...GOOD, ...JUNK],
    };

    it('moves rejected facts into a Notes section and re-renders the summary from the sections', () => {
      const admitted = admitFacts({ result, source: { from: 1, to: 9 }, countTokens, maxTokens: 1_000 });
      expect(admitted.result.facts).toEqual(GOOD);
      expect(admitted.rejected.map((rejected) => rejected.reason)).toEqual(['narration', 'question', 'notice', 'lead-in']);
      expect(admitted.result.summary.startsWith('Completed: wired the queue\nNotes:\n- Now let')).toBe(true);
      expect(admitted.result.sections?.map((section) => section.name)).toEqual(['Completed', 'Notes']);
    });

    it('adds no note that would make the summary larger than allowed', () => {
      const maxTokens = countTokens(result.summary) + 2;
      const admitted = admitFacts({ result, source: { from: 1, to: 9 }, countTokens, maxTokens });
      expect(admitted.result.facts).toEqual(GOOD);
      expect(countTokens(admitted.result.summary)).toBeLessThanOrEqual(maxTokens);
    });

    it('returns the result unchanged when every fact is durable', () => {
      const clean = { ...result, facts: GOOD };
      expect(admitFacts({ result: clean, source: { from: 1, to: 9 }, countTokens, maxTokens: 1_000 }).result).toBe(clean);
    });
  });
});

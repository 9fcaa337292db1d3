import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContextManager, createMemoryStorage } from '../../src/index.js';
import type { ContextManagerOptions, SessionEvent, SettleResult, Storage, Summarizer, SummarizeResult } from '../../src/index.js';
import { MOCK_SUMMARIZER_FAILURES, applyOperations, arbitraries, assertInvariants, createMockSummarizer } from '../../src/testing/index.js';
import type { MockSummarizerBehavior } from '../../src/testing/index.js';
import { PROPERTY_RUNS, prose } from '../helpers.js';

// Hostile summarizers and storages. Every case checks the same promises: nothing recorded is
// lost (each entry is in T0 or the archive and `expand()` finds it), the window stays within its
// budget, graduation keeps T0 and T1 within theirs, and `settle()` says exactly which events did
// not reach storage. A hang shows up as a summarizer called more often than the session allows.

const BUDGETS = { facts: 400, pins: 200, summaries: 250, scratchpad: 1_200, working: 600 } as const;

function createManager(options: ContextManagerOptions = {}): ContextManager {
  return new ContextManager({ budget: 3_000, budgets: BUDGETS, maxEntryTokens: 200, summarizerTimeoutMs: 5, storageRetry: false, ...options });
}

/** A realistic session: requests, tool calls with results, file reads and edits, completions. */
async function drive(manager: ContextManager, exchanges: number): Promise<void> {
  let content = 'export function parse(input: string) {\n  return input.trim();\n}\n';
  for (let turn = 0; turn < exchanges; turn += 1) {
    manager.addMessage({ role: 'user', content: `Step ${turn}: fix the parser in src/parser${turn % 3}.ts, it throws TypeError on empty input after 250ms.` });
    manager.addMessage({ role: 'assistant', content: `Reading the file. ${prose(20, turn)}`, toolCalls: [{ id: `read-${turn}`, name: 'read_file', input: { path: `src/parser${turn % 3}.ts` } }] });
    manager.addToolResult({ callId: `read-${turn}`, output: `${content}\n// ${prose(30, turn + 1)}` });
    if (turn % 3 === 0) manager.openFile({ path: `src/parser${turn % 3}.ts`, content });
    content = content.replace('input.trim()', `input.trim() /* ${turn} */`);
    if (turn % 3 === 0) manager.updateFile({ path: `src/parser${turn % 3}.ts`, content, reason: 'handle empty input' });
    manager.addMessage({ role: 'assistant', content: `Done, all tests pass. ${prose(40, turn + 2)}` });
    // Let background graduation interleave with recording, as in a real agent loop.
    if (turn % 4 === 3) await Promise.resolve();
  }
}

/** Wraps a summarizer so that a graduation loop that spins fails the test instead of hanging it. */
function bounded(summarizer: Summarizer, maxCalls: number): Summarizer & { readonly calls: () => number } {
  let calls = 0;
  return {
    name: summarizer.name,
    calls: () => calls,
    summarize(request) {
      calls += 1;
      if (calls > maxCalls) throw new Error(`summarizer called ${calls} times: graduation does not make progress`);
      return summarizer.summarize(request);
    },
  };
}

function checkNothingLost(manager: ContextManager): void {
  assertInvariants(manager);
  const state = manager.state();
  for (const seq of state.entrySeqs) {
    expect(manager.expand(`e${seq}`).map((entry) => entry.seq)).toEqual([seq]);
  }
  const archived = state.archive.flatMap((item) => (item.type === 'entry' ? [item.entry.seq] : []));
  expect(new Set([...state.entries.map((entry) => entry.seq), ...archived])).toEqual(new Set(state.entrySeqs));
}

function checkBudgetsHeld(manager: ContextManager): void {
  const state = manager.state();
  expect(state.tokens.working).toBeLessThanOrEqual(BUDGETS.working);
  expect(state.tokens.summaries).toBeLessThanOrEqual(BUDGETS.summaries);
  const built = manager.build();
  expect(built.tokens.total).toBeLessThanOrEqual(manager.budgets.total);
  // Graduated history stays visible: the summaries tier is never dropped whole.
  if (state.summaries.length > 0) expect(built.omitted.summaries).toBeLessThan(state.summaries.length);
}

async function storedSeqs(storage: Storage, sessionId = 'default'): Promise<Set<number>> {
  return new Set((await storage.read(sessionId, { afterSeq: 0 })).map((event) => event.seq));
}

async function checkSettleTruth(manager: ContextManager, result: SettleResult, storage: Storage): Promise<void> {
  const stored = await storedSeqs(storage);
  const missing = Array.from({ length: manager.state().lastSeq }, (_, index) => index + 1).filter((seq) => !stored.has(seq));
  expect(result.pendingEvents).toBe(missing.length);
  expect(result.isDurable).toBe(missing.length === 0);
  expect(result.error === undefined).toBe(missing.length === 0);
}

/** A storage whose `append` follows `plan` call by call (the last entry repeats). */
function scriptedStorage(plan: readonly ('ok' | 'fail' | 'slow')[]): Storage & { readonly inner: Storage } {
  const inner = createMemoryStorage();
  let call = 0;
  return {
    ...inner,
    name: 'scripted',
    inner,
    async append(sessionId: string, events: readonly SessionEvent[]) {
      const step = plan[Math.min(call, plan.length - 1)] ?? 'ok';
      call += 1;
      if (step === 'fail') throw new Error(`append #${call} failed`);
      // Slow: settles only after other work had the chance to run (no wall-clock assumption).
      if (step === 'slow') await new Promise((resolve) => setTimeout(resolve, 0));
      await inner.append(sessionId, events);
    },
  };
}

describe('fault suite', () => {
  describe('hostile summarizers', () => {
    it.each(MOCK_SUMMARIZER_FAILURES.map((failure) => [failure]))('keeps every entry, the budgets and graduation going when the summarizer fails with %s', async (failure) => {
      const summarizer = bounded(createMockSummarizer(failure, { name: `hostile-${failure}` }), 400);
      const manager = createManager({ summarizer });
      const fallbacks: string[] = [];
      const graduations: boolean[] = [];
      manager.on('summarizer-fallback', (event) => fallbacks.push(event.error.summarizer));
      manager.on('graduation-end', (report) => graduations.push(report.isFallback));
      await drive(manager, 30);
      await manager.settle();
      checkNothingLost(manager);
      checkBudgetsHeld(manager);
      expect(graduations.length).toBeGreaterThan(0);
      if (failure === 'mutate') {
        // Its edits hit a frozen copy: its summaries are committed, over exactly the planned chunk.
        expect(manager.state().summaries.length + manager.state().archive.filter((item) => item.type === 'summary').length).toBeGreaterThan(0);
      } else {
        expect(fallbacks.length).toBeGreaterThan(0);
        expect(fallbacks.every((name) => name === `hostile-${failure}`)).toBe(true);
        expect(graduations.every((isFallback) => isFallback)).toBe(true);
      }
    });

    it('does not spin when the summarizer empties its request: each graduation removes what it planned', async () => {
      const summarizer = bounded(
        createMockSummarizer((request) => {
          (request.entries as unknown as unknown[]).length = 0;
          return { summary: 'Nothing left.' };
        }),
        200,
      );
      const manager = createManager({ summarizer });
      await drive(manager, 20);
      await manager.settle();
      expect(summarizer.calls()).toBeLessThan(200);
      checkNothingLost(manager);
      checkBudgetsHeld(manager);
    });

    it('rejects a summary that is not smaller than its input and commits a smaller one', async () => {
      const sizes: { tokensIn: number; tokensOut: number; summary: number }[] = [];
      const manager = createManager({ summarizer: createMockSummarizer('oversized') });
      manager.on('graduation-end', (report) => sizes.push({ tokensIn: report.tokensIn, tokensOut: report.tokensOut, summary: report.summary.tokens }));
      await drive(manager, 30);
      await manager.settle();
      expect(sizes.length).toBeGreaterThan(0);
      for (const size of sizes) expect(size.summary).toBeLessThanOrEqual(Math.floor(size.tokensIn * 0.9));
      checkBudgetsHeld(manager);
    });

    it('names the summarizer and the request in the fallback error', async () => {
      const manager = createManager({ summarizer: createMockSummarizer('throwing-getter', { name: 'getter-llm' }) });
      const messages: string[] = [];
      manager.on('summarizer-fallback', (event) => messages.push(event.error.message));
      await drive(manager, 10);
      await manager.settle();
      expect(messages[0]).toMatch(/getter-llm.*(chunk|consolidation).*#\d+–\d+/s);
    });

    it('stops with graduation-stall, once, when no cut is allowed, and resumes after the next record', async () => {
      const manager = createManager({ orphanCallsAfter: 1_000 });
      const stalls: string[] = [];
      manager.on('graduation-stall', (event) => stalls.push(`${event.tier}:${event.reason}`));
      manager.addMessage({ role: 'assistant', content: 'Running the suite.', toolCalls: [{ id: 'pending', name: 'run', input: {} }] });
      for (let turn = 0; turn < 12; turn += 1) manager.addNote({ content: prose(60, turn) });
      await manager.settle();
      manager.addNote({ content: 'still waiting' });
      await manager.settle();
      expect(stalls).toEqual(['working:no-allowed-cut']);
      manager.addToolResult({ callId: 'pending', output: 'all tests pass' });
      manager.addMessage({ role: 'user', content: 'thanks' });
      await manager.settle();
      expect(manager.state().tokens.working).toBeLessThanOrEqual(BUDGETS.working);
      checkNothingLost(manager);
    });
  });

  describe('failing storage', () => {
    it.each([
      ['fails every time', ['fail'] as const],
      ['fails intermittently', ['ok', 'fail', 'fail', 'ok', 'fail', 'ok', 'ok', 'fail'] as const],
      ['is slow', ['slow'] as const],
      ['is slow and fails', ['slow', 'fail', 'slow', 'ok', 'fail'] as const],
    ])('keeps working in memory and settle() tells the truth when storage %s', async (_name, plan) => {
      const storage = scriptedStorage(plan);
      const manager = createManager({ storage, summarizer: createMockSummarizer(['throw', { summary: 'Fixed the parser.' }]) });
      const pending: number[] = [];
      manager.on('storage-error', (event) => pending.push(event.pendingEvents));
      await drive(manager, 24);
      const result = await manager.settle();
      checkNothingLost(manager);
      checkBudgetsHeld(manager);
      await checkSettleTruth(manager, result, storage.inner);
      if ((plan as readonly string[]).includes('fail')) expect(pending.length).toBeGreaterThan(0);
      if (!result.isDurable) await expect(manager.save()).rejects.toMatchObject({ code: 'STORAGE_FAILED' });
    });

    it('delivers every event once storage recovers, in order, without duplicates', async () => {
      let isFailing = true;
      const inner = createMemoryStorage();
      const storage: Storage = { ...inner, append: (sessionId, events) => (isFailing ? Promise.reject(new Error('offline')) : inner.append(sessionId, events)) };
      const manager = createManager({ storage });
      await drive(manager, 12);
      expect((await manager.settle()).isDurable).toBe(false);
      isFailing = false;
      const result = await manager.settle();
      expect(result.isDurable).toBe(true);
      const seqs = (await inner.read('default', { afterSeq: 0 })).map((event) => event.seq);
      expect(seqs).toEqual(Array.from({ length: manager.state().lastSeq }, (_, index) => index + 1));
      const loaded = await ContextManager.load({ storage: inner, budget: 3_000, budgets: BUDGETS, maxEntryTokens: 200 });
      expect(loaded.state().entrySeqs).toEqual(manager.state().entrySeqs);
    });
  });

  describe('fuzz', () => {
    const validResult = fc.record({ summary: fc.lorem({ maxCount: 30 }).filter((text) => text.trim().length > 0) }) as fc.Arbitrary<SummarizeResult>;
    const behavior: fc.Arbitrary<MockSummarizerBehavior> = fc.oneof(fc.constantFrom(...MOCK_SUMMARIZER_FAILURES), validResult);
    const storageStep = fc.constantFrom('ok' as const, 'fail' as const, 'slow' as const);

    it('finds no hang, no lost entry and no untrue settle() over summarizer and storage behaviours', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(behavior, { minLength: 1, maxLength: 8 }),
          fc.array(storageStep, { minLength: 1, maxLength: 8 }),
          arbitraries.operations({ minLength: 10, maxLength: 30, hasHugeStrings: false }),
          fc.integer({ min: 0, max: 5 }),
          async (behaviors, plan, operations, settleEvery) => {
            // Every graduation removes at least one entry or shrinks T1, so the calls are bounded
            // by the records (plus retries): more than that means a loop that does not progress.
            const summarizer = bounded(createMockSummarizer(behaviors), 50 * (operations.length + 5));
            const storage = scriptedStorage(plan);
            const manager = createManager({ summarizer, storage });
            const chunks = settleEvery === 0 ? [operations] : chunk(operations, settleEvery);
            let model = applyOperations(manager, []);
            for (const part of chunks) {
              const next = applyOperations(manager, part);
              model = { lastContent: new Map([...model.lastContent, ...next.lastContent]), pinIds: [...model.pinIds, ...next.pinIds] };
              await manager.settle();
            }
            const result = await manager.settle();
            assertInvariants(manager, { model });
            await checkSettleTruth(manager, result, storage.inner);
          },
        ),
        { numRuns: Math.min(PROPERTY_RUNS, 60) },
      );
    });
  });
});

function chunk<T>(items: readonly T[], size: number): T[][] {
  const parts: T[][] = [];
  for (let index = 0; index < items.length; index += size) parts.push(items.slice(index, index + size));
  return parts;
}

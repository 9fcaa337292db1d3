import { beforeEach, describe, expect, it, vi } from 'vitest';
import { scoreGapsShared } from '../../src/boundaries/boundary-detector.js';
import { ContextManager } from '../../src/index.js';

// The real gap scorer, wrapped so that each test can see when the build preparation runs.
vi.mock('../../src/boundaries/boundary-detector.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/boundaries/boundary-detector.js')>();
  return { ...actual, scoreGapsShared: vi.fn(actual.scoreGapsShared) };
});

const scorings = (): number => vi.mocked(scoreGapsShared).mock.calls.length;

// A few turns with a tool call, a file and a long tool output, written for this test.
function record(manager: ContextManager): void {
  manager.addMessage({ role: 'user', content: 'Please make the retry helper in src/net/retry.ts give up after three attempts.' });
  manager.addMessage({ role: 'assistant', content: 'Reading the helper and its tests first.', toolCalls: [{ id: 'r1', name: 'read', input: { path: 'src/net/retry.ts' } }] });
  manager.openFile({ path: 'src/net/retry.ts', content: 'export const attempts = 5;\nexport function retry() {\n  return attempts;\n}\n', callId: 'r1' });
  manager.updateFile({ path: 'src/net/retry.ts', content: 'export const attempts = 3;\nexport function retry() {\n  return attempts;\n}\n', reason: 'three attempts' });
  manager.addMessage({ role: 'assistant', content: 'Running the tests.', toolCalls: [{ id: 't1', name: 'shell', input: { command: 'npm test' } }] });
  const output = Array.from({ length: 400 }, (_, line) => `ok ${line + 1} - retry gives up after attempt ${line % 4}`).join('\n');
  manager.addToolResult({ callId: 't1', output });
  manager.addMessage({ role: 'assistant', content: 'Done: the helper now stops after three attempts and every test passes.' });
  manager.addMessage({ role: 'user', content: 'Thanks. Next, log each retry at debug level.' });
}

beforeEach(() => {
  vi.mocked(scoreGapsShared).mockClear();
});

describe('ContextManager', () => {
  describe('build preparation', () => {
    it('is not done by the recording calls: nothing is scored until settle() or build()', () => {
      const manager = new ContextManager({ budget: 28_000 });
      record(manager);
      expect(scorings()).toBe(0);
    });

    it('is done at the start of the next settle()', async () => {
      const manager = new ContextManager({ budget: 28_000 });
      record(manager);
      await manager.settle();
      expect(scorings()).toBeGreaterThan(0);
      // Prepared ahead: the build after settle() finds the units ready and scores nothing new.
      vi.mocked(scoreGapsShared).mockClear();
      manager.build();
      expect(scorings()).toBe(0);
    });

    it('is done by build() itself when build() comes first', () => {
      const manager = new ContextManager({ budget: 28_000 });
      record(manager);
      manager.build();
      expect(scorings()).toBeGreaterThan(0);
    });

    it('gives the same windows whether settle() or build() prepares', async () => {
      const settled = new ContextManager({ budget: 2_000 });
      const direct = new ContextManager({ budget: 2_000 });
      record(settled);
      record(direct);
      const built = direct.build();
      await settled.settle();
      expect(settled.build()).toEqual(built);
      // And after a settle() of both, with graduation done.
      record(settled);
      record(direct);
      await Promise.all([settled.settle(), direct.settle()]);
      expect(settled.build()).toEqual(direct.build());
    });
  });
});

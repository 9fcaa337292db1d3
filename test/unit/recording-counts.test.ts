import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ContextManager } from '../../src/index.js';

// The exact counter behind the count cache (the tokenizer, pre-token by pre-token), wrapped so
// that each test can see which texts reached it.
const tokenizer = vi.hoisted(() => ({ texts: [] as string[] }));
vi.mock('../../src/tokens/pretoken-count.js', async (importOriginal) => {
  const { spyOnExactCounter } = await import('../tokenizer-spy.js');
  return spyOnExactCounter(await importOriginal(), tokenizer.texts);
});

const tokenizedChars = (): number => tokenizer.texts.reduce((sum, text) => sum + text.length, 0);

function logLines(count: number, seed: string): string {
  const lines: string[] = [];
  for (let index = 0; index < count; index += 1) lines.push(`${seed} step ${index}: compiled module_${index * 7} in ${index % 13} ms (cache ${index % 3 === 0 ? 'hit' : 'miss'})`);
  return `${lines.join('\n')}\n`;
}

beforeEach(() => {
  tokenizer.texts.length = 0;
});

describe('ContextManager', () => {
  describe('addToolResult()', () => {
    it('tokenizes the start of a long tool output and the window excerpt, not the whole output', () => {
      const manager = new ContextManager({ budget: 28_000 });
      manager.addMessage({ role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'build', input: {} }] });
      const output = logLines(2_000, 'build');
      tokenizer.texts.length = 0;
      const entry = manager.addToolResult({ callId: 'c1', output });
      expect(entry.display).not.toBe(entry.text);
      // A prefix that shows the output is over the limit, then the excerpt's marker and tail (its
      // head lies in that prefix, whose blocks are cached).
      expect(tokenizedChars()).toBeLessThan(entry.display.length * 3);
      expect(tokenizedChars()).toBeLessThan(output.length / 5);
    });

    it('does not tokenize an output it has counted before again', () => {
      const manager = new ContextManager({ budget: 28_000 });
      const output = logLines(100, 'test');
      manager.addMessage({ role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'test', input: {} }] });
      manager.addToolResult({ callId: 'c1', output });
      manager.addMessage({ role: 'assistant', content: '', toolCalls: [{ id: 'c2', name: 'test', input: {} }] });
      tokenizer.texts.length = 0;
      manager.addToolResult({ callId: 'c2', output });
      expect(tokenizedChars()).toBeLessThan(100);
    });
  });

  describe('addMessage()', () => {
    it('tokenizes a message once, for recording and for every build after it', () => {
      const manager = new ContextManager({ budget: 28_000 });
      const content = 'Use the retry wrapper from src/net/retry.ts for every outgoing call, with at most 3 attempts and a 250 ms backoff.';
      const tokenizations = (): number => tokenizer.texts.filter((text) => text.includes('retry wrapper')).length;
      manager.addMessage({ role: 'user', content });
      manager.build();
      manager.build();
      manager.addMessage({ role: 'assistant', content: 'On it.' });
      manager.build();
      expect(tokenizations()).toBe(1);
    });

    it('does not tokenize a tool call input it has counted before again', () => {
      const manager = new ContextManager({ budget: 28_000 });
      const input = { command: 'npm test -- --run test/unit/retry.test.ts' };
      manager.addMessage({ role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'bash', input }] });
      manager.addToolResult({ callId: 'c1', output: 'ok' });
      tokenizer.texts.length = 0;
      manager.addMessage({ role: 'assistant', content: '', toolCalls: [{ id: 'c2', name: 'bash', input }] });
      expect(tokenizer.texts).toEqual([]);
    });
  });
});

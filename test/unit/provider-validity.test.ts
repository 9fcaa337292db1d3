import { describe, expect, it } from 'vitest';
import type { ContextMessage } from '../../src/index.js';
import { assertProviderValid, findProviderProblems } from '../../src/testing/index.js';

const system: ContextMessage = { role: 'system', content: 'rules' };
const ask = (id: string, ...more: string[]): ContextMessage => ({ role: 'assistant', content: '', toolCalls: [id, ...more].map((callId) => ({ id: callId, name: 'bash', input: {} })) });
const result = (id: string): ContextMessage => ({ role: 'tool', toolCallId: id, toolName: 'bash', content: 'ok' });
const user: ContextMessage = { role: 'user', content: 'hi' };

describe('findProviderProblems()', () => {
  it('accepts calls answered right after them, in any order', () => {
    expect(findProviderProblems([system, user, ask('a', 'b'), result('b'), result('a'), user])).toEqual([]);
  });

  it('reports a call without its result', () => {
    expect(findProviderProblems([system, ask('a', 'b'), result('a'), user])).toEqual(['message 1: tool call "b" is not followed by its result (message 3 is a user message)']);
    expect(findProviderProblems([ask('a')])).toEqual(['message 0: tool call "a" is not followed by its result (end of window)']);
  });

  it('reports a result away from its call and a result without a call', () => {
    expect(findProviderProblems([ask('a'), user, result('a')])).toHaveLength(2);
    expect(findProviderProblems([user, result('x')])).toEqual(['message 1: tool result for "x" without its call right before it']);
  });

  it('reports a result for another message\'s call', () => {
    expect(findProviderProblems([ask('a'), result('a'), ask('b'), result('a')])).toEqual([
      'message 3: tool result for "a" does not answer a pending call of message 2',
      'message 2: tool call "b" is not followed by its result (end of window)',
    ]);
  });

  it('reports call ids repeated in the window and a late system message', () => {
    const problems = findProviderProblems([ask('a'), result('a'), ask('a'), result('a'), system]);
    expect(problems).toContain('message 2: tool call id "a" is also used by message 0');
    expect(problems).toContain('message 4: a system message after the first message');
  });
});

describe('assertProviderValid()', () => {
  it('throws an Error listing every problem, and accepts a built context or its messages', () => {
    expect(() => assertProviderValid([ask('a')])).toThrow(/window would be rejected by providers:\n- message 0: tool call "a"/);
    expect(() => assertProviderValid({ messages: [system, user] })).not.toThrow();
  });
});

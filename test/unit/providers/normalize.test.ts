import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContextManager, InvalidArgumentError, MESSAGE_OVERHEAD_TOKENS, createTokenCounter } from '../../../src/index.js';
import type { BuiltContext } from '../../../src/index.js';
import { CONTINUATION_TEXT, CONTINUATION_TOKENS, normalizeWindow } from '../../../src/providers/normalize.js';
import type { NormalizedMessage } from '../../../src/providers/normalize.js';
import { runSession, sessions } from '../../property/run-session.js';
import { PROPERTY_RUNS } from '../../helpers.js';

/** Why a normalized sequence breaks the rules normalizeWindow promises, or an empty list. */
function problemsOf(messages: readonly NormalizedMessage[]): string[] {
  const problems: string[] = [];
  if (messages[0]?.role !== 'user') problems.push('does not begin with a user turn');
  messages.forEach((message, index) => {
    const previous = messages[index - 1];
    if (previous !== undefined && previous.role === message.role) problems.push(`${index}: two ${message.role} turns in a row`);
    if (message.role !== 'tool' && message.role === 'user' && message.content.trim() === '') problems.push(`${index}: empty user text`);
    if (message.role === 'assistant' && message.toolCalls.length === 0 && message.content.trim() === '') problems.push(`${index}: empty assistant turn`);
    if (message.role === 'tool') {
      const ids = previous?.role === 'assistant' ? previous.toolCalls.map((call) => call.id) : [];
      expect(message.results.map((result) => result.toolCallId), `${index}: results answer the calls before them`).toEqual(ids);
    }
    if (message.role === 'assistant' && message.toolCalls.length > 0 && messages[index + 1]?.role !== 'tool') problems.push(`${index}: calls without results after them`);
  });
  return problems;
}

describe('normalizeWindow()', () => {
  it('inserts a neutral user turn when the history begins with the assistant', () => {
    const manager = new ContextManager({ systemPrompt: 'sys' });
    manager.addMessage({ role: 'assistant', content: 'I looked at src/a.ts.' });
    manager.addMessage({ role: 'user', content: 'Good.' });
    const normalized = normalizeWindow(manager.build());
    expect(normalized.isContinuationInserted).toBe(true);
    expect(normalized.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(normalized.messages[0]).toEqual({ role: 'user', content: CONTINUATION_TEXT });
  });

  it('merges same-role runs, groups parallel results and keeps them right after their calls', () => {
    const manager = new ContextManager({ systemPrompt: 'sys' });
    manager.addMessage({ role: 'user', content: 'Read both files.' });
    manager.addNote({ content: 'CI is red on main.' });
    manager.addMessage({ role: 'assistant', content: 'Reading.' });
    manager.addMessage({ role: 'assistant', content: '', toolCalls: [{ id: 'a', name: 'read', input: { path: 'x' } }, { id: 'b', name: 'read', input: { path: 'y' } }] });
    manager.addToolResult({ callId: 'b', output: 'Y' });
    manager.addToolResult({ callId: 'a', output: 'X', isError: true });
    const normalized = normalizeWindow(manager.build());
    expect(normalized.isContinuationInserted).toBe(false);
    expect(normalized.messages).toEqual([
      { role: 'user', content: 'Read both files.\n\nCI is red on main.' },
      { role: 'assistant', content: 'Reading.', toolCalls: [{ id: 'a', name: 'read', input: { path: 'x' } }, { id: 'b', name: 'read', input: { path: 'y' } }] },
      {
        role: 'tool',
        results: [
          { toolCallId: 'a', toolName: 'read', content: 'X', isError: true },
          { toolCallId: 'b', toolName: 'read', content: 'Y', isError: false },
        ],
      },
    ]);
  });

  it('returns a lone user turn for an empty window, and its system blocks join to `system`', () => {
    const manager = new ContextManager({ systemPrompt: 'You are careful.' });
    manager.pin({ text: 'Never push to main.' });
    const built = manager.build();
    const normalized = normalizeWindow(built);
    expect(normalized.messages).toEqual([{ role: 'user', content: CONTINUATION_TEXT }]);
    expect(normalized.systemBlocks.map((block) => [block.name, block.isStablePrefix])).toEqual([['prefix', true], ['pins', true]]);
    expect(normalized.systemBlocks.map((block) => block.text).join('\n\n')).toBe(built.system);
  });

  it('keeps the continuation turn within CONTINUATION_TOKENS for both built-in encodings', () => {
    for (const encoding of ['o200k_base', 'cl100k_base'] as const) {
      expect(createTokenCounter({ encoding }).count(CONTINUATION_TEXT) + MESSAGE_OVERHEAD_TOKENS, encoding).toBeLessThanOrEqual(CONTINUATION_TOKENS);
    }
  });

  it('throws InvalidArgumentError for something that is not a build() result', () => {
    expect(() => normalizeWindow({ messages: [] } as unknown as BuiltContext)).toThrow(InvalidArgumentError);
    expect(() => normalizeWindow({ messages: [] } as unknown as BuiltContext)).toThrow(/normalizeWindow\(\).*manager\.build/s);
  });

  it('gives a valid sequence for every generated session, and its blocks join to `system`', async () => {
    await fc.assert(
      fc.asyncProperty(sessions, async (operations) => {
        const { manager } = await runSession(operations);
        const built = manager.build();
        const normalized = normalizeWindow(built);
        expect(problemsOf(normalized.messages)).toEqual([]);
        expect(built.systemBlocks.map((block) => block.text).join('\n\n')).toBe(built.system);
      }),
      { numRuns: Math.max(20, Math.round(PROPERTY_RUNS / 10)) },
    );
  });
});

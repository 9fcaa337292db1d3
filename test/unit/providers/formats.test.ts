import { describe, expect, it } from 'vitest';
import { ContextManager, InvalidArgumentError } from '../../../src/index.js';
import type { BuiltContext } from '../../../src/index.js';
import { CONTINUATION_TEXT, toAnthropic, toOpenAIChat, toOpenAIResponses } from '../../../src/providers/index.js';
import type { AnthropicRequest } from '../../../src/providers/index.js';
import { findAnthropicProblems, findOpenAIChatProblems, findOpenAIResponsesProblems } from '../../../src/testing/index.js';

function sessionWithTools(): ContextManager {
  const manager = new ContextManager({ systemPrompt: 'You are a careful coding agent.' });
  manager.pin({ text: 'Never push to main.' });
  manager.addMessage({ role: 'assistant', content: 'Resuming the refactor.' });
  manager.addMessage({ role: 'assistant', content: '', toolCalls: [{ id: 'call.1', name: 'read', input: { path: 'src/a.ts' } }, { id: 'call_2', name: 'run', input: 'npm test' }] });
  manager.addToolResult({ callId: 'call_2', output: 'FAIL src/a.test.ts', isError: true });
  manager.addToolResult({ callId: 'call.1', output: '' });
  manager.openFile({ path: 'src/a.ts', content: 'export const a = 1;\n' });
  manager.addMessage({ role: 'user', content: 'Fix the failing test.' });
  return manager;
}

describe('toOpenAIChat()', () => {
  it('puts the system prompt first, starts the history with a user turn and answers each call with a tool message', () => {
    const request = toOpenAIChat(sessionWithTools().build(), { systemRole: 'developer' });
    expect(request.messages.map((message) => message.role)).toEqual(['developer', 'user', 'assistant', 'tool', 'tool', 'user']);
    expect(request.messages[1]).toEqual({ role: 'user', content: CONTINUATION_TEXT });
    expect(request.messages[2]).toMatchObject({ role: 'assistant', content: 'Resuming the refactor.', tool_calls: [{ id: 'call.1', type: 'function', function: { name: 'read', arguments: '{"path":"src/a.ts"}' } }, { id: 'call_2' }] });
    expect(request.messages[3]).toEqual({ role: 'tool', tool_call_id: 'call.1', content: '' });
    expect(request.messages[4]).toEqual({ role: 'tool', tool_call_id: 'call_2', content: 'Error: FAIL src/a.test.ts' });
    expect(findOpenAIChatProblems(request)).toEqual([]);
  });

  it('rejects an unknown system role with InvalidArgumentError', () => {
    const built = sessionWithTools().build();
    expect(() => toOpenAIChat(built, { systemRole: 'assistant' as 'system' })).toThrow(InvalidArgumentError);
  });
});

describe('toOpenAIResponses()', () => {
  it('gives instructions and input items with each function_call answered', () => {
    const request = toOpenAIResponses(sessionWithTools().build());
    expect(request.instructions).toContain('You are a careful coding agent.');
    expect(request.input.map((item) => (item.type === 'message' ? `${item.role}` : item.type))).toEqual(['user', 'assistant', 'function_call', 'function_call', 'function_call_output', 'function_call_output', 'user']);
    expect(findOpenAIResponsesProblems(request)).toEqual([]);
  });
});

describe('toAnthropic()', () => {
  it('puts tool_result blocks first in the next user message, rewrites invalid ids and wraps non-object input', () => {
    const request = toAnthropic(sessionWithTools().build(), { cacheBreakpoints: 0 });
    expect(request.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    const [, assistant, user] = request.messages;
    expect(assistant?.content).toEqual([
      { type: 'text', text: 'Resuming the refactor.' },
      { type: 'tool_use', id: 'id_call_1', name: 'read', input: { path: 'src/a.ts' } },
      { type: 'tool_use', id: 'call_2', name: 'run', input: { input: 'npm test' } },
    ]);
    expect(user?.content.map((block) => block.type)).toEqual(['tool_result', 'tool_result', 'text']);
    expect(user?.content[0]).toEqual({ type: 'tool_result', tool_use_id: 'id_call_1' });
    expect(user?.content[1]).toEqual({ type: 'tool_result', tool_use_id: 'call_2', content: 'FAIL src/a.test.ts', is_error: true });
    expect(findAnthropicProblems(request)).toEqual([]);
  });

  it('places cache breakpoints at the stable-prefix edge, the last message, the static prefix and the end of the system prompt', () => {
    const built = sessionWithTools().build();
    expect(built.systemBlocks.map((block) => [block.name, block.isStablePrefix])).toEqual([['prefix', true], ['pins', true], ['scratchpad', false]]);
    const marks = (request: AnthropicRequest): string[] => [
      ...(request.system ?? []).flatMap((block, index) => (block.cache_control === undefined ? [] : [`system[${index}]`])),
      ...request.messages.flatMap((message, index) => message.content.flatMap((block, blockIndex) => (block.cache_control === undefined ? [] : [`messages[${index}][${blockIndex}]`]))),
    ];
    expect(marks(toAnthropic(built, { cacheBreakpoints: 1 }))).toEqual(['system[1]']);
    expect(marks(toAnthropic(built, { cacheBreakpoints: 2 }))).toEqual(['system[1]', 'messages[2][2]']);
    expect(marks(toAnthropic(built, { cacheBreakpoints: 3 }))).toEqual(['system[0]', 'system[1]', 'messages[2][2]']);
    expect(marks(toAnthropic(built))).toEqual(['system[0]', 'system[1]', 'system[2]', 'messages[2][2]']);
    expect(toAnthropic(built).system?.map((block) => block.text).join('\n\n')).toBe(built.system);
  });

  it('rejects more than 4 breakpoints, and a value that is not a built window', () => {
    const built = sessionWithTools().build();
    expect(() => toAnthropic(built, { cacheBreakpoints: 5 })).toThrow(InvalidArgumentError);
    expect(() => toAnthropic(built, { cacheBreakpoints: 5 })).toThrow(/cacheBreakpoints/);
    expect(() => toAnthropic({ system: 1 } as unknown as BuiltContext)).toThrow(/toAnthropic\(\)/);
  });
});

describe('the provider validators', () => {
  it('report the rules each provider enforces', () => {
    expect(findOpenAIChatProblems({ messages: [{ role: 'assistant', content: 'hi' }, { role: 'tool', tool_call_id: 'x', content: '' }] })).toEqual([
      'messages[0]: the history begins with a assistant message, not a user message',
      'messages[1]: tool message for "x" is not a response to a preceding message with tool_calls',
      'no user message',
    ]);
    expect(findOpenAIChatProblems({ messages: [{ role: 'user', content: 'a' }, { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{' } }] }, { role: 'user', content: 'b' }] })).toHaveLength(2);
    expect(findOpenAIResponsesProblems({ input: [{ type: 'message', role: 'user', content: 'a' }, { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' }] })).toEqual(['no tool output found for function call "c"']);
    expect(findOpenAIResponsesProblems({ input: [{ type: 'function_call_output', call_id: 'c', output: '' }] })).toHaveLength(2);
    expect(
      findAnthropicProblems({
        messages: [
          { role: 'user', content: [{ type: 'text', text: ' ' }] },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'a.b', name: 't', input: {} }] },
          { role: 'user', content: [{ type: 'text', text: 'go' }, { type: 'tool_result', tool_use_id: 'a.b' }] },
          { role: 'user', content: [] },
        ],
      }),
    ).toEqual([
      'messages[0].content[0]: text content blocks must contain non-whitespace text',
      'messages[1].content[0]: tool_use id "a.b" does not match ^[a-zA-Z0-9_-]+$',
      'messages[2].content[1]: tool_result after other content; tool_result blocks must come first',
      'messages[3]: two user messages in a row',
      'messages[3]: all messages must have non-empty content',
    ]);
    const cached = { type: 'text' as const, text: 'x', cache_control: { type: 'ephemeral' as const } };
    expect(findAnthropicProblems({ system: [cached, cached, cached], messages: [{ role: 'user', content: [cached, cached] }] })).toEqual(['5 cache_control blocks; a maximum of 4 blocks with cache_control may be provided']);
  });
});

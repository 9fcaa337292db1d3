import type { AnthropicContentBlock, AnthropicRequest } from '../providers/anthropic.js';
import type { OpenAIChatRequest } from '../providers/openai-chat.js';
import type { OpenAIResponsesRequest } from '../providers/openai-responses.js';

/**
 * Lists why the OpenAI Chat Completions API would reject `request` (or an empty list), checking
 * its published message rules: system/developer only first; a `tool` message only as a response
 * to the assistant `tool_calls` right before it; each `tool_calls` message followed by a `tool`
 * message for every call id; unique call ids; `arguments` a JSON string; `content: null` only with
 * tool calls. Also checks Mobius' own promise: the history begins with a user message and no two
 * consecutive messages share a role (tool messages aside).
 *
 * @example
 * ```ts
 * expect(findOpenAIChatProblems(toOpenAIChat(manager.build()))).toEqual([]);
 * ```
 */
export function findOpenAIChatProblems(request: OpenAIChatRequest): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const messages = request.messages;
  let awaited = new Set<string>();
  let previousRole: string | undefined;
  messages.forEach((message, index) => {
    if ((message.role === 'system' || message.role === 'developer') && index > 0) problems.push(`messages[${index}]: a ${message.role} message after the first message`);
    if (message.role === 'tool') {
      if (!awaited.delete(message.tool_call_id)) problems.push(`messages[${index}]: tool message for ${JSON.stringify(message.tool_call_id)} is not a response to a preceding message with tool_calls`);
      previousRole = 'tool';
      return;
    }
    if (awaited.size > 0) problems.push(`messages[${index - 1}]: tool_calls ${[...awaited].map((id) => JSON.stringify(id)).join(', ')} not followed by tool messages`);
    awaited = new Set();
    if (message.role !== 'system' && message.role !== 'developer') {
      if (previousRole === undefined && message.role !== 'user') problems.push(`messages[${index}]: the history begins with a ${message.role} message, not a user message`);
      if (previousRole === message.role) problems.push(`messages[${index}]: two ${message.role} messages in a row`);
      previousRole = message.role;
    }
    if (message.role === 'assistant') {
      const calls = message.tool_calls ?? [];
      if (message.content === null && calls.length === 0) problems.push(`messages[${index}]: assistant content is null without tool_calls`);
      for (const call of calls) {
        if (call.id.length === 0) problems.push(`messages[${index}]: a tool call has an empty id`);
        if (seen.has(call.id)) problems.push(`messages[${index}]: tool call id ${JSON.stringify(call.id)} used twice`);
        seen.add(call.id);
        if (call.function.name.length === 0) problems.push(`messages[${index}]: a tool call has an empty function name`);
        if (!isJson(call.function.arguments)) problems.push(`messages[${index}]: arguments of ${JSON.stringify(call.id)} are not a JSON string`);
        awaited.add(call.id);
      }
    }
  });
  if (awaited.size > 0) problems.push(`end: tool_calls ${[...awaited].map((id) => JSON.stringify(id)).join(', ')} not followed by tool messages`);
  if (!messages.some((message) => message.role === 'user')) problems.push('no user message');
  return problems;
}

/**
 * Lists why the OpenAI Responses API would reject `request` (stateless input), or an empty list:
 * each `function_call_output` answers a `function_call` before it; each `function_call` has its
 * output; call ids are unique; `arguments` is a JSON string; message content is not empty; the
 * input begins with a user message.
 */
export function findOpenAIResponsesProblems(request: OpenAIResponsesRequest): string[] {
  const problems: string[] = [];
  const calls = new Set<string>();
  const answered = new Set<string>();
  const input = request.input;
  const first = input[0];
  if (first === undefined || first.type !== 'message' || first.role !== 'user') problems.push('input does not begin with a user message');
  input.forEach((item, index) => {
    if (item.type === 'message') {
      if (item.content.trim().length === 0) problems.push(`input[${index}]: empty ${item.role} message`);
    } else if (item.type === 'function_call') {
      if (calls.has(item.call_id)) problems.push(`input[${index}]: call_id ${JSON.stringify(item.call_id)} used twice`);
      calls.add(item.call_id);
      if (!isJson(item.arguments)) problems.push(`input[${index}]: arguments are not a JSON string`);
    } else {
      if (!calls.has(item.call_id)) problems.push(`input[${index}]: no tool call found for function call output with call_id ${JSON.stringify(item.call_id)}`);
      if (answered.has(item.call_id)) problems.push(`input[${index}]: second output for call_id ${JSON.stringify(item.call_id)}`);
      answered.add(item.call_id);
    }
  });
  for (const id of calls) if (!answered.has(id)) problems.push(`no tool output found for function call ${JSON.stringify(id)}`);
  return problems;
}

/**
 * Lists why the Anthropic Messages API would reject `request`, or an empty list: at least one
 * message, the first from the user, roles alternating; no empty content or whitespace-only text;
 * `tool_use` only from the assistant, with a unique id matching `^[a-zA-Z0-9_-]+$` and an object
 * input; the next message is a user message whose `tool_result` blocks, first in its content,
 * answer every `tool_use` id of the message before and nothing else; at most 4 `cache_control`
 * breakpoints in `system` and `messages` together.
 */
export function findAnthropicProblems(request: AnthropicRequest): string[] {
  const problems: string[] = [];
  let breakpoints = 0;
  for (const [index, block] of (request.system ?? []).entries()) {
    if (block.text.trim().length === 0) problems.push(`system[${index}]: text content blocks must contain non-whitespace text`);
    if (block.cache_control !== undefined) breakpoints += 1;
  }
  const messages = request.messages;
  if (messages.length === 0) problems.push('messages: at least one message is required');
  if (messages[0] !== undefined && messages[0].role !== 'user') problems.push('messages[0]: the first message must use the user role');
  const seenIds = new Set<string>();
  let awaited = new Set<string>();
  messages.forEach((message, index) => {
    if (index > 0 && messages[index - 1]?.role === message.role) problems.push(`messages[${index}]: two ${message.role} messages in a row`);
    if (message.content.length === 0) problems.push(`messages[${index}]: all messages must have non-empty content`);
    let isPastResults = false;
    const answered = new Set<string>();
    message.content.forEach((block: AnthropicContentBlock, blockIndex) => {
      const where = `messages[${index}].content[${blockIndex}]`;
      if (block.cache_control !== undefined) breakpoints += 1;
      if (block.type === 'text') {
        isPastResults = true;
        if (block.text.trim().length === 0) problems.push(`${where}: text content blocks must contain non-whitespace text`);
      } else if (block.type === 'tool_use') {
        if (message.role !== 'assistant') problems.push(`${where}: tool_use in a user message`);
        if (!/^[a-zA-Z0-9_-]+$/.test(block.id)) problems.push(`${where}: tool_use id ${JSON.stringify(block.id)} does not match ^[a-zA-Z0-9_-]+$`);
        if (seenIds.has(block.id)) problems.push(`${where}: tool_use id ${JSON.stringify(block.id)} used twice`);
        seenIds.add(block.id);
        if (block.name.length === 0) problems.push(`${where}: tool_use without a name`);
        if (typeof block.input !== 'object' || block.input === null || Array.isArray(block.input)) problems.push(`${where}: tool_use input is not an object`);
      } else {
        if (message.role !== 'user') problems.push(`${where}: tool_result in an assistant message`);
        if (isPastResults) problems.push(`${where}: tool_result after other content; tool_result blocks must come first`);
        if (!awaited.has(block.tool_use_id)) problems.push(`${where}: unexpected tool_use_id ${JSON.stringify(block.tool_use_id)} in tool_result blocks: each tool_result must answer a tool_use of the previous message`);
        answered.add(block.tool_use_id);
      }
    });
    const missing = [...awaited].filter((id) => !answered.has(id));
    if (missing.length > 0) problems.push(`messages[${index - 1}]: tool_use ids were found without tool_result blocks immediately after: ${missing.join(', ')}`);
    awaited = new Set(message.role === 'assistant' ? message.content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : [])) : []);
  });
  if (awaited.size > 0) problems.push(`messages[${messages.length - 1}]: tool_use ids were found without tool_result blocks immediately after: ${[...awaited].join(', ')}`);
  if (breakpoints > 4) problems.push(`${breakpoints} cache_control blocks; a maximum of 4 blocks with cache_control may be provided`);
  return problems;
}

// --- Internal helpers ---

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

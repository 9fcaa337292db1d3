/**
 * `mobius-context/providers`: a built window as a request body for the OpenAI Chat Completions,
 * OpenAI Responses and Anthropic Messages APIs, plus the provider-neutral normalized form they
 * share. No SDK is needed: the types are written here.
 */
export { CONTINUATION_TEXT, CONTINUATION_TOKENS, normalizeWindow } from './normalize.js';
export type { NormalizedMessage, NormalizedToolResult, NormalizedWindow } from './normalize.js';
export { toOpenAIChat } from './openai-chat.js';
export type { OpenAIChatMessage, OpenAIChatOptions, OpenAIChatRequest, OpenAIChatToolCall } from './openai-chat.js';
export { toOpenAIResponses } from './openai-responses.js';
export type { OpenAIResponsesInputItem, OpenAIResponsesRequest } from './openai-responses.js';
export { toAnthropic } from './anthropic.js';
export type {
  AnthropicCacheControl,
  AnthropicContentBlock,
  AnthropicMessage,
  AnthropicOptions,
  AnthropicRequest,
  AnthropicTextBlock,
  AnthropicToolResultBlock,
  AnthropicToolUseBlock,
} from './anthropic.js';
export type { SystemBlock } from '../build/window-builder.js';
// resultText and parseBuiltContext are internal helpers of the formats.

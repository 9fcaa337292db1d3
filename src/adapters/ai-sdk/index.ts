/**
 * `mobius-context/ai-sdk`: context management for the AI SDK (`ai` v5, v6 and v7), as a
 * `prepareStep` / `onStepFinish` pair for `generateText`, `streamText` and `ToolLoopAgent`, or as a
 * middleware for `wrapLanguageModel`. `ai` is an optional peer dependency: nothing is imported
 * from it at run time.
 */
export { createMobiusPrepareStep } from './prepare-step.js';
export type { MobiusPrepareStep, MobiusPrepareStepInput, MobiusPrepareStepOptions, MobiusStepOverride } from './prepare-step.js';
export { createMobiusMiddleware } from './middleware.js';
export type { MobiusMiddleware, MobiusMiddlewareOptions } from './middleware.js';
export type {
  AiSdkMessageLike,
  AiSdkModelMessage,
  AiSdkPromptFilePart,
  AiSdkPromptMessage,
  AiSdkTextPart,
  AiSdkToolCallPart,
  AiSdkToolResultOutput,
  AiSdkToolResultPart,
} from './model-messages.js';
export { MEDIA_PART_TOKENS } from '../newest-turn-media.js';
export type { AiSdkFilePart, AiSdkImagePart, AiSdkUserContent, AiSdkUserPart } from './newest-user-media.js';
export type { FrameworkAdapterOptions } from '../step-window.js';
// The message recorder and window conversions are internal: their shapes follow the AI SDK's.

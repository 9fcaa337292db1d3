/**
 * `mobius-context/langchain`: a LangChain.js v1 agent middleware that records the agent's
 * messages in a `ContextManager` and hands the model the window it builds.
 * Requires the optional peers `langchain@^1` and `@langchain/core@^1`.
 */
export { mobiusContextMiddleware } from './mobius-middleware.js';
export type { MobiusContextMiddlewareOptions } from './mobius-middleware.js';
export { toLangChainMessages } from './window-messages.js';
export { MEDIA_PART_TOKENS } from '../newest-turn-media.js';
export type { FrameworkAdapterOptions } from '../step-window.js';

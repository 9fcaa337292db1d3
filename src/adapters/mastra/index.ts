/**
 * `mobius-context/mastra`: a Mastra processor that records the agent's messages in a
 * `ContextManager` and hands the model the window it builds. Requires the optional peer
 * `@mastra/core@^1` (Node ≥ 22.13, as Mastra itself).
 */
export { MobiusContextProcessor } from './mobius-processor.js';
export type { MobiusContextProcessorOptions } from './mobius-processor.js';
export { toMastraPrompt } from './window-prompt.js';
export type { MastraPrompt } from './window-prompt.js';
export { MEDIA_PART_TOKENS } from '../newest-turn-media.js';
export type { FrameworkAdapterOptions } from '../step-window.js';

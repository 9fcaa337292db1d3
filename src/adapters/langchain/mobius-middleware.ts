import { SystemMessage } from '@langchain/core/messages';
import { createMiddleware } from 'langchain';
import type { AgentMiddleware } from 'langchain';
import { z } from 'zod';
import { mediaReserve } from '../newest-turn-media.js';
import { buildStepWindow, parseAdapterOptions } from '../step-window.js';
import type { FrameworkAdapterOptions } from '../step-window.js';
import { contentText, createLangChainRecorder } from './message-recorder.js';
import { newestHumanMedia, withNewestHumanMedia } from './newest-human-media.js';
import { toLangChainMessages } from './window-messages.js';

/** Options of {@link mobiusContextMiddleware}. */
export interface MobiusContextMiddlewareOptions extends FrameworkAdapterOptions {
  /** The middleware's name in the agent (names are unique within an agent). @default 'MobiusContextMiddleware' */
  name?: string | undefined;
}

/**
 * Creates a LangChain.js v1 agent middleware that lets Mobius manage the model's context window.
 * - `beforeModel`, `wrapModelCall` and `afterModel` record the agent's new messages in the
 *   manager, each message once (by id): the user's input, the model's replies with their tool
 *   calls, and the tool results;
 * - `wrapModelCall` hands the model the window `manager.build()` makes for this step instead of
 *   the full history: the system prompt (facts, pins, summaries, open files) and the recent turns,
 *   normalized so that providers accept it; the newest human turn keeps its media blocks (each
 *   charged `MEDIA_PART_TOKENS`). The change is transient: the agent's checkpointed state keeps
 *   every original message.
 *
 * Put the system prompt in the manager's `systemPrompt` so that it counts against the budget; a
 * `systemPrompt` given to `createAgent` is kept in front of the window's, outside the budget.
 *
 * @example
 * ```ts
 * const manager = new ContextManager({ systemPrompt: 'You are a careful coding agent.' });
 * const agent = createAgent({ model, tools, middleware: [mobiusContextMiddleware({ manager, budget: 28_000 })] });
 * await agent.invoke({ messages: [new HumanMessage('Fix the failing test')] });
 * ```
 * @throws {InvalidArgumentError} when an option is invalid (e.g. `manager` is not a ContextManager).
 */
export function mobiusContextMiddleware(options: MobiusContextMiddlewareOptions): AgentMiddleware {
  const resolved = parseAdapterOptions(options, {
    method: 'mobiusContextMiddleware',
    example: 'mobiusContextMiddleware({ manager, budget: 28_000 })',
    extra: { name: z.string().min(1).optional() },
  });
  const recorder = createLangChainRecorder(resolved.manager);
  return createMiddleware({
    name: resolved.name ?? 'MobiusContextMiddleware',
    beforeModel: (state) => {
      recorder.record(state.messages);
      return undefined;
    },
    wrapModelCall: async (request, handler) => {
      // Another middleware's `beforeModel` may have added messages after ours ran.
      recorder.record(request.state.messages);
      // The newest human turn keeps its images and files; history holds their placeholders.
      const media = newestHumanMedia(request.state.messages);
      const { window } = await buildStepWindow({ ...resolved, ...mediaReserve(media) });
      const agentSystem = contentText(request.systemMessage.content).trim();
      const system = agentSystem.length > 0 && window.system.length > 0 ? `${agentSystem}\n\n${window.system}` : agentSystem || window.system;
      return handler({ ...request, messages: withNewestHumanMedia(toLangChainMessages(window), media), systemMessage: new SystemMessage(system) });
    },
    afterModel: (state) => {
      recorder.record(state.messages);
      return undefined;
    },
  });
}

import type { MastraDBMessage } from '@mastra/core/agent/message-list';
import type { ProcessInputStepArgs, ProcessLLMRequestArgs, ProcessLLMRequestResult, ProcessOutputResultArgs, Processor } from '@mastra/core/processors';
import { mediaReserve } from '../newest-turn-media.js';
import { buildStepWindow, parseAdapterOptions } from '../step-window.js';
import type { FrameworkAdapterOptions, ResolvedAdapterOptions } from '../step-window.js';
import { createMastraRecorder } from './message-recorder.js';
import type { MastraRecorder } from './message-recorder.js';
import { newestUserMedia, withNewestUserMedia } from './newest-user-media.js';
import { toMastraPrompt } from './window-prompt.js';

/** Options of {@link MobiusContextProcessor}. */
export type MobiusContextProcessorOptions = FrameworkAdapterOptions;

/**
 * A Mastra processor that lets Mobius manage the model's context window. Add the same instance
 * to the agent's `inputProcessors` and `outputProcessors`:
 * - `processInputStep` records, before every step, what the agent's messages gained since the
 *   last step (the user's input, each step's text and tool calls, the tool results), each once;
 * - `processLLMRequest` replaces the prompt of the call with the window `manager.build()` makes:
 *   the prompt's own system messages (the agent's instructions) first, then the window. Mastra does
 *   not persist this change: the agent's messages and memory keep the full conversation. The
 *   newest user turn keeps its file parts (each charged `MEDIA_PART_TOKENS`);
 * - `processOutputResult` records the final answer, which no later step sees.
 *
 * Put the system prompt in the manager's `systemPrompt` so that it counts against the budget;
 * the agent's `instructions` are kept in front of the window, outside the budget.
 *
 * @example
 * ```ts
 * const mobius = new MobiusContextProcessor({ manager, budget: 28_000 });
 * const agent = new Agent({ id: 'coder', name: 'coder', instructions: '', model, tools,
 *   inputProcessors: [mobius], outputProcessors: [mobius] });
 * ```
 * @throws {InvalidArgumentError} when an option is invalid (e.g. `manager` is not a ContextManager).
 */
export class MobiusContextProcessor implements Processor<'mobius-context'> {
  /** The processor's id in the agent. */
  readonly id: 'mobius-context' = 'mobius-context';
  /** A readable name for traces. */
  readonly name: string = 'Mobius context window';
  readonly #options: ResolvedAdapterOptions;
  readonly #recorder: MastraRecorder;

  constructor(options: MobiusContextProcessorOptions) {
    this.#options = parseAdapterOptions(options, {
      method: 'new MobiusContextProcessor',
      example: 'new MobiusContextProcessor({ manager, budget: 28_000 })',
      extra: {},
    });
    this.#recorder = createMastraRecorder(this.#options.manager);
  }

  /** Records the messages the agent gained since the previous step. */
  processInputStep(args: ProcessInputStepArgs): undefined {
    this.#recorder.record(args.messages);
    return undefined;
  }

  /** Replaces this call's prompt with the built window (transient: nothing is persisted). */
  async processLLMRequest(args: ProcessLLMRequestArgs): Promise<ProcessLLMRequestResult> {
    // The newest user turn keeps its images and files; history holds their placeholders.
    const media = newestUserMedia(args.prompt);
    const { window } = await buildStepWindow({ ...this.#options, ...mediaReserve(media) });
    const systemMessages = args.prompt.flatMap((message) => (message.role === 'system' ? [message.content] : []));
    return { prompt: withNewestUserMedia(toMastraPrompt(window, { systemMessages }), media) };
  }

  /** Records the final answer of the run. */
  processOutputResult(args: ProcessOutputResultArgs): MastraDBMessage[] {
    this.#recorder.record(args.messages);
    return args.messages;
  }
}

import type { BuiltContext } from '../../build/window-builder.js';
import { mediaReserve } from '../newest-turn-media.js';
import { buildStepWindow, parseAdapterOptions } from '../step-window.js';
import type { FrameworkAdapterOptions } from '../step-window.js';
import { createMessageRecorder } from './message-recorder.js';
import { toModelMessages } from './model-messages.js';
import { newestUserMedia } from './newest-user-media.js';
import type { AiSdkMessageLike, AiSdkModelMessage } from './model-messages.js';

/** Options of {@link createMobiusPrepareStep}. */
export type MobiusPrepareStepOptions = FrameworkAdapterOptions;

/** What the prepared step sends the model: the built window's system prompt and history. */
export interface MobiusStepOverride {
  /** The system prompt of the built window (static prefix, facts, pins, summaries, open files). */
  system: string;
  /** The built window's history, structurally valid for every provider. */
  messages: AiSdkModelMessage[];
}

/** What `prepareStep` reads of the AI SDK's step options. */
export interface MobiusPrepareStepInput {
  /** The messages the SDK would send at this step. */
  readonly messages: readonly AiSdkMessageLike[];
  /** ai@7: the messages passed to the call (read instead of `messages` when given with `responseMessages`). */
  readonly initialMessages?: readonly AiSdkMessageLike[] | undefined;
  /** ai@7: the response messages of the previous steps. */
  readonly responseMessages?: readonly AiSdkMessageLike[] | undefined;
}

/** The callbacks to pass to `generateText`, `streamText` or `ToolLoopAgent`. */
export interface MobiusPrepareStep {
  /**
   * Pass as `prepareStep`: records the step's new messages (each message once, although the AI
   * SDK repeats earlier ones at every step) and returns `{ system, messages }` from `build()`.
   */
  readonly prepareStep: (options: MobiusPrepareStepInput) => Promise<MobiusStepOverride>;
  /**
   * Pass as `onStepFinish`: records the step's response messages, so that the final answer of a
   * call is recorded before the call returns (no later step would show it to `prepareStep`).
   */
  readonly onStepFinish: (step: { readonly response: { readonly messages: readonly AiSdkMessageLike[] } }) => void;
  /** Records messages by hand (e.g. `result.response.messages`); what the manager already holds is skipped. Returns how many records (messages, results, notes) were made. */
  readonly record: (messages: readonly AiSdkMessageLike[]) => number;
  /** The window handed to the model at the last step, with its token breakdown. */
  readonly lastWindow: () => BuiltContext | undefined;
}

/**
 * Lets a `ContextManager` manage the context of an AI SDK agent loop (`ai` v5, v6 and v7): each step
 * gets the built window instead of the ever-growing message list, while the manager records
 * every message once. The manager's `systemPrompt` is the agent's instructions: a `system` given
 * to `generateText` is replaced by the window's.
 *
 * @example
 * ```ts
 * const manager = new ContextManager({ systemPrompt: 'You are a careful coding agent.', model: 'gpt-4.1' });
 * const mobius = createMobiusPrepareStep({ manager, budget: 28_000 });
 * const result = await generateText({
 *   model, tools, prompt: 'Fix the failing test in src/auth.ts',
 *   prepareStep: mobius.prepareStep, onStepFinish: mobius.onStepFinish, stopWhen: stepCountIs(50),
 * });
 * ```
 * @throws {InvalidArgumentError} when an option is invalid.
 */
export function createMobiusPrepareStep(options: MobiusPrepareStepOptions): MobiusPrepareStep {
  const resolved = parseAdapterOptions(options, {
    method: 'createMobiusPrepareStep',
    example: 'createMobiusPrepareStep({ manager, budget: 28_000 })',
    extra: {},
  });
  const recorder = createMessageRecorder(resolved.manager);
  let last: BuiltContext | undefined;
  return {
    prepareStep: async ({ messages, initialMessages, responseMessages }) => {
      // ai@7 carries a returned `messages` override into the next step's `messages`: the
      // conversation as the SDK holds it is the call's messages plus the steps' responses.
      const conversation = initialMessages !== undefined && responseMessages !== undefined ? [...initialMessages, ...responseMessages] : messages;
      recorder.record(conversation);
      // The newest user turn keeps its images and files; history holds their placeholders.
      const media = newestUserMedia(conversation);
      const step = await buildStepWindow({ ...resolved, ...mediaReserve(media) });
      last = step.built;
      return { system: step.window.system, messages: toModelMessages(step.window, media) };
    },
    onStepFinish: (step) => void recorder.record(step.response.messages),
    record: (messages) => recorder.record(messages),
    lastWindow: () => last,
  };
}

import type { BuiltContext } from '../../build/window-builder.js';
import { mediaReserve } from '../newest-turn-media.js';
import { buildStepWindow, parseAdapterOptions } from '../step-window.js';
import type { FrameworkAdapterOptions } from '../step-window.js';
import { createMessageRecorder } from './message-recorder.js';
import { toPromptMessages } from './model-messages.js';
import { newestUserMedia } from './newest-user-media.js';
import type { AiSdkMessageLike } from './model-messages.js';

/** Options of {@link createMobiusMiddleware}. */
export type MobiusMiddlewareOptions = FrameworkAdapterOptions;

/**
 * A language-model middleware for `wrapLanguageModel` (`ai` v6: `specificationVersion: 'v3'`;
 * `ai` v5: `middlewareVersion: 'v2'`; `ai` v7 accepts either; the prompt shapes it reads and
 * writes are the same in all three).
 */
export interface MobiusMiddleware {
  /** Marks the middleware for `ai` v6. */
  readonly specificationVersion: 'v3';
  /** Marks the middleware for `ai` v5. */
  readonly middlewareVersion: 'v2';
  /** Records the prompt's new messages and replaces the prompt with the built window. */
  readonly transformParams: <Params extends { readonly prompt: readonly AiSdkMessageLike[] }>(options: { readonly params: Params }) => Promise<Params>;
  /** Records messages by hand (e.g. `result.response.messages`); what the manager already holds is skipped. Returns how many records (messages, results, notes) were made. */
  readonly record: (messages: readonly AiSdkMessageLike[]) => number;
  /** The window handed to the model at the last call, with its token breakdown. */
  readonly lastWindow: () => BuiltContext | undefined;
}

/**
 * Lets a `ContextManager` manage the context of every call to a wrapped model: the middleware
 * records the prompt's new messages (each once, although every call of an agent loop repeats the
 * earlier ones) and sends the model the built window instead. The model's last answer of a
 * `generateText` call reaches the manager with the next call's prompt, or at once with
 * `middleware.record(result.response.messages)`. Prefer `createMobiusPrepareStep` when you
 * control the `generateText` call; do not use both on one loop.
 *
 * @example
 * ```ts
 * const middleware = createMobiusMiddleware({ manager, budget: 28_000 });
 * const model = wrapLanguageModel({ model: openai('gpt-4.1'), middleware });
 * const result = await generateText({ model, tools, messages, stopWhen: stepCountIs(50) });
 * middleware.record(result.response.messages);
 * ```
 * @throws {InvalidArgumentError} when an option is invalid.
 */
export function createMobiusMiddleware(options: MobiusMiddlewareOptions): MobiusMiddleware {
  const resolved = parseAdapterOptions(options, {
    method: 'createMobiusMiddleware',
    example: 'createMobiusMiddleware({ manager, budget: 28_000 })',
    extra: {},
  });
  const recorder = createMessageRecorder(resolved.manager);
  let last: BuiltContext | undefined;
  return {
    specificationVersion: 'v3',
    middlewareVersion: 'v2',
    transformParams: async <Params extends { readonly prompt: readonly AiSdkMessageLike[] }>({ params }: { readonly params: Params }): Promise<Params> => {
      recorder.record(params.prompt);
      // The newest user turn keeps its images and files; history holds their placeholders.
      const media = newestUserMedia(params.prompt);
      const step = await buildStepWindow({ ...resolved, ...mediaReserve(media) });
      last = step.built;
      // The call options are the caller's; only the prompt is replaced, with the same shape.
      return { ...params, prompt: toPromptMessages(step.window, media) };
    },
    record: (messages) => recorder.record(messages),
    lastWindow: () => last,
  };
}

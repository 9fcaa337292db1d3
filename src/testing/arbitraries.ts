import fc from 'fast-check';
import type { ContextManager } from '../context-manager.js';
import type { JsonValue } from '../types.js';

/** One step of a generated session, applied with {@link applyOperations}. */
export type SessionOperation =
  | { readonly op: 'user'; readonly content: string }
  | { readonly op: 'assistant'; readonly content: string }
  | {
      readonly op: 'tools';
      readonly calls: readonly { readonly name: string; readonly input: JsonValue; readonly output: string; readonly isError: boolean }[];
      /** Results arrive in this order (a permutation of the calls), possibly after a note. */
      readonly order: readonly number[];
      readonly noteBetween: string | undefined;
    }
  | { readonly op: 'open'; readonly path: string; readonly content: string }
  | { readonly op: 'update'; readonly path: string; readonly content: string; readonly reason: string | undefined }
  | { readonly op: 'close'; readonly path: string }
  | { readonly op: 'pin'; readonly text: string };

/** Options of {@link arbitraries}.operations. */
export interface OperationArbitraryOptions {
  /** Fewest operations per session. @default 10 */
  minLength?: number | undefined;
  /** Most operations per session. @default 60 */
  maxLength?: number | undefined;
  /** fast-check size of generated strings and lists; larger sizes reach graduation more often. @default 'large' */
  size?: fc.SizeForArbitrary | undefined;
  /** Include rare 1 MB strings. @default true */
  hasHugeStrings?: boolean | undefined;
}

const SPECIAL_TOKENS = ['<|endoftext|>', '<|im_start|>user', '<|fim_prefix|>', '<|endofprompt|>'];
const PATHS = ['src/auth.py', 'src/config.ts', 'test/app.test.ts', 'docs/ünï©ødé.md', 'a b/c.txt'];

/** Text: ASCII, full unicode, empty, special-token strings, code fences, and (rarely) 1 MB. */
function text(options: { hasHugeStrings: boolean; size: fc.SizeForArbitrary }): fc.Arbitrary<string> {
  // Weights are per 1,000 strings: a 1 MB string is rare (it costs ~0.1 s to count) but present.
  const parts: fc.WeightedArbitrary<string>[] = [
    { arbitrary: fc.string({ maxLength: 300, size: options.size }), weight: 300 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 80 }), weight: 150 },
    { arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }), weight: 100 },
    { arbitrary: fc.constant(''), weight: 50 },
    { arbitrary: fc.constantFrom(...SPECIAL_TOKENS).map((token) => `before ${token} after`), weight: 50 },
    { arbitrary: fc.constantFrom('Done, all tests pass.', "now let's work on the parser", 'We decided to use PostgreSQL, not SQLite.', '```ts\nconst a = 1;\n```', 'TypeError: x is undefined\n    at f (src/a.ts:3:5)'), weight: 150 },
    { arbitrary: fc.lorem({ maxCount: 80, size: options.size }), weight: 199 },
  ];
  if (options.hasHugeStrings) parts.push({ arbitrary: fc.constant('x'.repeat(1_000_000)), weight: 1 });
  return fc.oneof(...parts);
}

function fileContent(): fc.Arbitrary<string> {
  return fc.oneof(
    fc.array(fc.oneof(fc.lorem({ maxCount: 8 }), fc.string({ maxLength: 30 }), fc.constant('')), { maxLength: 120, size: 'large' }).map((lines) => lines.join('\n')),
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.constant(''),
  );
}

/** fast-check arbitraries for property-testing a {@link ContextManager} with your own Summarizer or Storage. */
export const arbitraries: {
  /** A random session: messages, interleaved tool calls, file events and pins. */
  operations(options?: OperationArbitraryOptions): fc.Arbitrary<SessionOperation[]>;
} = {
  operations(options = {}) {
    const hasHugeStrings = options.hasHugeStrings ?? true;
    const size = options.size ?? 'large';
    const content = text({ hasHugeStrings, size });
    const path = fc.constantFrom(...PATHS);
    const toolCall = fc.record({
      name: fc.constantFrom('read_file', 'run_tests', 'grep', 'bash'),
      input: fc.oneof(fc.record({ command: fc.string({ maxLength: 40 }) }), fc.record({ path, limit: fc.integer({ min: 0, max: 100 }) })) as fc.Arbitrary<JsonValue>,
      output: content,
      isError: fc.boolean(),
    });
    const operation: fc.Arbitrary<SessionOperation> = fc.oneof(
      { arbitrary: content.map((value) => ({ op: 'user' as const, content: value })), weight: 4 },
      { arbitrary: content.map((value) => ({ op: 'assistant' as const, content: value })), weight: 4 },
      {
        arbitrary: fc
          .array(toolCall, { minLength: 1, maxLength: 3 })
          .chain((calls) =>
            fc.record({
              op: fc.constant('tools' as const),
              calls: fc.constant(calls),
              order: fc.shuffledSubarray(
                calls.map((_, index) => index),
                { minLength: calls.length, maxLength: calls.length },
              ),
              noteBetween: fc.option(fc.lorem({ maxCount: 5 }), { nil: undefined }),
            }),
          ),
        weight: 3,
      },
      { arbitrary: fc.record({ op: fc.constant('open' as const), path, content: fileContent() }), weight: 2 },
      {
        arbitrary: fc.record({
          op: fc.constant('update' as const),
          path,
          content: fileContent(),
          reason: fc.option(fc.lorem({ maxCount: 3 }), { nil: undefined }),
        }),
        weight: 3,
      },
      { arbitrary: fc.record({ op: fc.constant('close' as const), path }), weight: 1 },
      { arbitrary: fc.lorem({ maxCount: 6 }).map((value) => ({ op: 'pin' as const, text: value.length === 0 ? 'pinned' : value })), weight: 1 },
    );
    return fc.array(operation, { minLength: options.minLength ?? 10, maxLength: options.maxLength ?? 60, size: options.size ?? 'large' });
  },
};

/** What the driver expects, to check invariants against. */
export interface OperationModel {
  /** The last content given for each path (whether or not it is still open), as recorded: secrets redacted. */
  readonly lastContent: Map<string, string>;
  /** Ids of pins that were added. */
  readonly pinIds: string[];
}

/**
 * Applies generated operations to a manager the way an agent loop would (updates of files that
 * are not open become opens), and returns a model to check invariants against.
 */
export function applyOperations(manager: ContextManager, operations: readonly SessionOperation[]): OperationModel {
  const model: OperationModel = { lastContent: new Map(), pinIds: [] };
  const isOpen = (path: string): boolean => manager.state().files.some((file) => file.path === path);
  for (const operation of operations) {
    switch (operation.op) {
      case 'user':
      case 'assistant':
        manager.addMessage({ role: operation.op, content: operation.content });
        break;
      case 'tools': {
        // Ids are unique across calls of applyOperations on the same manager: based on its log position.
        const base = manager.state().lastSeq + 1;
        const ids = operation.calls.map((_, index) => `call-${base}-${index + 1}`);
        manager.addMessage({
          role: 'assistant',
          content: '',
          toolCalls: operation.calls.map((call, index) => ({ id: ids[index] as string, name: call.name, input: call.input })),
        });
        operation.order.forEach((callIndex, position) => {
          const call = operation.calls[callIndex];
          if (call === undefined) return;
          if (position === 1 && operation.noteBetween !== undefined) manager.addNote({ content: operation.noteBetween });
          manager.addToolResult({ callId: ids[callIndex] as string, output: call.output, isError: call.isError });
        });
        break;
      }
      case 'open':
        manager.openFile({ path: operation.path, content: operation.content });
        // The scratchpad holds what was recorded: the content with any secrets redacted.
        model.lastContent.set(operation.path, manager.redact(operation.content));
        break;
      case 'update':
        if (isOpen(operation.path)) {
          manager.updateFile({ path: operation.path, content: operation.content, ...(operation.reason === undefined ? {} : { reason: operation.reason }) });
        } else {
          manager.openFile({ path: operation.path, content: operation.content });
        }
        model.lastContent.set(operation.path, manager.redact(operation.content));
        break;
      case 'close':
        if (isOpen(operation.path)) manager.closeFile({ path: operation.path });
        break;
      case 'pin':
        model.pinIds.push(manager.pin({ text: operation.text }).id);
        break;
    }
  }
  return model;
}

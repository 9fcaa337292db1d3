import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContextManager, InvalidArgumentError, countMessageTokens } from '../../src/index.js';
import type { ToolCallOrphanEvent } from '../../src/index.js';
import { toAnthropic, toOpenAIChat, toOpenAIResponses } from '../../src/providers/index.js';
import { assertInvariants, assertProviderValid, findAnthropicProblems, findOpenAIChatProblems, findOpenAIResponsesProblems } from '../../src/testing/index.js';
import { PROPERTY_RUNS, createSmallManager } from '../helpers.js';

// Model-based test of invariant 8: whatever the agent leaves unanswered, answers late, answers in
// parallel or out of order, or answers twice, every built window is one a provider accepts and
// stays within its budget. The model only knows the newest call of each id and its status.
type Status = 'pending' | 'answered' | 'orphaned' | 'late';

interface Model {
  readonly orphanCallsAfter: number;
  /** The newest call of each id, in the order the calls became pending. */
  calls: Map<string, { status: Status; messagesAfter: number }>;
  files: Set<string>;
}

interface Real {
  readonly manager: ContextManager;
  readonly orphans: ToolCallOrphanEvent[];
  graduations: number;
}

const BUDGET = 3_000;
const IDS = ['0', '1', '2', 'call_a'];
const PATHS = ['src/a.ts', 'src/b.py', 'docs/c.md'];

type Command = fc.AsyncCommand<Model, Real>;

function command(options: { name: string; check?: (model: Readonly<Model>) => boolean; run: (model: Model, real: Real) => void }): Command {
  return {
    check: options.check ?? (() => true),
    run: async (model, real) => {
      options.run(model, real);
      // Files also close by themselves (untouched for 10 user turns, or evicted): follow the manager.
      const open = new Set(real.manager.state().files.map((file) => file.path));
      for (const path of [...model.files]) if (!open.has(path)) model.files.delete(path);
      // A window built while graduation is in flight, and one after it settled.
      checkWindow(real.manager);
      await real.manager.settle();
      checkWindow(real.manager);
    },
    toString: () => options.name,
  };
}

function checkWindow(manager: ContextManager): void {
  const built = manager.build({ budget: BUDGET });
  assertProviderValid(built);
  // And at the wire: each provider format passes that provider's structural rules.
  expect(findOpenAIChatProblems(toOpenAIChat(built))).toEqual([]);
  expect(findOpenAIResponsesProblems(toOpenAIResponses(built))).toEqual([]);
  expect(findAnthropicProblems(toAnthropic(built))).toEqual([]);
  expect(built.tokens.total).toBeLessThanOrEqual(BUDGET);
  // What build() charged covers what it rendered (placeholders, late results and notes included).
  expect(countMessageTokens(built.messages, manager.tokenCounter)).toBeLessThanOrEqual(built.tokens.total);
}

/** Ids of the calls a result can still answer (pending, or closed without a result). */
function answerable(model: Readonly<Model>): string[] {
  return [...model.calls].filter(([, call]) => call.status === 'pending' || call.status === 'orphaned').map(([id]) => id);
}

function answered(model: Readonly<Model>): string[] {
  return [...model.calls].filter(([, call]) => call.status === 'answered' || call.status === 'late').map(([id]) => id);
}

/** The model's rule: pending calls close after `orphanCallsAfter` messages, or when their id is reused. */
function recordMessage(model: Model, ids: readonly string[]): string[] {
  const closed: string[] = [];
  for (const [id, call] of model.calls) {
    if (call.status !== 'pending') continue;
    if (ids.includes(id) || call.messagesAfter + 1 >= model.orphanCallsAfter) {
      call.status = 'orphaned';
      closed.push(id);
    } else {
      call.messagesAfter += 1;
    }
  }
  for (const id of ids) {
    model.calls.delete(id);
    model.calls.set(id, { status: 'pending', messagesAfter: 0 });
  }
  return closed;
}

function answer(model: Model, id: string): void {
  const call = model.calls.get(id);
  if (call !== undefined) call.status = call.status === 'orphaned' ? 'late' : 'answered';
}

const text = fc.oneof(
  { arbitrary: fc.lorem({ maxCount: 60, size: 'large' }), weight: 5 },
  { arbitrary: fc.constantFrom('Done, all tests pass.', "Now let's move on to the parser.", '```ts\nconst a = 1;\n```'), weight: 1 },
);

const messageCommand = fc
  .record({
    role: fc.constantFrom('user' as const, 'assistant' as const),
    content: text,
    ids: fc.uniqueArray(fc.constantFrom(...IDS), { maxLength: 3 }),
  })
  .map(({ role, content, ids }): Command => {
    const callIds = role === 'assistant' ? ids : [];
    return command({
      name: `${role}(${callIds.join(',')})`,
      run: (model, real) => {
        const before = real.orphans.length;
        real.manager.addMessage({
          role,
          content,
          ...(callIds.length === 0 ? {} : { toolCalls: callIds.map((id) => ({ id, name: `tool_${id}`, input: { path: PATHS[0] ?? '', n: 1 } })) }),
        });
        const expected = recordMessage(model, callIds);
        expect(real.orphans.slice(before).map((event) => event.callId)).toEqual(expected);
      },
    });
  });

const resultCommand = fc.record({ pick: fc.nat(), output: text, isError: fc.boolean() }).map(({ pick, output, isError }): Command =>
  command({
    name: `result(#${pick})`,
    check: (model) => answerable(model).length > 0,
    run: (model, real) => {
      const ids = answerable(model);
      const id = ids[pick % ids.length] as string;
      real.manager.addToolResult({ callId: id, output, isError });
      answer(model, id);
    },
  }),
);

const duplicateCommand = fc.nat().map((pick): Command =>
  command({
    name: `duplicate(#${pick})`,
    check: (model) => answered(model).length > 0,
    run: (model, real) => {
      const ids = answered(model);
      const id = ids[pick % ids.length] as string;
      const lastSeq = real.manager.state().lastSeq;
      expect(() => real.manager.addToolResult({ callId: id, output: 'again' })).toThrow(InvalidArgumentError);
      expect(() => real.manager.addToolResult({ callId: id, output: 'again' })).toThrow(/already has its result, recorded in event #\d+/);
      expect(real.manager.state().lastSeq).toBe(lastSeq);
    },
  }),
);

const fileCommand = fc
  .record({
    kind: fc.constantFrom('open' as const, 'update' as const, 'close' as const),
    path: fc.constantFrom(...PATHS),
    content: fc.lorem({ maxCount: 40 }),
    asResult: fc.option(fc.nat(), { nil: undefined }),
  })
  .map(({ kind, path, content, asResult }): Command =>
    command({
      name: `${kind}(${path}${asResult === undefined ? '' : `, result #${asResult}`})`,
      check: (model) => kind === 'open' || model.files.has(path),
      run: (model, real) => {
        const ids = answerable(model);
        const callId = asResult === undefined || ids.length === 0 ? undefined : ids[asResult % ids.length];
        const tie = callId === undefined ? {} : { callId };
        if (kind === 'open') real.manager.openFile({ path, content, ...tie });
        else if (kind === 'update') real.manager.updateFile({ path, content, ...tie });
        else real.manager.closeFile({ path, ...tie });
        if (callId !== undefined) answer(model, callId);
        if (kind === 'close') model.files.delete(path);
        else model.files.add(path);
      },
    }),
  );

const noteCommand = fc.lorem({ maxCount: 20 }).map((content): Command =>
  command({ name: 'note', run: (_model, real) => void real.manager.addNote({ content }) }),
);

const commands = fc.commands([messageCommand, messageCommand, resultCommand, resultCommand, duplicateCommand, fileCommand, noteCommand], { maxCommands: 80, size: 'large' });

describe('invariant 8: every window is one a provider accepts', () => {
  it('holds for any interleaving of calls, parallel and late results, duplicates, messages and file events', async () => {
    let runsWithGraduation = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(1, 1, 2, 3), commands, async (orphanCallsAfter, sequence) => {
        const manager = createSmallManager({ orphanCallsAfter });
        const real: Real = { manager, orphans: [], graduations: 0 };
        manager.on('tool-call-orphan', (event) => real.orphans.push(event));
        manager.on('graduation-end', () => (real.graduations += 1));
        await fc.asyncModelRun(() => ({ model: { orphanCallsAfter, calls: new Map(), files: new Set<string>() }, real }), sequence);
        await manager.settle();
        assertInvariants(manager, { budget: BUDGET });
        if (real.graduations > 0) runsWithGraduation += 1;
      }),
      { numRuns: Math.max(20, Math.round(PROPERTY_RUNS / 5)) },
    );
    // The property must exercise graduation, not only short sessions that never leave T0.
    expect(runsWithGraduation).toBeGreaterThan(0);
  });
});

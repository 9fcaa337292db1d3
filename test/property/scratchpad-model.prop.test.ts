import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContextManager, replayPatches } from '../../src/index.js';
import { PROPERTY_RUNS } from '../helpers.js';

// Model-based test of invariants 2, 3 and 5: a model far simpler than the system (a map of open
// files, a turn counter and a list of pins) predicts which files are open and what they hold.
interface Model {
  exchange: number;
  files: Map<string, { content: string; touched: number }>;
  pins: string[];
  records: number;
}

type Real = ContextManager;
const AUTO_CLOSE = 10;

function check(model: Model, real: Real): void {
  const state = real.state();
  expect(state.files.map((file) => file.path).sort()).toEqual([...model.files.keys()].sort());
  for (const file of state.files) {
    expect(file.content).toBe(model.files.get(file.path)?.content);
    const history = real.fileHistory({ path: file.path });
    expect(replayPatches(history.openContent, history.patches)).toBe(file.content);
  }
  expect(state.pins.map((pin) => pin.id)).toEqual(model.pins);
  const inWorking = new Set(state.entries.map((entry) => entry.seq));
  const archived = new Set(state.archive.flatMap((item) => (item.type === 'entry' ? [item.entry.seq] : [])));
  expect(state.entrySeqs).toHaveLength(model.records);
  for (const seq of state.entrySeqs) expect(inWorking.has(seq) !== archived.has(seq)).toBe(true);
  const keys = state.facts.map((fact) => fact.key);
  expect(new Set(keys).size).toBe(keys.length);
}

const paths = fc.constantFrom('src/a.ts', 'src/b.py', 'docs/ü.md');
const content = fc.oneof(fc.lorem({ maxCount: 30 }), fc.string({ unit: 'binary', maxLength: 60 }), fc.constant(''));

type Command = fc.AsyncCommand<Model, Real>;

function command(options: { name: string; check?: (model: Readonly<Model>) => boolean; run: (model: Model, real: Real) => Promise<void> | void }): Command {
  return {
    check: options.check ?? (() => true),
    run: async (model, real) => {
      await options.run(model, real);
      check(model, real);
    },
    toString: () => options.name,
  };
}

const openCommand = (path: string, text: string): Command =>
  command({
    name: `open(${path})`,
    run: (model, real) => {
      real.openFile({ path, content: text });
      model.files.set(path, { content: text, touched: model.exchange });
      model.records += 1;
    },
  });

const updateCommand = (path: string, text: string): Command =>
  command({
    name: `update(${path})`,
    check: (model) => model.files.has(path),
    run: (model, real) => {
      real.updateFile({ path, content: text, reason: 'edit' });
      model.files.set(path, { content: text, touched: model.exchange });
      model.records += 1;
    },
  });

const closeCommand = (path: string): Command =>
  command({
    name: `close(${path})`,
    check: (model) => model.files.has(path),
    run: (model, real) => {
      real.closeFile({ path });
      model.files.delete(path);
      model.records += 1;
    },
  });

const messageCommand = (role: 'user' | 'assistant', text: string): Command =>
  command({
    name: `${role}(${JSON.stringify(text.slice(0, 20))})`,
    run: (model, real) => {
      real.addMessage({ role, content: text });
      model.records += 1;
      if (role !== 'user') return;
      model.exchange += 1;
      for (const [path, file] of [...model.files]) {
        if (model.exchange - file.touched >= AUTO_CLOSE) {
          model.files.delete(path);
          model.records += 1;
        }
      }
    },
  });

const pinCommand = (text: string): Command =>
  command({
    name: `pin(${JSON.stringify(text)})`,
    check: (model) => model.pins.length < 3,
    run: (model, real) => {
      model.pins.push(real.pin({ text }).id);
    },
  });

const settleCommand = (): Command =>
  command({
    name: 'settle()',
    run: async (_model, real) => {
      await real.settle();
    },
  });

const commands = [
  fc.tuple(paths, content).map(([path, text]) => openCommand(path, text)),
  fc.tuple(paths, content).map(([path, text]) => updateCommand(path, text)),
  paths.map((path) => closeCommand(path)),
  fc.tuple(fc.constantFrom('user' as const, 'assistant' as const), fc.lorem({ maxCount: 40 })).map(([role, text]) => messageCommand(role, text)),
  fc.constantFrom('Never edit vendor/', 'Use pnpm').map((text) => pinCommand(text)),
  fc.constant(null).map(() => settleCommand()),
];

describe('the scratchpad, tiers and pins against a model', () => {
  it('agree after every command, with graduation running in between', async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 60, size: 'large' }), async (sequence) => {
        const real = new ContextManager({
          budget: 100_000,
          budgets: { scratchpad: 1_000_000, working: 400, summaries: 200, pins: 200 },
          autoCloseAfter: AUTO_CLOSE,
        });
        await fc.asyncModelRun(() => ({ model: { exchange: 0, files: new Map(), pins: [], records: 0 }, real }), sequence);
        await real.settle();
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });
});

import { describe, expect, it } from 'vitest';
import { ContextManager, InvalidArgumentError, countMessageTokens, createMemoryStorage } from '../../src/index.js';
import type { ContextMessage, ToolCallOrphanEvent } from '../../src/index.js';
import { assertProviderValid } from '../../src/testing/index.js';
import { createSmallManager } from '../helpers.js';

const call = (id: string, name = 'read_file', input: Record<string, string> = { path: 'src/a.ts' }): { id: string; name: string; input: Record<string, string> } => ({ id, name, input });

function orphansOf(manager: ContextManager): ToolCallOrphanEvent[] {
  const events: ToolCallOrphanEvent[] = [];
  manager.on('tool-call-orphan', (event) => events.push(event));
  return events;
}

function toolMessages(history: readonly ContextMessage[]): Extract<ContextMessage, { role: 'tool' }>[] {
  return history.filter((message): message is Extract<ContextMessage, { role: 'tool' }> => message.role === 'tool');
}

function exchanges(manager: ContextManager, count: number, from = 0): void {
  for (let index = from; index < from + count; index += 1) {
    manager.addMessage({ role: 'user', content: `Please check handler ${index} in src/handlers/h${index}.ts and explain its token check.` });
    manager.addMessage({ role: 'assistant', content: `Handler ${index} validates the token expiry before it queries the repository, then returns early for inactive users.` });
  }
}

describe('tool calls', () => {
  describe('dangling calls', () => {
    it('closes an unanswered call at the next message so graduation proceeds', async () => {
      const manager = createSmallManager();
      const orphans = orphansOf(manager);
      let trims = 0;
      manager.on('window-trim', () => (trims += 1));
      manager.addMessage({ role: 'assistant', content: 'Reading the config.', toolCalls: [call('c1')] });
      for (let index = 0; index < 80; index += 1) {
        exchanges(manager, 1, index);
        await manager.settle();
        assertProviderValid(manager.build());
      }
      expect(orphans).toEqual([{ callId: 'c1', toolName: 'read_file', callSeq: 1, seq: 2, reason: 'later-message' }]);
      const state = manager.state();
      expect(state.summaries.length + state.archive.filter((item) => item.type === 'summary').length).toBeGreaterThan(0);
      expect(state.archive.some((item) => item.type === 'entry' && item.entry.seq === 1)).toBe(true);
      expect(trims).toBe(0);
    });

    it('records the "no result" marker in the log, so that load() replays it', async () => {
      const storage = createMemoryStorage();
      const manager = new ContextManager({ storage });
      manager.addMessage({ role: 'assistant', content: '', toolCalls: [call('c1')] });
      manager.addMessage({ role: 'user', content: 'never mind, look at b.ts' });
      await manager.settle();
      const events = await storage.read('default', { afterSeq: 0 });
      expect(events.map((event) => event.type)).toEqual(['message', 'tool-call-orphan', 'message']);
      const loaded = await ContextManager.load({ storage });
      expect(loaded.state()).toEqual(manager.state());
      expect(loaded.build().history).toEqual(manager.build().history);
    });

    it('shows the marker as the call\'s result in the window', () => {
      const manager = new ContextManager();
      manager.addMessage({ role: 'assistant', content: 'Checking.', toolCalls: [call('c1')] });
      manager.addMessage({ role: 'user', content: 'next question' });
      const { history } = manager.build();
      expect(history.map((message) => message.role)).toEqual(['assistant', 'tool', 'user']);
      expect(history[1]).toMatchObject({ role: 'tool', toolCallId: 'c1', toolName: 'read_file', content: 'No result was recorded for this call.' });
      expect(manager.state().entries[1]).toMatchObject({ kind: 'tool-call-orphan', callId: 'c1', callSeq: 1 });
    });

    it('answers a call still waiting at build time with a placeholder, within the budget', () => {
      const manager = new ContextManager();
      manager.addMessage({ role: 'user', content: 'read it' });
      manager.addMessage({ role: 'assistant', content: '', toolCalls: [call('c1'), call('c2', 'grep', { pattern: 'TODO' })] });
      manager.addToolResult({ callId: 'c2', output: 'src/a.ts:3: TODO' });
      const built = manager.build();
      assertProviderValid(built);
      expect(built.history.slice(1).map((message) => (message.role === 'tool' ? `${message.toolCallId}:${message.content}` : message.role))).toEqual([
        'assistant',
        'c1:No result has been recorded for this call yet.',
        'c2:src/a.ts:3: TODO',
      ]);
      expect(countMessageTokens(built.messages, manager.tokenCounter)).toBeLessThanOrEqual(built.tokens.total);
    });

    it('waits for `orphanCallsAfter` messages before closing a call, keeping its late-arriving result next to it', () => {
      const manager = new ContextManager({ orphanCallsAfter: 2 });
      const orphans = orphansOf(manager);
      manager.addMessage({ role: 'assistant', content: '', toolCalls: [call('c1')] });
      manager.addMessage({ role: 'assistant', content: 'While that runs, a thought.' });
      expect(orphans).toEqual([]);
      manager.addToolResult({ callId: 'c1', output: 'export const a = 1;' });
      const built = manager.build();
      assertProviderValid(built);
      expect(built.history.map((message) => message.role)).toEqual(['assistant', 'tool', 'assistant']);
      manager.addMessage({ role: 'assistant', content: '', toolCalls: [call('c2')] });
      manager.addMessage({ role: 'user', content: 'one' });
      expect(orphans).toEqual([]);
      manager.addMessage({ role: 'user', content: 'two' });
      expect(orphans.map((event) => event.callId)).toEqual(['c2']);
    });

    it('rejects an `orphanCallsAfter` that is not a positive integer', () => {
      expect(() => new ContextManager({ orphanCallsAfter: 0 })).toThrow(InvalidArgumentError);
    });
  });

  describe('late results', () => {
    it('shows a late result right after its call, in place of the marker', () => {
      const manager = new ContextManager();
      manager.addMessage({ role: 'assistant', content: 'Running the suite.', toolCalls: [call('t1', 'run_tests', { filter: 'auth' })] });
      manager.addMessage({ role: 'user', content: 'meanwhile, what does login() do?' });
      manager.addMessage({ role: 'assistant', content: 'It checks the password hash.' });
      const entry = manager.addToolResult({ callId: 't1', output: '12 passed' });
      expect(entry).toMatchObject({ kind: 'tool-result', callId: 't1', callSeq: 1, isLate: true });
      const built = manager.build();
      assertProviderValid(built);
      expect(built.history.map((message) => message.role)).toEqual(['assistant', 'tool', 'user', 'assistant']);
      expect(built.history[1]).toMatchObject({ role: 'tool', toolCallId: 't1', content: '12 passed' });
      expect(JSON.stringify(built.history)).not.toContain('No result was recorded');
      expect(countMessageTokens(built.messages, manager.tokenCounter)).toBeLessThanOrEqual(built.tokens.total);
    });

    it('shows a late result as a note once its call has graduated out of T0', async () => {
      const manager = createSmallManager();
      manager.addMessage({ role: 'assistant', content: '', toolCalls: [call('t1', 'run_tests', { filter: 'auth' })] });
      const isCallInT0 = (): boolean => manager.state().entries.some((entry) => entry.seq === 1);
      for (let round = 0; round < 20 && isCallInT0(); round += 1) {
        exchanges(manager, 10, round * 10);
        await manager.settle();
      }
      expect(isCallInT0()).toBe(false);
      manager.addToolResult({ callId: 't1', output: 'auth suite: 12 passed' });
      // With room to spare, graduated entries are shown again before T0: the call is back in the
      // window and its late result answers it right after it.
      const roomy = manager.build();
      assertProviderValid(roomy);
      const answer = roomy.history.findIndex((message) => message.role === 'tool' && message.toolCallId === 't1');
      expect(answer).toBeGreaterThan(0);
      expect(roomy.history[answer]?.content).toBe('auth suite: 12 passed');
      // Without that room the call is not in the window, and the result is a note.
      const built = manager.build({ budget: roomy.tokens.total - roomy.tokens.blocks.working + manager.state().entries.reduce((sum, entry) => sum + entry.tokens, 0) + 40 });
      assertProviderValid(built);
      expect(toolMessages(built.history)).toEqual([]);
      const last = built.history.at(-1);
      expect(last?.role).toBe('user');
      expect(last?.content).toContain('late result of run_tests call t1 (#1)');
      expect(last?.content).toContain('auth suite: 12 passed');
    });

    it('leaves a late result out together with its call when the budget cuts the call', () => {
      const manager = new ContextManager();
      manager.addMessage({ role: 'assistant', content: '', toolCalls: [call('t1', 'run_tests', { filter: 'auth' })] });
      exchanges(manager, 10);
      manager.addToolResult({ callId: 't1', output: 'auth suite: 12 passed' });
      manager.addMessage({ role: 'user', content: 'and now?' });
      const built = manager.build({ budget: 150 });
      assertProviderValid(built);
      expect(built.omitted.entries).toBeGreaterThan(0);
      expect(JSON.stringify(built.history)).not.toContain('12 passed');
      expect(countMessageTokens(built.messages, manager.tokenCounter)).toBeLessThanOrEqual(built.tokens.total);
      const roomy = manager.build({ budget: 28_000 });
      expect(roomy.history[1]).toMatchObject({ role: 'tool', toolCallId: 't1', content: 'auth suite: 12 passed' });
    });

    it('accepts a file event as the late result of a read', () => {
      const manager = new ContextManager();
      manager.addMessage({ role: 'assistant', content: '', toolCalls: [call('r1')] });
      manager.addMessage({ role: 'user', content: 'go on' });
      manager.openFile({ path: 'src/a.ts', content: 'export const a = 1;\n', callId: 'r1' });
      const built = manager.build();
      assertProviderValid(built);
      expect(built.history[1]).toMatchObject({ role: 'tool', toolCallId: 'r1' });
      expect(built.history[1]?.content).toContain('src/a.ts');
    });

    it('refuses a second late result, naming the call and the first result', () => {
      const manager = new ContextManager();
      manager.addMessage({ role: 'assistant', content: '', toolCalls: [call('c1')] });
      manager.addMessage({ role: 'user', content: 'next' });
      manager.addToolResult({ callId: 'c1', output: 'late' });
      expect(() => manager.addToolResult({ callId: 'c1', output: 'again' })).toThrow(/made in event #1\) already has its result, recorded in event #4/);
    });
  });

  describe('parallel calls', () => {
    it('renders results right after the assistant message in call order, whatever order they arrive in', () => {
      const manager = new ContextManager();
      manager.openFile({ path: 'src/a.ts', content: 'a\n' });
      manager.addMessage({ role: 'assistant', content: 'Three things at once.', toolCalls: [call('p1'), call('p2', 'grep', { pattern: 'x' }), call('p3', 'bash', { command: 'ls' })] });
      manager.addToolResult({ callId: 'p3', output: 'three' });
      manager.addNote({ content: 'the harness noticed something' });
      manager.updateFile({ path: 'src/a.ts', content: 'b\n' });
      manager.addToolResult({ callId: 'p1', output: 'one' });
      manager.addToolResult({ callId: 'p2', output: 'two' });
      const built = manager.build();
      assertProviderValid(built);
      const history = built.history.map((message) => (message.role === 'tool' ? `${message.toolCallId}=${message.content}` : message.role));
      expect(history).toEqual(['user', 'assistant', 'p1=one', 'p2=two', 'p3=three', 'user']);
    });

    it('closes only the unanswered calls of a parallel batch and keeps call order', () => {
      const manager = new ContextManager();
      const orphans = orphansOf(manager);
      manager.addMessage({ role: 'assistant', content: '', toolCalls: [call('p1'), call('p2'), call('p3')] });
      manager.addToolResult({ callId: 'p2', output: 'two' });
      manager.addMessage({ role: 'user', content: 'next' });
      expect(orphans.map((event) => event.callId)).toEqual(['p1', 'p3']);
      const built = manager.build();
      assertProviderValid(built);
      expect(toolMessages(built.history).map((message) => `${message.toolCallId}=${message.content}`)).toEqual([
        'p1=No result was recorded for this call.',
        'p2=two',
        'p3=No result was recorded for this call.',
      ]);
    });
  });

  describe('reused ids', () => {
    it('accepts an id reused after its call was answered, and keeps ids unique in the window', () => {
      const manager = new ContextManager();
      manager.addMessage({ role: 'assistant', content: '', toolCalls: [call('call_0', 'bash', { command: 'ls' })] });
      manager.addToolResult({ callId: 'call_0', output: 'a.ts' });
      manager.addMessage({ role: 'assistant', content: '', toolCalls: [call('call_0', 'bash', { command: 'pwd' })] });
      manager.addToolResult({ callId: 'call_0', output: '/repo' });
      const built = manager.build();
      assertProviderValid(built);
      const ids = built.history.flatMap((message) => (message.role === 'assistant' ? (message.toolCalls ?? []).map((item) => item.id) : []));
      expect(ids).toEqual(['call_0', 'call_0_3']);
      expect(toolMessages(built.history).map((message) => `${message.toolCallId}=${message.content}`)).toEqual(['call_0=a.ts', 'call_0_3=/repo']);
      expect(manager.state().entries.map((entry) => entry.callSeq)).toEqual([undefined, 1, undefined, 3]);
    });

    it('gives a result to the newest call with its id when an orphaned call\'s id is reused', () => {
      const manager = new ContextManager();
      manager.addMessage({ role: 'assistant', content: '', toolCalls: [call('0')] });
      manager.addMessage({ role: 'user', content: 'next turn' });
      manager.addMessage({ role: 'assistant', content: '', toolCalls: [call('0', 'grep', { pattern: 'y' })] });
      const entry = manager.addToolResult({ callId: '0', output: 'found' });
      expect(entry).toMatchObject({ callSeq: 4, toolName: 'grep' });
      expect(entry.isLate).toBeUndefined();
      assertProviderValid(manager.build());
    });

    it('closes a pending call whose id a new call reuses', () => {
      const manager = new ContextManager({ orphanCallsAfter: 5 });
      const orphans = orphansOf(manager);
      manager.addMessage({ role: 'assistant', content: '', toolCalls: [call('0')] });
      manager.addMessage({ role: 'assistant', content: '', toolCalls: [call('0', 'grep', { pattern: 'y' })] });
      expect(orphans).toEqual([{ callId: '0', toolName: 'read_file', callSeq: 1, seq: 2, reason: 'id-reused' }]);
      manager.addToolResult({ callId: '0', output: 'found' });
      assertProviderValid(manager.build());
    });
  });

  describe('duplicate results', () => {
    it('refuses a second result for an answered call, naming the call and the first result, and changes nothing', () => {
      const manager = new ContextManager();
      manager.addMessage({ role: 'assistant', content: '', toolCalls: [call('c1')] });
      manager.addToolResult({ callId: 'c1', output: 'first' });
      const before = manager.state();
      let caught: unknown;
      try {
        manager.addToolResult({ callId: 'c1', output: 'second' });
      } catch (error) {
        caught = error;
      }
      expect(InvalidArgumentError.isInstance(caught)).toBe(true);
      expect((caught as InvalidArgumentError).parameter).toBe('callId');
      expect((caught as Error).message).toContain('made in event #1) already has its result, recorded in event #2');
      expect((caught as Error).message).toContain('record that call first');
      expect(manager.state()).toEqual(before);
    });
  });

  describe('tool inputs', () => {
    const attempt = (input: unknown): InvalidArgumentError => {
      const manager = new ContextManager();
      let caught: unknown;
      try {
        manager.addMessage({ role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read_file', input: input as never }] });
      } catch (error) {
        caught = error;
      }
      expect(InvalidArgumentError.isInstance(caught)).toBe(true);
      expect(manager.state().lastSeq).toBe(0);
      return caught as InvalidArgumentError;
    };

    it('names the path of an undefined value', () => {
      const error = attempt({ path: undefined });
      expect(error.message).toContain('toolCalls[0].input.path is undefined: tool inputs must be JSON');
      expect(error.parameter).toBe('toolCalls[0].input.path');
    });

    it('names the path of a cycle instead of overflowing the stack', () => {
      const input: Record<string, unknown> = { options: { list: [] as unknown[] } };
      ((input['options'] as { list: unknown[] }).list).push(input);
      const error = attempt(input);
      expect(error.message).toContain('toolCalls[0].input.options.list[0] is a cycle back to toolCalls[0].input');
    });

    it('refuses an input nested 5,000 levels deep with the path, not a RangeError', () => {
      let input: unknown = 'leaf';
      for (let level = 0; level < 5_000; level += 1) input = { child: input };
      const error = attempt(input);
      expect(error.message).toMatch(/toolCalls\[0\]\.input\.child\.child.*nests more than 100 levels deep/);
    });

    it('names non-finite numbers, functions and class instances', () => {
      expect(attempt({ limit: Number.NaN }).message).toContain('toolCalls[0].input.limit is NaN');
      expect(attempt({ 'on done': () => 1 }).message).toContain('toolCalls[0].input["on done"] is a function');
      expect(attempt({ since: new Date(0) }).message).toContain('toolCalls[0].input.since is a Date, not a plain object');
    });

    it('stores a copy of the input, so later changes by the caller do not leak in', () => {
      const manager = new ContextManager();
      const input = { path: 'src/a.ts' };
      manager.addMessage({ role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read_file', input }] });
      input.path = 'changed';
      expect(manager.state().entries[0]?.toolCalls?.[0]?.input).toEqual({ path: 'src/a.ts' });
    });
  });

  describe('snapshots written before the call ledger', () => {
    it('load with their pending calls, which can still be answered', async () => {
      const storage = createMemoryStorage();
      const manager = new ContextManager({ storage });
      manager.addMessage({ role: 'assistant', content: '', toolCalls: [call('old')] });
      await manager.save();
      const snapshot = await storage.loadSnapshot('default');
      const { toolCalls: _dropped, ...legacyState } = snapshot?.state as Record<string, unknown>;
      expect(_dropped).toBeDefined();
      await storage.saveSnapshot('default', { formatVersion: 1, seq: snapshot?.seq ?? 0, state: legacyState }, { expectedVersion: snapshot?.version ?? 0 });
      const loaded = await ContextManager.load({ storage });
      expect(loaded.addToolResult({ callId: 'old', output: 'done' })).toMatchObject({ callSeq: 1 });
      assertProviderValid(loaded.build());
    });
  });
});

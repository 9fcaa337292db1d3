import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ContextManager, InvalidArgumentError } from '../../src/index.js';
import { parse } from '../../src/validation.js';

// The zod entry point, wrapped so that each test can see whether a recording call reached it.
vi.mock('../../src/validation.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/validation.js')>();
  return { ...actual, parse: vi.fn(actual.parse) };
});

const at = '2026-03-04T05:06:07Z';

beforeEach(() => {
  vi.mocked(parse).mockClear();
});

describe('ContextManager', () => {
  describe('recording methods', () => {
    it('record the inputs of an ordinary agent step without running a zod schema', () => {
      const manager = new ContextManager({ budget: 28_000 });
      vi.mocked(parse).mockClear();
      manager.addMessage({ role: 'user', content: 'Rename fetchUser to loadUser.', at });
      manager.addMessage({ role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read_file', input: { path: 'src/user.ts' } }], at });
      manager.openFile({ path: 'src/user.ts', content: 'export function fetchUser() {}\n', callId: 'c1', at });
      manager.updateFile({ path: 'src/user.ts', content: 'export function loadUser() {}\n', reason: 'rename', at });
      manager.addMessage({ role: 'assistant', content: '', toolCalls: [{ id: 'c2', name: 'bash', input: { command: 'npm test' } }], at });
      manager.addToolResult({ callId: 'c2', output: 'ok', isError: false, at });
      manager.addNote({ content: 'tests pass', at });
      manager.closeFile({ path: 'src/user.ts', at });
      expect(vi.mocked(parse)).not.toHaveBeenCalled();
    });

    it('leave an invalid input to the schema, whose error names the field', () => {
      const manager = new ContextManager({ budget: 28_000 });
      vi.mocked(parse).mockClear();
      let error: unknown;
      try {
        manager.addMessage({ role: 'user', content: 'hi', at: 'yesterday' });
      } catch (caught) {
        error = caught;
      }
      expect(InvalidArgumentError.isInstance(error)).toBe(true);
      expect((error as InvalidArgumentError).parameter).toBe('at');
      expect(vi.mocked(parse)).toHaveBeenCalledTimes(1);
      expect(manager.state().lastSeq).toBe(0);
    });
  });
});

import { describe, expect, it } from 'vitest';
import { BoundaryDetector, ContextManager, InvalidArgumentError } from '../../src/index.js';

describe('BoundaryDetector', () => {
  describe('scoreGaps()', () => {
    it('scores plain items: one score per gap, forbidden between a call and its result', () => {
      const detector = new BoundaryDetector();
      const scores = detector.scoreGaps([
        { role: 'user', text: 'Run the tests' },
        { role: 'assistant', text: '', toolCalls: [{ id: 'c1', name: 'bash', input: { command: 'npm test' } }] },
        { role: 'tool', text: 'Tests: 12 passed, 0 failed', callId: 'c1' },
        { role: 'assistant', text: 'Fixed: all tests pass.' },
        { role: 'user', text: 'Next, update the changelog.' },
      ]);
      expect(scores).toHaveLength(5);
      expect(scores[1]?.strength).toBe('forbidden');
      expect(scores[3]?.strength).toBe('strong');
      expect(scores[2]?.strength).not.toBe('forbidden');
    });

    it('forbids a cut inside an error trace the next item continues, and flags failing tools', () => {
      const detector = new BoundaryDetector();
      const scores = detector.scoreGaps([
        { role: 'assistant', text: '', toolCalls: [{ id: 'c1', name: 'bash' }] },
        { role: 'tool', text: 'Error: boom', callId: 'c1', isError: true },
      ]);
      expect(scores[0]?.strength).toBe('forbidden');
    });

    it('gives the same scores as scoreEntries() on the entries a manager records', () => {
      const detector = new BoundaryDetector();
      const items = [
        { role: 'user' as const, text: 'Fix the bug in src/a.ts' },
        { role: 'assistant' as const, text: 'Done, the bug is fixed.' },
        { role: 'user' as const, text: "Now let's write docs." },
      ];
      const manager = new ContextManager();
      for (const item of items) manager.addMessage({ role: item.role, content: item.text });
      expect(detector.scoreGaps(items)).toEqual(detector.scoreEntries(manager.state().entries));
      expect(detector.scoreGaps(items)[1]?.strength).toBe('strong');
    });

    it('rejects an item without text with an InvalidArgumentError', () => {
      const detector = new BoundaryDetector();
      expect(() => detector.scoreGaps([{ role: 'user' } as never])).toThrow(InvalidArgumentError);
    });
  });
});

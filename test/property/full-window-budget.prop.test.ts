import fc from 'fast-check';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import type { ContextMessage } from '../../src/index.js';
import { PROPERTY_RUNS } from '../helpers.js';
import { runSession, sessions } from './run-session.js';

// Counts a window from scratch with the tokenizer's own `encode`, not with the manager's cached
// counts: each message's text plus its framing (4 tokens), each tool call's name and JSON input
// plus 3. The same accounting rules as the library states, computed independently.
function independentCount(messages: readonly ContextMessage[]): number {
  // Special-token text such as "<|endoftext|>" is counted as plain text, as the library does.
  const count = (text: string): number => encode(text, { disallowedSpecial: new Set() }).length;
  let total = 0;
  for (const message of messages) {
    total += count(message.content) + 4;
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? []) total += count(call.name) + count(JSON.stringify(call.input)) + 3;
    }
  }
  return total;
}

describe('invariant 1 on full windows, counted independently', () => {
  it('never exceeds a budget smaller than what the session holds, and fills it', async () => {
    let full = 0;
    let checked = 0;
    await fc.assert(
      fc.asyncProperty(sessions, fc.double({ min: 0.2, max: 0.95, noNaN: true }), async (operations, share) => {
        const { manager } = await runSession(operations);
        const everything = independentCount(manager.build({ budget: 1_000_000 }).messages);
        const budget = Math.max(200, Math.floor(everything * share));
        if (budget >= everything) return;
        checked += 1;
        const built = manager.build({ budget });
        const counted = independentCount(built.messages);
        expect(counted).toBeLessThanOrEqual(budget);
        expect(built.tokens.total).toBeGreaterThanOrEqual(counted);
        if (counted >= budget * 0.6) full += 1;
      }),
      { numRuns: Math.min(PROPERTY_RUNS, 300) },
    );
    // The property is exercised on windows that are actually full, not on empty ones.
    expect(checked).toBeGreaterThan(0);
    expect(full / checked).toBeGreaterThanOrEqual(0.7);
  });
});

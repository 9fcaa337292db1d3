import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toAnthropic, toOpenAIChat, toOpenAIResponses } from '../../src/providers/index.js';
import { findAnthropicProblems, findOpenAIChatProblems, findOpenAIResponsesProblems } from '../../src/testing/index.js';
import { PROPERTY_RUNS } from '../helpers.js';
import { runSession, sessions } from './run-session.js';

// Invariant 8 at the wire: every built window, converted to each provider's format, passes that
// provider's published structural rules (validators in src/testing/provider-formats.ts).
describe('provider formats', () => {
  it('turn every built window into requests OpenAI Chat, OpenAI Responses and Anthropic accept', async () => {
    await fc.assert(
      fc.asyncProperty(sessions, fc.integer({ min: 0, max: 4 }), fc.constantFrom(400, 1_500, 3_000), async (operations, cacheBreakpoints, budget) => {
        const { manager } = await runSession(operations);
        const built = manager.build({ budget });
        expect(findOpenAIChatProblems(toOpenAIChat(built))).toEqual([]);
        expect(findOpenAIResponsesProblems(toOpenAIResponses(built))).toEqual([]);
        const anthropic = toAnthropic(built, { cacheBreakpoints });
        expect(findAnthropicProblems(anthropic)).toEqual([]);
        const marked = [...(anthropic.system ?? []), ...anthropic.messages.flatMap((message) => message.content)].filter((block) => block.cache_control !== undefined);
        expect(marked.length).toBeLessThanOrEqual(cacheBreakpoints);
        if (cacheBreakpoints > 0) expect(marked.length).toBeGreaterThan(0);
      }),
      { numRuns: Math.max(20, Math.round(PROPERTY_RUNS / 10)) },
    );
  });
});

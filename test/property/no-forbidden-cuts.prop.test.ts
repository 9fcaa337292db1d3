import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PROPERTY_RUNS } from '../helpers.js';
import { runSession, sessions } from './run-session.js';

describe('invariant 4: no forbidden cuts', () => {
  it('a tool call and its results always graduate together and are shown together', async () => {
    await fc.assert(
      fc.asyncProperty(sessions, async (operations) => {
        const { manager } = await runSession(operations);
        const state = manager.state();
        const all = [...state.archive.flatMap((item) => (item.type === 'entry' ? [{ entry: item.entry, place: item.summaryId }] : [])), ...state.entries.map((entry) => ({ entry, place: 'T0' }))];
        const callPlace = new Map<string, string>();
        for (const { entry, place } of all) for (const call of entry.toolCalls ?? []) callPlace.set(call.id, place);
        for (const { entry, place } of all) {
          if (entry.callId !== undefined) expect(callPlace.get(entry.callId)).toBe(place);
        }
        const built = manager.build({ budget: 1_500 });
        const shownCalls = new Set(built.messages.flatMap((message) => (message.role === 'assistant' ? (message.toolCalls ?? []).map((call) => call.id) : [])));
        const shownResults = built.messages.flatMap((message) => (message.role === 'tool' ? [message.toolCallId] : []));
        for (const id of shownResults) expect(shownCalls.has(id)).toBe(true);
        for (const id of shownCalls) expect(shownResults).toContain(id);
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });

  it('no graduated chunk ends inside a fenced code block that the next entry closes', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('opening\n```ts\nconst a = 1;', 'more code();\n'.repeat(12), 'closing\n```', 'plain text about the parser and the lexer. '.repeat(6), 'Done, all tests pass.'), { maxLength: 80 }),
        async (messages) => {
          const { manager } = await runSession([]);
          for (const content of messages) manager.addMessage({ role: 'assistant', content });
          await manager.settle();
          const state = manager.state();
          const bySummary = new Map<string, string[]>();
          for (const item of state.archive) {
            if (item.type !== 'entry') continue;
            bySummary.set(item.summaryId, [...(bySummary.get(item.summaryId) ?? []), item.entry.text]);
          }
          // Chunks in graduation order, then T0: the fence state is counted afresh in every chunk.
          const chunks = [...bySummary.values()];
          const fenceLines = (text: string): number => text.split('\n').filter((line) => line.startsWith('```')).length;
          chunks.forEach((texts, index) => {
            const isOpenAtEnd = texts.reduce((count, text) => count + fenceLines(text), 0) % 2 === 1;
            if (!isOpenAtEnd) return;
            // A chunk may end inside a fence only when no later entry could close it.
            const laterTexts = [...chunks.slice(index + 1).flat(), ...state.entries.map((entry) => entry.text)];
            expect(laterTexts.some((text) => fenceLines(text) > 0)).toBe(false);
          });
        },
      ),
      { numRuns: PROPERTY_RUNS },
    );
  });
});

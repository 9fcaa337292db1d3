import { describe, expect, it } from 'vitest';
import { ContextManager, countMessageTokens, createTokenCounter } from '../../src/index.js';
import { findProviderProblems } from '../../src/testing/index.js';
import { prose } from '../helpers.js';

const counter = createTokenCounter();
const BUDGET = 28_000;

// A coding session written for this test: turns of a user request, a tool call with its output
// and an assistant conclusion, with files opened in bursts and closed again. Deterministic.
async function runSession(options: { turns: number; onBuild: (turn: number, manager: ContextManager) => void }): Promise<ContextManager> {
  const manager = new ContextManager({ budget: BUDGET });
  const open = new Set<string>();
  for (let turn = 0; turn < options.turns; turn += 1) {
    manager.addMessage({ role: 'user', content: `Step ${turn}: update src/module${turn % 13}.ts so retries stop after ${turn % 7 + 2} attempts. ${prose(40, turn)}` });
    await manager.settle();
    options.onBuild(turn, manager);
    manager.addMessage({ role: 'assistant', content: '', toolCalls: [{ id: `c${turn}`, name: 'bash', input: { command: `npm test -- module${turn % 13}` } }] });
    manager.addToolResult({ callId: `c${turn}`, output: `PASS module${turn % 13} ${prose(180, turn + 3)}` });
    await manager.settle();
    options.onBuild(turn, manager);
    // Every 12 turns a burst of files is read; 6 turns later they are closed again.
    if (turn % 12 === 0) {
      for (let index = 0; index < 4; index += 1) {
        const path = `src/area${turn}/file${index}.ts`;
        manager.openFile({ path, content: `// ${path}\n${prose(700, turn + index)}\n` });
        open.add(path);
      }
    } else if (turn % 12 === 6) {
      for (const path of open) manager.closeFile({ path });
      open.clear();
    }
    manager.addMessage({ role: 'assistant', content: `Done: module${turn % 13} now stops after ${turn % 7 + 2} attempts; tests pass. ${prose(30, turn + 5)}` });
    await manager.settle();
    options.onBuild(turn, manager);
  }
  return manager;
}

describe('build() fills the window', () => {
  it('keeps every window of a long session within its budget and provider-valid, and near its budget once history exceeds it', async () => {
    const shares: number[] = [];
    let isHistoryLarger = false;
    await runSession({
      turns: 160,
      onBuild: (_turn, manager) => {
        const built = manager.build();
        const recounted = countMessageTokens(built.messages, counter);
        expect(recounted).toBeLessThanOrEqual(BUDGET);
        expect(built.tokens.total).toBeLessThanOrEqual(BUDGET);
        expect(findProviderProblems(built.messages)).toEqual([]);
        // "Enough history": more has been recorded than the window can hold, and some of it graduated.
        isHistoryLarger ||= manager.state().summaries.length >= 2;
        if (isHistoryLarger) shares.push(built.tokens.total / BUDGET);
      },
    });
    expect(shares.length).toBeGreaterThan(200);
    const sorted = [...shares].sort((a, b) => a - b);
    expect(sorted[0]).toBeGreaterThanOrEqual(0.8);
    expect(sorted[Math.floor(sorted.length / 2)]).toBeGreaterThanOrEqual(0.88);
  }, 120_000);

  it('shows recently graduated entries again, before T0, when closed files leave room', async () => {
    let checked = 0;
    await runSession({
      turns: 80,
      onBuild: (turn, manager) => {
        if (turn % 12 !== 7) return;
        const state = manager.state();
        if (state.summaries.length === 0 || state.files.length > 0) return;
        const built = manager.build();
        // T0's oldest message with text (file events and tool calls without text are not looked for).
        const firstInT0 = state.entries.find((entry) => (entry.kind === 'user' || entry.kind === 'assistant' || entry.kind === 'tool-result') && entry.text.length > 0)?.text ?? '';
        const firstShown = built.history.findIndex((message) => message.content === firstInT0);
        // Messages before T0's oldest entry are graduated entries shown again.
        expect(firstShown).toBeGreaterThan(0);
        expect(built.tokens.total / BUDGET).toBeGreaterThanOrEqual(0.85);
        checked += 1;
      },
    });
    expect(checked).toBeGreaterThan(0);
  }, 120_000);

  it('shows a shortened entry in full when the window has room, and keeps the excerpt when it has not', () => {
    const manager = new ContextManager({ maxEntryTokens: 200 });
    manager.addMessage({ role: 'assistant', content: '', toolCalls: [{ id: 'r', name: 'bash', input: { command: 'npm test' } }] });
    manager.addToolResult({ callId: 'r', output: prose(1_500, 4) });
    manager.addMessage({ role: 'user', content: 'What failed?' });
    const roomy = manager.build();
    expect(roomy.history.some((message) => message.content === prose(1_500, 4))).toBe(true);
    expect(countMessageTokens(roomy.messages, counter)).toBeLessThanOrEqual(roomy.tokens.total);
    const tight = manager.build({ budget: 400 });
    expect(JSON.stringify(tight.history)).toContain('omitted from the window');
    expect(countMessageTokens(tight.messages, counter)).toBeLessThanOrEqual(400);
  });
});

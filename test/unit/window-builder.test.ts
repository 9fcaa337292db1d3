import { describe, expect, it } from 'vitest';
import { ContextManager, countMessageTokens, createTokenCounter, toMessages } from '../../src/index.js';
import { createEntry } from '../../src/tiers/entry.js';
import { prose } from '../helpers.js';

const counter = createTokenCounter();

describe('build()', () => {
  it('reports block tokens that add up to the total', () => {
    const manager = new ContextManager({ systemPrompt: 'Rules.' });
    manager.pin({ text: 'Always run make check.' });
    manager.openFile({ path: 'a.ts', content: 'export const a = 1;\n' });
    manager.addMessage({ role: 'user', content: 'hi' });
    const { tokens } = manager.build();
    const sum = Object.values(tokens.blocks).reduce((total, value) => total + value, 0);
    expect(sum).toBe(tokens.total);
    expect(tokens.blocks.pins).toBeGreaterThan(0);
    expect(tokens.blocks.scratchpad).toBeGreaterThan(0);
    expect(countMessageTokens(manager.build().messages, counter)).toBeLessThanOrEqual(tokens.total);
  });

  it('keeps the newest turn and stubs the least recently touched file first when tight', () => {
    const manager = new ContextManager();
    manager.openFile({ path: 'old.ts', content: prose(400, 1) });
    manager.openFile({ path: 'new.ts', content: prose(400, 2) });
    manager.addMessage({ role: 'user', content: 'the newest question' });
    const built = manager.build({ budget: 700 });
    expect(built.tokens.total).toBeLessThanOrEqual(700);
    expect(built.history.at(-1)).toEqual({ role: 'user', content: 'the newest question' });
    expect(built.system).toContain('### old.ts (');
    expect(built.system).toContain('content left out of this window');
    expect(built.system).toContain(prose(400, 2).slice(0, 100));
    expect(built.omitted.files).toBe(1);
  });

  it('shows an oversized entry as a head/tail excerpt with a marker', () => {
    const manager = new ContextManager({ maxEntryTokens: 100 });
    manager.addMessage({ role: 'user', content: prose(1_000) });
    // A budget with no room for the full text (with room, build() shows more of it).
    const shown = manager.build({ budget: 300 }).history[0]?.content ?? '';
    expect(shown).toContain('omitted from the window; the full text is kept in history as entry #1');
    expect(manager.state().entries[0]?.text).toBe(prose(1_000));
  });

  it('shortens long tool-call inputs in the window but keeps them in the entry', () => {
    const manager = new ContextManager();
    const big = 'x'.repeat(5_000);
    manager.addMessage({ role: 'assistant', content: '', toolCalls: [{ id: 'w', name: 'write_file', input: { path: 'a.ts', content: big } }] });
    manager.addToolResult({ callId: 'w', output: 'ok' });
    // A budget with no room for the full input (with room, build() shows it in full).
    const shown = manager.build({ budget: 400 }).history[0];
    expect(shown?.role === 'assistant' && JSON.stringify(shown.toolCalls).length).toBeLessThan(1_000);
    expect(manager.state().entries[0]?.toolCalls?.[0]?.input).toEqual({ path: 'a.ts', content: big });
  });
});

describe('toMessages()', () => {
  it('merges consecutive standalone file records into one user message', () => {
    const entry = (seq: number, text: string) => createEntry({ seq, kind: 'file-update', role: 'user', text, counter, maxEntryTokens: 500, exchange: 0 });
    expect(toMessages([entry(1, '[a.ts:1] added `x`'), entry(2, '[b.ts:2] removed `y`')])).toEqual([{ role: 'user', content: '[a.ts:1] added `x`\n[b.ts:2] removed `y`' }]);
  });
});

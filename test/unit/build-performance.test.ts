// Structural properties behind build() speed (issue 11): what a build may not redo. Timings are
// measured by `npm run bench`, never asserted here.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { ContextManager, createBoundaryDetector, createTokenCounter } from '../../src/index.js';
import type { TokenCounter } from '../../src/index.js';
import { createEntry } from '../../src/tiers/entry.js';
import { createFactStore, FACT_CATEGORIES } from '../../src/tiers/facts.js';
import type { Entry, Fact, FactCategory } from '../../src/types.js';
import { prose } from '../helpers.js';

const counter = createTokenCounter();

/** A token counter that counts its own calls. */
function spyCounter(): TokenCounter & { calls: number } {
  const spy = {
    name: 'spy',
    calls: 0,
    count: (text: string): number => {
      spy.calls += 1;
      return counter.count(text);
    },
  };
  return spy;
}

describe('build() caching', () => {
  it('tokenizes nothing when nothing was recorded since the last build', async () => {
    const spy = spyCounter();
    const manager = new ContextManager({ tokenCounter: spy, systemPrompt: 'Rules.' });
    manager.pin({ text: 'Always run make check.' });
    manager.openFile({ path: 'a.ts', content: prose(200, 1) });
    for (let turn = 0; turn < 100; turn += 1) {
      manager.addMessage({ role: 'user', content: `We decided to keep module${turn} under src/${turn}. ${prose(250, turn)}` });
      manager.addMessage({ role: 'assistant', content: `Done: module${turn} is in place.` });
      await manager.settle();
      manager.build();
    }
    await manager.settle();
    manager.build();
    const before = spy.calls;
    const again = manager.build();
    expect(spy.calls).toBe(before);
    expect(again.tokens.blocks.facts + again.tokens.blocks.summaries).toBeGreaterThan(0);
  });

  it('tokenizes nothing in a build right after a new message (it was counted when recorded)', async () => {
    const spy = spyCounter();
    const manager = new ContextManager({ tokenCounter: spy, systemPrompt: 'Rules.' });
    manager.addMessage({ role: 'user', content: 'first question' });
    manager.build();
    manager.addMessage({ role: 'assistant', content: 'first answer' });
    await manager.settle();
    const before = spy.calls;
    manager.build();
    expect(spy.calls).toBe(before);
  });

  it('makes the longer forms of a shortened tool output before the build that shows it longer', async () => {
    const spy = spyCounter();
    const manager = new ContextManager({ tokenCounter: spy, systemPrompt: 'Rules.' });
    manager.addMessage({ role: 'user', content: 'Run the tests.' });
    manager.addMessage({ role: 'assistant', content: 'Running them.', toolCalls: [{ id: 'run', name: 'bash', input: { command: 'npm test' } }] });
    const output = Array.from({ length: 3_000 }, (_, line) => `ok ${line} - case ${line} of module${line % 37} passed in ${line % 11} ms`).join('\n');
    manager.addToolResult({ callId: 'run', output });
    await manager.settle();
    const before = spy.calls;
    const built = manager.build({ budget: 28_000 });
    const shown = built.history.find((message) => message.role === 'tool');
    // Longer than the excerpt recorded, yet nothing was counted in build().
    expect(shown?.content.length).toBeGreaterThan(manager.state().entries[2]?.display.length ?? Number.POSITIVE_INFINITY);
    expect(spy.calls).toBe(before);
  });

  it('makes only the new entry\'s message in a build after one new entry', () => {
    const manager = new ContextManager({ systemPrompt: 'Rules.' });
    for (let turn = 0; turn < 10; turn += 1) {
      manager.addMessage({ role: 'user', content: `question ${turn}` });
      manager.addMessage({ role: 'assistant', content: `answer ${turn}`, toolCalls: [{ id: `c${turn}`, name: 'grep', input: { pattern: `p${turn}` } }] });
      manager.addToolResult({ callId: `c${turn}`, output: `match ${turn}` });
    }
    const first = manager.build();
    manager.addMessage({ role: 'user', content: 'one more question' });
    const second = manager.build();
    expect(second.history).toHaveLength(first.history.length + 1);
    const reused = second.history.filter((message) => first.history.includes(message));
    expect(reused).toHaveLength(first.history.length);
    expect(second.history.at(-1)).toMatchObject({ role: 'user', content: 'one more question' });
  });

  it('makes a call\'s messages again when its late result arrives, and no other message', () => {
    const manager = new ContextManager({ systemPrompt: 'Rules.' });
    manager.addMessage({ role: 'assistant', content: 'Running the suite.', toolCalls: [{ id: 't1', name: 'run_tests', input: {} }] });
    manager.addMessage({ role: 'user', content: 'meanwhile, what does login() do?' });
    manager.addMessage({ role: 'assistant', content: 'It checks the password hash.' });
    const first = manager.build();
    manager.addToolResult({ callId: 't1', output: '12 passed' });
    const second = manager.build();
    expect(second.history.map((message) => message.role)).toEqual(['assistant', 'tool', 'user', 'assistant']);
    expect(second.history[1]).toMatchObject({ role: 'tool', toolCallId: 't1', content: '12 passed' });
    expect(second.history.slice(2)).toEqual(first.history.slice(2));
    expect(second.history[2]).toBe(first.history[2]);
    expect(second.history[0]).not.toBe(first.history[0]);
  });

  it('returns the same system text object while the blocks do not change', () => {
    const manager = new ContextManager({ systemPrompt: 'Rules.' });
    manager.openFile({ path: 'a.ts', content: prose(200, 2) });
    manager.addMessage({ role: 'user', content: 'question' });
    const first = manager.build();
    manager.addMessage({ role: 'assistant', content: 'answer' });
    const second = manager.build();
    expect(second.system).toBe(first.system);
    expect(second.history).toHaveLength(first.history.length + 1);
  });
});

describe('FactStore performance', () => {
  const updateFor = (index: number): { key: string; category: FactCategory; value: string } => ({
    key: `fact-${index}`,
    category: 'conventions',
    value: `convention ${index} about area${'abcdefghij'.charAt(index % 10)}${index}`,
  });

  it('renders a room once per change of the facts, not once per build', () => {
    const spy = spyCounter();
    const store = createFactStore({ counter: spy });
    store.apply({ updates: [updateFor(1), updateFor(2)], source: { from: 1, to: 2 }, seq: 3 });
    const first = store.render({ maxTokens: 500 });
    const calls = spy.calls;
    expect(store.render({ maxTokens: 500 })).toBe(first);
    expect(spy.calls).toBe(calls);
  });

  it('renders the rooms asked for before when the facts change, so render() then counts nothing', () => {
    const spy = spyCounter();
    const store = createFactStore({ counter: spy });
    store.render({ maxTokens: 500 });
    store.apply({ updates: [updateFor(1)], source: { from: 1, to: 1 }, seq: 2 });
    const calls = spy.calls;
    const rendered = store.render({ maxTokens: 500 });
    expect(spy.calls).toBe(calls);
    expect(rendered.text).toContain('fact-1');
  });

  it('keeps a running total of fact tokens', () => {
    const store = createFactStore({ counter });
    for (let index = 0; index < 20; index += 1) store.apply({ updates: [updateFor(index)], source: { from: index, to: index }, seq: index + 1 });
    store.apply({ updates: [{ key: 'fact-3', category: 'conventions', value: 'a much longer replacement value for fact three' }], source: { from: 30, to: 30 }, seq: 31 });
    expect(store.size).toBe(20);
    expect(store.totalTokens).toBe(store.facts().reduce((sum, fact) => sum + fact.tokens, 0));
  });

  it('matches an update against the facts that share a topic word only', () => {
    // Reads of each fact's value: only the fact that shares the update's topic words is looked at.
    const reads = new Map<string, number>();
    const letters = (index: number): string => [...String(index)].map((digit) => 'abcdefghij'.charAt(Number(digit))).join('');
    const facts: Fact[] = Array.from({ length: 1_000 }, (_, index) => {
      const value = `queue${letters(index)} bucket${letters(index)}`;
      return { key: `k${index}`, category: 'decisions', source: { from: 1, to: 1 }, history: [], tokens: 5, get value(): string { reads.set(`k${index}`, (reads.get(`k${index}`) ?? 0) + 1); return value; } };
    });
    const store = createFactStore({ counter, initial: { facts, tasks: [] } });
    reads.clear();
    store.apply({ updates: [{ category: 'decisions', value: `queue${letters(7)} bucket${letters(7)} bucketzz`, isUpdate: true }], source: { from: 2, to: 2 }, seq: 3 });
    expect([...reads.keys()]).toEqual(['k7']);
    expect(store.get('k7')?.value).toContain('bucketzz');
    expect(store.size).toBe(1_000);
  });

  it('matches an update to the same fact as a scan over every fact would', () => {
    const store = createFactStore({ counter });
    store.apply({ updates: [{ category: 'decisions', value: 'every DB call gets a 5s timeout' }], source: { from: 1, to: 1 }, seq: 2 });
    store.apply({ updates: [{ category: 'decisions', value: 'the cache TTL is 60s for the search API' }], source: { from: 2, to: 2 }, seq: 3 });
    store.apply({ updates: [{ category: 'decisions', value: 'change the DB call timeout to 12s', isUpdate: true }], source: { from: 3, to: 3 }, seq: 4 });
    expect(store.size).toBe(2);
    expect(store.facts().at(-1)?.value).toBe('change the DB call timeout to 12s');
    expect(store.facts().at(-1)?.history).toHaveLength(1);
  });

  it('renders a room the same whatever rooms were rendered before it, as the YAML of the facts it keeps', () => {
    const factArbitrary = fc.record({
      key: fc.oneof(fc.stringMatching(/^[a-z]{1,8}$/), fc.integer({ min: 0, max: 30 }).map(String)),
      category: fc.constantFrom(...FACT_CATEGORIES),
      value: fc.oneof(fc.lorem({ maxCount: 12 }), fc.constantFrom('a: b', "it's \"quoted\"", '- item', 'x\n\ny')),
      salience: fc.option(fc.integer({ min: 0, max: 8 }), { nil: undefined }),
      to: fc.integer({ min: 1, max: 50 }),
    });
    fc.assert(
      fc.property(fc.uniqueArray(factArbitrary, { selector: (fact) => fact.key, maxLength: 25 }), fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 6 }), (generated, rooms) => {
        const facts: Fact[] = generated.map(({ to, salience, ...fact }) => ({ ...fact, source: { from: 1, to }, history: [], tokens: counter.count(`  ${fact.key}: ${fact.value}`), ...(salience === undefined ? {} : { salience }) }));
        const warm = createFactStore({ counter, initial: { facts, tasks: [] } });
        for (const room of rooms) warm.render({ maxTokens: room });
        for (const room of rooms) {
          const rendered = warm.render({ maxTokens: room });
          expect(rendered).toEqual(createFactStore({ counter, initial: { facts, tasks: [] } }).render({ maxTokens: room }));
          expect(rendered.tokens).toBe(rendered.text.length === 0 ? 0 : counter.count(rendered.text));
          expect(rendered.tokens).toBeLessThanOrEqual(room);
          const parsed = (rendered.text.length === 0 ? {} : parse(rendered.text)) as Record<string, Record<string, string> | undefined>;
          const shown = facts.filter((fact) => parsed[fact.category]?.[fact.key] === fact.value);
          expect(shown).toHaveLength(facts.length - rendered.omitted);
          const document: Record<string, Record<string, string>> = {};
          for (const category of FACT_CATEGORIES) {
            const inCategory = facts.filter((fact) => fact.category === category && shown.includes(fact));
            if (inCategory.length > 0) document[category] = Object.fromEntries(inCategory.map((fact) => [fact.key, fact.value]));
          }
          expect(rendered.text).toBe(shown.length === 0 ? '' : stringify(document, { lineWidth: 0 }).trimEnd());
        }
      }),
      { numRuns: 200 },
    );
  });

  it('renders the same YAML as serialising the whole facts document at once', () => {
    const keyArbitrary = fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.integer({ min: 0, max: 50 }).map(String), fc.constantFrom('a: b', '- x', '#c', 'yes', 'null', ' k ', 'ключ'));
    const valueArbitrary = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('a: b', 'line one\nline two', '  indented', "it's \"quoted\"", '- item', '# not a comment', 'true', '12', '', 'x\n\ny', 'tab\there'));
    const factArbitrary = fc.record({ key: keyArbitrary, category: fc.constantFrom(...FACT_CATEGORIES), value: valueArbitrary });
    fc.assert(
      fc.property(fc.uniqueArray(factArbitrary, { selector: (fact) => fact.key, maxLength: 12 }), (generated) => {
        const facts: Fact[] = generated.map((fact) => ({ ...fact, source: { from: 1, to: 1 }, history: [], tokens: 1 }));
        const store = createFactStore({ counter, initial: { facts, tasks: [] } });
        const document: Record<string, Record<string, string>> = {};
        for (const category of FACT_CATEGORIES) {
          const values: Record<string, string> = {};
          for (const fact of facts.filter((candidate) => candidate.category === category)) values[fact.key] = fact.value;
          if (facts.some((fact) => fact.category === category)) document[category] = values;
        }
        const expected = facts.length === 0 ? '' : stringify(document, { lineWidth: 0 }).trimEnd();
        expect(store.render({ maxTokens: 1_000_000 }).text).toBe(expected);
      }),
      { numRuns: 200 },
    );
  });
});

describe('BoundaryDetector performance', () => {
  const entry = (seq: number, role: 'user' | 'assistant', text: string): Entry =>
    createEntry({ seq, kind: role, role, text, counter, maxEntryTokens: 10_000, exchange: seq });

  it('reads only the new entries when the entries are extended', () => {
    const detector = createBoundaryDetector();
    let reads = 0;
    const counted = (base: Entry): Entry => {
      const copy = { ...base };
      Object.defineProperty(copy, 'text', { get: () => { reads += 1; return base.text; }, enumerable: true });
      return copy;
    };
    const entries: Entry[] = [];
    for (let index = 1; index <= 50; index += 1) entries.push(counted(entry(index, index % 2 === 0 ? 'assistant' : 'user', `message ${index}. All tests pass.`)));
    detector.scoreGaps(entries);
    reads = 0;
    entries.push(counted(entry(51, 'user', 'one more question')));
    detector.scoreGaps(entries);
    expect(reads).toBeGreaterThan(0);
    expect(reads).toBeLessThan(10);
  });

  it('scores extended entries exactly as a fresh detector does', () => {
    const text = fc.constantFrom('Done, all tests pass.', '```ts\nconst a = 1;', '```', 'Now let\'s move on to the cache.', 'Traceback (most recent call last):', '  File "a.py", line 1', 'plain words here', 'bye for now', 'What next?');
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.boolean(), text), { minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 29 }), (items, cut) => {
        const entries = items.map(([isUser, body], index) => entry(index + 1, isUser ? 'user' : 'assistant', body));
        const incremental = createBoundaryDetector();
        incremental.scoreGaps(entries.slice(0, Math.min(cut, entries.length)));
        expect(incremental.scoreGaps(entries)).toEqual(createBoundaryDetector().scoreGaps(entries));
      }),
      { numRuns: 200 },
    );
  });
});

import { describe, expect, it } from 'vitest';
import { createTokenCounter } from '../../src/index.js';
import { isKindRevision } from '../../src/graduation/kind-revision.js';
import { createFactStore } from '../../src/tiers/facts.js';

// Pairs written fresh for this test: a tool liked for a role, then another tool put in the same
// role, by either speaker; and pairs about two roles or two scopes that must stay two facts.
const counter = createTokenCounter();

describe('isKindRevision', () => {
  it.each([
    ['I went with Zustand since it is the state library you like.', 'on second thought, Jotai as the state library'],
    ['My preferred test runner is Mocha, it starts fast.', "I've come around on test runners: Vitest from now on."],
    ['Honestly Biome is the code formatter I trust most.', 'on second thought, Prettier as the code formatter'],
  ])('another tool in the same role revises: %s → %s', (older, newer) => {
    expect(isKindRevision(older, newer)).toBe(true);
  });

  it.each([
    ['the test runner is Vitest', 'actually the task runner is Just now'],
    ['the package manager is Bun', 'on second thought, the package manager for the docs site is Yarn'],
    ['the state library is Zustand', 'on second thought, the state library stays Zustand'],
    ['I like Pino as the logging library', 'the date library is Luxon from now on'],
  ])('another role, another scope or no new name is no revision: %s → %s', (older, newer) => {
    expect(isKindRevision(older, newer)).toBe(false);
  });
});

describe('a changed tool for a role in the facts tier', () => {
  it('replaces the older preference when said as an update', () => {
    const store = createFactStore({ counter });
    store.apply({ updates: [{ category: 'preferences', value: 'Since Mocha is your test runner of choice, I ran the suite with it.' }], source: { from: 1, to: 2 }, seq: 3 });
    store.apply({ updates: [{ category: 'preferences', value: "I've come around on test runners, Vitest from now on.", isUpdate: true }], source: { from: 4, to: 5 }, seq: 6 });
    expect(store.facts()).toHaveLength(1);
    expect(store.facts()[0]?.value).toContain('Vitest');
  });

  it('keeps both when the newer is not said as an update, or names another role', () => {
    const store = createFactStore({ counter });
    store.apply({ updates: [{ category: 'preferences', value: 'Since Mocha is your test runner of choice, I ran the suite with it.' }], source: { from: 1, to: 2 }, seq: 3 });
    store.apply({ updates: [{ category: 'preferences', value: 'For the e2e suite the test runner is Playwright.' }], source: { from: 4, to: 5 }, seq: 6 });
    store.apply({ updates: [{ category: 'preferences', value: 'From now on the task runner is Just.', isUpdate: true }], source: { from: 7, to: 8 }, seq: 9 });
    expect(store.facts()).toHaveLength(3);
  });

  it('keeps a schedule or a limit that names a role apart from a later one about that role', () => {
    const store = createFactStore({ counter });
    store.apply({ updates: [{ category: 'conventions', value: 'The session cache is flushed every Monday at 06:00.' }], source: { from: 1, to: 2 }, seq: 3 });
    store.apply({ updates: [{ category: 'conventions', value: 'Going forward the session cache is Redis, not Memcached.', isUpdate: true }], source: { from: 4, to: 5 }, seq: 6 });
    expect(store.facts().map((fact) => fact.value)).toHaveLength(2);
  });
});

import { describe, expect, it } from 'vitest';
import { isReframedValue } from '../../src/language/statement-frame.js';
import { createTokenCounter } from '../../src/index.js';
import { createFactStore } from '../../src/tiers/facts.js';

// Pairs written fresh for this test: an older statement about things of a kind and an update that
// keeps its frame (subject and verb) with another value, against pairs that say something else.
describe('an update that keeps the frame and changes the value', () => {
  it.each([
    ['log lines are logfmt across services', 'actually, log lines are JSON now'],
    ['branch names follow feat/ticket-slug', 'from now on branch names follow ticket-slug only'],
    ['config files are named app.config.ts', 'update: config files are named config.ts now'],
    ['we keep the SQL migrations under db/migrate', 'we now keep the SQL migrations under sql/migrations'],
    ['Feature flags are prefixed with ff_', 'going forward, flags are prefixed with flag_'],
  ])('revises: %s → %s', (older, newer) => {
    expect(isReframedValue(older, newer)).toBe(true);
  });

  it.each([
    // Another verb, another subject, a pronoun, or something added.
    ['errors are logged once at the edge', 'errors are wrapped in DomainError now'],
    ['unit specs live in test/unit', 'contract specs live in test/contract now'],
    ['it is kebab-case', 'it is camelCase now'],
    ['the gateway is Envoy', 'the gateway is also rate limited now'],
    ['log lines are logfmt', 'log lines are logfmt'],
  ])('does not revise: %s → %s', (older, newer) => {
    expect(isReframedValue(older, newer)).toBe(false);
  });
});

describe('the fact store with a reframed update', () => {
  const apply = (pairs: readonly (readonly [string, boolean])[]) => {
    const store = createFactStore({ counter: createTokenCounter() });
    pairs.forEach(([value, isUpdate], index) => {
      store.apply({ updates: [{ category: 'conventions', value, isUpdate }], source: { from: index * 10, to: index * 10 + 5 }, seq: index * 10 + 6 });
    });
    return store.facts().map((fact) => fact.value);
  };

  it('keeps only the newest value when the update is worded as one', () => {
    expect(apply([['Log lines are logfmt across services', false], ['Actually, log lines are JSON now', true]])).toEqual(['Actually, log lines are JSON now']);
  });

  it('keeps both when the newer statement is not worded as an update', () => {
    expect(apply([['Log lines are logfmt across services', false], ['Audit lines are JSON', false]])).toHaveLength(2);
  });
});

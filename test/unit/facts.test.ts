import { describe, expect, it } from 'vitest';
import { createTokenCounter } from '../../src/index.js';
import { createFactStore } from '../../src/tiers/facts.js';

const counter = createTokenCounter();

describe('FactStore', () => {
  describe('apply()', () => {
    it('keeps one value per key, newest wins, with the old value in history and the archive', () => {
      const store = createFactStore({ counter });
      store.apply({ updates: [{ key: 'db-timeout', category: 'decisions', value: 'DB calls use a 5s timeout' }], source: { from: 1, to: 10 }, seq: 11 });
      const changes = store.apply({ updates: [{ key: 'db-timeout', category: 'decisions', value: 'DB calls use a 12s timeout' }], source: { from: 12, to: 20 }, seq: 21 });
      expect(store.facts()).toHaveLength(1);
      expect(store.get('db-timeout')?.value).toBe('DB calls use a 12s timeout');
      expect(store.get('db-timeout')?.source).toEqual({ from: 12, to: 20 });
      expect(store.get('db-timeout')?.history).toEqual([{ value: 'DB calls use a 5s timeout', source: { from: 1, to: 10 }, supersededAt: 21 }]);
      expect(changes.archived).toEqual([{ type: 'fact', reason: 'superseded', key: 'db-timeout', category: 'decisions', value: 'DB calls use a 5s timeout', source: { from: 1, to: 10 }, archivedAt: 21 }]);
    });

    it('matches an update without a key to the existing fact on the same topic', () => {
      const store = createFactStore({ counter });
      store.apply({ updates: [{ category: 'decisions', value: "let's always use a 5s timeout on DB calls, with 3 retries" }], source: { from: 1, to: 2 }, seq: 3 });
      store.apply({ updates: [{ category: 'decisions', value: "let's change the DB timeout to 12s with 5 retries", isUpdate: true }], source: { from: 4, to: 5 }, seq: 6 });
      expect(store.facts()).toHaveLength(1);
      expect(store.facts()[0]?.value).toContain('12s');
    });

    it('ignores a restatement of the same value', () => {
      const store = createFactStore({ counter });
      store.apply({ updates: [{ key: 'k', category: 'conventions', value: 'money is integer cents' }], source: { from: 1, to: 1 }, seq: 2 });
      const changes = store.apply({ updates: [{ key: 'k', category: 'conventions', value: 'money is integer cents' }], source: { from: 3, to: 3 }, seq: 4 });
      expect(changes.superseded).toHaveLength(0);
      expect(store.get('k')?.history).toHaveLength(0);
    });
  });

  describe('applyTasks()', () => {
    it('moves a task from open to done and renders it as done only', () => {
      const store = createFactStore({ counter });
      store.applyTasks({ updates: [{ title: 'Add rate limiting', status: 'open' }], source: { from: 1, to: 2 } });
      store.applyTasks({ updates: [{ title: 'add rate limiting', status: 'done' }], source: { from: 3, to: 4 } });
      expect(store.tasks()).toEqual([expect.objectContaining({ title: 'Add rate limiting', status: 'done' })]);
      const { text } = store.render({ maxTokens: 500 });
      expect(text).toContain('done:\n    - Add rate limiting');
      expect(text).not.toContain('open:');
    });
  });

  describe('render()', () => {
    it('renders YAML by category and leaves out the oldest facts to fit the budget', () => {
      const store = createFactStore({ counter });
      for (let index = 0; index < 20; index += 1) {
        store.apply({ updates: [{ key: `fact-${index}`, category: 'conventions', value: `convention number ${index} about the code base` }], source: { from: index, to: index }, seq: index + 1 });
      }
      const full = store.render({ maxTokens: 10_000 });
      expect(full.text.startsWith('conventions:\n  fact-0:')).toBe(true);
      expect(full.omitted).toBe(0);
      const small = store.render({ maxTokens: 60 });
      expect(small.tokens).toBeLessThanOrEqual(60);
      expect(small.omitted).toBeGreaterThan(0);
      expect(small.text).toContain('fact-19');
      expect(small.text).not.toContain('fact-0:');
    });

    it('returns the cached rendering while nothing changed', () => {
      const store = createFactStore({ counter });
      store.apply({ updates: [{ key: 'a', category: 'decisions', value: 'use pg-boss' }], source: { from: 1, to: 1 }, seq: 2 });
      expect(store.render({ maxTokens: 100 })).toBe(store.render({ maxTokens: 100 }));
    });
  });
});

describe('FactStore task and topic matching', () => {
  it('marks an open task done when the completion words it differently', () => {
    const store = createFactStore({ counter });
    store.applyTasks({ updates: [{ title: 'Can you look at getting the test suite green again', status: 'open' }], source: { from: 1, to: 1 } });
    store.applyTasks({ updates: [{ title: 'getting the test suite green again', status: 'done' }], source: { from: 2, to: 2 } });
    expect(store.tasks()).toHaveLength(1);
    expect(store.tasks()[0]?.status).toBe('done');
  });

  it('keeps two distinct facts that merely share words', () => {
    const store = createFactStore({ counter });
    store.apply({ updates: [{ category: 'constraints', value: 'CI jest runs must use --maxWorkers=2 or CI runs out of memory' }], source: { from: 1, to: 1 }, seq: 2 });
    store.apply({ updates: [{ category: 'constraints', value: 'CI must finish jest runs in under ten minutes on the shared runners' }], source: { from: 3, to: 3 }, seq: 4 });
    expect(store.facts()).toHaveLength(2);
  });
});

describe('FactStore explicit updates', () => {
  it('does not let an update that shares one word with a fact replace it: wrong supersession loses a fact', () => {
    const store = createFactStore({ counter });
    store.apply({ updates: [{ category: 'requirements', value: 'The ticket export has to support CSV and XLSX' }], source: { from: 1, to: 1 }, seq: 2 });
    store.apply({ updates: [{ category: 'requirements', value: 'Rate-limit the public API to 60 requests per minute per key' }], source: { from: 3, to: 3 }, seq: 4 });
    store.apply({ updates: [{ category: 'requirements', value: 'Audit exports are now kept for 90 days', isUpdate: true }], source: { from: 5, to: 5 }, seq: 6 });
    const values = store.facts().map((fact) => fact.value);
    expect(values).toHaveLength(3);
    expect(values).toContain('The ticket export has to support CSV and XLSX');
  });
});

describe('FactStore newest wins on the same subject only', () => {
  // Sentences written for this test: the same subject reworded, and distinct subjects that share words.
  const apply = (store: ReturnType<typeof createFactStore>, values: readonly (readonly [string, boolean])[], category: 'decisions' | 'constraints' = 'decisions'): void => {
    values.forEach(([value, isUpdate], index) => {
      store.apply({ updates: [{ category, value, isUpdate }], source: { from: index * 2 + 1, to: index * 2 + 1 }, seq: index * 2 + 2 });
    });
  };

  it.each<readonly [string, string]>([
    ['The payments client uses a request timeout of 8s.', 'Bump the payments client request timeout to 12s.'],
    ['Product page cache TTL is 10 minutes.', 'The product page cache TTL is now 25 minutes.'],
    ['Application logs are shipped to Datadog.', 'From now on application logs are shipped to Grafana Loki instead.'],
    ['Background jobs run on BullMQ.', 'Switch the background jobs over to pg-boss.'],
  ])('lets %j be replaced by %j', (older, newer) => {
    const store = createFactStore({ counter });
    apply(store, [[older, false], [newer, true]]);
    expect(store.facts().map((fact) => fact.value)).toEqual([newer]);
    expect(store.facts()[0]?.history.map((version) => version.value)).toEqual([older]);
  });

  it('keeps per-service values apart even when every sentence says "retry budget"', () => {
    const store = createFactStore({ counter });
    apply(store, [
      ['Retry budget is 5 for svc5.', false],
      ['Retry budget is 15 for svc15.', false],
      ['Retry budget is 3 for billing.', false],
      ['Retry budget is 7 for search.', false],
    ]);
    expect(store.facts()).toHaveLength(4);
    apply(store, [['Retry budget for svc15 is now 20.', true]]);
    const values = store.facts().map((fact) => fact.value);
    expect(values).toHaveLength(4);
    expect(values).toContain('Retry budget for svc15 is now 20.');
    expect(values).toContain('Retry budget is 5 for svc5.');
    expect(values).not.toContain('Retry budget is 15 for svc15.');
  });

  it('replaces every older statement of the value it revises, so none stays beside the new one', () => {
    const store = createFactStore({ counter });
    apply(store, [
      ['The exporter may hold 40 open file handles at most.', false],
      ['Cap the exporter at 40 open file handles, the host copes with that.', false],
      ['The mailer may hold 15 open file handles at most.', false],
    ], 'constraints');
    expect(store.facts()).toHaveLength(3);
    const changes = store.apply({ updates: [{ category: 'constraints', value: 'The exporter now gets 90 open file handles.' }], source: { from: 9, to: 9 }, seq: 10 });
    const values = store.facts().map((fact) => fact.value);
    expect(values.filter((value) => value.includes('exporter'))).toEqual(['The exporter now gets 90 open file handles.']);
    expect(values).toContain('The mailer may hold 15 open file handles at most.');
    expect(changes.archived.map((item) => (item.type === 'fact' ? item.value : '')).sort()).toEqual([
      'Cap the exporter at 40 open file handles, the host copes with that.',
      'The exporter may hold 40 open file handles at most.',
    ]);
    expect(changes.superseded).toHaveLength(2);
  });

  it('keeps one constraint per service and day', () => {
    const store = createFactStore({ counter });
    const services = ['billing', 'search', 'auth', 'gateway', 'reports', 'ledger', 'mailer', 'uploads'];
    const days = ['Mondays', 'Tuesdays', 'Wednesdays', 'Thursdays', 'Fridays', 'Saturdays', 'Sundays', 'holidays'];
    apply(store, services.map((service, index) => [`Never deploy the ${service} service on ${days[index]}.`, false] as const), 'constraints');
    expect(store.facts()).toHaveLength(8);
  });
});

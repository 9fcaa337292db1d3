import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTokenCounter } from '../../src/index.js';
import { createFactStore } from '../../src/tiers/facts.js';
import { PROPERTY_RUNS } from '../helpers.js';

const counter = createTokenCounter();
const services = ['ledger', 'avatar', 'mailer', 'geocoder', 'search', 'billing', 'exporter', 'scheduler'] as const;
const units = ['seconds', 'retries', 'workers', 'megabytes'] as const;

/** "the ledger client gets 7 retries" in one of a few shapes, all about the same service and unit. */
const statement = (options: { service: string; amount: number; unit: string; shape: number }): string => {
  const { service, amount, unit } = options;
  return [
    `the ${service} client gets ${amount} ${unit}`,
    `the ${service} client is allowed ${amount} ${unit} from today`,
    `give the ${service} client ${amount} ${unit}, the dashboards look fine`,
  ][options.shape % 3] as string;
};

const setting = fc.record({
  service: fc.constantFrom(...services),
  unit: fc.constantFrom(...units),
  amount: fc.integer({ min: 2, max: 999 }),
  shape: fc.nat({ max: 2 }),
});

describe('value revisions: newest wins per subject, distinct subjects stay distinct', () => {
  it('holds the newest amount of each service and unit, and no older one beside it', () => {
    fc.assert(
      fc.property(fc.array(setting, { minLength: 1, maxLength: 14 }), (settings) => {
        const store = createFactStore({ counter });
        settings.forEach((item, index) => {
          store.apply({ updates: [{ category: 'constraints', value: statement(item) }], source: { from: index, to: index }, seq: index + 1 });
        });
        const newest = new Map<string, number>();
        for (const item of settings) newest.set(`${item.service}/${item.unit}`, item.amount);
        const values = store.facts().map((fact) => fact.value);
        for (const [subject, amount] of newest) {
          const [service, unit] = subject.split('/') as [string, string];
          // The newest amount of every subject is held, and no older amount of it beside it (the
          // same amount said twice in other words may stay twice: it is not stale).
          const about = values.filter((value) => value.includes(` ${service} `) && value.includes(` ${unit}`));
          expect(about.length).toBeGreaterThan(0);
          for (const value of about) expect(value).toContain(` ${amount} ${unit}`);
        }
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });
});

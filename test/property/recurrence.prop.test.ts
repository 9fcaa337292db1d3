import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTokenCounter } from '../../src/index.js';
import { isRescheduling } from '../../src/language/recurrence.js';
import { createFactStore } from '../../src/tiers/facts.js';
import { PROPERTY_RUNS } from '../helpers.js';

const counter = createTokenCounter();
const processes = ['backup', 'snapshot', 'report', 'audit', 'digest', 'scan', 'reindex', 'export'] as const;
const owners = ['ledger', 'billing', 'search', 'avatar'] as const;
const weekdays = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'] as const;

/** A schedule in one of several shapes; `n` picks the value, so two different `n` give different schedules. */
const schedule = (options: { n: number; shape: number }): string => {
  const { n } = options;
  return [
    `every ${n + 2} hours`,
    `at ${String(n % 24).padStart(2, '0')}:${String((n * 7) % 60).padStart(2, '0')} UTC`,
    `on \`${n % 60} ${n % 24} * * *\``,
    `every ${weekdays[n % 7] as string}`,
  ][options.shape % 4] as string;
};

/** "the ledger backup runs every 5 hours" in one of a few shapes. */
const statement = (options: { owner: string; process: string; when: string; shape: number }): string => {
  const { owner, process, when } = options;
  return [
    `the ${owner} ${process} runs ${when}`,
    `heads up, the ${owner} ${process} moved to ${when}`,
    `The ${owner} ${process} happens ${when}, so plan around it.`,
  ][options.shape % 3] as string;
};

const setting = fc.record({
  owner: fc.constantFrom(...owners),
  process: fc.constantFrom(...processes),
  shape: fc.nat({ max: 2 }),
  scheduleShape: fc.nat({ max: 3 }),
  n: fc.integer({ min: 1, max: 5_000 }),
});

describe('schedules: newest wins per process, distinct processes stay distinct', () => {
  it('never reads a schedule of one process as a new schedule of another', () => {
    fc.assert(
      fc.property(setting, setting, (a, b) => {
        fc.pre(a.owner !== b.owner || a.process !== b.process);
        const older = statement({ ...a, when: schedule({ n: a.n, shape: a.scheduleShape }) });
        const newer = statement({ ...b, when: schedule({ n: b.n, shape: b.scheduleShape }) });
        expect(isRescheduling(older, newer)).toBe(false);
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });

  it('holds the newest schedule of each process and every process told', () => {
    fc.assert(
      fc.property(fc.array(setting, { minLength: 1, maxLength: 12 }), (settings) => {
        const store = createFactStore({ counter });
        const newest = new Map<string, string>();
        settings.forEach((item, index) => {
          const when = schedule({ n: item.n, shape: item.scheduleShape });
          store.apply({ updates: [{ category: 'conventions', value: statement({ ...item, when }) }], source: { from: index, to: index }, seq: index + 1 });
          newest.set(`${item.owner} ${item.process}`, when);
        });
        const values = store.facts().map((fact) => fact.value);
        for (const [subject, when] of newest) {
          // Every process keeps a fact carrying its newest schedule.
          expect(values.some((value) => value.includes(`${subject} `) && value.includes(when))).toBe(true);
        }
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });
});

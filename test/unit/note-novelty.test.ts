import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { uniqueProseShares, uniqueWordShares } from '../../src/summarizer/note-novelty.js';

describe('uniqueWordShares', () => {
  it('gives repeated narration and a listed file no share, and a remark in its own words most of it', () => {
    const notes = [
      'Touched `src/till/receipts.ts` once more near `printFooter`.',
      'Touched `src/till/receipts.ts` once more near `printHeader`.',
      'Card payments under five euros skip the PIN prompt on the terminal.',
    ];
    const [first, second, remark] = uniqueWordShares({ notes, others: ['src/till/receipts.ts (2 edits)'] });
    expect(first).toBe(0);
    expect(second).toBe(0);
    expect(remark).toBeGreaterThan(0.8);
  });

  it('does not count names inside code spans as the note\'s own words', () => {
    const [list] = uniqueWordShares({ notes: ['also mentioned `rebuildLedger`, `LedgerRow`, `closeShift`'], others: [] });
    expect(list).toBeLessThan(0.5);
  });

  it('is a share between 0 and 1, and 0 for a note whose words another item holds', () => {
    const word = fc.stringMatching(/^[a-z]{3,8}$/u);
    fc.assert(
      fc.property(fc.array(fc.array(word, { minLength: 1, maxLength: 8 }), { minLength: 1, maxLength: 6 }), (notes) => {
        const texts = notes.map((words) => words.join(' '));
        const shares = uniqueWordShares({ notes: texts, others: [] });
        for (const share of shares) expect(share >= 0 && share <= 1).toBe(true);
        const echoed = uniqueWordShares({ notes: texts, others: texts });
        expect(echoed.every((share) => share === 0)).toBe(true);
      }),
    );
  });
});

describe('uniqueProseShares', () => {
  it('gives lines that repeat a shape with other code names no share, and a remark in its own words most of it', () => {
    const notes = [
      'Probably worth peeking at `loadInvoices` first, I guess.',
      'Probably worth peeking at `sendReminder` first, I guess.',
      'Refunds above two hundred euros need a second approver from finance.',
    ];
    const [first, second, remark] = uniqueProseShares({ notes, others: [] });
    expect(first).toBe(0);
    expect(second).toBe(0);
    expect(remark).toBe(1);
  });

  it('counts a note made only of code as its own, and prose another item holds as not', () => {
    const [code, echoed] = uniqueProseShares({ notes: ['`retryLimit = 4`', 'the nightly backup job'], others: ['Completed: the nightly backup job'] });
    expect(code).toBe(1);
    expect(echoed).toBe(0);
  });
});

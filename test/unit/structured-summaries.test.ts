import { describe, expect, it } from 'vitest';
import { ContextManager, createExtractiveSummarizer, createMemoryStorage } from '../../src/index.js';
import type { SessionSnapshot, Summarizer, Summary, SummaryItem, SummarySectionData } from '../../src/index.js';
import type { SummarizeResult } from '../../src/summarizer/summarizer.js';
import { renderSections, sectionsOf } from '../../src/summarizer/summary-sections.js';
import { createTokenCounter } from '../../src/tokens/token-counter.js';
import type { Entry } from '../../src/types.js';
import { createSmallManager, prose } from '../helpers.js';

const counter = createTokenCounter();
const countTokens = (text: string): number => counter.count(text);

function entriesOf(texts: readonly [Entry['kind'], string, string?][], firstSeq = 10): Entry[] {
  return texts.map(([kind, text, path], index) => ({
    seq: firstSeq + index,
    kind,
    role: kind === 'assistant' ? 'assistant' : kind === 'tool-result' ? 'tool' : 'user',
    text,
    display: text,
    tokens: countTokens(text) + 4,
    exchange: 1,
    ...(path === undefined ? {} : { path }),
  }));
}

function run(options: { mode: 'chunk' | 'consolidate'; entries?: Entry[]; summaries?: Summary[]; targetTokens: number }): SummarizeResult {
  return createExtractiveSummarizer().summarize({
    mode: options.mode,
    entries: options.entries ?? [],
    summaries: options.summaries ?? [],
    targetTokens: options.targetTokens,
    countTokens,
    signal: new AbortController().signal,
  }) as SummarizeResult;
}

function summaryWith(id: string, sections: SummarySectionData[], from: number, to: number): Summary {
  const text = renderSections(sections);
  return { id, source: { from, to }, text, sections, tokens: countTokens(text), level: 1 };
}

const CHUNK = entriesOf([
  ['user', 'Please add retry support to the uploadQueue in src/upload/queue.ts.'],
  ['file-open', '[opened src/upload/queue.ts, 120 lines]', 'src/upload/queue.ts'],
  ['file-update', '[src/upload/queue.ts:40] `retries = 0` → `retries = 3`', 'src/upload/queue.ts'],
  ['assistant', 'The uploadQueue now keeps MAX_RETRIES at 3 and backs off by 250ms per attempt.'],
  ['user', 'The S3 bucket name stays uploads-prod for the staging cluster too.'],
  ['assistant', 'The uploadWorker polls every 500ms and hands batches of 20 files to the retryBudget helper.'],
  ['user', 'I saw the pollInterval in src/upload/worker.ts jump to 2s on the Grafana board yesterday.'],
]);

describe('structured summaries', () => {
  describe('chunk', () => {
    it('returns sections whose rendering is the summary text, items carrying provenance in the chunk', () => {
      const result = run({ mode: 'chunk', entries: CHUNK, targetTokens: 200 });
      expect(result.sections).toBeDefined();
      const sections = result.sections ?? [];
      expect(renderSections(sections)).toBe(result.summary);
      for (const section of sections) {
        for (const item of section.items) {
          expect(item.source.from).toBeGreaterThanOrEqual(10);
          expect(item.source.to).toBeLessThanOrEqual(16);
          expect(item.source.from).toBeLessThanOrEqual(item.source.to);
        }
      }
      const files = sections.find((section) => section.name === 'Files');
      expect(files?.items[0]).toMatchObject({ path: 'src/upload/queue.ts', edits: 1, source: { from: 11, to: 12 } });
    });

    it('gives every note the salience the summarizer scored it with', () => {
      const result = run({ mode: 'chunk', entries: CHUNK, targetTokens: 200 });
      const notes = result.sections?.find((section) => section.name === 'Notes');
      expect(notes?.items.length ?? 0).toBeGreaterThan(0);
      for (const item of notes?.items ?? []) expect(typeof item.salience).toBe('number');
    });
    it('picks a user\'s plain statement over narration that adds one fresh identifier when only one note fits', () => {
      const entries = entriesOf([
        ['assistant', 'The loader in `teamLoader` reads the membership rows in pages of fifty.'],
        ['user', 'Guests on a shared board see the cards in a lighter shade than members do.'],
      ]);
      const full = run({ mode: 'chunk', entries, targetTokens: 200 });
      expect(full.summary).toContain('teamLoader');
      const oneNote = countTokens('Notes:\n') + countTokens('- Guests on a shared board see the cards in a lighter shade than members do.\n');
      const tight = run({ mode: 'chunk', entries, targetTokens: oneNote });
      expect(tight.summary).toContain('Guests on a shared board see the cards');
      expect(tight.summary).not.toContain('teamLoader');
    });

    it('weighs a user\'s statement above their questions, hedges and asides', () => {
      const entries = entriesOf([
        ['user', 'Is the `digestJob` still wired to the old queue?'],
        ['user', 'I think the scheduler lives somewhere in `jobs/` but I am not sure.'],
        ['user', 'That came up in the planning call last week.'],
        ['user', 'Most of our traffic arrives through the partner widget on news sites.'],
      ]);
      const notes = run({ mode: 'chunk', entries, targetTokens: 300 }).sections?.find((section) => section.name === 'Notes')?.items ?? [];
      const salienceOf = (start: string): number => notes.find((item) => item.text.startsWith(start))?.salience ?? Number.NaN;
      const statement = salienceOf('Most of our traffic');
      expect(statement).toBeGreaterThanOrEqual(1);
      for (const other of ['Is the', 'I think', 'That came up']) expect(salienceOf(other)).toBeLessThan(statement);
    });

    it('marks the notes that are the user\'s own words', () => {
      const entries = entriesOf([
        ['user', 'Guests on a shared board see the cards in a lighter shade than members do.'],
        ['assistant', 'The boardPermissions helper in src/boards/access.ts reads the role from the membership row.'],
      ]);
      const notes = run({ mode: 'chunk', entries, targetTokens: 200 }).sections?.find((section) => section.name === 'Notes')?.items ?? [];
      expect(notes.find((item) => item.text.startsWith('Guests'))?.isUserSpeech).toBe(true);
      expect(notes.find((item) => item.text.includes('boardPermissions'))?.isUserSpeech).toBeUndefined();
    });
  });

    it('keeps the agent\'s description of how the product works as a marked note ahead of its code narration', () => {
      const entries = entriesOf([
        ['assistant', 'Wholesale prices are reserved for buyers with a trade licence, so the cart asks for it before showing them.'],
        ['assistant', 'The `mergeBaskets` helper in src/cart/merge.ts walks both lists before it sorts them.'],
        ['user', 'Loyalty points usually arrive a day after the parcel is delivered.'],
      ]);
      const notes = run({ mode: 'chunk', entries, targetTokens: 300 }).sections?.find((section) => section.name === 'Notes')?.items ?? [];
      const product = notes.find((item) => item.text.startsWith('Wholesale prices'));
      const code = notes.find((item) => item.text.includes('mergeBaskets'));
      expect(product?.isProductStatement).toBe(true);
      expect(product?.isUserSpeech).toBeUndefined();
      expect(code?.isProductStatement).toBeUndefined();
      expect(product?.salience ?? 0).toBeGreaterThan(code?.salience ?? 0);
      // The user's own description keeps its rank as the user's words.
      const spoken = notes.find((item) => item.text.startsWith('Loyalty points'));
      expect(spoken?.isUserSpeech).toBe(true);
      expect(spoken?.isProductStatement).toBeUndefined();
    });

    it('keeps the agent\'s description of the product whose verb reads like a finished task, but not a report of finished work', () => {
      const entries = entriesOf([
        ['assistant', 'Returning customers complete the purchase with a saved card and one click.'],
        ['assistant', 'The refactor is complete.'],
      ]);
      const notes = run({ mode: 'chunk', entries, targetTokens: 300 }).sections?.find((section) => section.name === 'Notes')?.items ?? [];
      expect(notes.find((item) => item.text.startsWith('Returning customers'))?.isProductStatement).toBe(true);
      expect(notes.some((item) => item.text.startsWith('The refactor'))).toBe(false);
    });

  describe('consolidate', () => {
    const older = summaryWith('s1', [
      { name: 'Files', items: [{ text: 'src/a.ts (2 edits)', path: 'src/a.ts', edits: 2, source: { from: 1, to: 4 } }] },
      { name: 'Notes', items: [
        { text: 'The cache key includes the tenant id.', salience: 5, source: { from: 2, to: 2 } },
        { text: 'Some chatter about the weather and lunch plans today.', salience: 0.1, source: { from: 3, to: 3 } },
      ] },
      { name: 'Open', items: [{ text: 'the CSV export', source: { from: 4, to: 4 } }] },
    ], 1, 9);
    const newer = summaryWith('s2', [
      { name: 'Completed', items: [{ text: 'the CSV export (tests green)', source: { from: 12, to: 12 } }] },
      { name: 'Files', items: [{ text: 'src/a.ts, with a comma (3 edits)', path: 'src/a.ts', edits: 3, source: { from: 10, to: 15 } }] },
      { name: 'Notes', items: [{ text: 'The cache key includes the tenant id.', salience: 2, source: { from: 14, to: 14 } }] },
    ], 10, 19);

    it('merges data: adds edit counts by path, dedupes items widening provenance, drops completed open items', () => {
      const result = run({ mode: 'consolidate', summaries: [older, newer], targetTokens: 300 });
      const sections = result.sections ?? [];
      expect(renderSections(sections)).toBe(result.summary);
      const files = sections.find((section) => section.name === 'Files')?.items ?? [];
      expect(files).toEqual([{ text: 'src/a.ts (5 edits)', path: 'src/a.ts', edits: 5, source: { from: 1, to: 15 } }]);
      const notes = sections.find((section) => section.name === 'Notes')?.items ?? [];
      const cache = notes.filter((item) => item.text.startsWith('The cache key'));
      expect(cache).toHaveLength(1);
      expect(cache[0]).toMatchObject({ source: { from: 2, to: 14 }, salience: 5 });
      expect(sections.some((section) => section.name === 'Open')).toBe(false);
    });

    it('drops the list of edited files, then the lowest-salience notes, when over the target', () => {
      const full = run({ mode: 'consolidate', summaries: [older, newer], targetTokens: 300 });
      expect(full.summary).toContain('weather');
      const fullTokens = countTokens(full.summary);
      const filesTokens = countTokens('Files: src/a.ts (5 edits)\n');
      const weatherTokens = countTokens('- Some chatter about the weather and lunch plans today.\n');
      const tight = run({ mode: 'consolidate', summaries: [older, newer], targetTokens: fullTokens - Math.ceil(filesTokens / 2) });
      expect(tight.summary).not.toContain('Files:');
      expect(tight.summary).toContain('weather');
      const tighter = run({ mode: 'consolidate', summaries: [older, newer], targetTokens: fullTokens - filesTokens - Math.ceil(weatherTokens / 2) });
      expect(tighter.summary).toContain('The cache key includes the tenant id.');
      expect(tighter.summary).not.toContain('weather');
    });

    it('keeps narration that says something no other item says over repeated narration of edits that scored higher', () => {
      const edits = (from: number): SummaryItem[] => ['tallyShelfRows', 'mapBinLabels', 'groupPallets'].map((name, index) => ({
        text: `Tidied \`src/stock/shelves.ts\` again near \`${name}\`.`,
        salience: 1.8,
        source: { from: from + index, to: from + index },
      }));
      const decision = 'We now ship the barcode labels through Zebra printers over raw TCP port 9100.';
      const first = summaryWith('s1', [
        { name: 'Files', items: [{ text: 'src/stock/shelves.ts (3 edits)', path: 'src/stock/shelves.ts', edits: 3, source: { from: 1, to: 8 } }] },
        { name: 'Commands', items: [{ text: 'npm run lint: clean', command: 'npm run lint', source: { from: 2, to: 2 } }] },
        { name: 'Notes', items: [...edits(3), { text: decision, salience: 0, source: { from: 7, to: 7 } }] },
      ], 1, 9);
      const second = summaryWith('s2', [
        { name: 'Notes', items: edits(12).map((item) => ({ ...item, text: item.text.replace('again', 'once more') })) },
      ], 10, 19);
      const full = run({ mode: 'consolidate', summaries: [first, second], targetTokens: 400 });
      expect(full.summary).toContain('Zebra printers');
      // Room for the edited file and one note: the note that states something takes it, ahead of the
      // narration (rated higher, but its words are in its siblings and the Files section) and of the command.
      const room = countTokens('Files:\n- src/stock/shelves.ts (3 edits)\n') + countTokens(`Notes:\n- ${decision}\n`) + 2;
      const tight = run({ mode: 'consolidate', summaries: [first, second], targetTokens: room });
      expect(tight.summary).toContain(decision);
      expect(tight.summary).not.toContain('Tidied');
      expect(tight.summary).not.toContain('npm run lint');
    });

    it('keeps a note in the user\'s own words over agent narration that scored a little higher', () => {
      const narration = summaryWith('s1', [
        { name: 'Notes', items: [
          { text: 'The poller in `syncLedgerRows` walks every shard before it looks at the cursor table.', salience: 2.5, source: { from: 1, to: 1 } },
          { text: 'Shop owners see the tax line broken out per region on every receipt they print.', salience: 1, isUserSpeech: true, source: { from: 2, to: 2 } },
        ] },
      ], 1, 9);
      const later = summaryWith('s2', [
        { name: 'Notes', items: [{ text: 'The `ledgerCursor` row is written after the batch commits.', salience: 3, source: { from: 12, to: 12 } }] },
      ], 10, 19);
      const full = run({ mode: 'consolidate', summaries: [narration, later], targetTokens: 300 });
      const poller = countTokens('- The poller in `syncLedgerRows` walks every shard before it looks at the cursor table.\n');
      const tight = run({ mode: 'consolidate', summaries: [narration, later], targetTokens: countTokens(full.summary) - Math.ceil(poller / 2) });
      expect(tight.summary).toContain('tax line broken out per region');
      expect(tight.summary).not.toContain('walks every shard');
      const kept = tight.sections?.find((section) => section.name === 'Notes')?.items.find((item) => item.text.startsWith('Shop owners'));
      expect(kept?.isUserSpeech).toBe(true);
    });

    it('ranks the agent\'s description of the product with the user\'s statements (by what they carry) and above code narration', () => {
      const first = summaryWith('s1', [
        { name: 'Notes', items: [
          { text: 'The parser in `readLedgerRows` buffers the whole page before it splits the lines.', salience: 1.9, source: { from: 1, to: 1 } },
          { text: 'Trial accounts are limited to three projects, and the dashboard greys out the create button at that point.', salience: 2.5, isProductStatement: true, source: { from: 2, to: 2 } },
          { text: 'Team leads approve every holiday request before it shows on the shared calendar.', salience: 3, isUserSpeech: true, source: { from: 3, to: 3 } },
        ] },
      ], 1, 9);
      const full = run({ mode: 'consolidate', summaries: [first], targetTokens: 300 });
      const parser = countTokens('- The parser in `readLedgerRows` buffers the whole page before it splits the lines.\n');
      const tight = run({ mode: 'consolidate', summaries: [first], targetTokens: countTokens(full.summary) - Math.ceil(parser / 2) });
      expect(tight.summary).toContain('Trial accounts are limited to three projects');
      expect(tight.summary).toContain('Team leads approve every holiday request');
      expect(tight.summary).not.toContain('buffers the whole page');
      const product = countTokens('- Trial accounts are limited to three projects, and the dashboard greys out the create button at that point.\n');
      const tighter = run({ mode: 'consolidate', summaries: [first], targetTokens: countTokens(tight.summary) - Math.ceil(product / 2) });
      expect(tighter.summary).toContain('Team leads approve every holiday request');
      expect(tighter.summary).not.toContain('Trial accounts');
      const kept = tight.sections?.find((section) => section.name === 'Notes')?.items.find((item) => item.text.startsWith('Trial accounts'));
      expect(kept?.isProductStatement).toBe(true);
    });

    it('keeps the agent\'s description of the product over a user\'s hedge that names a file', () => {
      const only = summaryWith('s1', [
        { name: 'Notes', items: [
          { text: 'It might be in `src/billing/run.ts`, but check the export script too.', salience: 1.5, isUserSpeech: true, source: { from: 1, to: 1 } },
          { text: 'Late invoices move to the collections queue after fourteen days.', salience: 2.5, isProductStatement: true, source: { from: 2, to: 2 } },
        ] },
      ], 1, 9);
      const note = countTokens('Notes:\n') + countTokens('- Late invoices move to the collections queue after fourteen days.\n');
      const result = run({ mode: 'consolidate', summaries: [only], targetTokens: note + 2 });
      expect(result.summary).toContain('Late invoices move to the collections queue');
      expect(result.summary).not.toContain('src/billing/run.ts');
    });

    it('keeps the agent\'s description of the product over a user\'s aside with nothing in it', () => {
      const only = summaryWith('s1', [
        { name: 'Notes', items: [
          { text: 'Back from lunch, sorry about that.', salience: 0, isUserSpeech: true, source: { from: 1, to: 1 } },
          { text: 'Trial accounts are limited to three projects at a time.', salience: 2.5, isProductStatement: true, source: { from: 2, to: 2 } },
        ] },
      ], 1, 9);
      const note = countTokens('Notes:\n') + countTokens('- Trial accounts are limited to three projects at a time.\n');
      const result = run({ mode: 'consolidate', summaries: [only], targetTokens: note + 2 });
      expect(result.summary).toContain('Trial accounts are limited to three projects');
      expect(result.summary).not.toContain('Back from lunch');
    });

    it('keeps the agent\'s description of the product before the list of edited files', () => {
      const older = summaryWith('s1', [
        { name: 'Files', items: [
          { text: 'src/billing/ledger.ts (4 edits)', path: 'src/billing/ledger.ts', edits: 4, source: { from: 1, to: 3 } },
          { text: 'src/billing/export.ts (2 edits)', path: 'src/billing/export.ts', edits: 2, source: { from: 2, to: 4 } },
        ] },
        { name: 'Notes', items: [{ text: 'Credit notes always reference the invoice they correct.', salience: 2.5, isProductStatement: true, source: { from: 5, to: 5 } }] },
      ], 1, 9);
      const note = countTokens('Notes:\n') + countTokens('- Credit notes always reference the invoice they correct.\n');
      const result = run({ mode: 'consolidate', summaries: [older], targetTokens: note + 2 });
      expect(result.summary).toContain('Credit notes always reference the invoice');
      expect(result.summary).not.toContain('src/billing/ledger.ts');
    });

    it('keeps a note in the user\'s own words before files only read and commands run', () => {
      const older = summaryWith('s1', [
        { name: 'Files', items: [{ text: 'src/reports/weekly.ts', path: 'src/reports/weekly.ts', edits: 0, source: { from: 1, to: 1 } }] },
        { name: 'Commands', items: [{ text: 'git log --oneline -5', command: 'git log --oneline -5', source: { from: 2, to: 2 } }] },
        { name: 'Notes', items: [{ text: 'Weekly reports go out on Monday mornings to the whole finance team.', salience: 0, isUserSpeech: true, source: { from: 3, to: 3 } }] },
      ], 1, 9);
      const newer = summaryWith('s2', [
        { name: 'Commands', items: [{ text: 'npm run lint', command: 'npm run lint', source: { from: 11, to: 11 } }] },
      ], 10, 19);
      const note = countTokens('Notes:\n') + countTokens('- Weekly reports go out on Monday mornings to the whole finance team.\n');
      const result = run({ mode: 'consolidate', summaries: [older, newer], targetTokens: note + 2 });
      expect(result.summary).toContain('Weekly reports go out on Monday mornings');
      expect(result.summary).not.toContain('git log');
      expect(result.summary).not.toContain('src/reports/weekly.ts');
    });

    it('keeps only the title of a task completed before the newest summary, making room for notes', () => {
      const older = summaryWith('s1', [
        { name: 'Completed', items: [
          { text: 'the invoice export (tests green): renamed `toRows`; added a guard for empty batches; logged the batch size', source: { from: 1, to: 3 } },
          { text: 'Committed "fix: keep the export header stable"', source: { from: 4, to: 4 } },
        ] },
      ], 1, 9);
      const newer = summaryWith('s2', [
        { name: 'Completed', items: [{ text: 'the ledger sync (tests green): moved `syncRows` behind the queue', source: { from: 12, to: 12 } }] },
      ], 10, 19);
      const result = run({ mode: 'consolidate', summaries: [older, newer], targetTokens: 300 });
      const done = result.sections?.find((section) => section.name === 'Completed')?.items.map((item) => item.text);
      expect(done).toEqual([
        'the invoice export (tests green)',
        'Committed "fix: keep the export header stable"',
        'the ledger sync (tests green): moved `syncRows` behind the queue',
      ]);
    });

    it('merges a custom summarizer\'s plain text line by line as notes', () => {
      const plain = summaryWith('s1', [{ name: 'Text', items: [{ text: '## Progress\n- Moved auth to `AuthService`.\n- Moved auth to `AuthService`.', source: { from: 1, to: 9 } }] }], 1, 9);
      const result = run({ mode: 'consolidate', summaries: [plain, newer], targetTokens: 300 });
      const notes = result.sections?.find((section) => section.name === 'Notes')?.items ?? [];
      expect(notes.filter((item) => item.text === 'Moved auth to `AuthService`.')).toHaveLength(1);
      expect(notes.find((item) => item.text === '## Progress')?.source).toEqual({ from: 1, to: 9 });
    });

    it('drops older completed lines that say nothing new: an untitled task and a commit that repeats a title', () => {
      const older = summaryWith('s1', [
        { name: 'Completed', items: [
          { text: 'moving the invoice export to a nightly job (tests green): added the scheduler entry; dropped the manual button', source: { from: 1, to: 6 } },
          { text: 'Committed "feat(export): moving the invoice export to a nightly job"', source: { from: 7, to: 7 } },
          { text: 'Finished task (tests green)', source: { from: 8, to: 9 } },
          { text: 'Committed "chore: bump the lint rules"', source: { from: 10, to: 10 } },
        ] },
      ], 1, 10);
      const newer = summaryWith('s2', [
        { name: 'Completed', items: [{ text: 'Finished task', source: { from: 11, to: 12 } }] },
      ], 11, 12);
      const result = run({ mode: 'consolidate', summaries: [older, newer], targetTokens: 400 });
      const completed = result.sections?.find((section) => section.name === 'Completed')?.items.map((item) => item.text) ?? [];
      expect(completed).toContain('moving the invoice export to a nightly job (tests green)');
      // A commit with a message of its own stays; the newest summary's lines are kept as they are.
      expect(completed).toContain('Committed "chore: bump the lint rules"');
      expect(completed).toContain('Finished task');
      expect(completed).not.toContain('Committed "feat(export): moving the invoice export to a nightly job"');
      expect(completed).not.toContain('Finished task (tests green)');
    });

    it('puts statements of either speaker before solved problems and older completed tasks when room runs short', () => {
      const older = summaryWith('s1', [
        { name: 'Completed', items: [{ text: 'the payout report (tests green)', source: { from: 1, to: 2 } }] },
        { name: 'Problems solved', items: [
          { text: "'rounds payouts to cents': Expected: 10.5 → `sumPayouts` added floats before rounding", source: { from: 3, to: 4 } },
          { text: "'lists payouts by week': Expected: 7 → fixed in src/payouts/report.ts, test/payouts.test.ts", source: { from: 5, to: 6 } },
        ] },
        { name: 'Notes', items: [
          { text: 'Refunds above 500 euros need a second approver.', salience: 1, isUserSpeech: true, source: { from: 7, to: 7 } },
          { text: 'The mobile client signs every request with a device key that rotates every 30 days.', salience: 2.5, isProductStatement: true, source: { from: 8, to: 8 } },
        ] },
      ], 1, 9);
      const newer = summaryWith('s2', [
        { name: 'Completed', items: [{ text: 'the refund queue (tests green)', source: { from: 10, to: 12 } }] },
      ], 10, 19);
      const line = (text: string): number => countTokens(`- ${text}\n`);
      const target = countTokens('Completed:\n') + line('the refund queue (tests green)') + countTokens('Notes:\n') +
        line('Refunds above 500 euros need a second approver.') +
        line('The mobile client signs every request with a device key that rotates every 30 days.') + 2;
      const result = run({ mode: 'consolidate', summaries: [older, newer], targetTokens: target });
      expect(result.summary).toContain('the refund queue');
      expect(result.summary).toContain('Refunds above 500 euros need a second approver.');
      expect(result.summary).toContain('device key that rotates every 30 days');
      expect(result.summary).not.toContain('Problems solved');
      expect(result.summary).not.toContain('the payout report');
    });

    it('ranks a failure fixed without a stated cause after one whose cause is stated, and an old question after edited files', () => {
      const older = summaryWith('s1', [
        { name: 'Problems solved', items: [
          { text: "'sorts invoices by due date': Expected: 3 → fixed in src/invoices/sort.ts", source: { from: 1, to: 2 } },
          { text: "'sends one reminder per invoice': Expected: 1 → the scheduler queued a job per retry", source: { from: 3, to: 4 } },
        ] },
        { name: 'Files', items: [{ text: 'src/invoices/remind.ts (3 edits)', path: 'src/invoices/remind.ts', edits: 3, source: { from: 5, to: 5 } }] },
        { name: 'Notes', items: [{ text: 'Should the reminder skip invoices paid by card?', salience: 0, isUserSpeech: true, source: { from: 6, to: 6 } }] },
      ], 1, 9);
      const newer = summaryWith('s2', [{ name: 'Commands', items: [{ text: 'npm test', command: 'npm test', source: { from: 10, to: 10 } }] }], 10, 19);
      const full = run({ mode: 'consolidate', summaries: [older, newer], targetTokens: 400 });
      const line = (text: string): number => countTokens(`- ${text}\n`);
      const target = countTokens('Problems solved:\n') + line("'sends one reminder per invoice': Expected: 1 → the scheduler queued a job per retry") +
        countTokens('Files:\n') + line('src/invoices/remind.ts (3 edits)') + 2;
      const tight = run({ mode: 'consolidate', summaries: [older, newer], targetTokens: target });
      expect(full.summary).toContain('sorts invoices by due date');
      expect(tight.summary).toContain('the scheduler queued a job per retry');
      expect(tight.summary).toContain('src/invoices/remind.ts');
      expect(tight.summary).not.toContain('sorts invoices by due date');
      expect(tight.summary).not.toContain('paid by card');
    });

    it('keeps the later of two completions of one task and of two fixes of one failing test', () => {
      const older = summaryWith('s1', [
        { name: 'Completed', items: [
          { text: 'the coupon importer (tests green)', source: { from: 1, to: 2 } },
          { text: 'rename the flag in `syncCoupons` (tests green)', source: { from: 1, to: 2 } },
          { text: 'cache the partner summary for the admin page (tests green)', source: { from: 1, to: 2 } },
        ] },
        { name: 'Problems solved', items: [{ text: "'applies stacked coupons once': Expected: 2 → `mergeCoupons` skipped the dedupe step", source: { from: 3, to: 4 } }] },
      ], 1, 9);
      const middle = summaryWith('s2', [
        { name: 'Completed', items: [
          { text: 'Coupon importer (tests green): read the partner feed in pages', source: { from: 10, to: 12 } },
          { text: 'rename the flag in `loadPartners` (tests green)', source: { from: 10, to: 12 } },
          { text: 'cache the coupon summary for the admin page (tests green)', source: { from: 10, to: 12 } },
        ] },
        { name: 'Problems solved', items: [{ text: "'applies stacked coupons once': Expected: 3 → the cache still held the previous coupon list", source: { from: 13, to: 14 } }] },
      ], 10, 19);
      const newer = summaryWith('s3', [{ name: 'Commands', items: [{ text: 'npm test', command: 'npm test', source: { from: 20, to: 20 } }] }], 20, 29);
      const result = run({ mode: 'consolidate', summaries: [older, middle, newer], targetTokens: 400 });
      const completed = result.sections?.find((section) => section.name === 'Completed')?.items.map((item) => item.text) ?? [];
      // Titles that differ in a name or a word are other tasks.
      expect(completed).toEqual([
        'rename the flag in `syncCoupons` (tests green)',
        'cache the partner summary for the admin page (tests green)',
        'Coupon importer (tests green)',
        'rename the flag in `loadPartners` (tests green)',
        'cache the coupon summary for the admin page (tests green)',
      ]);
      expect(result.summary).toContain('the cache still held the previous coupon list');
      expect(result.summary).not.toContain('skipped the dedupe step');
    });

    it('leaves out task titles that name nothing, done or open', () => {
      const older = summaryWith('s1', [
        { name: 'Completed', items: [
          { text: 'anything else (tests green)', source: { from: 1, to: 2 } },
          { text: 'the shipping label printer (tests green)', source: { from: 3, to: 4 } },
        ] },
      ], 1, 9);
      const newer = summaryWith('s2', [
        { name: 'Completed', items: [{ text: 'the other thing', source: { from: 10, to: 11 } }] },
        { name: 'Open', items: [{ text: 'something else', source: { from: 12, to: 12 } }, { text: 'retry failed label prints', source: { from: 13, to: 13 } }] },
      ], 10, 19);
      const result = run({ mode: 'consolidate', summaries: [older, newer], targetTokens: 400 });
      expect(result.summary).toContain('the shipping label printer');
      expect(result.summary).toContain('retry failed label prints');
      expect(result.summary).not.toMatch(/anything else|the other thing|something else/u);
    });

    it('cuts the title of an older completed task after a closed code span', () => {
      const older = summaryWith('s1', [
        { name: 'Completed', items: [{ text: 'rename the flag in `billingSync` (tests green): moved it to the config; updated both callers', source: { from: 1, to: 3 } }] },
      ], 1, 9);
      const newer = summaryWith('s2', [{ name: 'Commands', items: [{ text: 'npm test', command: 'npm test', source: { from: 10, to: 10 } }] }], 10, 19);
      const result = run({ mode: 'consolidate', summaries: [older, newer], targetTokens: 400 });
      const completed = result.sections?.find((section) => section.name === 'Completed')?.items.map((item) => item.text) ?? [];
      expect(completed).toEqual(['rename the flag in `billingSync` (tests green)']);
    });

    it('reads a summary committed before summaries were structured from its text', () => {
      const legacy: Summary = { id: 's1', source: { from: 1, to: 5 }, text: 'Files: src/a.ts (2 edits)\nNotes: The logger drops the request id.', tokens: 10, level: 1 };
      expect(sectionsOf(legacy)).toEqual([
        { name: 'Files', items: [{ text: 'src/a.ts (2 edits)', path: 'src/a.ts', edits: 2, source: { from: 1, to: 5 } }] },
        { name: 'Notes', items: [{ text: 'The logger drops the request id.', source: { from: 1, to: 5 } }] },
      ]);
      const result = run({ mode: 'consolidate', summaries: [legacy, newer], targetTokens: 300 });
      expect(result.summary).toContain('src/a.ts (5 edits)');
    });
  });

  describe('ContextManager', () => {
    function fill(manager: ContextManager, turns: number): void {
      for (let turn = 0; turn < turns; turn += 1) {
        manager.addMessage({ role: 'user', content: `Step ${turn}: please look at src/module${turn}.ts and fix the parser.` });
        manager.addMessage({ role: 'assistant', content: `${prose(60, turn)} Done, all tests pass.` });
      }
    }

    it('keeps a summarizer that returns only text working, as one Text section', async () => {
      const plain: Summarizer = { name: 'plain', summarize: () => ({ summary: 'The team worked on the parser.' }) };
      const manager = createSmallManager({ summarizer: plain });
      fill(manager, 12);
      await manager.settle();
      const summaries = manager.state().summaries;
      expect(summaries.length).toBeGreaterThan(0);
      const first = summaries[0];
      expect(first?.sections?.[0]?.name).toBe('Text');
      expect(first?.sections?.[0]?.items).toEqual([{ text: first?.text, source: first?.source }]);
      expect(manager.build().system).toContain('The team worked on the parser.');
    });

    it('stores extractive sections whose rendering is the summary text', async () => {
      const manager = createSmallManager();
      fill(manager, 12);
      await manager.settle();
      const summaries = manager.state().summaries;
      expect(summaries.length).toBeGreaterThan(0);
      for (const summary of summaries) expect(renderSections(summary.sections ?? [])).toBe(summary.text);
    });

    it('loads a snapshot written before summaries had sections, to the same window', async () => {
      const storage = createMemoryStorage();
      const manager = createSmallManager({ storage, sessionId: 'old' });
      fill(manager, 12);
      await manager.settle();
      await manager.save();
      const saved = await storage.loadSnapshot('old');
      expect(saved).not.toBeNull();
      // An old snapshot: the same shape without `sections` anywhere.
      const old = JSON.parse(JSON.stringify(saved, (key, value: unknown) => (key === 'sections' ? undefined : value))) as SessionSnapshot;
      expect(JSON.stringify(old)).not.toContain('"sections"');
      const oldStorage = createMemoryStorage();
      await oldStorage.saveSnapshot('old', old, { expectedVersion: undefined });
      const options = { budget: 3_000, budgets: { facts: 400, pins: 200, summaries: 250, scratchpad: 1_200, working: 600 }, maxEntryTokens: 200 };
      const loaded = await ContextManager.load({ storage: oldStorage, sessionId: 'old', ...options });
      expect(loaded.build().system).toBe(manager.build().system);
      expect(loaded.state().summaries.every((summary) => summary.sections === undefined)).toBe(true);
      // Graduation and consolidation keep working on the old summaries.
      fill(loaded, 12);
      await loaded.settle();
      expect(loaded.state().summaries.some((summary) => summary.sections !== undefined)).toBe(true);
    });
  });
});

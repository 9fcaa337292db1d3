import { describe, expect, it } from 'vitest';
import { ContextManager, createExtractiveSummarizer } from '../../src/index.js';
import { englishPatterns } from '../../src/boundaries/patterns/en.js';
import { analyzeSentence, factCategoryFor } from '../../src/graduation/retention.js';
import { judgeFact } from '../../src/language/fact-worth.js';
import type { Entry } from '../../src/types.js';

// Sentences written fresh for this test: requirements with a value, a name or a date in them,
// stated by either speaker in sentences, shorthand note lines and plan items, next to questions,
// narration of old behaviour and the speaker's own chores, which must not become facts.
type Role = 'user' | 'assistant';
const patterns = englishPatterns;
const isFactClass = (text: string, role: Role): boolean => factCategoryFor(analyzeSentence(text, { role, patterns }).retention) !== undefined;
const isFact = (text: string, role: Role): boolean => isFactClass(text, role) && judgeFact({ sentence: text, role }) === undefined;

const entry = (seq: number, role: Role, text: string): Entry => ({ seq, kind: role, role, text, display: text, tokens: Math.ceil(text.length / 4), exchange: seq });

async function factsOf(messages: readonly [Role, string][], targetTokens = 60): Promise<string[]> {
  const result = await createExtractiveSummarizer().summarize({
    mode: 'chunk',
    entries: messages.map(([role, text], index) => entry(index + 1, role, text)),
    summaries: [],
    targetTokens,
    countTokens: (text) => Math.ceil(text.length / 4),
    signal: AbortSignal.timeout(5_000),
  });
  return (result.facts ?? []).map((fact) => fact.value);
}

describe('a requirement about failures is no report of a failure', () => {
  it.each([
    ['Failed payouts have to be retried for 48 hours before anyone is paged.', 'user'],
    ['crashed workers need to be restarted within 30 seconds', 'user'],
    ['Per the vendor contract, failing callbacks have to be replayed for up to 3 days.', 'assistant'],
    ['Timed-out or failed uploads must resume from the last 8 MB part.', 'assistant'],
  ] as const)('keeps "%s" (%s)', (text, role) => {
    expect(isFact(text, role)).toBe(true);
  });

  it.each([
    ['I have to restart the dev server every time the build fails.', 'user'],
    ['we still need to figure out why the sync keeps failing', 'user'],
    ['The deploy failed again this morning.', 'user'],
  ] as const)('does not keep the speaker\'s chore or a bare failure "%s"', (text, role) => {
    expect(isFact(text, role)).toBe(false);
  });
});

describe('yes/no questions on a modal ask, they do not require', () => {
  it.each([
    ['must it support CSV?', 'user'],
    ['Must the importer accept 100k rows?', 'user'],
    ['Should we cap uploads at 20 MB?', 'assistant'],
    ['Will it need to handle 10k rows?', 'user'],
    ['Need the report include archived invoices?', 'user'],
  ] as const)('"%s" is a question', (text, role) => {
    expect(judgeFact({ sentence: text, role })).toBe('question');
  });

  it.each([
    ['Can you make the export stream 50k rows?', 'user'],
    ['The export has to support 50k rows, right?', 'user'],
  ] as const)('"%s" is no information question', (text, role) => {
    expect(judgeFact({ sentence: text, role })).not.toBe('question');
  });
});

describe('a label filled with a dated or measured need is a note line, not a heading', () => {
  it.each([
    ['Deadline: 12 March', 'user'],
    ['deadline -> 4 June', 'assistant'],
    ['Max payload: 256 KB', 'assistant'],
    ['Upload limit: 40 MB per file', 'user'],
  ] as const)('"%s" is a fact (%s)', (text, role) => {
    expect(isFact(text, role)).toBe(true);
  });

  it.each([
    ['Tests: 45 passed', 'assistant'],
    ['Step 2: Wiring', 'assistant'],
    ['Build: 14 s', 'assistant'],
  ] as const)('"%s" is not', (text, role) => {
    expect(isFact(text, role)).toBe(false);
  });
});

describe('dated and measured needs in prose', () => {
  it.each([
    ['the billing migration has to be finished by 30 September', 'user'],
    ['We need the importer live before the end of the quarter.', 'user'],
    ['The partner API must be switched over no later than 2 May.', 'assistant'],
  ] as const)('"%s" is a fact (%s)', (text, role) => {
    expect(isFact(text, role)).toBe(true);
  });

  it.each([
    ['the old code had to handle 10 rows', 'assistant'],
    ['The previous importer needed to cope with 300 rows a day.', 'user'],
    ['I need to run the tests', 'user'],
    ['I have to check the export code first.', 'assistant'],
  ] as const)('"%s" is not (%s)', (text, role) => {
    expect(isFact(text, role)).toBe(false);
  });
});

describe('a measured need inside a plan is what the plan must meet', () => {
  it('keeps the item with a value as a fact and leaves the steps out', async () => {
    const facts = await factsOf([
      ['user', 'ok, go ahead with the exporter'],
      ['assistant', "Here's my plan:\n1. Read the ledger rows in pages\n2. The ledger export needs to handle 120k rows, so stream it with a cursor\n3. We should add a progress bar\n4. Write the CSV header first"],
    ]);
    expect(facts.some((fact) => fact.includes('120k rows'))).toBe(true);
    expect(facts.some((fact) => /progress bar|CSV header|in pages/u.test(fact))).toBe(false);
  });

  it('keeps the need from the user\'s notes in shorthand lines', async () => {
    const facts = await factsOf([
      ['user', 'notes from the call with the client:\n- card data → must be handled by the PCI vault\n- go-live: 9 October\n- the audit export has to support 2 million rows\n\nstart with the vault client please'],
    ]);
    expect(facts.some((fact) => fact.includes('PCI vault'))).toBe(true);
    expect(facts.some((fact) => fact.includes('9 October'))).toBe(true);
    expect(facts.some((fact) => fact.includes('2 million rows'))).toBe(true);
  });
});

describe('a requirement survives wherever the chunks are cut', () => {
  // A requirement told in passing inside a work report, among many reports that only narrate.
  const requirement = 'Keeping track of the requirements:\n- failed invoice webhooks have to be retried for 36 hours';
  async function replay(options: { working: number; graduationTarget: number }): Promise<string> {
    const manager = new ContextManager({ budget: 8_000, budgets: { working: options.working }, graduationTarget: options.graduationTarget, systemPrompt: 'You are a coding agent.' });
    for (let turn = 0; turn < 90; turn += 1) {
      manager.addMessage({ role: 'user', content: `next please, look at module ${turn} and tidy it up` });
      const report = `Updated \`src/module${turn}/index.ts\`: I renamed a local and added a guard clause at the top of \`handle${turn}\`. The tests in that folder still pass.`;
      manager.addMessage({ role: 'assistant', content: turn === 5 ? `${report}\n\n${requirement}` : report });
      // As an agent loop does: the window is built before every model call.
      await manager.settle();
      manager.build();
    }
    await manager.settle();
    return manager.build().messages[0]?.content ?? '';
  }

  it.each([
    { working: 1_200, graduationTarget: 0.6 },
    { working: 1_500, graduationTarget: 0.8 },
    { working: 1_800, graduationTarget: 0.7 },
    { working: 2_100, graduationTarget: 0.9 },
  ])('keeps it in the facts with T0 at $working tokens, graduation target $graduationTarget', async (options) => {
    const system = await replay(options);
    const facts = system.slice(system.indexOf('## Session facts'));
    expect(system).toContain('## Session facts');
    expect(facts).toContain('36 hours');
  });
});

describe('the summary never leaves out a measured need that no fact holds', () => {
  async function summaryOf(messages: readonly [Role, string][], targetTokens: number): Promise<{ summary: string; facts: string[] }> {
    const result = await createExtractiveSummarizer().summarize({
      mode: 'chunk',
      entries: messages.map(([role, text], index) => entry(index + 1, role, text)),
      summaries: [],
      targetTokens,
      countTokens: (text) => Math.ceil(text.length / 4),
      signal: AbortSignal.timeout(5_000),
    });
    return { summary: result.summary, facts: (result.facts ?? []).map((fact) => fact.value) };
  }
  const report = 'Updated `src/ledger/export.ts`: renamed `rowsOut` to `emitted` and added a guard in `flushBatch`. I also touched `src/ledger/format.ts` to pad the totals. Then I cleaned up `src/ledger/types.ts` and removed the unused `LegacyRow` alias.';

  it('keeps a hedged need in the notes of a tight summary, and not the question next to it', async () => {
    const { summary, facts } = await summaryOf([
      ['assistant', report],
      ['user', 'probably the ledger export has to cope with 40k rows per file, I think. does it have to support 90k rows too?'],
    ], 15);
    expect(facts.some((fact) => fact.includes('40k rows'))).toBe(false);
    expect(summary).toContain('40k rows');
    expect(summary).not.toContain('90k rows');
  });

  it('leaves out the narration and the speaker\'s chores before it', async () => {
    const { summary } = await summaryOf([
      ['assistant', report],
      ['assistant', 'Maybe the ledger sync needs to finish within 90 seconds, going by the cron spacing.'],
      ['user', 'I have to rerun the 3 flaky suites anyway. The old exporter had to handle 500 rows.'],
    ], 15);
    expect(summary).toContain('90 seconds');
    expect(summary).not.toContain('flaky suites');
    expect(summary).not.toContain('500 rows');
  });

  it('keeps it when summaries are merged into a tight one', async () => {
    const summarizer = createExtractiveSummarizer();
    const chunk = async (messages: readonly [Role, string][], from: number): Promise<{ id: string; text: string; sections: NonNullable<Awaited<ReturnType<typeof summarizer.summarize>>['sections']>; source: { from: number; to: number }; level: number; tokens: number }> => {
      const result = await summarizer.summarize({
        mode: 'chunk',
        entries: messages.map(([role, text], index) => entry(from + index, role, text)),
        summaries: [],
        targetTokens: 200,
        countTokens: (text) => Math.ceil(text.length / 4),
        signal: AbortSignal.timeout(5_000),
      });
      return { id: `s${from}`, text: result.summary, sections: result.sections ?? [], source: { from, to: from + messages.length - 1 }, level: 1, tokens: Math.ceil(result.summary.length / 4) };
    };
    const first = await chunk([['assistant', report], ['user', 'perhaps the nightly import needs to stay under 12 minutes, not sure yet']], 1);
    const second = await chunk([['assistant', report.replaceAll('ledger', 'billing')], ['user', 'next look at `src/billing/pdf.ts`, the margins are off']], 10);
    expect(first.text).toContain('12 minutes');
    const merged = await summarizer.summarize({
      mode: 'consolidate',
      entries: [],
      summaries: [first, second],
      targetTokens: 20,
      countTokens: (text) => Math.ceil(text.length / 4),
      signal: AbortSignal.timeout(5_000),
    });
    expect(merged.summary).toContain('12 minutes');
  });
});

describe('what a former version had to do', () => {
  it.each([
    ['The previous importer needed to cope with 300 rows a day.', 'user'],
    ['our legacy sync job had to finish within 2 hours', 'assistant'],
  ] as const)('"%s" is told in the past', (text, role) => {
    expect(judgeFact({ sentence: text, role })).toBe('past-state');
  });

  it.each([
    ['The old importer had to handle 300 rows; the new one must handle 50k.', 'user'],
    ['The legacy endpoints still have to accept XML payloads up to 2 MB.', 'user'],
    ['The old importer had to be rewritten because it loaded the whole file into memory.', 'assistant'],
  ] as const)('"%s" is not only the past', (text, role) => {
    expect(judgeFact({ sentence: text, role })).not.toBe('past-state');
  });
});

describe('a line labelled as a rule states one', () => {
  it.each([
    ['**Main constraint**: originals are copied byte for byte, imports never overwrite without a backup', 'assistant'],
    ['hard limit: 3 concurrent exports per workspace', 'user'],
    ['Non-negotiable: card numbers never reach our logs', 'user'],
  ] as const)('"%s" is a fact (%s)', (text, role) => {
    expect(isFact(text, role)).toBe(true);
  });

  it.each([
    ['Limits: see the table below', 'assistant'],
    ['Rules: none for now.', 'assistant'],
    ['the rule engine: it evaluates each row once', 'assistant'],
  ] as const)('"%s" is not a constraint', (text, role) => {
    expect(analyzeSentence(text, { role, patterns }).retention).not.toBe('constraint');
  });
});

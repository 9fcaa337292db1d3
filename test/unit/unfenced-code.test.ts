import { describe, expect, it } from 'vitest';
import { splitSentences } from '../../src/graduation/retention.js';
import { editBlockMarker, isCodeLine } from '../../src/language/prose.js';
import { summarizeChunk } from '../helpers.js';

// Agents that call tools in markup write diffs and file bodies into their message without code
// fences. Those lines are code: they must not become sentences, notes or facts. Every line here is
// written for this test; the prose look-alikes must stay sentences.

describe('isCodeLine', () => {
  it.each([
    'const total = items.reduce((sum, item) => sum + item.price, 0);',
    '}, [selectedRow, pageSize]);',
    'import { parseInvoice } from "./invoice-parser";',
    'return cached;',
    'if (!response.ok) {',
    '// retry once before giving up',
    '<write_to_file>',
    '</diff>',
    '<path>server/routes/billing.ts</path>',
    'def load_rows(conn, limit=50, offset=0):',
    'rows = [r for r in cursor.fetchall() if r[2] is not None]',
  ])('reads %j as code', (line) => {
    expect(isCodeLine(line)).toBe(true);
  });

  it.each([
    'The billing export now runs nightly at 02:00 (UTC) instead of hourly.',
    'Keep `retries = 3;` in the worker config, the queue depends on it.',
    'the invoice endpoint must reject totals above 10,000 EUR;',
    'We picked Fastify over Express (lower overhead, better typing).',
    'Fixed the off-by-one in the pager (page 0 was skipped).',
    '<details> has the full log if you need it.',
    'Done - all 42 tests pass.',
    '[ ] Wire the retry helper into fetchOrders() and cover it [with] a test.',
    'Log the payload with console.log({ id, status }) before the call.',
  ])('reads %j as prose', (line) => {
    expect(isCodeLine(line)).toBe(false);
  });
});

describe('editBlockMarker', () => {
  it('tells the three markers of a search/replace block and nothing else', () => {
    expect(editBlockMarker('<<<<<<< SEARCH')).toBe('open');
    expect(editBlockMarker('=======')).toBe('middle');
    expect(editBlockMarker('>>>>>>> REPLACE')).toBe('close');
    expect(editBlockMarker('<<< not a marker')).toBeUndefined();
    expect(editBlockMarker('> quoted reply')).toBeUndefined();
  });
});

const MARKUP_EDIT = [
  'Next I will make the cache key include the tenant id:',
  '',
  '<replace_in_file>',
  '<path>src/cache/keys.ts</path>',
  '<diff>',
  '<<<<<<< SEARCH',
  '  // Build the key from the path only',
  '  Return the key as it was before.',
  '  const key = `${route}`;',
  '=======',
  '  // Build the key from the tenant and the path',
  '  const key = `${tenantId}:${route}`;',
  '>>>>>>> REPLACE',
  '</diff>',
  '</replace_in_file>',
].join('\n');

describe('splitSentences with code outside fences', () => {
  it('keeps the words to the reader and leaves out markup, edit blocks and code lines', () => {
    expect(splitSentences(MARKUP_EDIT)).toEqual(['Next I will make the cache key include the tenant id:']);
  });

  it('leaves out an edit block that is cut off before its closing marker', () => {
    const cut = 'Renaming the helper now.\n<<<<<<< SEARCH\nexport function oldName() {\nIt was called from two places.';
    expect(splitSentences(cut)).toEqual(['Renaming the helper now.']);
  });

  it('keeps prose that follows a closed edit block', () => {
    const text = `${MARKUP_EDIT}\nThe tenant id is required on every cached route from now on.`;
    expect(splitSentences(text)).toContain('The tenant id is required on every cached route from now on.');
  });

  it('gives the summary no note made of code from an unfenced edit', () => {
    const result = summarizeChunk([
      { kind: 'user', text: 'Cached pages leak between tenants, please fix the key.' },
      { kind: 'assistant', text: MARKUP_EDIT },
    ]);
    const facts = (result.facts ?? []).map((fact) => fact.value).join('\n');
    expect(`${result.summary}\n${facts}`).not.toMatch(/const key|<<<<<<<|<path>|Return the key as it was/u);
  });
});

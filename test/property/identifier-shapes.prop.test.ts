import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractIdentifiers } from '../../src/language/identifiers.js';
import { PROPERTY_RUNS } from '../helpers.js';

// Prose mixed with names in every shape the extractor knows, and with text around them that could
// make a match run over its edges (punctuation, parentheses, hyphens, at-signs, hashes).
const piece = fc.oneof(
  fc.constantFrom(
    'the alerts go to', '#ops-pager', '#', 'ledger-core', 'hard-coded', 'end-to-end', '(pgbouncer)', '(optional)', 'zod@3.22.4',
    '@acme/ui-kit', 'NODE_ENV', '--max-old-space-size=2048', 'cache.ttl.seconds', 'InvoiceDraft', '/api/v2/items', 'node 20.11.1',
    '(', ')', '-', '@', '.', ',', ' ', '\n', '`npm-check-updates`', 'x-y', 'a-b-c', 'é-ü',
  ),
  fc.string({ maxLength: 12 }),
);
const text = fc.array(piece, { maxLength: 24 }).map((pieces) => pieces.join(fc.sample(fc.constantFrom(' ', ''), 1)[0] ?? ' '));

describe('extractIdentifiers()', () => {
  it('returns only text that occurs in the input, each once', () => {
    fc.assert(
      fc.property(text, (value) => {
        const found = extractIdentifiers(value);
        for (const identifier of found) expect(value).toContain(identifier);
        expect(new Set(found).size).toBe(found.length);
      }),
      { numRuns: PROPERTY_RUNS * 2 },
    );
  });
});

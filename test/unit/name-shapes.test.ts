import { describe, expect, it } from 'vitest';
import { englishPatterns } from '../../src/boundaries/patterns/en.js';
import { analyzeSentence, factCategoryFor } from '../../src/graduation/retention.js';
import { turnShapeOf } from '../../src/language/behaviour-statement.js';
import { extractIdentifiers } from '../../src/language/identifiers.js';

// Sentences written fresh for this test, by both speakers: names in shapes that are neither
// capitalised mid-sentence nor code symbols (chat channels, hyphenated service names, a name in
// parentheses, a name leading the sentence), and look-alikes that use the same shapes in passing.
type Role = 'user' | 'assistant';
const specificsOf = (text: string, role: Role): number =>
  analyzeSentence(text, { role, patterns: englishPatterns, turn: turnShapeOf(text) }).specifics;
const isKept = (text: string, role: Role): boolean =>
  factCategoryFor(analyzeSentence(text, { role, patterns: englishPatterns, turn: turnShapeOf(text) }).retention) !== undefined;

describe('names in unusual shapes are identifiers', () => {
  it.each<[string, string]>([
    ['alerts for the storefront go to #storefront-alerts', '#storefront-alerts'],
    ['keep your hands off quota-broker for now', 'quota-broker'],
    ['we talk to postgres through the pooler (pgcat) only', 'pgcat'],
    ['the upload broke until I pinned multer@1.4.5 again', 'multer@1.4.5'],
    ['the scoped build pins @acme/icons@2.3.0 as well', '@acme/icons@2.3.0'],
  ])('%s → %s', (text, name) => {
    expect(extractIdentifiers(text)).toContain(name);
  });

  it.each([
    'the hard-coded host in the fixture is fine',
    'an end-to-end run of the built-in parser',
    'a one-off follow-up on the client-side code',
    'the third-party widget is read-only',
    'pass the value (optional) and the label (default)',
    '# Release notes',
  ])('compound words, qualifiers and headings are not: %s', (text) => {
    expect(extractIdentifiers(text)).toEqual([]);
  });
});

describe('a name in such a shape gives a statement its substance', () => {
  it.each<[string, Role]>([
    ['the nightly report goes to #data-digest', 'user'],
    ['the search traffic goes through the edge cache (varnish)', 'user'],
    ['Thumbnails are produced by image-shrinker now.', 'assistant'],
    ['Sentry is where the crash reports live', 'user'],
  ])('%s (%s)', (text, role) => {
    expect(specificsOf(text, role)).toBeGreaterThanOrEqual(1);
  });

  it.each<[string, Role]>([
    ['Incident pings are posted to #storefront-alerts now, as support asked.', 'assistant'],
    ['Grafana is what we use for the dashboards now.', 'assistant'],
    ['Outbound mail is relayed by postal-relay, never from the app servers.', 'assistant'],
  ])('is kept as a fact: %s', (text, role) => {
    expect(isKept(text, role)).toBe(true);
  });

  it.each<[string, Role]>([
    ['I ran npm-check-updates this morning, nothing exciting', 'user'],
    ['saw a message in #general about lunch', 'user'],
    ['Looked at the auth-proxy sidecar logs, quiet.', 'assistant'],
    ["I'll move the export button to the existing bulk-actions toolbar.", 'assistant'],
    ['├─ tsx --watch     (runs the local API server)', 'assistant'],
  ])('a look-alike stays routine: %s', (text, role) => {
    expect(isKept(text, role)).toBe(false);
  });

  it('a hyphenated word before a noun adds nothing', () => {
    expect(specificsOf('the export sits in the bulk-actions toolbar', 'assistant')).toBe(0);
  });
});

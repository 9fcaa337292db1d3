import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { builtInDetectors, createTriggerScan, secretNameStrength } from '../../src/redaction/detectors.js';
import type { Detector } from '../../src/redaction/detectors.js';
import { createRedactionScope, resolveRedaction } from '../../src/redaction/redactor.js';
import { createSecretLedger } from '../../src/redaction/secret-ledger.js';
import { PROPERTY_RUNS } from '../helpers.js';

// Random secrets of every built-in shape (prefixes written in two parts, so that no scanner takes
// this file for a leak), the trigger words in random case, near-misses, long random runs and the
// characters that end lines, runs and assignments.
const base62 = (length: number): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'), minLength: length, maxLength: length });
const secretShape = fc.oneof(
  base62(16).map((tail) => `AK${'IA'}${tail.toUpperCase()}`),
  base62(36).map((tail) => `gh${'p_'}${tail}`),
  base62(40).map((tail) => `github${'_pat_'}${tail}`),
  base62(24).map((tail) => `glp${'at-'}${tail}`),
  base62(24).map((tail) => `xo${'xb-'}1234-${tail}`),
  base62(30).map((tail) => `https://hooks.slack.com/services/T0/B0/${tail}`),
  base62(40).map((tail) => `sk-${'ant-'}api03-${tail}`),
  base62(30).map((tail) => `sk-${'proj-'}A1b${tail}`),
  base62(24).map((tail) => `sk_${'live_'}${tail}`),
  base62(35).map((tail) => `AI${'za'}${tail}`),
  base62(36).map((tail) => `np${'m_'}${tail}`),
  base62(12).map((tail) => `ey${'J'}hbGciOi${tail}.ey${'J'}zdWIiOi${tail}.${tail}`),
  base62(40).map((tail) => `AWS_SECRET_ACCESS_KEY=${tail}`),
  base62(20).map((tail) => `postgres://app:${tail}@db.internal:5432/app`),
  base62(20).map((tail) => `Authorization: Bearer ${tail}`),
  base62(20).map((tail) => `x-api-key: ${tail}`),
  base62(12).map((tail) => `DB_PASSWORD=${tail}9`),
  base62(12).map((tail) => `"client_secret": "${tail}"`),
  base62(12).map((tail) => `--token ${tail}7`),
  base62(12).map((tail) => `  signing_key: ${tail}x1`),
  base62(48).map((tail) => `-----BEGIN RSA PRIVATE KEY-----\n${tail}\n${tail}\n-----END RSA PRIVATE KEY-----`),
  base62(30),
);
const triggerWord = fc
  .constantFrom(...new Set(builtInDetectors({ entropy: 3.5 }).flatMap((detector) => detector.triggers ?? [])))
  .chain((word) => fc.mixedCase(fc.constant(word)));
const filler = fc.constantFrom(
  ' ', '  ', '\n', '\r\n', '\t', '.', '=', ': ', '"', "'", '/', '-', '_', '+', ':', 'x', 'é', '→', '[secret:aws-key#1]',
  'the retry helper gives up after three attempts', 'keyboard', 'passage', 'tokens', 'monkey', 'Bearing', 'skip-it', 'http://docs.invalid/a',
);
const text = fc.array(fc.oneof(secretShape, triggerWord, filler), { maxLength: 24 }).map((pieces) => pieces.join(''));

// The detectors as they run with no prefilter of the redactor: no triggers, no minimum run.
function unfiltered(detectors: readonly Detector[]): Detector[] {
  return detectors.map((detector): Detector => ({ kind: detector.kind, find: (input) => detector.find(input) }));
}

describe('the trigger prefilter of redaction', () => {
  it('finds exactly what running every detector on every text finds', () => {
    fc.assert(
      fc.property(text, (value) => {
        const filtered = resolveRedaction({});
        const plain = { ...filtered, detectors: unfiltered(filtered.detectors) };
        const fastScope = createRedactionScope({ config: filtered, ledger: createSecretLedger() });
        const fullScope = createRedactionScope({ config: plain, ledger: createSecretLedger() });
        expect(fastScope.text(value, 'content')).toBe(fullScope.text(value, 'content'));
        expect(fastScope.records).toEqual(fullScope.records);
        expect(fastScope.redactions).toEqual(fullScope.redactions);
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });

  it('skips a detector only on texts where it finds nothing', () => {
    const detectors = builtInDetectors({ entropy: 3.5 });
    const scan = createTriggerScan(detectors);
    fc.assert(
      fc.property(text, (value) => {
        const found = scan.scan(value);
        detectors.forEach((detector, index) => {
          const bit = scan.bits[index] as number;
          if (bit >= 0 && (found & (1 << bit)) === 0) expect([...detector.find(value)]).toEqual([]);
        });
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });

  it('marks a detector when one of its words occurs in any case, and no other', () => {
    const detectors = builtInDetectors({ entropy: 3.5 });
    const scan = createTriggerScan(detectors);
    const kindsOf = (value: string): string[] => detectors.filter((_, index) => (scan.scan(value) & (1 << (scan.bits[index] as number))) !== 0 && (scan.bits[index] as number) >= 0).map((detector) => detector.kind);
    expect(kindsOf('nothing to see in this line')).toEqual([]);
    expect(kindsOf('Use the SK-ANT- prefix')).toEqual(['anthropic-key', 'openai-key']);
    expect(kindsOf('see https://example.invalid')).toEqual(['url-password']);
    expect(kindsOf('the Bearer scheme')).toEqual(['auth-header']);
    // A word that holds another marks the detectors of both.
    expect(kindsOf('a private key')).toEqual(['private-key', 'credential', 'credential', 'credential', 'credential']);
    expect(kindsOf('API-KEY')).toEqual(['auth-header', 'credential', 'credential', 'credential', 'credential']);
  });

  it('marks the same detectors as one case-blind search for all the words', () => {
    const detectors = builtInDetectors({ entropy: 3.5 });
    const scan = createTriggerScan(detectors);
    // Characters whose case `i` folds to no ASCII letter, or from one: they must match no word.
    const folded = fc.constantFrom('\u212a', '\u017f', '\u0130', '\u0131', 'ß', 'K', 's', 'I', 'i');
    const mixed = fc.array(fc.oneof(text, folded, triggerWord), { maxLength: 6 }).map((pieces) => pieces.join(''));
    fc.assert(
      fc.property(mixed, (value) => {
        expect(scan.scan(value)).toBe(referenceScan(detectors, value));
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });

  it('finds words of other scripts in any case too', () => {
    const detectors: Detector[] = [
      { kind: 'french', find: () => [], triggers: ['clé'] },
      { kind: 'plain', find: () => [], triggers: ['key'] },
    ];
    const scan = createTriggerScan(detectors);
    expect(scan.scan('la CLÉ du coffre')).toBe(1 << (scan.bits[0] as number));
    expect(scan.scan('la cle du coffre')).toBe(0);
    expect(scan.scan('a KEY')).toBe(1 << (scan.bits[1] as number));
  });

  it('runs every detector without triggers, and the ones beyond the bits of a mask', () => {
    const many: Detector[] = Array.from({ length: 40 }, (_, index) => ({ kind: `k${index}`, find: () => [], triggers: ['zz'] }));
    const scan = createTriggerScan([{ kind: 'plain', find: () => [] }, ...many]);
    expect(scan.bits[0]).toBe(-1);
    expect(scan.bits.filter((bit) => bit >= 0)).toHaveLength(31);
    expect(scan.bits.at(-1)).toBe(-1);
  });

  it('rates variable names as the rules without the word search do', () => {
    const name = fc.oneof(
      fc.string({ maxLength: 24 }),
      fc.array(fc.constantFrom('DB', 'db', '_', '-', '.', 'PASS', 'pwd', 'Secret', 'TOKEN', 'key', 'KEY', 'api', 'credentials', 'next', 'page', 'max', 'x', 'phrase', 'word'), { maxLength: 6 }).map((parts) => parts.join('')),
    );
    fc.assert(
      fc.property(name, (value) => {
        expect(secretNameStrength(value)).toBe(referenceNameStrength(value));
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });
});

// --- Internal helpers ---

// The trigger scan as one RegExp of every word, longest first, with the `i` flag: the mask of the
// detectors whose words (or words that are prefixes of them) occur, all of them after 16 matches.
function referenceScan(detectors: readonly Detector[], value: string): number {
  const wordBits = new Map<string, number>();
  let nextBit = 0;
  for (const detector of detectors) {
    const triggers = detector.triggers ?? [];
    if (triggers.length === 0 || nextBit >= 31) continue;
    const bit = nextBit++;
    for (const trigger of triggers) wordBits.set(trigger.toLowerCase(), (wordBits.get(trigger.toLowerCase()) ?? 0) | (1 << bit));
  }
  const words = [...wordBits.keys()].sort((left, right) => right.length - left.length || (left < right ? -1 : 1));
  let all = 0;
  for (const mask of wordBits.values()) all |= mask;
  const pattern = new RegExp(words.map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'gi');
  let found = 0;
  let matches = 0;
  for (let match = pattern.exec(value); match !== null; match = pattern.exec(value)) {
    const word = match[0].toLowerCase();
    for (const [other, mask] of wordBits) if (word.startsWith(other)) found |= mask;
    matches += 1;
    if (found === all || matches >= 16) return all;
    pattern.lastIndex = match.index + 1;
  }
  return found;
}

// secretNameStrength as written before it searched for a secret-name word first.
function referenceNameStrength(name: string): 'strong' | 'weak' | false {
  const bare = name.replace(/^[-_.]+/, '');
  if (/(?:^|[_.-]|[a-z])(?:page|next|prev|previous|continuation|sync|cancellation|cancel|max|min|num|total|input|output|completion|prompt)[_-]?tokens?$|tokens$/i.test(bare)) return false;
  const isSecretName = /(?:password|passwd|passphrase|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|secret[_-]?key|auth[_-]?key|signing[_-]?key|encryption[_-]?key|master[_-]?key|credentials?)$/i.test(bare);
  if (isSecretName || /^[A-Z][A-Z0-9_]*_(?:PASS|PWD)$/.test(bare)) return 'strong';
  return /^[A-Z][A-Z0-9_]*_KEY$/.test(bare) ? 'weak' : false;
}

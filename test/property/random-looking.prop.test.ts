import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isRandomLooking, shannonEntropy } from '../../src/redaction/entropy.js';
import { PROPERTY_RUNS } from '../helpers.js';

// Tokens as the entropy detector sees them (runs of `[A-Za-z0-9+/_-]` with `=` padding) and
// others: identifiers, paths, hex ids with a `0x` prefix, ids with known prefixes, random runs,
// spaces and non-ASCII characters.
const part = fc.oneof(
  fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'), minLength: 1, maxLength: 30 }),
  fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), minLength: 1, maxLength: 40 }),
  fc.constantFrom(
    '/', '+', '_', '.', '-', '=', '==', ' ', '0x', '0X', 'x', 'msg_', 'call_', 'sha256', 'HTTPServer', 'getUserById', 'v2', 'é', 'Ω', '\u212a',
    'schemas', 'validators', 'PoIValidator', 'README', 'aB3dE5gH7jK9', 'Zq8Wv2Lr6Ty4',
  ),
);
const token = fc.array(part, { maxLength: 10 }).map((parts) => parts.join(''));

describe('isRandomLooking()', () => {
  it('judges every token as the RegExp-based rules do', () => {
    fc.assert(
      fc.property(token, fc.constantFrom(1, 2.5, 3, 3.5, 4, 5), (value, threshold) => {
        expect(isRandomLooking(value, threshold)).toBe(referenceIsRandomLooking(value, threshold));
      }),
      { numRuns: PROPERTY_RUNS * 4 },
    );
  });

  it('tells random keys from identifiers, paths and hashes', () => {
    expect(isRandomLooking('aB3dE5gH7jK9mN1pQ3sTuV5w', 3.5)).toBe(true);
    expect(isRandomLooking('validators/PoIValidator', 3.5)).toBe(false);
    expect(isRandomLooking('0x52908400098527886E0F7030069857D2E4169EE7', 3.5)).toBe(false);
    expect(isRandomLooking('getUserByIdAndRefreshTheSessionToken', 3.5)).toBe(false);
  });
});

// --- Internal helpers ---

// isRandomLooking as written with RegExps, splits and replaces.
function referenceIsRandomLooking(value: string, threshold: number): boolean {
  const core = value.replace(/=+$/, '');
  if (core.length < 20 || /^(?:msg|req|toolu|srvtoolu|call|chatcmpl|run|thread|asst|step|resp|batch|file|evt|cus|sub|prod|price|pi|ch|txn|acct)[_-]/.test(core)) return false;
  if (/^(?:0x)?[0-9a-f]+$/i.test(core.replace(/[-_]/g, ''))) return false;
  if (!/[0-9]/.test(core) && !(/[a-z]/.test(core) && /[A-Z]/.test(core))) return false;
  if (shannonEntropy(core) < threshold) return false;
  let randomCharacters = 0;
  for (const segment of core.split(/[/+_.-]+/)) {
    if (segment.length >= 6 && !/^[0-9a-f]+$/i.test(segment) && referenceAverageFragmentLength(segment) < 3) randomCharacters += segment.length;
  }
  return randomCharacters >= 16 && randomCharacters >= core.length * 0.5;
}

function referenceAverageFragmentLength(segment: string): number {
  const fragments = segment
    .replace(/([a-z])(?=[A-Z])/g, '$1 ')
    .replace(/([A-Z])(?=[A-Z][a-z])/g, '$1 ')
    .replace(/([0-9])(?=[A-Za-z])|([A-Za-z])(?=[0-9])/g, '$1$2 ')
    .split(' ')
    .filter((fragment) => fragment.length > 0);
  if (fragments.length === 0) return segment.length;
  return fragments.reduce((sum, fragment) => sum + fragment.length, 0) / fragments.length;
}

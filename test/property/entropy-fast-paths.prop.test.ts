import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { builtInDetectors, longTokenRuns, patternDetector } from '../../src/redaction/detectors.js';
import type { Detector } from '../../src/redaction/detectors.js';
import { shannonEntropy } from '../../src/redaction/entropy.js';
import { createRedactionScope, resolveRedaction } from '../../src/redaction/redactor.js';
import { createSecretLedger } from '../../src/redaction/secret-ledger.js';
import { PROPERTY_RUNS } from '../helpers.js';

// Key prefixes, random-looking runs of every length around the detectors' minimums, and the
// characters that end, pad or split runs: texts with secrets, near-secrets and none.
const base62 = fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'), minLength: 1, maxLength: 60 });
const piece = fc.oneof(
  base62,
  fc.constantFrom(
    'AKIA', 'ASIA', 'APKA', 'ghp_', 'gho_', 'ghr_', 'github_pat_', 'glpat-', 'xoxb-', 'xapp-', 'hooks.slack.com/services/', 'sk-ant-', 'sk-', 'sk-proj-',
    'sk_live_', 'rk_test_', 'whsec_', 'AIza', 'npm_', 'eyJ', 'sha256-', 'base64,', 'password=', 'token: ', 'Bearer ',
    ' ', '  ', '\n', '.', '=', '==', '"', "'", '/', '+', '-', '_', ':', 'é', '→', 'x',
  ),
);
const text = fc.array(piece, { maxLength: 40 }).map((pieces) => pieces.join(''));

describe('longTokenRuns()', () => {
  it('finds exactly the maximal runs that /[A-Za-z0-9+/_-]{20,}/g finds, and the longest of them', () => {
    fc.assert(
      fc.property(text, (value) => {
        const expected: number[] = [];
        let longest = 0;
        for (const match of value.matchAll(/[A-Za-z0-9+/_-]{20,}/g)) {
          expected.push(match.index, match.index + match[0].length);
          longest = Math.max(longest, match[0].length);
        }
        const runs = longTokenRuns(value);
        expect(runs.bounds).toEqual(expected);
        expect(runs.longest).toBe(longest);
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });
});

describe('shannonEntropy()', () => {
  it('gives exactly the bits of the general computation, for ASCII and other texts', () => {
    fc.assert(
      fc.property(fc.oneof(text, fc.string({ maxLength: 80 }), fc.string({ unit: 'grapheme', maxLength: 20 })), (value) => {
        expect(shannonEntropy(value)).toBe(referenceEntropy(value));
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });
});

describe('the redaction fast paths', () => {
  it('skip only texts without a run as long as the detector needs: every span of such a detector starts in a run that long', () => {
    const gated = builtInDetectors({ entropy: 3.5 }).filter((detector) => detector.minRun !== undefined);
    expect(gated.length).toBeGreaterThan(5);
    fc.assert(
      fc.property(text, (value) => {
        for (const detector of gated) {
          for (const [start] of detector.find(value)) expect(runAt(value, start)).toBeGreaterThanOrEqual(detector.minRun as number);
        }
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });

  it('redact exactly as the full path does (every detector run on every text)', () => {
    fc.assert(
      fc.property(text, (value) => {
        const fast = resolveRedaction({});
        const full = { ...fast, detectors: fast.detectors.map((detector): Detector => ({ kind: detector.kind, find: (input) => detector.find(input) })) };
        const fastScope = createRedactionScope({ config: fast, ledger: createSecretLedger() });
        const fullScope = createRedactionScope({ config: full, ledger: createSecretLedger() });
        expect(fastScope.text(value, 'content')).toBe(fullScope.text(value, 'content'));
        expect(fastScope.records).toEqual(fullScope.records);
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });

  it('find keys with one prefix search exactly where a search per prefix finds them', () => {
    const plain: Record<string, Detector> = {
      'aws-key': patternDetector({ kind: 'aws-key', requiresAny: ['AKIA', 'ASIA', 'ABIA', 'ACCA', 'AIDA', 'AROA', 'AIPA', 'ANPA', 'ANVA', 'APKA'], pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|AIDA|AROA|AIPA|ANPA|ANVA|APKA)[A-Z0-9]{16}(?![A-Za-z0-9])/g }),
      'github-token': patternDetector({ kind: 'github-token', requiresAny: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'], pattern: /(?<![A-Za-z0-9_])gh[pousr]_[A-Za-z0-9]{36,251}(?![A-Za-z0-9_])/g }),
      'stripe-key': patternDetector({ kind: 'stripe-key', requiresAny: ['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_', 'whsec_'], pattern: /(?<![A-Za-z0-9_])(?:(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{24,})(?![A-Za-z0-9_])/g }),
    };
    const fast = builtInDetectors({ entropy: false }).filter((detector) => detector.kind in plain);
    expect(fast).toHaveLength(3);
    fc.assert(
      fc.property(text, (value) => {
        for (const detector of fast) expect([...detector.find(value)]).toEqual([...(plain[detector.kind] as Detector).find(value)]);
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });

  it('still find each kind of key on its own', () => {
    const secret = 'aB3dE5gH7jK9mN1pQ3sTuV5wX7yZ9aB1cD3eF5gH7';
    const cases: readonly [string, string][] = [
      ['aws-key', 'key AKIAIOSFODNN7EXAMPLE here'],
      ['github-token', `export GITHUB_TOKEN=ghp_${secret.slice(0, 36)}`],
      ['stripe-key', `stripe sk_live_${secret.slice(0, 24)} set`],
      ['npm-token', `//registry/:_authToken=npm_${secret.slice(0, 36)}`],
      ['google-api-key', `key=AIza${secret.slice(0, 35)}`],
      ['high-entropy', `value ${secret} end`],
    ];
    for (const [kind, value] of cases) {
      const scope = createRedactionScope({ config: resolveRedaction({}), ledger: createSecretLedger() });
      expect(scope.text(value, 'content')).toContain(`[secret:${kind}#1]`);
    }
  });
});

// --- Internal helpers ---

// The bits per character as shannonEntropy has always computed them (a Map in first-seen order).
function referenceEntropy(value: string): number {
  if (value.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const character of value) counts.set(character, (counts.get(character) ?? 0) + 1);
  const length = [...value].length;
  let bits = 0;
  for (const count of counts.values()) {
    const share = count / length;
    bits -= share * Math.log2(share);
  }
  return bits;
}

// Length of the maximal run of token characters that holds `index` (0 when it is not one).
function runAt(value: string, index: number): number {
  const isRun = (at: number): boolean => /[A-Za-z0-9+/_-]/.test(value[at] ?? '');
  if (!isRun(index)) return 0;
  let from = index;
  while (from > 0 && isRun(from - 1)) from -= 1;
  let to = index + 1;
  while (to < value.length && isRun(to)) to += 1;
  return to - from;
}

describe('the entropy detector over a session', () => {
  it('finds in each text what a detector seeing only that text finds, whatever it saw before', () => {
    const entropyOf = (): Detector => builtInDetectors({ entropy: 3.5 }).find((detector) => detector.kind === 'high-entropy') as Detector;
    // Texts that share their long tokens (paths, identifiers, random runs), so that tokens recur.
    const token = fc.oneof(base62.map((value) => `${value}${value}`), fc.constantFrom('src/components/SignalValidator', 'validators/useSignalEvaluation', 'AbCdEf0123456789GhIjKlMn', 'node_modules/some-package/dist/index', 'Zk3pQ9xL2mW7vR4tY8nB6cH1jF5s'));
    const session = fc.array(fc.array(fc.oneof(token, piece), { maxLength: 12 }).map((pieces) => pieces.join(' ')), { maxLength: 8 });
    fc.assert(
      fc.property(session, (texts) => {
        const lasting = entropyOf();
        for (const value of texts) expect([...lasting.find(value)]).toEqual([...entropyOf().find(value)]);
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });
});

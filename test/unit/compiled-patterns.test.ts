import { describe, expect, it } from 'vitest';
import { compiledPattern } from '../../src/redaction/compiled-patterns.js';
import { patternDetector } from '../../src/redaction/detectors.js';
import { findSecrets } from '../../src/index.js';

describe('compiledPattern()', () => {
  it('gives one RegExp per source and flags for the whole process', () => {
    const first = compiledPattern('acme_[a-z]{8}', 'g');
    expect(compiledPattern('acme_[a-z]{8}', 'g')).toBe(first);
    expect(compiledPattern('acme_[a-z]{8}', 'gi')).not.toBe(first);
    expect(compiledPattern('acme_[a-z]{9}', 'g')).not.toBe(first);
  });
});

describe('patternDetector() with a shared RegExp', () => {
  it('finds every span in texts searched one after another by detectors of two managers', () => {
    const make = (): ReturnType<typeof patternDetector> => patternDetector({ kind: 'acme', pattern: /acme_(?<secret>[a-z]{8})/g });
    const [left, right] = [make(), make()];
    const text = 'x acme_abcdefgh y acme_ijklmnop z';
    expect([...left.find(text)]).toEqual([[7, 15], [23, 31]]);
    expect([...right.find('acme_qrstuvwx')]).toEqual([[5, 13]]);
    expect([...left.find(text)]).toEqual([[7, 15], [23, 31]]);
  });

  it('does not carry the state of a global extra pattern from one call to the next', () => {
    const options = { patterns: [{ name: 'acme-token', pattern: /acme_[a-z]{8}/g }] };
    const text = 'token acme_abcdefgh and acme_ijklmnop';
    const first = findSecrets(text, options);
    expect(findSecrets(text, options)).toEqual(first);
    expect(first.filter((finding) => finding.kind === 'acme-token')).toHaveLength(2);
  });
});

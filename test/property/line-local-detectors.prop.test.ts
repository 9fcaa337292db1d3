import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { builtInDetectors, patternDetector } from '../../src/redaction/detectors.js';
import { PROPERTY_RUNS } from '../helpers.js';

const piece = fc.constantFrom('://', 'https', 'db', ':', '@', 'pw', 's3cr3t', '\n', '\r\n', ' ', '.', '-', '/', 'x', '[', '$', 'postgres');
const text = fc.array(piece, { maxLength: 60 }).map((pieces) => pieces.join(''));

describe('the url-password detector', () => {
  it('finds on the lines holding "://" exactly what a scan of the whole text finds', () => {
    const lineLocal = builtInDetectors({ entropy: false }).find((detector) => detector.kind === 'url-password');
    const source = /(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{1,30}:\/\/[^\s:@/?#'"<>`]*:(?<secret>[^\s@/'"<>`]+)@(?=[A-Za-z0-9[])/g;
    const accept = (secret: string): boolean => !/^(?:\$|\{\{|<|\[secret:|\*+$|x+$|%s$|\.\.\.$|…$)/i.test(secret);
    const whole = patternDetector({ kind: 'url-password', pattern: source, accept });
    expect(lineLocal).toBeDefined();
    fc.assert(
      fc.property(text, (value) => {
        expect([...(lineLocal?.find(value) ?? [])]).toEqual([...whole.find(value)]);
      }),
      { numRuns: PROPERTY_RUNS },
    );
    expect([...(lineLocal?.find('a\nDATABASE_URL=postgres://app:s3cr3t-pw@db:5432/app\nb') ?? [])]).toEqual([[30, 39]]);
  });
});

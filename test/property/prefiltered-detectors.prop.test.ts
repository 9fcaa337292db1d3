import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { builtInDetectors, isCredential, patternDetector } from '../../src/redaction/detectors.js';
import { isRandomLooking } from '../../src/redaction/entropy.js';
import { PROPERTY_RUNS } from '../helpers.js';

// Pieces that make the credential patterns match, half-match and fail, across line breaks of
// every kind the `m` flag knows.
const piece = fc.constantFrom(
  'DB_PASSWORD', 'api_key', 'token', 'Secret', 'CACHE_KEY', 'user', 'x', '--', '-', '=', ':', ': ', ':=', '=>',
  '"', "'", '`', ' ', '\t', '\n', '\r\n', '\r', '\u2028', '#', ';', 's3cr3t-Pw9', 'abcDEF123456', '$HOME', '\\',
);
const text = fc.array(piece, { maxLength: 50 }).map((pieces) => pieces.join(''));

const credentialPatterns: readonly [RegExp, { isQuoted: boolean; isBareWordSecret?: boolean }][] = [
  [/(?<![A-Za-z0-9_$])(["'`]?)(?<name>[A-Za-z_][A-Za-z0-9_.-]{0,80})\1\s*(?::=|=>|=|:)\s*(["'`])(?<secret>(?:(?!\3)[^\\\n]|\\.){1,1000}?)\3/g, { isQuoted: true, isBareWordSecret: true }],
  [/(?:^|(?<=[\s;&?(`'"]))(?<name>[A-Za-z_][A-Za-z0-9_.-]{0,80})=(?<secret>[^\s'"`;&|<>(){}[\],]+)(?=$|[\s;&#'"`])/gm, { isQuoted: false, isBareWordSecret: true }],
  [/^[ \t]*(?:-[ \t]+)?(?<name>[A-Za-z_][A-Za-z0-9_.-]{0,80}):[ \t]+(?<secret>[^\s'"`#|>&*!%@[{][^\s#]*)[ \t]*(?:#.*)?$/gm, { isQuoted: false }],
  [/(?:^|(?<=\s))--?(?<name>[A-Za-z][A-Za-z0-9-]{2,40})(?:=|[ \t]+)(["']?)(?<secret>[^\s'"`-][^\s'"`]*)\2(?=$|\s)/gm, { isQuoted: false }],
];

describe('the prefiltered credential detectors', () => {
  it('find exactly what a scan of the whole text without a prefilter finds', () => {
    const fast = builtInDetectors({ entropy: false }).filter((detector) => detector.kind === 'credential');
    const plain = credentialPatterns.map(([pattern, mode]) =>
      patternDetector({ kind: 'credential', pattern, accept: (secret, match) => isCredential({ name: match.groups?.['name'] ?? '', value: secret, ...mode }) }),
    );
    expect(fast).toHaveLength(plain.length);
    fc.assert(
      fc.property(text, (value) => {
        fast.forEach((detector, index) => expect([...detector.find(value)]).toEqual([...(plain[index]?.find(value) ?? [])]));
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });

  it('skip a text without a secret-name word and still find one on a later line', () => {
    const fast = builtInDetectors({ entropy: false }).filter((detector) => detector.kind === 'credential');
    const spans = (value: string): (readonly [number, number])[] => fast.flatMap((detector) => [...detector.find(value)]);
    expect(spans('user=alice\nmode: fast\n--name bob')).toEqual([]);
    expect(spans('user=alice\nDB_PASSWORD=s3cr3t-Pw9\n')).toEqual([[23, 33]]);
  });
});

describe('the high-entropy detector', () => {
  const runPiece = fc.constantFrom('aB3dE5gH7jK9mN1pQ3sT', 'x', '=', '==', '/', '+', '-', '_', ' ', '\n', 'sha256-', 'base64,', 'Zq8Wv2Lr6Ty4Ui0Op2As');
  const runText = fc.array(runPiece, { maxLength: 30 }).map((pieces) => pieces.join(''));

  it('finds exactly the runs that a scan with /[A-Za-z0-9+/_-]+/g finds', () => {
    const detector = builtInDetectors({ entropy: 3.5 }).find((candidate) => candidate.kind === 'high-entropy');
    expect(detector).toBeDefined();
    fc.assert(
      fc.property(runText, (value) => {
        expect([...(detector?.find(value) ?? [])]).toEqual(referenceEntropySpans(value, 3.5));
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });
});

// The detector as it was written with a RegExp over the runs.
function referenceEntropySpans(text: string, threshold: number): (readonly [number, number])[] {
  const spans: (readonly [number, number])[] = [];
  const runs = /[A-Za-z0-9+/_-]+/g;
  for (let match = runs.exec(text); match !== null; match = runs.exec(text)) {
    if (match[0].length < 20 || text[match.index - 1] === '=') continue;
    let end = match.index + match[0].length;
    let padding = 0;
    while (padding < 3 && text[end] === '=') {
      end += 1;
      padding += 1;
    }
    if (end < text.length && /[A-Za-z0-9+/=_-]/.test(text[end] as string)) continue;
    const token = text.slice(match.index, end);
    const before = text.slice(Math.max(0, match.index - 12), match.index);
    if (/(?:sha(?:1|224|256|384|512)|md5|h1|blake2b?)[-:]$|base64,$/i.test(before)) continue;
    if (/^(?:sha(?:1|224|256|384|512)|md5)-/i.test(token)) continue;
    if (!isRandomLooking(token, threshold)) continue;
    spans.push([match.index, match.index + token.length]);
  }
  return spans;
}

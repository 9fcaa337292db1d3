import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContextManager } from '../../src/index.js';
import { createRedactionScope, resolveRedaction } from '../../src/redaction/redactor.js';
import { rescanRegions } from '../../src/redaction/rescan-regions.js';
import { createSecretLedger } from '../../src/redaction/secret-ledger.js';
import { fakeRun, plantedSecrets } from '../fixtures/secrets.js';
import { PROPERTY_RUNS } from '../helpers.js';

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const BASE64 = `${ALNUM}+/`;

// Lines a file may hold: ordinary code, blank lines, secrets on one line, and the pieces of
// secrets that cross line breaks (a PEM block's markers and body, an Authorization header or a
// JSON key split over lines), so that edits land inside, next to and across them.
const planted = [...plantedSecrets(1), ...plantedSecrets(2)].flatMap((secret) => secret.line.split('\n'));
const token = (seed: number): string => fakeRun(ALNUM, 32, seed);
const pieces: readonly string[] = [
  ...planted,
  '',
  '   ',
  '\t',
  '\u00a0',
  'function check(user) {',
  '  if (!user.active) return false;',
  '}',
  'const total = items.reduce((sum, item) => sum + item.price, 0);',
  '# Settings',
  'Authorization:',
  'Authorization',
  ':',
  'Bearer',
  `  ${token(1)}`,
  `Bearer ${token(2)}`,
  '"password"',
  `"${token(3).slice(0, 12)}"`,
  'aws_secret_access_key',
  '=',
  fakeRun(BASE64, 40, 4),
  '-----BEGIN RSA PRIVATE KEY-----',
  '-----END RSA PRIVATE KEY-----',
  '-----BEGIN OPENSSH PRIVATE KEY-----',
  '-----END OPENSSH PRIVATE KEY-----',
  fakeRun(BASE64, 64, 5),
  fakeRun(BASE64, 64, 6),
  'Proc-Type: 4,ENCRYPTED',
  'password = "[secret:credential#1]"',
  'key: [secret:aws-key#2]',
  'sha256-' + fakeRun(BASE64, 44, 7),
];

const markers = ['-----BEGIN RSA PRIVATE KEY-----', '-----END RSA PRIVATE KEY-----', '-----BEGIN OPENSSH PRIVATE KEY-----', '-----END OPENSSH PRIVATE KEY-----'];
const line = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...pieces) },
  { weight: 1, arbitrary: fc.constantFrom(...markers) },
  { weight: 1, arbitrary: fc.integer({ min: 10, max: 10_000 }).map((seed) => `${['SECRET_TOKEN=', 'x = ', '  ', 'id: '][seed % 4]}${token(seed)}`) },
);
const lines = fc.array(line, { maxLength: 60, size: 'medium' });

type Edit =
  | { readonly kind: 'replace'; readonly at: number; readonly lines: readonly string[] }
  | { readonly kind: 'insert'; readonly at: number; readonly lines: readonly string[] }
  | { readonly kind: 'delete'; readonly at: number; readonly count: number }
  | { readonly kind: 'append'; readonly text: string };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), lines: fc.array(line, { minLength: 1, maxLength: 4 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), lines: fc.array(line, { minLength: 1, maxLength: 4 }) }),
  fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), lines: fc.constantFrom(...markers).map((marker) => [marker]) }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), count: fc.integer({ min: 1, max: 5 }) }),
  fc.record({ kind: fc.constant('append' as const), text: fc.constantFrom('x', ' // note', token(9).slice(0, 8), '\n', '') }),
);

function applyEdits(original: readonly string[], edits: readonly Edit[]): string[] {
  let result = [...original];
  for (const change of edits) {
    const at = result.length === 0 ? 0 : ('at' in change ? change.at % (result.length + 1) : 0);
    if (change.kind === 'replace') result.splice(at, change.lines.length, ...change.lines);
    else if (change.kind === 'insert') result.splice(at, 0, ...change.lines);
    else if (change.kind === 'delete') result.splice(at, change.count);
    else result = result.length === 0 ? [change.text] : [...result.slice(0, -1), `${result.at(-1) ?? ''}${change.text}`];
  }
  return result;
}

const config = resolveRedaction({});

/** Redacts `before` in full (as the scratchpad holds it), then `after` both ways against the same ledger. */
function bothWays(options: { before: string; after: string; lookaheadLines?: number | undefined }): {
  full: string;
  incremental: string;
  fullRecords: unknown;
  incrementalRecords: unknown;
  fullRedactions: unknown;
  incrementalRedactions: unknown;
} {
  const ledger = createSecretLedger();
  const opening = createRedactionScope({ config, ledger });
  const previous = opening.text(options.before, 'content');
  ledger.add(opening.records);
  const whole = createRedactionScope({ config, ledger });
  const full = whole.text(options.after, 'content');
  const partial = createRedactionScope({ config, ledger });
  const incremental = partial.update({ previous, next: options.after, field: 'content', lookaheadLines: options.lookaheadLines });
  return {
    full,
    incremental,
    fullRecords: whole.records,
    incrementalRecords: partial.records,
    fullRedactions: whole.redactions,
    incrementalRedactions: partial.redactions,
  };
}

describe('incremental redaction of a file update', () => {
  for (const [name, lookaheadLines] of [
    ['resuming at the nearest shared line', undefined],
    ['with the search for a shared line cut short', 2],
  ] as const) {
    it(`gives exactly the result of redacting the whole new content, ${name}`, () => {
      fc.assert(
        fc.property(lines, fc.array(edit, { minLength: 1, maxLength: 4 }), fc.boolean(), (original, edits, hasFinalNewline) => {
          const end = hasFinalNewline ? '\n' : '';
          const before = original.join('\n') + end;
          const after = applyEdits(original, edits).join('\n') + end;
          const result = bothWays({ before, after, lookaheadLines });
          expect(result.incremental).toBe(result.full);
          expect(result.incrementalRecords).toEqual(result.fullRecords);
          expect(result.incrementalRedactions).toEqual(result.fullRedactions);
        }),
        { numRuns: PROPERTY_RUNS },
      );
    });
  }

  it('scans only the changed line and its margin of a long file', () => {
    const body = Array.from({ length: 2_000 }, (_, index) => `const value${index} = compute(${index});`);
    const before = `${body.join('\n')}\n`;
    const edited = [...body];
    edited[1_000] = `const value1000 = compute(1000); // AWS_SECRET_KEY=${token(11)}`;
    const after = `${edited.join('\n')}\n`;
    const regions = rescanRegions({ previous: before, next: after });
    expect(regions).toHaveLength(1);
    const scanned = after.slice(regions[0]?.start, regions[0]?.end).split('\n').filter((text) => text !== '');
    expect(scanned).toHaveLength(7);
    expect(bothWays({ before, after }).incremental).toBe(bothWays({ before, after }).full);
  });

  it('keeps a line that still holds a secret (shown redacted before) out of an unrelated change far away', () => {
    const body = Array.from({ length: 5_000 }, (_, index) => `line ${index} of the report`);
    body[10] = `SMTP_PASSWORD=${token(12)}`;
    body[4_990] = `DATABASE_URL=postgres://app:${token(13)}@db:5432/app`;
    const ledger = createSecretLedger();
    const opening = createRedactionScope({ config, ledger });
    const previous = opening.text(`${body.join('\n')}\n`, 'content');
    ledger.add(opening.records);
    const edited = [...body];
    edited[2_500] = 'line 2500 of the report, edited';
    const next = `${edited.join('\n')}\n`;
    const regions = rescanRegions({ previous, next });
    const scannedChars = regions.reduce((sum, region) => sum + region.end - region.start, 0);
    expect(regions).toHaveLength(3);
    expect(scannedChars).toBeLessThan(next.length / 100);
  });

  it('keeps three non-blank lines around a change, enough for a header split over four lines', () => {
    const filler = Array.from({ length: 10 }, (_, index) => `step ${index}`);
    const before = [...filler, 'Authorization', ':', 'Basic', token(31), ...filler].join('\n');
    const after = [...filler, 'Authorization', ':', 'Basic', token(32), ...filler].join('\n');
    const result = bothWays({ before, after });
    expect(result.full).toContain('Basic\n[secret:auth-header#2]');
    expect(result.incremental).toBe(result.full);
  });

  it('widens a change inside a private key block to the whole block', () => {
    const body = Array.from({ length: 8 }, (_, index) => fakeRun(BASE64, 64, 20 + index));
    const filler = Array.from({ length: 20 }, (_, index) => `step ${index}`);
    const before = [...filler, '-----BEGIN RSA PRIVATE KEY-----', ...body, '-----END RSA PRIVATE KEY-----', ...filler].join('\n');
    const editedBody = [...body];
    editedBody[4] = fakeRun(BASE64, 64, 99);
    const after = [...filler, '-----BEGIN RSA PRIVATE KEY-----', ...editedBody, '-----END RSA PRIVATE KEY-----', ...filler].join('\n');
    // Compared with the raw content (as if the block had not been redacted), so that only the
    // block's own rule can bring in the BEGIN and END lines, four lines away from the change.
    const [region] = rescanRegions({ previous: before, next: after });
    const scanned = after.slice(region?.start, region?.end);
    expect(scanned).toContain('-----BEGIN RSA PRIVATE KEY-----');
    expect(scanned).toContain('-----END RSA PRIVATE KEY-----');
    expect(scanned).toContain('step 17');
    expect(scanned).not.toContain('step 16\n');
  });
});

describe('ContextManager.updateFile()', () => {
  it('stores an edited file exactly as redacting its whole content would, secrets kept out', () => {
    const secrets = plantedSecrets(4);
    const body = Array.from({ length: 300 }, (_, index) => `  total += price(${index});`);
    body.splice(10, 0, ...secrets.slice(0, 5).map((secret) => secret.line));
    body.splice(200, 0, ...secrets.slice(5).flatMap((secret) => secret.line.split('\n')));
    const manager = new ContextManager();
    manager.openFile({ path: 'src/config.ts', content: body.join('\n') });
    const edited = [...body];
    edited[100] = `  total += price(100) * 2; // STRIPE_KEY=${token(40)}`;
    edited.splice(205, 3);
    const next = edited.join('\n');
    const file = manager.updateFile({ path: 'src/config.ts', content: next });
    expect(file.content).toBe(manager.redact(next));
    for (const secret of secrets) for (const needle of secret.needles) expect(file.content).not.toContain(needle);
    expect(file.content).not.toContain(token(40));
  });
});

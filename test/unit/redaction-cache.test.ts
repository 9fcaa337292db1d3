import { describe, expect, it } from 'vitest';
import { createRedactionScope } from '../../src/redaction/redactor.js';
import type { ResolvedRedaction } from '../../src/redaction/redactor.js';

// A configuration with one detector that counts the texts it scans and finds `acme_` tokens.
function countingConfig(): { config: ResolvedRedaction; scanned: string[] } {
  const scanned: string[] = [];
  const config: ResolvedRedaction = {
    detectors: [
      {
        kind: 'acme-token',
        find: (text) => {
          scanned.push(text);
          return [...text.matchAll(/acme_[0-9]{6}/g)].map((match) => [match.index, match.index + match[0].length] as const);
        },
      },
    ],
    allow: [],
  };
  return { config, scanned };
}

const ledger = { placeholderOf: (): string | undefined => undefined, nextNumber: (): number => 1 };
const clean = `${'the build finished without warnings and every test passed on the first run. '.repeat(3)}`;

describe('createRedactionScope()', () => {
  it('scans a text without secrets once per configuration, across scopes', () => {
    const { config, scanned } = countingConfig();
    expect(createRedactionScope({ config, ledger }).text(clean, 'output')).toBe(clean);
    expect(createRedactionScope({ config, ledger }).text(clean, 'output')).toBe(clean);
    expect(scanned).toHaveLength(1);
    // Another configuration scans it again.
    const other = countingConfig();
    createRedactionScope({ config: other.config, ledger }).text(clean, 'output');
    expect(other.scanned).toHaveLength(1);
  });

  it('scans and redacts a text with a secret every time it is recorded', () => {
    const { config, scanned } = countingConfig();
    const secret = `${clean} token acme_123456 end`;
    for (let round = 0; round < 2; round += 1) {
      const scope = createRedactionScope({ config, ledger });
      expect(scope.text(secret, 'output')).toBe(`${clean} token [secret:acme-token#1] end`);
      expect(scope.records).toHaveLength(1);
    }
    expect(scanned).toHaveLength(2);
  });

  it('reports no records and no redactions for a scope that found nothing, and each secret once for one that did', () => {
    const { config } = countingConfig();
    const quiet = createRedactionScope({ config, ledger });
    quiet.text('nothing to hide in this short line', 'content');
    expect(quiet.records).toEqual([]);
    expect(quiet.redactions).toEqual([]);
    const scope = createRedactionScope({ config, ledger });
    expect(scope.text('first acme_111111 then acme_222222 and acme_111111 again', 'content')).toBe('first [secret:acme-token#1] then [secret:acme-token#2] and [secret:acme-token#1] again');
    expect(scope.records.map((record) => [record.kind, record.number])).toEqual([['acme-token', 1], ['acme-token', 2]]);
    expect(scope.redactions).toEqual([{ kind: 'acme-token', field: 'content', count: 3, placeholders: ['[secret:acme-token#1]', '[secret:acme-token#2]'] }]);
  });
});

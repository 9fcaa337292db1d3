import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createPatternMatcher, groupRegexes, mergePatternPacks, wordSetsFor } from '../../src/boundaries/pattern-pack.js';
import { defaultPatterns } from '../../src/boundaries/patterns/default.js';
import type { PatternGroup, PatternPack } from '../../src/boundaries/pattern-pack.js';
import { stemWord, topicSequence, topicWords } from '../../src/graduation/retention.js';
import { extractIdentifiers, identifierOfMatch, identifierPatterns } from '../../src/language/identifiers.js';
import { PROPERTY_RUNS } from '../helpers.js';

// The scans that graduation runs on every sentence use exec() loops and a memo of recent texts
// instead of matchAll() on every call: they must find exactly what matchAll() found.

// Prose mixed with names in the shapes the extractor knows, and text around them that could make a
// match run over its edges; fresh wording, both speakers' styles.
const piece = fc.oneof(
  fc.constantFrom(
    'we moved the worker to', 'the nightly job reads', 'ask the on-call team in', '#build-alerts', 'quota-service', 'well-known',
    '(memcached)', '(again)', 'left-pad@1.3.0', '@corp/date-utils', 'MAX_POOL_SIZE', '--dry-run', '--retries=4', 'feature.cart.v2',
    'OrderLedger', 'src/jobs/sweep.py:42', 'ETIMEDOUT', 'RangeError', 'X-Trace-Id', 'fr-CA', '::uuid', 'text/x+yaml', '__init__',
    'OPS-77', 'Postgres 15.4', 'cache.get()', '30 seconds', 'twelve workers per node', '**pg-mem**: in-memory', '`jq -r .id`',
    'TZ=UTC', '~/', '(', ')', '-', '@', '.', ',', ' ', '\n', '`', '*', 'é', '😀',
  ),
  fc.string({ maxLength: 10 }),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
);
const text = fc.array(piece, { maxLength: 24 }).chain((pieces) => fc.constantFrom(' ', '', '\n').map((glue) => pieces.join(glue)));

describe('extractIdentifiers() scans once per pattern without matchAll()', () => {
  it('finds what a matchAll() scan finds, and hands out a fresh array every time', () => {
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 3 }), (value, repeats) => {
        const expected = identifiersByMatchAll(value);
        for (let round = 0; round < repeats; round += 1) {
          const found = extractIdentifiers(value);
          expect(found).toEqual(expected);
          found.push('changed by a caller');
        }
      }),
      { numRuns: PROPERTY_RUNS * 2 },
    );
  });

  it('gives each text its own identifiers when many texts are read in turn', () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 160 }), (values) => {
        for (const value of [...values, ...values.slice().reverse()]) expect(extractIdentifiers(value)).toEqual(identifiersByMatchAll(value));
      }),
      { numRuns: Math.max(10, PROPERTY_RUNS / 4) },
    );
  });
});

describe('PatternMatcher.count() without matchAll()', () => {
  const matcher = createPatternMatcher(defaultPatterns);
  const groups: PatternGroup[] = ['decision', 'errorResolution', 'errorCause', 'constraint', 'requirement', 'convention', 'factMarker', 'intention', 'deadEnd', 'transient', 'taskStatus'];
  const words = fc.constantFrom('we decided', 'Decided', 'DECIDED', 'always', 'must', 'never', 'fixed', 'because', 'the fix was', 'turns out', 'note that', 'I will', 'tried', 'gave up', 'for now', 'done', 'Done', 'é', '\n', ' ', '.');
  const prose = fc.array(fc.oneof(words, fc.string({ maxLength: 6 })), { maxLength: 20 }).map((parts) => parts.join(' '));

  it('counts the distinct phrases a matchAll() scan finds, for the built-in groups', () => {
    fc.assert(
      fc.property(prose, fc.constantFrom(...groups), (value, group) => {
        expect(matcher.count(group, value)).toBe(countByMatchAll(globalRegexesOf(defaultPatterns, group), value));
      }),
      { numRuns: PROPERTY_RUNS * 2 },
    );
  });

  it('test() tells what some() over the group regexes tells', () => {
    fc.assert(
      fc.property(prose, fc.constantFrom(...groups), (value, group) => {
        expect(matcher.test(group, value)).toBe(groupRegexes(defaultPatterns, group).some((regex) => regex.test(value)));
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });

  it('steps over empty matches a code point at a time, as matchAll() does', () => {
    const pack = mergePatternPacks(defaultPatterns, { factMarker: [/x*/u, /(?:)/, /b?/iu] });
    const custom = createPatternMatcher(pack);
    const letters = fc.array(fc.constantFrom('x', 'X', 'b', 'B', 'a', '😀', '\ud83d', ' '), { maxLength: 16 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(letters, (value) => {
        expect(custom.count('factMarker', value)).toBe(countByMatchAll(globalRegexesOf(pack, 'factMarker'), value));
      }),
      { numRuns: PROPERTY_RUNS * 2 },
    );
  });
});

describe('topicSequence() remembers the texts read last', () => {
  // A pack whose stopwords differ, so that the same text has other topic words under it.
  const otherPack = mergePatternPacks(defaultPatterns, { stopword: ['nightly', 'worker', 'quota', 'cart'], unitWord: ['node'] });
  const statement = fc.array(fc.oneof(piece, fc.constantFrom("the team's", 'retries', 'entries', '5s', 'p95', 'v1.2', '"quoted value"', "'single'", 'nightly')), { maxLength: 16 }).map((parts) => parts.join(' '));

  it('gives what a fresh scan gives, per pack, with a fresh array every time', () => {
    fc.assert(
      fc.property(fc.array(statement, { minLength: 1, maxLength: 150 }), (values) => {
        for (const value of [...values, ...values.slice().reverse()]) {
          for (const pack of [defaultPatterns, otherPack]) {
            const found = topicSequence(value, { patterns: pack });
            expect(found).toEqual(topicSequenceByScan(value, pack));
            found.push('changed by a caller');
            expect(topicWords(value, { patterns: pack })).toEqual([...new Set(topicSequenceByScan(value, pack))]);
          }
          expect(topicSequence(value)).toEqual(topicSequenceByScan(value, defaultPatterns));
        }
      }),
      { numRuns: Math.max(10, PROPERTY_RUNS / 4) },
    );
  });
});

// --- Internal helpers ---

// The scan as it was written with matchAll().
function identifiersByMatchAll(text: string): string[] {
  const found: { start: number; end: number; value: string }[] = [];
  for (const { regex, group } of identifierPatterns()) {
    for (const match of text.matchAll(regex)) {
      const raw = match[group] ?? match[0];
      const offset = match[0].indexOf(raw);
      const value = identifierOfMatch(raw, regex);
      if (value === undefined) continue;
      const start = match.index + Math.max(offset, 0);
      found.push({ start, end: start + value.length, value });
    }
  }
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const identifiers: string[] = [];
  const seen = new Set<string>();
  let coveredUntil = -1;
  for (const item of found) {
    if (item.start < coveredUntil) continue;
    coveredUntil = item.end;
    if (seen.has(item.value)) continue;
    seen.add(item.value);
    identifiers.push(item.value);
  }
  return identifiers;
}

function countByMatchAll(regexes: readonly RegExp[], text: string): number {
  const distinct = new Set<string>();
  for (const regex of regexes) for (const match of text.matchAll(regex)) distinct.add(match[0].toLowerCase());
  return distinct.size;
}

// Global copies of the group's regexes (what count() scans with), rebuilt from the test() regexes.
function globalRegexesOf(pack: PatternPack, group: PatternGroup): RegExp[] {
  return groupRegexes(pack, group).map((regex) => new RegExp(regex.source, `${regex.flags}g`));
}

// topicSequence() as it was written, scanning every time.
function topicSequenceByScan(value: string, pack: PatternPack): string[] {
  const { stopword, numberWord, unitWord } = wordSetsFor(pack);
  const withoutValues = value
    .replace(/`[^`]*`/gu, ' ')
    .replace(/"[^"\n]*"/gu, ' ')
    .replace(/(?<![\p{L}\p{N}])'[^'\n]*'(?![\p{L}\p{N}])/gu, ' ')
    .toLowerCase();
  const words: string[] = [];
  for (const match of withoutValues.matchAll(/[\p{L}\p{N}][\p{L}\p{N}_'’.-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu)) {
    const token = match[0].replace(/['’]s$/u, '');
    if (token.length < 2 || /^\p{N}/u.test(token) || stopword.has(token)) continue;
    if (/\p{N}/u.test(token) && !/^\p{L}{1,3}\p{N}{1,3}$/u.test(token)) continue;
    if (numberWord.has(token) || unitWord.has(token)) continue;
    const stem = stemWord(token);
    if (stopword.has(stem)) continue;
    words.push(stem);
  }
  return words;
}

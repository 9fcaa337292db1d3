import { describe, expect, it } from 'vitest';
import { englishPatterns } from '../../src/boundaries/patterns/en.js';
import { analyzeSentence, factCategoryFor, splitSentences } from '../../src/graduation/retention.js';
import { turnShapeOf } from '../../src/language/behaviour-statement.js';
import { extractIdentifiers } from '../../src/language/identifiers.js';
import { summarizeChunk } from '../helpers.js';

// Sentences written fresh for this test: durable statements that come late in a long message
// (after a recap list, a code fence, a heading, behind a lead-in or in an aside), from either
// speaker, against routine look-alikes of the same shapes.
type Role = 'user' | 'assistant';

/** The durable sentences of a whole message, as the summarizer reads it. */
function durableOf(text: string, role: Role): string[] {
  const turn = turnShapeOf(text);
  return splitSentences(text, { patterns: englishPatterns })
    .map((sentence) => analyzeSentence(sentence, { role, patterns: englishPatterns, turn }))
    .filter((analysis) => factCategoryFor(analysis.retention) !== undefined)
    .map((analysis) => analysis.text);
}

function factsOf(text: string, role: Role): string[] {
  const result = summarizeChunk([{ kind: role === 'user' ? 'assistant' : 'user', text: 'ok, next one' }, { kind: role, text }]);
  return (result.facts ?? []).map((fact) => fact.value);
}

describe('a durable statement late in a long message', () => {
  it.each<[string, Role, string]>([
    [
      'The importer no longer chokes on empty rows.\n\n- guarded the row loop\n- added a fixture\n\nFor context, I kept the job runner on Temporal.',
      'assistant',
      'Temporal',
    ],
    [
      'Added the retry to the upload client.\n\n### Notes\nI gave the new setting the MAILER_ prefix, as every setting in this repo has.',
      'assistant',
      'MAILER_',
    ],
    [
      'The parser test passes now.\n\nWorth noting: I put the new fixture in the `testdata` folder, which is how the other suites are laid out.',
      'assistant',
      'testdata',
    ],
    [
      "Trimmed the handler in `src/api/orders.ts`.\n\n```ts\nconst page = clamp(size, 1, 100);\n``` (Side note: outbound mail goes through Postmark now; the SMTP relay is retired.)",
      'assistant',
      'Postmark',
    ],
    ['Tests are green.\n\nHotfixes are only ever merged into the `maint` branch.', 'assistant', 'maint'],
    ['looks good, merge it when CI passes.\n\nthe geocoder throttles us to 50 lookups a second', 'user', '50 lookups a second'],
  ])('is kept: %j (%s)', (text, role, keyword) => {
    expect(durableOf(text, role).some((sentence) => sentence.includes(keyword))).toBe(true);
    expect(factsOf(text, role).some((fact) => fact.includes(keyword))).toBe(true);
  });

  it.each<[string, Role]>([
    ['Finished the cleanup.\n\n- split the parser in two\n- renamed a helper\n- reran the suite\n\nFor context, I reran the tests twice.', 'assistant'],
    ['Edited `src/cli.ts`.\n\n```ts\nconst verbose = flags.v;\n``` (That took two tries to get right.)', 'assistant'],
    ['Done.\n\n### Notes\nI pushed the change to the `wip` branch.', 'assistant'],
    ['I deleted the `tmp` folder and reran the build.', 'assistant'],
    ['ok go ahead. for reference, I will be away until lunch', 'user'],
  ])('routine look-alike stays routine: %j', (text, role) => {
    expect(durableOf(text, role)).toEqual([]);
  });
});

describe('a rule over every thing of a kind, done the way the project does it', () => {
  it.each<[string, Role]>([
    ['Refactor done, suite green.\n\nEvery webhook payload uses a versioned envelope, same as the existing events.', 'assistant'],
  ])('is a convention without a name in it: %j', (text, role) => {
    expect(durableOf(text, role)).toHaveLength(1);
  });

  it.each<[string, Role]>([
    ['The totals are the same as the existing numbers, nothing moved.', 'assistant'],
    ['Every test is the same as before.', 'assistant'],
    ['All the rows look the same as the existing export.', 'assistant'],
  ])('a comparison with what exists stays routine: %j', (text, role) => {
    expect(durableOf(text, role)).toEqual([]);
  });
});

describe('bare upper-case prefixes', () => {
  it('counts a prefix named before the word "prefix" as an identifier', () => {
    expect(extractIdentifiers('every variable carries the BILLING_ prefix')).toContain('BILLING_');
  });

  it('leaves a shouted word with an underscore elsewhere alone', () => {
    expect(extractIdentifiers('NOTE_ this is odd')).toEqual([]);
  });
});

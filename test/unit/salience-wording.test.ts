import { describe, expect, it } from 'vitest';
import { englishPatterns } from '../../src/boundaries/patterns/en.js';
import { analyzeSentence, extractIdentifiers, factCategoryFor, splitSentences } from '../../src/graduation/retention.js';

const patterns = englishPatterns;
const kind = (text: string, role: 'user' | 'assistant'): string => analyzeSentence(text, { role, patterns }).retention;

describe('salience of choices, expectations, corrections and fixes in new wording', () => {
  it.each([
    ["I'll run the cron jobs on Temporal and the queue on SQS with Hatchet.", 'assistant'],
    ['I picked Valkey over Redis for the session cache.', 'assistant'],
    ['Migrations are applied by Atlas, nothing else.', 'user'],
    ['the mobile app expects prices as strings', 'user'],
    ['a single upload is up to 200 MB', 'user'],
    ['sorry I was wrong, the worker count is 6', 'user'],
    ['The stuck deploy came from a missing health check; adding /healthz made it pass.', 'assistant'],
    ['Importing the feed raised KeyError on old rows, so we switched to dict.get with a default.', 'assistant'],
    ['Anyway, worth knowing: `make seed` rebuilds the fixture database.', 'assistant'],
    ['Retries must back off between attempts.', 'assistant'],
  ] as const)('keeps %j (%s) as a fact', (text, role) => {
    expect(factCategoryFor(analyzeSentence(text, { role, patterns }).retention), kind(text, role)).toBeDefined();
  });

  it.each([
    ["I'll run the tests again.", 'assistant'],
    ['Let me check what the logger prints.', 'assistant'],
    ['Everything is fine now.', 'assistant'],
    ['ok, up to you', 'user'],
    ['I added a test and ran the suite.', 'assistant'],
    ['as expected it still fails', 'user'],
    ['That must be the stale cache again.', 'assistant'],
  ] as const)('does not keep %j (%s) as a fact', (text, role) => {
    expect(factCategoryFor(analyzeSentence(text, { role, patterns }).retention), kind(text, role)).toBeUndefined();
  });

  it('classifies a fix named without "fixed" as an error resolution only together with its failure', () => {
    expect(kind('The OOM in the exporter came from buffering every row; streaming them made it stable.', 'assistant')).toBe('error-resolution');
    expect(kind('Streaming the rows made it stable.', 'assistant')).not.toBe('error-resolution');
  });
});

describe('extractIdentifiers() on headers and aliases', () => {
  it('finds hyphenated capitalised names and import aliases', () => {
    expect(extractIdentifiers('Send Content-Type and X-Api-Key; import from ~/ or @core/ only.')).toEqual([
      'Content-Type',
      'X-Api-Key',
      '~/',
      '@core/',
    ]);
  });

  it('leaves ticket keys and plain hyphenated words alone', () => {
    expect(extractIdentifiers('See PAY-311, a well-known read-only mirror.')).toEqual(['PAY-311']);
  });
});

describe('splitSentences() after a code fence', () => {
  it('reads prose that follows a closing fence on the same line', () => {
    const text = ['Here is the change:', '```ts', 'const limit = 4;', '``` Also, the worker pool stays at 4 threads.'].join('\n');
    expect(splitSentences(text)).toEqual(['Here is the change:', 'Also, the worker pool stays at 4 threads.']);
  });

  it('still skips an opening fence with an info string', () => {
    expect(splitSentences(['```python', 'x = 1', '```', 'Done.'].join('\n'))).toEqual(['Done.']);
  });
});

import { describe, expect, it } from 'vitest';
import { englishPatterns } from '../../src/boundaries/patterns/en.js';
import { analyzeSentence, extractIdentifiers, factCategoryFor } from '../../src/graduation/retention.js';
import type { RetentionClass } from '../../src/types.js';

const patterns = englishPatterns;
const kind = (text: string, role: 'user' | 'assistant'): RetentionClass => analyzeSentence(text, { role, patterns }).retention;
const isFact = (text: string, role: 'user' | 'assistant'): boolean => factCategoryFor(kind(text, role)) !== undefined;

describe('choices reported in the past tense with their reason', () => {
  it.each([
    'I kept the image pipeline on sharp 0.32, since the newer build drops the musl binaries.',
    'I moved the thumbnail work onto Celery so a slow resize never blocks the request.',
    'I kept the nightly backup at 02:30 UTC so the dump finishes before traffic picks up.',
    'Also I wired the admin pages to Inertia since the other back-office screens already use it.',
  ])('keeps %j from the assistant as a fact', (text) => {
    expect(isFact(text, 'assistant')).toBe(true);
  });

  it.each([
    'I added 2 assertions to the spec so it covers the empty case.',
    'I changed line 12 so the loop exits early.',
    'I renamed `total` in src/cart/sum.ts so the diff reads better.',
    'Since I just added them in step 4, this should be fine.',
    'The files already hold the edits I wanted, so no patch is needed.',
    'I updated the snapshot so the test matches the new copy.',
  ])('leaves narration of edits %j as it is', (text) => {
    expect(isFact(text, 'assistant')).toBe(false);
  });
});

describe('settings and media types written inline', () => {
  it('reads `key=value` and `type+suffix` tokens outside code spans as identifiers', () => {
    expect(extractIdentifiers('pass tzinfo=timezone.utc everywhere')).toContain('tzinfo=timezone.utc');
    expect(extractIdentifiers('run it with LOG_LEVEL=debug set')).toContain('LOG_LEVEL=debug');
    expect(extractIdentifiers('errors come back as problem+json')).toContain('problem+json');
    expect(extractIdentifiers('we serve application/ld+json on that route')).toContain('application/ld+json');
    expect(extractIdentifiers('two + two is four, a = b')).toEqual([]);
  });

  it('keeps a remark that follows the project practice once it names a media type', () => {
    expect(kind('I returned the lookup failures as problem+json so clients read them the same way as the other routes.', 'assistant')).toBe('convention');
    expect(kind('I returned the lookup failures so clients read them the same way as the other routes.', 'assistant')).not.toBe('convention');
  });
});

describe('conformity said as "the same <thing> every other …"', () => {
  it.each([
    ['I passed traceParent through the new queue consumer, the same header every other worker forwards.', 'assistant'],
    ['tag the metrics with tenantId, same label all the other services use', 'user'],
  ] as const)('keeps %j (%s) as a convention', (text, role) => {
    expect(kind(text, role)).toBe('convention');
  });

  it('needs something named to call it a convention', () => {
    expect(isFact('I ran the linter again, the same thing every other time.', 'assistant')).toBe(false);
  });
});

describe('an action and the product response, with no name or value', () => {
  it.each([
    ['Archiving a project hides it from the sidebar for every member.', 'assistant'],
    ['Also, cancelling an order releases the reserved stock back to the warehouse.', 'assistant'],
    ['rejecting an invoice sends it back to the draft folder of whoever raised it', 'user'],
  ] as const)('keeps %j (%s) as a requirement', (text, role) => {
    expect(kind(text, role)).toBe('requirement');
  });

  it.each([
    'Running the suite shows two failures in the parser.',
    'Checking the handler reveals a second render per click.',
    'Interesting - no invoices in the table but they exist as CSV files.',
    'Modifying its fields updates the copy held by the list.',
    'Selling correctly reduces the count when the order closes.',
    'Reading the handler explains the double render.',
  ])('leaves %j (assistant) as it is', (text) => {
    expect(isFact(text, 'assistant')).toBe(false);
  });
});

describe('a tool named for its role after a copula', () => {
  it.each([
    ['The search backend is typesense, and the old SQL LIKE queries are gone.', 'assistant'],
    ['our cluster orchestrator is kubernetes', 'user'],
    ['Our message broker is NATS, since ops already runs it.', 'assistant'],
    ['the feature-flag store is postgres', 'user'],
  ] as const)('keeps %j (%s) as a decision', (text, role) => {
    expect(kind(text, role)).toBe('decision');
  });

  it.each([
    'The job queue is empty after the restart.',
    'The dev server is started on port 3000 already.',
    'The client is built on every push.',
    'The cache is stale again.',
  ])('leaves states of a tool %j (assistant) as they are', (text) => {
    expect(isFact(text, 'assistant')).toBe(false);
  });

  it('takes the kinds and the copula from the pattern pack', async () => {
    const { mergePatternPacks } = await import('../../src/boundaries/pattern-pack.js');
    const text = 'The search backend is typesense, and the old SQL LIKE queries are gone.';
    const without = { ...englishPatterns, toolKind: [] };
    expect(analyzeSentence(text, { role: 'assistant', patterns: without }).retention).not.toBe('decision');
    const withHerder = mergePatternPacks(without, { toolKind: ['herder'] });
    expect(analyzeSentence('The log herder is vector, like on the other hosts.', { role: 'assistant', patterns: withHerder }).retention).toBe('decision');
  });
});

describe('shorthand choices, swaps and fixes stated as the new state', () => {
  it.each([
    ['uploads -> minio, since ops hosts it', 'user'],
    ['Talked it over; swap the mailer over to postmark.', 'user'],
    ['The cron runner moves to supercronic.', 'assistant'],
  ] as const)('keeps %j (%s) as a decision', (text, role) => {
    expect(kind(text, role)).toBe('decision');
  });

  it('does not read renames written with an arrow as choices', () => {
    expect(isFact("I renamed `total` → `sum` in the helper.", 'assistant')).toBe(false);
    expect(isFact("`'draft'` → `'pending'`", 'user')).toBe(false);
  });

  it('reads a failure followed by "…; X is now <done>" as an error resolution', () => {
    expect(kind('Sorting by the raw title broke the German list; titles are now compared with Intl.Collator.', 'assistant')).toBe('error-resolution');
    expect(kind('The cache is now warm; the page loads fast.', 'assistant')).not.toBe('error-resolution');
  });

  it('reads casts and scoped names as identifiers', () => {
    expect(extractIdentifiers('cast the parameter with ::uuid first')).toContain('::uuid');
    expect(extractIdentifiers('it returns a std::string_view')).toContain('std::string_view');
  });

  it('reads a media type as a format, not a file, when a practice is followed', () => {
    expect(kind('The export answers with hal+json like every other endpoint here.', 'assistant')).toBe('convention');
  });
});

describe('refusals said as idioms, and work that follows from a rule', () => {
  it.each([
    ['copyleft dependencies are a no-go for us', 'user'],
    ['server-side rendering is off the table for the admin app', 'user'],
    ['Storing card numbers is ruled out for us, so I kept only the processor token.', 'assistant'],
  ] as const)('keeps %j (%s) as a fact', (text, role) => {
    expect(isFact(text, role)).toBe(true);
  });

  it('still reads ruling a cause out as dead-end debugging', () => {
    expect(analyzeSentence('I ruled the stale cache out after clearing it.', { role: 'assistant', patterns }).isDeadEnd).toBe(true);
    expect(analyzeSentence('Clock skew was ruled out as well.', { role: 'assistant', patterns }).isDeadEnd).toBe(true);
  });

  it('reads "move … over to <name>" as naming a tool', () => {
    expect(kind('Moved the nightly thumbnails over to imgproxy.', 'assistant')).toBe('decision');
  });
});

import { describe, expect, it } from 'vitest';
import { matcherFor, mergePatternPacks } from '../../src/boundaries/pattern-pack.js';
import { englishPatterns } from '../../src/boundaries/patterns/en.js';
import { analyzeSentence, factCategoryFor } from '../../src/graduation/retention.js';
import { countSpecifics, scoreSalience } from '../../src/language/salience.js';

const matcher = matcherFor(englishPatterns);
const withoutSlots = matcherFor({ ...englishPatterns, nameSlot: [] });
type Role = 'user' | 'assistant';
/** How much the lower-case name slots add to what a sentence carries. */
const added = (text: string, role: Role): number =>
  scoreSalience(text, { role, matcher }).specifics - scoreSalience(text, { role, matcher: withoutSlots }).specifics;
const kept = (text: string, role: Role): boolean =>
  factCategoryFor(analyzeSentence(text, { role, patterns: englishPatterns }).retention) !== undefined;

describe('lower-case library and tool names', () => {
  it.each([
    ['the invoices get rendered to PDF with pdfkit', 'user'],
    ['use pnpm for every install in this repo', 'user'],
    ['please switch the unit tests to vitest', 'user'],
    ['we talk to the database via knex, not raw SQL', 'user'],
    ["I'll parse the env file using dotenv.", 'assistant'],
    ['The worker now runs on bullmq instead of a cron loop.', 'assistant'],
    ['We migrated to drizzle, so the old query builder is gone.', 'assistant'],
    ['Run pip install httpx before the integration suite.', 'user'],
    ['I went with tsx for the dev server.', 'assistant'],
    ['logs go through pino, nothing else', 'user'],
    ['I moved the cron jobs onto graphile-worker.', 'assistant'],
  ] as const)('reads the tool in %j (%s) as a name', (text, role) => {
    expect(added(text, role)).toBe(1);
  });

  it.each([
    ['ok, switch to the next step', 'user'],
    ['handle the migration with care', 'user'],
    ['we speed it up using caching', 'user'],
    ['I fixed it with validation on both ends.', 'assistant'],
    ['Retry the upload with backoff and jitter.', 'assistant'],
    ['The form now ships with hooks for every field.', 'assistant'],
    ['Let me move on to task 4 with that in mind.', 'assistant'],
    ['it works with open(path) as before', 'user'],
    ['we can talk it over via email', 'user'],
    ['Use useEffect for the subscription.', 'user'],
    ['I picked this because it was simpler.', 'assistant'],
    ['we walked through it together', 'user'],
    ['moved the handler to utils.', 'assistant'],
    ['I moved the folder and tried to continue, like before.', 'user'],
  ] as const)('does not read a name into %j (%s)', (text, role) => {
    expect(added(text, role)).toBe(0);
  });

  it('counts a name once however often the sentence repeats it', () => {
    expect(added('install esbuild, then build the bundle with esbuild.', 'user')).toBe(1);
  });

  it('keeps a choice of a lower-case tool as a fact from either speaker', () => {
    expect(kept('we deploy via flyctl', 'user')).toBe(true);
    expect(kept("We'll bundle the worker with tsup.", 'assistant')).toBe(true);
    // The same sentences with an ordinary word in the slot stay chatter.
    expect(kept('we deploy via email', 'user')).toBe(false);
    expect(kept("We'll bundle the worker with care.", 'assistant')).toBe(false);
  });

  it('takes its slots and ordinary words from the pattern pack', () => {
    const pack = mergePatternPacks(englishPatterns, { nameSlot: ['bundle with'], commonWord: ['pdfkit'] });
    const custom = matcherFor(pack);
    const specifics = (text: string): number => scoreSalience(text, { role: 'user', matcher: custom }).specifics;
    expect(specifics('the invoices get rendered with pdfkit')).toBe(0);
    expect(specifics('we bundle with rolldown')).toBe(1);
  });

  it('leaves countSpecifics, which only reads values and capitalised names, as it was', () => {
    expect(countSpecifics('use pnpm for every install', { role: 'user' })).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import { englishPatterns } from '../../src/boundaries/patterns/en.js';
import { analyzeSentence, factCategoryFor } from '../../src/graduation/retention.js';
import { turnShapeOf } from '../../src/language/behaviour-statement.js';
import { judgeFact } from '../../src/language/fact-worth.js';
import { hasFixOutcome, isCauseAndFix } from '../../src/language/fix-statement.js';
import { isStatedPreference } from '../../src/language/preference-statement.js';

// Sentences written fresh for this test, by both speakers: likings about how the work is done and
// failures told with their fix, in shapes that carry no cue phrase, and look-alikes that must stay
// routine (offers, declined actions, narration, plans, hopes).
type Role = 'user' | 'assistant';
const analysisOf = (text: string, role: Role) => analyzeSentence(text, { role, patterns: englishPatterns, turn: turnShapeOf(text) });
const isKept = (text: string, role: Role): boolean => factCategoryFor(analysisOf(text, role).retention) !== undefined;

describe('a liking the assistant follows, attributed to the user', () => {
  it.each([
    'I wrapped the long conditions onto separate lines, the way you like them.',
    'The fixtures are plain objects now, since you prefer them to factory helpers.',
    'Went with arrow functions throughout, matching your taste.',
    'I left the comments in British spelling, as you favour it.',
  ])('is kept as a preference: %s', (sentence) => {
    expect(analysisOf(sentence, 'assistant').retention).toBe('preference');
    expect(judgeFact({ sentence, role: 'assistant' })).toBeUndefined();
  });

  it.each([
    'If you like, I can also split the reducer into two files.',
    'I can rename the handler if you prefer.',
    'I added a retry around the upload call.',
    'Would you like me to run the linter as well?',
  ])('an offer or plain narration stays routine: %s', (sentence) => {
    expect(isKept(sentence, 'assistant')).toBe(false);
  });
});

describe('a liking weighed against an alternative', () => {
  it.each<[string, Role]>([
    ["I'd lean towards msw rather than hand-written fetch stubs for these tests.", 'assistant'],
    ['My pick would be date-fns over moment for the new code.', 'assistant'],
    ["we'd rather keep the config in TOML than in YAML", 'user'],
    ['guard clauses over deep nesting, I think', 'user'],
    ['spaces not tabs in the yaml files', 'user'],
    ["I'd sooner read one long function than chase five tiny ones", 'user'],
    ['never been a fan of mocking the database', 'user'],
    ['our pick would be the smaller image', 'user'],
    ['for config files TOML beats YAML', 'user'],
    ['when unsure, choose the dull solution over the smart one', 'user'],
    ['single test file per module, simpler to find things', 'user'],
    ["I'd recommend a plain Map here instead of a class with getters.", 'assistant'],
    ['I normally reach for named tuples; bare tuples are harder to read.', 'assistant'],
  ])('is kept: %s (%s)', (sentence, role) => {
    expect(isKept(sentence, role)).toBe(true);
    expect(isStatedPreference(sentence, { role })).toBe(true);
  });

  it.each<[string, Role]>([
    ["I'd rather not change the public signature in this pass.", 'assistant'],
    ['Do not merge this one yet', 'user'],
    ['looked over the diff again, all fine', 'user'],
    ['The cache was invalidated before the write, not after.', 'assistant'],
    ['That keeps the error near its source instead of three frames later.', 'assistant'],
  ])('a declined action or a plain remark is no preference: %s (%s)', (sentence, role) => {
    expect(isStatedPreference(sentence, { role })).toBe(false);
  });
});

describe('a failure told with its fix by the shape of the sentence', () => {
  it.each([
    'The importer read the file as latin-1; `readRows` decodes it as UTF-8 now.',
    'Raised the worker memory to 1 GB; the crashes were the thumbnailer running out of heap.',
    'The seed script never cleared the sessions table - truncated it first and the suite passes.',
    'The retry loop had no upper bound; `pollStatus` gives up after 12 attempts now.',
    'The stale bundle kept being served from the CDN, so I purged `/assets/*` and it works.',
    'Workaround: start the emulator before the test process connects.',
    'The upload stall is gone after streaming the file instead of buffering it.',
    'Serialised the two jobs behind one lock; the deadlocks were them locking rows in opposite order.',
  ])('is kept as an error resolution: %s', (sentence) => {
    expect(analysisOf(sentence, 'assistant').retention).toBe('error-resolution');
  });

  it.each([
    'I checked the logs - nothing unusual there.',
    'Let me look at why the import stalled; it might be the encoding.',
    'This should pass now.',
    'Switched over: invoices now go out at 06:00.',
    'The handler was long; I read through it twice.',
    'Fix: typo',
  ])('an attempt, a hope or an update is no fix: %s', (sentence) => {
    expect(isCauseAndFix(sentence)).toBe(false);
    expect(analysisOf(sentence, 'assistant').retention).not.toBe('error-resolution');
  });

  it('keeps a change with its outcome even when nothing in it is named', () => {
    const sentence = 'The worker closes its pool on shutdown now and the process exits cleanly.';
    expect(hasFixOutcome(sentence)).toBe(true);
    expect(analysisOf(sentence, 'assistant').retention).toBe('error-resolution');
    expect(hasFixOutcome('The tests should pass now and it works.')).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { englishPatterns } from '../../src/boundaries/patterns/en.js';
import { analyzeSentence, factCategoryFor } from '../../src/graduation/retention.js';
import { turnShapeOf } from '../../src/language/behaviour-statement.js';
import { isCauseAndFix, isSplitCauseAndFix } from '../../src/language/fix-statement.js';

// Sentences written fresh for this test: choices told as a label and its name, by agreeing to a
// named option or as the user's plan for the team; fixes whose fault follows a lead-in or comes
// before the speaker's own change, and fixes told as the means that fixed it. Each has look-alikes
// (routine narration, chatter, a success, a lead-in) that must not become facts.
type Role = 'user' | 'assistant';
const analysisOf = (text: string, role: Role) => analyzeSentence(text, { role, patterns: englishPatterns, turn: turnShapeOf(text) });
const retentionOf = (text: string, role: Role) => analysisOf(text, role).retention;
const isKept = (text: string, role: Role): boolean => factCategoryFor(retentionOf(text, role)) !== undefined;

describe('a choice told by its shape', () => {
  it.each<[string, Role]>([
    ['Queue backend: beanstalkd.', 'assistant'],
    ['feature flags: growthbook', 'user'],
    ['one more thing - error tracking: glitchtip', 'user'],
    ["ok, let's go with option B: Postgres advisory locks.", 'user'],
    ['agreed, Kafka it is.', 'user'],
    ['fine, Pulsar for the event bus then.', 'user'],
    ['so the plan is to ship the raw logs to axiom.', 'user'],
    ['I swapped the hand-rolled retry for p-retry.', 'assistant'],
    ['Selected superstruct for the payload checks.', 'assistant'],
    ['Rendering is done by satori in the edge function.', 'assistant'],
    ['The timezone math goes through date-fns.', 'assistant'],
  ])('is a decision: %s', (sentence, role) => {
    expect(retentionOf(sentence, role)).toBe('decision');
  });

  it.each<[string, Role]>([
    ['Next: the routes file.', 'assistant'],
    ['Status: blocked.', 'assistant'],
    ['Summary: Updated the handler.', 'assistant'],
    ['Reviewed: nothing else changed.', 'assistant'],
    ['agreed, thanks.', 'user'],
    ['ok, let us go with that.', 'user'],
    ["we'll look at it tomorrow.", 'user'],
    ['Looking at the trace output now.', 'assistant'],
    ['I ran the migrations again, nothing changed.', 'assistant'],
    ['restarted the container, same error', 'user'],
  ])('stays routine: %s', (sentence, role) => {
    expect(isKept(sentence, role)).toBe(false);
  });
});

describe('the user taking up an option put to them', () => {
  it.each([
    "let's take your second suggestion, a queue per tenant.",
    'an hourly digest email sounds good, go with that',
    'the soft-delete column looks best, do that',
    'ok, a weekly snapshot table it is.',
  ])('is a decision: %s', (sentence) => {
    expect(retentionOf(sentence, 'user')).toBe('decision');
  });

  it.each(['sounds good, do that', 'the plan sounds good, do it', 'ok, the usual way it is', 'should we take your first suggestion, the cron job?'])(
    'is not: %s',
    (sentence) => {
      expect(retentionOf(sentence, 'user')).not.toBe('decision');
    },
  );
});

describe('a fault and its fix told in one sentence, by either speaker', () => {
  it.each<[string, Role]>([
    ['The gateway was rewriting `Host`, I pinned it in the upstream block.', 'user'],
    ['The lockfile drifted from the manifest; `yarn install --mode=update-lockfile` sorted it.', 'assistant'],
  ])('is an error resolution: %s', (sentence, role) => {
    expect(retentionOf(sentence, role)).toBe('error-resolution');
  });

  it('reads the fault after a lead-in, and keeps the sentence', () => {
    const sentence = 'Found it on my end: the CDN dropped the `sid` cookie, it is on the pass-through list now.';
    expect(isCauseAndFix(sentence)).toBe(true);
    expect(isKept(sentence, 'user')).toBe(true);
  });

  it.each([
    'The first run failed, it passes now.',
    'I checked the logs, it is quiet now.',
    'Based on the trace, I changed my guess:',
    'The build was slow, I grabbed a coffee.',
    'The deploy went out, it is live now.',
  ])('is not: %s', (sentence) => {
    expect(isCauseAndFix(sentence)).toBe(false);
  });
});

describe('a fault and its fix told over two sentences', () => {
  it.each<[string, string]>([
    ['The export job kept the old cursor between pages.', 'It asks `nextPage()` for a fresh one now.'],
    ['The webhook signatures came back empty.', 'Both handlers read the raw body now.'],
    ['The two consumers acked messages in the wrong order.', 'Acking by ascending `offset` fixed it.'],
    ['Uploads hit the body limit.', '`maxPayload` is 20 MB now.'],
    ['The staging schema was missing the newest table.', 'Running `make db-up` before the suite fixed it.'],
  ])('reads as one fix: %s / %s', (cause, fix) => {
    expect(isSplitCauseAndFix(cause, fix)).toBe(true);
    expect(retentionOf(`${cause} ${fix}`, 'assistant')).toBe('error-resolution');
  });

  it.each<[string, string]>([
    ['The test suite finished.', 'It is green now.'],
    ['I ran the suite again.', 'Running it twice fixed nothing.'],
    ['The migration ran.', 'That fixed it.'],
  ])('does not: %s / %s', (cause, fix) => {
    expect(isSplitCauseAndFix(cause, fix)).toBe(false);
  });
});

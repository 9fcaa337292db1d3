import { describe, expect, it } from 'vitest';
import { createBoundaryDetector } from '../../src/boundaries/boundary-detector.js';
import { isChangeReport, tellsFault } from '../../src/language/fix-statement.js';
import type { EntryInput } from '../helpers.js';
import { makeEntries, summarizeChunk } from '../helpers.js';

// Sentences written fresh for this test: fixes told right after a failing run turned green, with
// no cause beside them (a terse change, a list item, a new state that names nothing, a short
// diff), by either speaker; and look-alikes (debugging steps, outcomes, new tests, the same
// wording after a run that was green all along) that must not become error resolutions.
const RED = { kind: 'tool-result', text: 'FAIL  test/ledger.test.ts\n  ✕ settles both legs (41 ms)\nTests: 1 failed, 12 passed, 13 total' } as const;
const GREEN = { kind: 'tool-result', text: 'PASS  test/ledger.test.ts\nTests: 13 passed, 13 total' } as const;
const say = (text: string): EntryInput => ({ kind: 'assistant', text });

function fixesOf(inputs: readonly EntryInput[]): string[] {
  const result = summarizeChunk(inputs, 400);
  return (result.facts ?? []).filter((fact) => fact.category === 'error-resolutions').map((fact) => fact.value);
}

describe('a fix told right after a failing run turned green', () => {
  it.each([
    'Green now.\n\nLocked the two ledger rows in account-id order in `settleTransfer`.',
    'Passing.\n\n- raised `ledger.lockTimeoutMs` to 9000\n- nothing else changed',
    'All green. The settlement job no longer shares one connection between both legs.',
    'The suite is happy. Each leg opens its own transaction now, so neither waits on the other.',
    'Works. Held pg-mem at 2.8.1 in the lockfile.',
  ])('is an error resolution: %s', (report) => {
    expect(fixesOf([say('Running the ledger tests.'), RED, say('Looking into it.'), say('Rerunning.'), GREEN, say(report)]).length).toBe(1);
  });

  it('counts when the failing run fell in an earlier chunk but the fault was told in this one', () => {
    const fixes = fixesOf([
      say('`settleTransfer` never released the first lock before taking the second.'),
      say('Running it again.'),
      GREEN,
      say('That did it. `settleTransfer` releases each lock in a finally block now.'),
    ]);
    expect(fixes).toEqual(['`settleTransfer` releases each lock in a finally block now.']);
  });

  it('counts when the user tells it after the green run', () => {
    const fixes = fixesOf([RED, say('Checking the config.'), GREEN, { kind: 'user', text: 'ok that was my fault, the runner image is on node 22.4 now' }]);
    expect(fixes.length).toBe(1);
  });

  it('keeps a short diff with its old and new lines and the remark after it', () => {
    const diff = 'Good.\n\n```diff\n-  maxLegs: 2,\n+  maxLegs: 4,\n```\nSplit payments have up to four legs, the cap was too low.';
    const fix = fixesOf([RED, say('Reading the settle code.'), GREEN, say(diff)]).find((value) => value.includes('→'));
    expect(fix).toContain('maxLegs: 4');
    expect(fix).toContain('maxLegs: 2');
    expect(fix).toContain('cap was too low');
  });

  it.each([
    'Passing. Trying again with verbose logs to be sure it is stable.',
    'Green. Raised the log level to debug for this run only.',
    'Passing now.',
    'All green. Added a regression test for the three-leg case.',
    'Good. Let me check the trace once more before moving on.',
    'Green. Should we keep the retry around?',
  ])('a look-alike is not: %s', (report) => {
    expect(fixesOf([RED, say('Looking into it.'), GREEN, say(report)])).toEqual([]);
  });

  it('does not count a change reported after a run that was green all along', () => {
    expect(fixesOf([say('Running the ledger tests.'), GREEN, say('Passing. The statement export has a currency column now.')])).toEqual([]);
  });
});

describe('the shape readers', () => {
  it.each([
    ['Pinned the tz database to 2024a.', true],
    ['- bumped the worker pool to 12', true],
    ['The export streams rows one page at a time now.', true],
    ['Uploads no longer wait for the thumbnail.', true],
    ['Bumped the log level to debug to see where it hangs.', false],
    ['Still failing, same assertion.', false],
    ['Now I need to check the callers.', false],
    ['Everything passes now.', false],
    ['Added two tests for the empty cart.', false],
  ])('isChangeReport(%s) is %s', (sentence, expected) => {
    expect(isChangeReport(sentence)).toBe(expected);
  });

  it.each([
    ['`flush` never awaited the write.', true],
    ['Root cause: the cache key left out the region.', true],
    ['The logged values look fine.', false],
    ['Could the cache be stale?', false],
  ])('tellsFault(%s) is %s', (sentence, expected) => {
    expect(tellsFault(sentence)).toBe(expected);
  });
});

describe('boundaries around a failure', () => {
  const strengths = (inputs: readonly EntryInput[]) => createBoundaryDetector().scoreGaps(makeEntries(inputs)).map((score) => score.strength);

  it('keeps a green run with the agent report that follows it', () => {
    expect(strengths([RED, say('Fixed the lock order.'), GREEN, say('Green now. The legs lock in id order.')])[2]).toBe('weak');
  });

  it('does not end a chunk at completion wording while a run still fails', () => {
    const inputs = [RED, say('Done: the lock timeout is 9 seconds.'), say('Rerunning.')];
    expect(strengths(inputs)[1]).toBe('weak');
    expect(strengths([GREEN, say('Done: the lock timeout is 9 seconds.'), say('Next file.')])[1]).toBe('strong');
  });
});

import { describe, expect, it } from 'vitest';
import { englishPatterns } from '../../src/boundaries/patterns/en.js';
import { analyzeSentence, factCategoryFor } from '../../src/graduation/retention.js';
import { turnShapeOf } from '../../src/language/behaviour-statement.js';
import { judgeFact } from '../../src/language/fact-worth.js';
import { isStatedPreference } from '../../src/language/preference-statement.js';

// Sentences written fresh for this test: tastes, dislikes and habits about how the work is done,
// told by either speaker without naming an alternative, and look-alikes that are no standing
// preference (a one-off action, a question, praise of what was just shown, a complaint about one
// bug, a habit of mind).
type Role = 'user' | 'assistant';
const analysisOf = (text: string, role: Role) => analyzeSentence(text, { role, patterns: englishPatterns, turn: turnShapeOf(text) });
const isKept = (text: string, role: Role): boolean => factCategoryFor(analysisOf(text, role).retention) !== undefined;

describe('a dislike or a taste of things of a kind', () => {
  it.each<[string, Role]>([
    ['what annoys me most is boolean flags in function signatures', 'user'],
    ['Honestly, what I really like is small pure functions with one job.', 'user'],
    ['long parameter lists drive me up the wall', 'user'],
    ['my pet peeve is trailing whitespace in diffs', 'user'],
    ["I can't stand nested ternaries in render code", 'user'],
    ['I find snapshot tests noisy and hard to review', 'user'],
    ["in my experience GraphQL is more hassle than it's worth for internal tools", 'user'],
    ["I've come to dislike decorators in service code", 'user'],
    ['we are pretty big on pure reducers', 'user'],
    ["I'm really into table-driven tests lately", 'user'],
    ['honestly attrs classes feel more natural to me than namedtuples', 'user'],
    ['Podman is my comfort zone for local containers', 'user'],
    ['For the frontend, Biome is the linter we rely on, keep it that way.', 'user'],
    ['ruff is the formatter I swear by', 'user'],
    ["I'm fond of tiny commits with long messages", 'user'],
    ['Python 3.12 for me, I find anything older painful to work with.', 'user'],
  ])('is kept as a preference: %s (%s)', (sentence, role) => {
    expect(isStatedPreference(sentence, { role })).toBe(true);
    expect(isKept(sentence, role)).toBe(true);
  });

  it.each<[string, Role]>([
    ['this error is annoying', 'user'],
    ['this flaky spec drives me nuts', 'user'],
    ['I find the stack trace confusing', 'user'],
    ['I find it hard to reproduce on my laptop', 'user'],
    ["this rebase is more trouble than it's worth", 'user'],
    ["I'm into the second file now", 'user'],
    ['this layout looks right to me', 'user'],
    ['Friday is my favourite day', 'user'],
    ["I can't stand this redirect loop any more", 'user'],
    ['the retry banner bugs me', 'user'],
    ['the cache layer is the part I trust least', 'user'],
    ['This is the helper I keep coming back to when debugging', 'user'],
  ])('a complaint about one thing is no preference: %s (%s)', (sentence, role) => {
    expect(isStatedPreference(sentence, { role })).toBe(false);
  });
});

describe("a liking of the listener's or the team's, told by either speaker", () => {
  it.each<[string, Role]>([
    ["Kept the reducer free of side effects, knowing you're not a fan of them in reducers.", 'assistant'],
    ['Since your reviewers prefer one assertion per test, I split the case in two.', 'assistant'],
    ['I ran the formatter through Biome, your linter of choice.', 'assistant'],
    ['the platform team really likes small focused commits', 'user'],
    ['for mocking HTTP my go-to is msw', 'user'],
    ['Given your earlier note about disliking getters, the fields are plain properties.', 'assistant'],
    ['Since you clearly prefer short commit subjects, I kept this one under fifty characters.', 'assistant'],
  ])('is kept as a preference: %s (%s)', (sentence, role) => {
    expect(isStatedPreference(sentence, { role })).toBe(true);
    expect(isKept(sentence, role)).toBe(true);
    if (role === 'assistant') expect(judgeFact({ sentence, role })).toBeUndefined();
  });

  it.each<[string, Role]>([
    ['the lead likes the new dashboard', 'user'],
    ['your team likes it', 'user'],
    ['the team wants to know when it ships', 'user'],
    ["you're not going to like this, but the build is red again", 'user'],
  ])('praise of one thing or a wish is no preference: %s (%s)', (sentence, role) => {
    expect(isStatedPreference(sentence, { role })).toBe(false);
  });
});

describe('a choice marked as the speaker’s own, a recommendation taken up, a habit', () => {
  it.each<[string, Role]>([
    ['personally I would keep config in TypeScript files, YAML hides typos', 'user'],
    ["I'd suggested Valibot for the request schemas and you signed off on it, so the new endpoint uses it.", 'assistant'],
    ['I usually squash my commits before opening a PR', 'user'],
    ["I'm increasingly leaning towards Deno for one-off scripts", 'user'],
    ['alright, Playwright it is', 'user'],
    ['My suggestion was Hono for the edge routes, which you were happy with.', 'assistant'],
    ['for queues I lean RabbitMQ', 'user'],
    ['Favour plain objects.', 'user'],
  ])('is kept as a preference: %s (%s)', (sentence, role) => {
    expect(isStatedPreference(sentence, { role })).toBe(true);
    expect(isKept(sentence, role)).toBe(true);
  });

  it.each<[string, Role]>([
    ["I'll use grep here", 'user'],
    ["personally I'd use ripgrep here", 'user'],
    ['do you prefer tabs or spaces?', 'user'],
    ['I like that idea', 'user'],
    ['I tend to agree with that', 'user'],
    ['I always forget the flag', 'user'],
    ["I suggested a retry and you agreed to look at it later?", 'assistant'],
    ["I'd recommend adding an index on the owner column.", 'assistant'],
    ['Here it is.', 'assistant'],
    ['My suggestion is to retry once, if that works for you.', 'assistant'],
    ['I lean on the linter a lot', 'user'],
    ['I know what it is', 'user'],
  ])('a one-off action, a question, chatter or an open proposal is no preference: %s (%s)', (sentence, role) => {
    expect(isStatedPreference(sentence, { role })).toBe(false);
    expect(analysisOf(sentence, role).retention).not.toBe('preference');
  });

  it.each<[string, Role]>([
    ['do you prefer tabs or spaces?', 'user'],
    ['I like that idea', 'user'],
    ['this error is annoying', 'user'],
    ['I tend to agree with that', 'user'],
  ])('is not kept at all: %s (%s)', (sentence, role) => {
    expect(isKept(sentence, role)).toBe(false);
  });
});

describe('a changed taste is said as an update', () => {
  it.each<[string, Role]>([
    ['on second thought, two-space indentation for the YAML files', 'user'],
    ["I've come around on Biome for linting the frontend", 'user'],
    ["ok, I've reconsidered: the docs site stays on Docusaurus", 'user'],
    ['we are keeping the Makefile targets after all', 'user'],
    ['Since you changed your mind, the handlers use classes again.', 'assistant'],
  ])('reads as an update: %s (%s)', (sentence, role) => {
    expect(analysisOf(sentence, role).isUpdate).toBe(true);
  });

  it.each<[string, Role]>([
    ['after all the tests pass, ping me', 'user'],
    ["I've gone off to grab lunch", 'user'],
    ['second thoughts are normal in a design review', 'user'],
  ])('a look-alike is no update: %s (%s)', (sentence, role) => {
    expect(analysisOf(sentence, role).isUpdate).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { createTokenCounter } from '../../src/index.js';
import { isKindRevision, isRoleRevision } from '../../src/graduation/kind-revision.js';
import { createFactStore } from '../../src/tiers/facts.js';

// Pairs written fresh for this test: a tool liked for a role, then another tool put in the same
// role, by either speaker; and pairs about two roles or two scopes that must stay two facts.
const counter = createTokenCounter();

describe('isKindRevision', () => {
  it.each([
    ['I went with Zustand since it is the state library you like.', 'on second thought, Jotai as the state library'],
    ['My preferred test runner is Mocha, it starts fast.', "I've come around on test runners: Vitest from now on."],
    ['Honestly Biome is the code formatter I trust most.', 'on second thought, Prettier as the code formatter'],
  ])('another tool in the same role revises: %s → %s', (older, newer) => {
    expect(isKindRevision(older, newer)).toBe(true);
  });

  it.each([
    ['the test runner is Vitest', 'actually the task runner is Just now'],
    ['the package manager is Bun', 'on second thought, the package manager for the docs site is Yarn'],
    ['the state library is Zustand', 'on second thought, the state library stays Zustand'],
    ['I like Pino as the logging library', 'the date library is Luxon from now on'],
  ])('another role, another scope or no new name is no revision: %s → %s', (older, newer) => {
    expect(isKindRevision(older, newer)).toBe(false);
  });
});

describe('a changed tool for a role in the facts tier', () => {
  it('replaces the older preference when said as an update', () => {
    const store = createFactStore({ counter });
    store.apply({ updates: [{ category: 'preferences', value: 'Since Mocha is your test runner of choice, I ran the suite with it.' }], source: { from: 1, to: 2 }, seq: 3 });
    store.apply({ updates: [{ category: 'preferences', value: "I've come around on test runners, Vitest from now on.", isUpdate: true }], source: { from: 4, to: 5 }, seq: 6 });
    expect(store.facts()).toHaveLength(1);
    expect(store.facts()[0]?.value).toContain('Vitest');
  });

  it('keeps both when the newer is not said as an update, or names another role', () => {
    const store = createFactStore({ counter });
    store.apply({ updates: [{ category: 'preferences', value: 'Since Mocha is your test runner of choice, I ran the suite with it.' }], source: { from: 1, to: 2 }, seq: 3 });
    store.apply({ updates: [{ category: 'preferences', value: 'For the e2e suite the test runner is Playwright.' }], source: { from: 4, to: 5 }, seq: 6 });
    store.apply({ updates: [{ category: 'preferences', value: 'From now on the task runner is Just.', isUpdate: true }], source: { from: 7, to: 8 }, seq: 9 });
    expect(store.facts()).toHaveLength(3);
  });

  it('keeps a schedule or a limit that names a role apart from a later one about that role', () => {
    const store = createFactStore({ counter });
    store.apply({ updates: [{ category: 'conventions', value: 'The session cache is flushed every Monday at 06:00.' }], source: { from: 1, to: 2 }, seq: 3 });
    store.apply({ updates: [{ category: 'conventions', value: 'Going forward the session cache is Redis, not Memcached.', isUpdate: true }], source: { from: 4, to: 5 }, seq: 6 });
    expect(store.facts().map((fact) => fact.value)).toHaveLength(2);
  });
});

describe('isRoleRevision', () => {
  it.each([
    ["We'll host the marketing site on Netlify.", 'Change of plan: the marketing site moves to Cloudflare Pages.'],
    ['I set up the mail sending with Postmark since you asked for it.', 'Update: mail sending goes through Resend now.'],
    ['I hooked the analytics up to Mixpanel because you mentioned liking it.', 'On second thought, PostHog for analytics suits us better.'],
    ['Feature flags are served by LaunchDarkly.', 'Going forward, feature flags come from Unleash.'],
    ['The audit export must produce JSON and Avro files.', 'Scratch that: audit exports need CSV and ORC.'],
    ['Let me bundle the widget with webpack, as before.', 'Actually, bundle the widget with esbuild from now on.'],
    ['The indexer for tenant7 uses Typesense.', 'Update: the indexer for tenant7 moves to Meilisearch.'],
  ])('another name in the same role, worded another way, revises: %s → %s', (older, newer) => {
    expect(isRoleRevision(older, newer)).toBe(true);
  });

  it.each([
    ["We'll host the marketing site on Netlify.", 'Update: the docs site moves to Vercel.'],
    ['Use Sentry for error tracking.', 'Update: use Datadog for log shipping now.'],
    ['Deploy the worker with Fly.', 'Update: deploy the dashboard with Render.'],
    ['We use Vitest for unit tests.', 'Update: use Playwright for e2e tests.'],
    ['Store sessions in Redis.', 'Going forward, the session store is flushed every Sunday at 04:00.'],
    ['The indexer for tenant7 uses Typesense.', 'Update: the indexer for tenant12 uses Meilisearch.'],
    ['The API is written in Go.', 'Update: the CLI is written in Rust.'],
    ['Postgres for the session store.', 'Update: Redis for the session cache.'],
    ['We lint with ESLint.', 'Update: we format with Prettier now.'],
    ['We run the tests through Jest.', "Update: we'll run search on Typesense."],
    ['The session cache is Redis.', 'Update: the session cache keeps 5 minutes of entries in Redis.'],
    ['The `OrderBook` class has `place` and `cancel` methods that share this map.', 'Update: in `Matcher.cs`, the `place` method now calls `reserveStock()`.'],
  ])('another role, another scope, another thing or an amount is no revision: %s / %s', (older, newer) => {
    expect(isRoleRevision(older, newer)).toBe(false);
  });
});

describe('another name in a role in the facts tier', () => {
  it('replaces the older choice when said as an update, by either speaker, and keeps others', () => {
    const store = createFactStore({ counter });
    store.apply({ updates: [{ category: 'decisions', value: 'I hooked the analytics up to Mixpanel because you mentioned liking it.' }], source: { from: 1, to: 2 }, seq: 3 });
    store.apply({ updates: [{ category: 'decisions', value: 'Errors are reported to Sentry.' }], source: { from: 4, to: 5 }, seq: 6 });
    store.apply({ updates: [{ category: 'preferences', value: 'On second thought, PostHog for analytics suits us better.', isUpdate: true }], source: { from: 7, to: 8 }, seq: 9 });
    const values = store.facts().map((fact) => fact.value);
    expect(values).toHaveLength(2);
    expect(values.some((value) => value.includes('PostHog'))).toBe(true);
    expect(values.some((value) => value.includes('Mixpanel'))).toBe(false);
    expect(values.some((value) => value.includes('Sentry'))).toBe(true);
  });

  it('keeps both when the newer is not said as an update', () => {
    const store = createFactStore({ counter });
    store.apply({ updates: [{ category: 'decisions', value: "We'll host the marketing site on Netlify." }], source: { from: 1, to: 2 }, seq: 3 });
    store.apply({ updates: [{ category: 'decisions', value: 'The marketing site preview builds on Vercel.' }], source: { from: 4, to: 5 }, seq: 6 });
    expect(store.facts()).toHaveLength(2);
  });
});

import { describe, expect, it } from 'vitest';
import { judgeFact, readMessageLayout } from '../../src/language/fact-worth.js';
import type { SummarizeResult } from '../../src/summarizer/summarizer.js';
import type { Entry } from '../../src/types.js';
import { summarizeChunk } from '../helpers.js';


/** Judges every sentence of `lines` (one per line) as said by `role` in a message made of them. */
function judgeLines(role: Entry['role'], lines: readonly string[]): ReturnType<typeof judgeFact>[] {
  const layout = readMessageLayout(lines.join('\n'));
  return lines.map((line) => judgeFact({ sentence: line.replace(/^\s*(?:[-*]|\d+\.|#+)\s+/u, ''), role, layout }));
}

function summarize(entries: readonly Pick<Entry, 'kind' | 'text'>[]): SummarizeResult {
  return summarizeChunk(entries, 400);
}

describe('judgeFact()', () => {
  describe('keeps durable statements', () => {
    it.each([
      ['user', 'The billing worker must retry a failed webhook at most 4 times.'],
      ['user', 'Store every upload under s3://media-raw/ with the tenant id as prefix.'],
      ['user', 'Never log the full card number, mask all but the last four digits.'],
      ['assistant', 'The timeouts came from the Redis pool being capped at 8 connections; raising it to 32 fixed them.'],
      ['assistant', 'Going with Drizzle for the data layer since it keeps the SQL visible.'],
      ['assistant', 'Heads up: the staging cluster only has 512MB per pod.'],
      ['assistant', 'Always run `pnpm db:migrate` before starting the API locally.'],
      ['assistant', 'Switching the compiler to strict mode surfaced 14 implicit any errors.'],
      ['assistant', "I've successfully moved the receipts archive to S3 Glacier with a 90 day cutoff."],
      ['assistant', "Let's go with Valkey for the session cache since the licence is simpler."],
      ['assistant', 'I see the problem: the cache key ignores the locale, fixed by adding it to the key.'],
      ['assistant', "We'll serve the admin UI from the same origin as the API:"],
      ['assistant', 'Here is the fix: the retry loop must await `queue.drain()` before it exits.'],
      ["assistant", "Let's keep the upload limit at 25MB for now and revisit after launch."],
      ['assistant', 'I have now repaired the nightly export by retrying the S3 upload twice.'],
      ['assistant', 'The gateway now has a 30s timeout on every upstream call.'],
      ['assistant', 'Please note that staging shares its Redis instance with the preview apps.'],
      ['assistant', '**Decision:** the flaky upload test: a socket stayed open; fixed by closing the agent in afterAll.'],
    ] as const)('%s: %s', (role, sentence) => {
      expect(judgeFact({ sentence, role, layout: readMessageLayout(sentence) })).toBeUndefined();
    });

    it('keeps the items of a list of findings', () => {
      const verdicts = judgeLines('assistant', [
        'Here is what the profiler showed:',
        '- The image resizer holds a 40 MB buffer per request',
        '- `sharp` is loaded twice because two packages pin different versions',
      ]);
      expect(verdicts.slice(1)).toEqual([undefined, undefined]);
    });

    it('keeps a user instruction inside a long pasted answer', () => {
      const pasted = [
        'Here is what another reviewer suggested, please apply it:',
        'Copy',
        'Edit',
        'Your queue consumer and your cron job both write the same ledger file — that is where the corruption comes from.',
        'Guard every write to ledger.json with a lock file so only one process writes at a time.',
        'If you want extra safety, you could also keep a rolling backup of the last three versions.',
        'It’s a common pattern — and it’s cheap to add.',
      ].join('\n');
      const layout = readMessageLayout(pasted);
      expect(layout.isPasted).toBe(true);
      expect(judgeFact({ sentence: 'Guard every write to ledger.json with a lock file so only one process writes at a time.', role: 'user', layout })).toBeUndefined();
      expect(judgeFact({ sentence: 'If you want extra safety, you could also keep a rolling backup of the last three versions.', role: 'user', layout })).toBe('pasted');
      expect(judgeFact({ sentence: 'It’s a common pattern — and it’s cheap to add.', role: 'user', layout })).toBe('pasted');
    });
  });

  describe('rejects what is not a durable statement', () => {
    it.each([
      ['notice', 'user', '[Request cancelled while a tool was running]'],
      ['lead-in', 'assistant', 'Here is the change to the router config:'],
      ['output', 'user', '2026-03-14 09:12:55 WARN cache miss for key user:42'],
      ['output', 'user', 'Assistant: sure, here are three ideas for your landing page'],
      ['output', 'user', 'Indexing: 100%|██████████████████| 12/12 [00:03<00:00]'],
      ['output', 'user', 'Same answer every time: Assistant: here is what I know about caching'],
      ['code', 'user', '"max_retries": 7,   # how often the poller tries again'],
      ['code', 'user', 'CACHE_TTL = 3600  # seconds'],
      ['code', 'user', 'If not rows: return "nothing to import"'],
      ['output', 'user', 'cd "D:\\work\\importer" dir *.csv'],
      ['lead-in', 'assistant', "Here's what I'll check next: Whether the cron entry still points at the old host"],
      ['question', 'user', 'Why does the importer skip the first row?'],
      ['question', 'assistant', 'Should I also regenerate the fixtures for the mobile client?'],
      ['mode', 'assistant', 'Please flip me over to act mode and I will write the migration.'],
      ['narration', 'assistant', "Now let's rerun the linter to make sure nothing else broke."],
      ['narration', 'assistant', "I've successfully wired up the new dashboard and cleaned up the old widgets."],
      ['narration', 'assistant', 'This approach ensures the dashboard stays fast and easy to maintain going forward.'],
      ['plan-step', 'assistant', '- Investigate how the scheduler picks the next job'],
    ] as const)('%s: %s', (reason, role, said) => {
      const sentence = said.replace(/^- /u, '');
      expect(judgeFact({ sentence, role, layout: readMessageLayout(said) })).toBe(reason);
    });

    it('rejects the steps of a plan the assistant lays out, not the findings after it', () => {
      const verdicts = judgeLines('assistant', [
        'Next I will:',
        '1. Move the pricing rules into their own module',
        '2. Benchmark the checkout flow with 200 concurrent carts',
        'The slow path is the tax lookup because it hits the API once per line item.',
      ]);
      expect(verdicts).toEqual(['lead-in', 'plan-step', 'plan-step', undefined]);
    });

    it('does not take a statement after a short label for narration', () => {
      expect(judgeFact({ sentence: 'Now that the quota moved: each workspace stores up to 40 boards.', role: 'assistant' })).toBeUndefined();
      expect(judgeFact({ sentence: 'Now that the quota moved, I have updated the tests.', role: 'assistant' })).toBe('narration');
    });

    it('reads a noun that looks like a verb as the subject of a rule', () => {
      // A completion report that names nothing is not a fact (see fact-worth-shapes.test.ts).
      expect(judgeLines('assistant', ['Done, the importer is fixed.', '- build artifacts go to out/ and are never committed'])).toEqual(['completion', undefined]);
    });

    it('does not read a list after a code block as the steps of the text before it', () => {
      const layout = readMessageLayout('We still need to change the parser.\n```ts\nparse(x);\n```\n- search results are cached for 60s per tenant');
      expect(judgeFact({ sentence: 'search results are cached for 60s per tenant', role: 'assistant', layout })).toBeUndefined();
    });

    it('rejects a Title Case heading line', () => {
      expect(judgeLines('assistant', ['Rework Caching Layer for reports.ts', 'Reports are cached for 10 minutes per tenant.'])).toEqual(['heading', undefined]);
    });

    it('rejects instructions in a tool call input, naming files or not', () => {
      const said = 'The parser drops rows whose `amount` column is empty.';
      const prompt = 'Read src/ingest/parser.ts and list every place that skips a row.';
      const layout = readMessageLayout(`${said}\n${prompt}`, { toolInputFrom: said.length });
      expect(judgeFact({ sentence: said, role: 'assistant', layout })).toBeUndefined();
      expect(judgeFact({ sentence: prompt, role: 'assistant', layout })).toBe('plan-step');
      // The same words said in the message itself name a file worth remembering.
      expect(judgeFact({ sentence: prompt, role: 'assistant', layout: readMessageLayout(prompt) })).toBeUndefined();
    });

    it('reads a long text that keeps advising its reader as pasted', () => {
      const notice = [
        'Message from the installer:',
        'A newer version of the toolchain was found on your PATH.',
        'If you installed it by hand, remove it before continuing.',
        'You might also see warnings about duplicate binaries in your home folder.',
        'If you prefer to keep both, set TOOLCHAIN_SKIP_CHECK=1 in your shell profile.',
        'This check exists because mixed versions are a frequent cause of broken builds.',
      ].join('\n').repeat(3);
      const layout = readMessageLayout(notice);
      expect(layout.isPasted).toBe(true);
      expect(judgeFact({ sentence: 'If you prefer to keep both, set TOOLCHAIN_SKIP_CHECK=1 in your shell profile.', role: 'user', layout })).toBe('pasted');
    });

    it('rejects a heading but keeps the sentence under it', () => {
      const verdicts = judgeLines('user', ['## 3 Rollout without downtime', 'Deploy the new workers before the API, never the other way round.']);
      expect(verdicts).toEqual(['heading', undefined]);
    });

    it('rejects a numbered section title a copy left a language name on', () => {
      const layout = readMessageLayout('2 Rotate the signing keys\nbash\nopenssl rand -hex 32');
      expect(judgeFact({ sentence: '2 Rotate the signing keys bash', role: 'user', layout })).toBe('heading');
    });
  });
});

describe('the extractive summarizer with judgeFact()', () => {
  it('admits findings as facts and leaves plan steps and narration to the summary', () => {
    const result = summarize([
      { kind: 'user', text: 'Receipts must be kept for 7 years, so never hard-delete the receipts table.' },
      {
        kind: 'assistant',
        text: [
          'This approach ensures the archive stays cheap and easy to audit going forward.',
          'Here is my plan for the archive:',
          '1. Create a nightly `archive-receipts` job that copies closed receipts to the cold bucket every 24h',
          '2. Verify each copy against the `row_sha256` column',
          'The export timed out because the receipts query scanned the table without an index on `closed_at`.',
        ].join('\n'),
      },
    ]);
    const facts = result.facts?.map((fact) => fact.value) ?? [];
    expect(facts.some((value) => value.includes('7 years'))).toBe(true);
    expect(facts.some((value) => value.includes('closed_at'))).toBe(true);
    expect(facts.some((value) => value.includes('archive-receipts'))).toBe(false);
    expect(facts.some((value) => value.includes('row_sha256'))).toBe(false);
    expect(facts.some((value) => value.includes('cheap and easy'))).toBe(false);
    // Kept out of the facts, the plan still reaches the summary with its identifiers.
    expect(result.summary).toContain('archive-receipts');
    expect(result.summary).toContain('row_sha256');
  });
});

describe('judgeFact() on command lines and the assistant’s checks', () => {
  it.each<[string, 'user' | 'assistant']>([
    ['git add -A && git commit -m "fix: keep the coupon"', 'assistant'],
    ['npm publish --access public', 'user'],
    ['docker compose up -d && docker compose logs -f api', 'assistant'],
  ])('a command line is code: %s', (sentence, role) => {
    expect(judgeFact({ sentence, role })).toBe('code');
  });

  it.each<[string, 'user' | 'assistant']>([
    ['npm ci must be used in CI, never npm install.', 'user'],
    ['git tags follow the vMAJOR.MINOR.PATCH scheme.', 'assistant'],
  ])('a rule about a tool is no command: %s', (sentence, role) => {
    expect(judgeFact({ sentence, role })).toBeUndefined();
  });

  it('reads the assistant wanting to rule something out as deliberation, not the user', () => {
    expect(judgeFact({ sentence: "I'd like to rule out the fixture before I touch `mergeCarts`.", role: 'assistant' })).toBe('deliberation');
    expect(judgeFact({ sentence: 'I would like to see the cart totals in cents everywhere.', role: 'user' })).toBeUndefined();
  });
});

describe('judgeFact() on what the assistant wants settled before it acts', () => {
  it('reads a wish led by "before …" as deliberation', () => {
    expect(judgeFact({ sentence: 'Before touching the schema, I want to see how `syncCart` reads `couponId`.', role: 'assistant' })).toBe('deliberation');
    expect(judgeFact({ sentence: "Before I edit anything I'd like to confirm the fixtures load `tenantId`.", role: 'assistant' })).toBe('deliberation');
    expect(judgeFact({ sentence: 'Before editing the mapper I want to be sure the seed rows carry `region`.', role: 'assistant' })).toBe('deliberation');
  });

  it('keeps a rule about what happens before something', () => {
    expect(judgeFact({ sentence: 'Before merging, we always run the contract suite against staging.', role: 'assistant' })).toBeUndefined();
    expect(judgeFact({ sentence: 'Before you deploy, I want every migration reviewed by the data team.', role: 'user' })).toBeUndefined();
  });
});

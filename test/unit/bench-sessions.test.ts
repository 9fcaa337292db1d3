import { mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { aggregate } from '../../bench/aggregate.js';
import { defaultSets, setsFromArguments } from '../../bench/bench-sets.js';
import type { SessionResult } from '../../bench/run-session.js';
import { loadBenchSession, toBenchSession } from '../../bench/session-source.js';
import type { SessionLine } from '../../examples/replay.js';

const REAL_META: SessionLine = { type: 'meta', source: 'someone/some-repo', format: 'cline' };
const FIXTURES = new URL('../../bench/fixtures/', import.meta.url).pathname;

function events(count: number, make: (index: number) => SessionLine = (index) => ({ type: index % 2 === 0 ? 'user' : 'assistant', text: `message ${index}` })): SessionLine[] {
  return Array.from({ length: count }, (_unused, index) => make(index));
}

describe('bench sessions: real transcripts with hand-written probes', () => {
  it('keeps the real clock and uses the annotated checkpoints instead of 15-minute marks', () => {
    const lines: SessionLine[] = [
      REAL_META,
      ...events(40),
      { type: 'probe', id: 'p1', category: 'decision', stated_in: 'assistant', answer_keywords: ['Fastify'], question: 'Which HTTP layer?' },
      { type: 'checkpoint', id: 'c1', probes: ['p1'] },
      ...events(80),
      { type: 'checkpoint', id: 'c2', probes: ['p1'], final: true },
    ];
    const session = toBenchSession({ file: 'real.jsonl', name: 'real', lines });

    expect(session.kind).toBe('real');
    expect(session.isScored).toBe(true);
    expect(session.clock).toBe('event count');
    expect(session.checkpoints.map((checkpoint) => checkpoint.id)).toEqual(['c1', 'c2']);
    // Probe lines do not advance the clock: 40 events at 15 s each.
    expect(session.probes.get('p1')?.minute).toBe(10);
    expect(session.eventCount).toBe(120);
  });

  it('still measures unannotated transcripts every 15 minutes, unscored', () => {
    const session = toBenchSession({ file: 'plain.jsonl', name: 'plain', lines: [REAL_META, ...events(130)] });

    expect(session.isScored).toBe(false);
    expect(session.checkpoints.map((checkpoint) => checkpoint.id)).toEqual(['m15', 'm30', 'end']);
  });

  it('does not count the timestamps annotations copy towards a coarse clock', () => {
    const stamp = (minute: number): string => new Date(Date.UTC(2025, 0, 1, 9, minute)).toISOString();
    const lines: SessionLine[] = [REAL_META];
    for (let index = 0; index < 4; index += 1) {
      lines.push({ type: 'user', text: `message ${index}`, ts: stamp(index * 5) });
      // Two probes after each statement, each with the statement's timestamp.
      for (const suffix of ['a', 'b']) lines.push({ type: 'probe', id: `p${index}${suffix}`, category: 'routine', answer_keywords: ['x'], ts: stamp(index * 5) });
    }
    lines.push({ type: 'checkpoint', id: 'c1', probes: ['p0a'], final: true, ts: stamp(15) });
    const session = toBenchSession({ file: 'stamped.jsonl', name: 'stamped', lines });

    expect(session.clock).toBe('timestamps, idle gaps capped');
    expect(session.probes.get('p3a')?.minute).toBe(15);
  });

  it('annotates every bundled real fixture with 10–20 probes and at least 6 checkpoints that list only known probes', () => {
    const files = readdirSync(FIXTURES).filter((name) => name.startsWith('real-'));
    expect(files.length).toBe(6);
    for (const name of files) {
      const session = loadBenchSession(join(FIXTURES, name));
      expect(session.kind, name).toBe('real');
      expect(session.probes.size, name).toBeGreaterThanOrEqual(10);
      expect(session.probes.size, name).toBeLessThanOrEqual(20);
      expect(session.checkpoints.length, name).toBeGreaterThanOrEqual(6);
      expect(session.checkpoints.at(-1)?.isFinal, name).toBe(true);
      for (const checkpoint of session.checkpoints) {
        for (const id of checkpoint.probes) {
          const probe = session.probes.get(id);
          expect(probe, `${name} ${checkpoint.id} ${id}`).toBeDefined();
          expect(probe?.lineIndex ?? Infinity, `${name} ${id} listed before it is stated`).toBeLessThan(checkpoint.lineIndex);
        }
      }
      for (const probe of session.probes.values()) {
        expect(probe.keywords.length, `${name} ${probe.id}`).toBeGreaterThanOrEqual(1);
        expect(probe.keywords.length, `${name} ${probe.id}`).toBeLessThanOrEqual(3);
        if (probe.supersedes !== undefined) expect(session.probes.has(probe.supersedes), `${name} ${probe.id}`).toBe(true);
      }
    }
  });
});

describe('bench sets', () => {
  it('splits the fixtures into the bundled synth and real sets and reports a missing validation set', () => {
    const root = mkdtempSync(join(tmpdir(), 'mobius-bench-sets-'));
    const fixtures = join(root, 'fixtures');
    mkdirSync(fixtures);
    for (const name of ['synth-a-seed1-30min.jsonl', 'real-01-x.jsonl.gz', 'notes.txt']) writeFileSync(join(fixtures, name), '');

    const { sets, missing } = defaultSets({ fixtures, validation: join(root, 'synth-c') });

    expect(sets.map((set) => [set.name, set.files.map((file) => file.slice(fixtures.length + 1))])).toEqual([
      ['synth', ['synth-a-seed1-30min.jsonl']],
      ['real', ['real-01-x.jsonl.gz']],
    ]);
    expect(missing).toEqual([`synth-c (${join(root, 'synth-c')})`]);
  });

  it('reads the validation set from its folder when it exists', () => {
    const root = mkdtempSync(join(tmpdir(), 'mobius-bench-sets-'));
    const fixtures = join(root, 'fixtures');
    const validation = join(root, 'synth-c');
    mkdirSync(fixtures);
    mkdirSync(validation);
    writeFileSync(join(validation, 'c-seed201-30min.jsonl'), '');

    const { sets, missing } = defaultSets({ fixtures, validation });

    expect(sets.map((set) => set.name)).toEqual(['synth-c']);
    expect(sets[0]?.isInThroughput).toBe(false);
    expect(missing.map((entry) => entry.split(' ')[0])).toEqual(['synth', 'real']);
  });
});

describe('bench sets from arguments', () => {
  it('makes a folder one set named after it, names a set given as name=path, and pools loose files', () => {
    const root = mkdtempSync(join(tmpdir(), 'mobius-bench-args-'));
    const folder = join(root, 'corpus');
    mkdirSync(folder);
    for (const name of ['b.jsonl', 'a.jsonl.gz']) writeFileSync(join(folder, name), '');
    const loose = join(root, 'one.jsonl');
    writeFileSync(loose, '');

    const sets = setsFromArguments([folder, `mine=${folder}`, loose]);

    expect(sets.map((set) => [set.name, set.files.map((file) => file.slice(root.length + 1))])).toEqual([
      ['corpus', ['corpus/a.jsonl.gz', 'corpus/b.jsonl']],
      ['mine', ['corpus/a.jsonl.gz', 'corpus/b.jsonl']],
      ['files', ['one.jsonl']],
    ]);
  });
});

describe('bench aggregate: budget use', () => {
  const fileState = { checked: 0, present: 0, missing: [], unknown: 0 };
  const session = (checkpoints: readonly { minute: number; naive: number; mobius: number }[]): SessionResult =>
    ({
      name: 's',
      checkpoints: checkpoints.map((checkpoint, index) => ({
        id: `c${index}`,
        minute: checkpoint.minute,
        naiveTokens: checkpoint.naive,
        strategies: { mobius: { tokens: checkpoint.mobius, fileState } },
      })),
      cache: {},
      summarizer: {},
      latencySamples: [],
      budgetViolations: 0,
    }) as unknown as SessionResult;

  it('reads window ÷ budget from minute 30 on, and ÷ the history where the history is smaller', () => {
    const result = aggregate(
      [
        session([
          { minute: 15, naive: 90_000, mobius: 1_000 },
          { minute: 30, naive: 90_000, mobius: 25_000 },
          { minute: 45, naive: 120_000, mobius: 20_000 },
        ]),
        session([{ minute: 40, naive: 10_000, mobius: 5_000 }]),
      ],
      { budget: 28_000 },
    );

    const use = result.strategies['mobius']?.budgetUse;
    expect(use?.checkpoints).toBe(3);
    expect(use?.min).toBeCloseTo(0.5);
    expect(use?.median).toBeCloseTo(20_000 / 28_000);
  });
});

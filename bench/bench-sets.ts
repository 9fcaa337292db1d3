// The session sets `npm run bench` reports on: which files belong to which set, and what each set
// is for. Every set is scored and reported on its own; pooling sessions written with different
// wording would hide exactly what the sets are there to show.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';

/** Which retention targets apply to a set. */
export type RetentionTarget = 'every-category-and-age' | 'overall';

/** A named group of session files, scored and reported together. */
export interface BenchSet {
  /** Short key, e.g. `synth-c`. */
  readonly name: string;
  /** Human-readable name for the report. */
  readonly label: string;
  /** One line on what the set is and where it comes from. */
  readonly description: string;
  /** The session files, sorted. */
  readonly files: readonly string[];
  /** `every-category-and-age` for synthetic sets; `overall` for real transcripts. */
  readonly retentionTarget: RetentionTarget;
  /** Whether ingestion throughput is measured on its sessions too (not for the validation set, to keep the run short). */
  readonly isInThroughput: boolean;
}

/** The default sets, in report order, with the folder or file pattern each one is read from. */
export const DEFAULT_SETS: readonly Omit<BenchSet, 'files'>[] = [
  {
    name: 'synth',
    label: 'bundled synth (phrasebook A)',
    description: 'bench/fixtures/synth-a-*: generated sessions of 30–240 minutes, the wording the patterns were developed on',
    retentionTarget: 'every-category-and-age',
    isInThroughput: true,
  },
  {
    name: 'synth-c',
    label: 'synth-c (validation, phrasebook C)',
    description: '../shared/corpus/synth-c: generated sessions with wording unlike phrasebook A; measured, never tuned to',
    retentionTarget: 'every-category-and-age',
    isInThroughput: false,
  },
  {
    name: 'real',
    label: 'real transcripts (hand-annotated)',
    description: 'bench/fixtures/real-*: MIT-licensed aider, Claude Code and Cline transcripts with hand-written probes',
    retentionTarget: 'overall',
    isInThroughput: true,
  },
];

/**
 * The default sets: the bundled synthetic and real fixtures, and the validation set from the shared
 * corpus next to the repository when it is there. Sets without files are left out; `missing` says
 * which, so the report can tell the reader.
 */
export function defaultSets(options: { fixtures: string; validation: string }): { sets: BenchSet[]; missing: string[] } {
  const fixtures = sessionFiles(options.fixtures);
  const files: Record<string, string[]> = {
    synth: fixtures.filter((file) => basename(file).startsWith('synth-')),
    'synth-c': existsSync(options.validation) ? sessionFiles(options.validation) : [],
    real: fixtures.filter((file) => basename(file).startsWith('real-')),
  };
  const sets: BenchSet[] = [];
  const missing: string[] = [];
  for (const set of DEFAULT_SETS) {
    const found = files[set.name] ?? [];
    if (found.length === 0) missing.push(`${set.name} (${set.name === 'synth-c' ? options.validation : options.fixtures})`);
    else sets.push({ ...set, files: found });
  }
  return { sets, missing };
}

/**
 * Sets from command-line arguments: each folder is a set named after it; loose files form one set
 * named `files`. `name=path` names a set explicitly.
 */
export function setsFromArguments(inputs: readonly string[]): BenchSet[] {
  const sets: BenchSet[] = [];
  const loose: string[] = [];
  for (const input of inputs) {
    const separator = input.indexOf('=');
    const named = separator > 0 && !existsSync(input) ? { name: input.slice(0, separator), path: input.slice(separator + 1) } : undefined;
    const path = resolve(named?.path ?? input);
    if (statSync(path).isDirectory()) {
      const name = named?.name ?? basename(path);
      sets.push({ name, label: name, description: path, files: sessionFiles(path), retentionTarget: 'every-category-and-age', isInThroughput: true });
    } else if (named !== undefined) {
      sets.push({ name: named.name, label: named.name, description: path, files: [path], retentionTarget: 'every-category-and-age', isInThroughput: true });
    } else {
      loose.push(path);
    }
  }
  if (loose.length > 0) sets.push({ name: 'files', label: 'files', description: 'session files given as arguments', files: loose, retentionTarget: 'every-category-and-age', isInThroughput: true });
  return sets;
}

/** The `.jsonl` and `.jsonl.gz` files of a folder, sorted by name. */
export function sessionFiles(directory: string): string[] {
  return readdirSync(directory)
    .filter((name) => /\.jsonl(\.gz)?$/.test(name))
    .sort()
    .map((name) => join(directory, name));
}

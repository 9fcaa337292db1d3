import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

/**
 * Bundles src/storage/fs/index.ts (with zod and the few core modules it imports) into `directory` as
 * `fs.mjs`, so that plain `node` child processes can use the file storage without a TypeScript
 * runner or a build of the whole library. Returns the path of the bundle.
 */
export async function bundleFileStorage(directory: string): Promise<string> {
  const outfile = join(directory, 'fs.mjs');
  await build({
    entryPoints: [resolve(import.meta.dirname, '../../src/storage/fs/index.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    // CommonJS dependencies (write-file-atomic) use require() and __filename, which ESM lacks.
    banner: {
      js: "import { createRequire } from 'node:module'; import { fileURLToPath } from 'node:url'; const require = createRequire(import.meta.url); const __filename = fileURLToPath(import.meta.url);",
    },
    logLevel: 'silent',
  });
  return outfile;
}

/** Writes a child script next to the bundle; it imports the storage from `./fs.mjs`. */
export async function writeChildScript(directory: string, name: string, source: string): Promise<string> {
  const path = join(directory, name);
  await writeFile(path, source);
  return path;
}

/** A child process whose stdout is read line by line. */
export interface LineChild {
  readonly process: ChildProcessWithoutNullStreams;
  /** Every complete stdout line so far. */
  readonly lines: string[];
  /** Resolves with the next line (or `undefined` when stdout ended). */
  next(): Promise<string | undefined>;
  /** Sends one line to the child's stdin. */
  send(line: string): void;
  /** Resolves when the child has exited (with its signal, if it was killed). */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Everything the child wrote to stderr. */
  stderr(): string;
}

/** Starts `node script ...args` with piped stdio. */
export function startChild(script: string, args: readonly string[]): LineChild {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const waiting: ((line: string | undefined) => void)[] = [];
  let read = 0;
  let buffered = '';
  let errors = '';
  let isEnded = false;
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buffered += chunk;
    for (let newline = buffered.indexOf('\n'); newline !== -1; newline = buffered.indexOf('\n')) {
      lines.push(buffered.slice(0, newline));
      buffered = buffered.slice(newline + 1);
    }
    while (waiting.length > 0 && read < lines.length) waiting.shift()?.(lines[read++]);
  });
  child.stdout.on('end', () => {
    isEnded = true;
    for (const resolveLine of waiting.splice(0)) resolveLine(undefined);
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk: string) => (errors += chunk));
  // A killed child closes its stdin: ignore the write errors that follow.
  child.stdin.on('error', () => undefined);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) => {
    child.on('exit', (code, signal) => resolveExit({ code, signal }));
  });
  return {
    process: child,
    lines,
    next: () =>
      new Promise((resolveLine) => {
        if (read < lines.length) resolveLine(lines[read++]);
        else if (isEnded) resolveLine(undefined);
        else waiting.push(resolveLine);
      }),
    send: (line) => {
      child.stdin.write(`${line}\n`);
    },
    exited,
    stderr: () => errors,
  };
}

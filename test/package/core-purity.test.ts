import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const source = resolve(import.meta.dirname, '../../src');
const RUNTIME_DEPENDENCIES = ['diff', 'eventemitter3', 'gpt-tokenizer', 'minisearch', 'p-queue', 'yaml', 'zod'];
// Only these may import node builtins or optional peers (subpath entry points).
const ALLOWED_IMPURE = ['storage/fs/', 'testing/', 'integrations/', 'adapters/'];

function files(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

function specifiers(text: string): string[] {
  return [...text.matchAll(/(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].map((match) => match[1] ?? match[2] ?? '');
}

describe('the core', () => {
  it('imports no node builtins and no package other than its runtime dependencies', () => {
    const offenders: string[] = [];
    for (const file of files(source)) {
      const name = relative(source, file);
      if (ALLOWED_IMPURE.some((prefix) => name.startsWith(prefix))) continue;
      for (const specifier of specifiers(readFileSync(file, 'utf8'))) {
        if (specifier.startsWith('.')) continue;
        const packageName = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : (specifier.split('/')[0] ?? '');
        if (!RUNTIME_DEPENDENCIES.includes(packageName)) offenders.push(`${name}: ${specifier}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('has no Date.now(), Math.random() or localeCompare in the core (determinism)', () => {
    const offenders = files(source)
      .filter((file) => !relative(source, file).startsWith('testing/'))
      .filter((file) => /Date\.now\(|Math\.random\(|localeCompare\(/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(source, file));
    expect(offenders).toEqual([]);
  });
});

import { resolve } from 'node:path';
import { defineConfig } from 'vitest/config';

// Runs the contract and integration suites against the built package: every import of the public
// entry points (`src/index.js`, `src/testing/index.js`, `src/storage/fs/index.js`) resolves to
// `dist/` instead, so what is published is what is tested. Run `npm run build` first.
const dist = (file: string): string => resolve(import.meta.dirname, 'dist', file);

const config: ReturnType<typeof defineConfig> = defineConfig({
  resolve: {
    alias: [
      { find: /^(?:\.\.\/)+src\/index\.js$/u, replacement: dist('index.js') },
      { find: /^(?:\.\.\/)+src\/testing\/index\.js$/u, replacement: dist('testing.js') },
      { find: /^(?:\.\.\/)+src\/storage\/fs\/index\.js$/u, replacement: dist('storage-fs.js') },
    ],
  },
  test: {
    include: ['test/contract/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/package/**/*.test.ts'],
    maxWorkers: 2,
    testTimeout: 600_000,
    hookTimeout: 120_000,
  },
});

export default config;

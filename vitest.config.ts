import { defineConfig } from 'vitest/config';

const config: ReturnType<typeof defineConfig> = defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Suites of frameworks that need Node >= 22 run with `npm run test:node22` (vitest.node22.config.ts).
    exclude: ['**/node_modules/**', 'test/**/*.node22.test.ts'],
    // Property tests are CPU-bound: use both cores of the CI machine.
    maxWorkers: 2,
    testTimeout: 600_000,
    hookTimeout: 120_000,
    typecheck: { enabled: true, include: ['test/types/**/*.test-d.ts'] },
  },
});

export default config;

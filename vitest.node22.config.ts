import { defineConfig } from 'vitest/config';

// Suites of frameworks that require Node >= 22 (Mastra 1.x): `npm run test:node22` runs them on
// Node 22 through `npx -p node@22`, whatever Node runs npm.
const config: ReturnType<typeof defineConfig> = defineConfig({
  test: {
    include: ['test/**/*.node22.test.ts'],
    maxWorkers: 2,
    testTimeout: 600_000,
    hookTimeout: 300_000,
  },
});

export default config;

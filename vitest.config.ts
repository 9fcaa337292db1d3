import { defineConfig } from 'vitest/config';

const config: ReturnType<typeof defineConfig> = defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    typecheck: { enabled: true, include: ['test/types/**/*.test-d.ts'] },
  },
});

export default config;

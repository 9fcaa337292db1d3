import { defineConfig } from 'tsup';

const config: ReturnType<typeof defineConfig> = defineConfig({
  entry: {
    index: 'src/index.ts',
    testing: 'src/testing/index.ts',
    'storage-fs': 'src/storage/fs/index.ts',
    langchain: 'src/adapters/langchain/index.ts',
    mastra: 'src/adapters/mastra/index.ts',
    providers: 'src/providers/index.ts',
    'ai-sdk': 'src/adapters/ai-sdk/index.ts',
  },
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  external: ['vitest', 'fast-check', 'ai', 'langchain', /^@langchain\//, /^@mastra\//],
});

export default config;

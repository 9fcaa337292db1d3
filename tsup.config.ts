import { defineConfig } from 'tsup';

const config: ReturnType<typeof defineConfig> = defineConfig({
  entry: {
    index: 'src/index.ts',
    testing: 'src/testing/index.ts',
    'storage-fs': 'src/storage/fs/index.ts',
  },
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  external: ['vitest', 'fast-check'],
});

export default config;

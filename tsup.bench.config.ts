import { defineConfig } from 'tsup';

// Builds the benchmark into .build/ so that `npm run bench` works on Node 20, which cannot run
// TypeScript directly. `clean` is off so that building it does not delete the demo's bundle.
const config: ReturnType<typeof defineConfig> = defineConfig({
  entry: { bench: 'bench/bench.ts', 'huge-file': 'bench/huge-file.ts', 'window-digest': 'bench/window-digest.ts', 'build-latency': 'bench/build-latency.ts', 'performance-report': 'bench/performance-report.ts', ingestion: 'bench/ingestion.ts', 'archive-heap': 'bench/archive-heap.ts' },
  outDir: '.build',
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  clean: false,
  silent: true,
  noExternal: [/^\.\.?\//],
});

export default config;

import { defineConfig } from 'tsup';

// Builds the runnable examples (the demo) into .build/ so that `npm run demo` works on Node 20,
// which cannot run TypeScript directly.
const config: ReturnType<typeof defineConfig> = defineConfig({
  entry: {
    demo: 'examples/demo.ts',
    persistence: 'examples/persistence.ts',
    scratchpad: 'examples/scratchpad.ts',
    'tier-store': 'examples/tier-store.ts',
    'boundary-detector': 'examples/boundary-detector.ts',
    graduator: 'examples/graduator.ts',
    'ai-sdk': 'examples/ai-sdk.ts',
    langchain: 'examples/langchain.ts',
    mastra: 'examples/mastra.ts',
  },
  outDir: '.build',
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  clean: true,
  silent: true,
  noExternal: [/^\.\.?\//],
});

export default config;

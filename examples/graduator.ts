// The Graduator and the summarizer middleware on their own: wrap an (unreliable) LLM summarizer
// with a timeout, retries, validation and the extractive fallback, then graduate a TierStore with
// it. Run it with `npm run example:components`.
import {
  createExtractiveSummarizer,
  Graduator,
  TierStore,
  withFallback,
  withRetry,
  withTimeout,
  withValidation,
  wrapSummarizer,
} from '../src/index.js';
import type { Summarizer } from '../src/index.js';

// Stands in for a model call that fails now and then.
let calls = 0;
const flakyModel: Summarizer = {
  name: 'flaky-llm',
  summarize: (request) => {
    calls += 1;
    if (calls === 1) throw new Error('503 from the model provider');
    return { summary: `Worked through ${request.entries.length} steps of the orders refactor.` };
  },
};

const safeModel = wrapSummarizer({
  summarizer: flakyModel,
  middleware: [
    withFallback({ fallback: createExtractiveSummarizer(), onFallback: ({ reason }) => console.log('fallback used:', reason) }),
    withRetry({ retries: 1, onFailure: ({ attempt, reason }) => console.log(`attempt ${attempt} failed: ${reason}`) }),
    withTimeout({ timeoutMs: 30_000 }),
    withValidation(),
  ],
});

const store = new TierStore();
for (let step = 1; step <= 12; step += 1) {
  store.addMessage({ role: 'user', content: `Step ${step}: move query ${step} into src/orders/repository.ts.` });
  store.addMessage({ role: 'assistant', content: `Done with step ${step}.` });
}
// The policy is options: here, summaries of a tenth of their chunk and a stricter size cap.
const graduator = new Graduator({ summarizer: safeModel, chunkSummaryRatio: 0.1, maxSummaryRatio: 0.8 });
await graduator.graduate({
  subject: store.graduationSubject({ limits: { working: 250, summaries: 2_000 } }),
  reporter: { start: ({ mode, source }) => console.log(`graduating ${mode} #${source.from}–${source.to}`) },
});
console.log('T1:', store.summaries().map((summary) => `${summary.id}: ${summary.text}`));
console.log(`model calls: ${calls}; T0 now ${store.workingTokens} tokens`);

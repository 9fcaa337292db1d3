// The TierStore on its own: T0 entries, T1 summaries, T2 facts, pins and the archive, as the fold
// of an append-only log. Graduate it with a Graduator, then follow a summary back to its entries.
// Run it with `npm run example:components`.
import { Graduator, TierStore } from '../src/index.js';

const store = new TierStore();
store.pin({ text: 'Never edit vendor/.' });
store.addMessage({ role: 'user', content: "Let's use Postgres 16 for the orders service, with a 5 s statement timeout." });
for (let step = 1; step <= 12; step += 1) {
  store.addMessage({ role: 'user', content: `Step ${step}: move the orders query ${step} into src/orders/repository.ts.` });
  store.addMessage({ role: 'assistant', content: `Done: query ${step} now lives in src/orders/repository.ts and its test passes.` });
}
console.log(`before: ${store.entries().length} entries in T0 (${store.workingTokens} tokens)`);

await new Graduator().graduate({ subject: store.graduationSubject({ limits: { working: 300, summaries: 2_000 } }) });
const [summary] = store.summaries();
console.log(`after: ${store.entries().length} entries in T0, ${store.summaries().length} summary, ${store.archive().length} archived items`);
console.log('facts:', store.facts().map((fact) => `${fact.key}: ${fact.value}`));
if (summary !== undefined) console.log(`${summary.id} stands for entries`, store.expand(summary.id).map((entry) => entry.seq).join(', '));
console.log('pins:', store.pins().map((pin) => pin.text));

// Persistence in one file: save a session to disk, load it in a "new process", recall what left
// the window, and roll back to a named checkpoint. Run it with `npm run example:persistence`.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ContextManager } from '../src/index.js';
import { createFileStorage } from '../src/storage/fs/index.js';

const storage = createFileStorage({ directory: mkdtempSync(join(tmpdir(), 'mobius-sessions-')) });
const options = { storage, sessionId: 'checkout-service', budgets: { working: 400 } } as const;

const manager = new ContextManager(options);
manager.addMessage({ role: 'user', content: "Let's use a 5s timeout on every DB call, with 3 retries." });
manager.openFile({ path: 'src/db.ts', content: 'export const TIMEOUT_MS = 1000;\n' });
manager.updateFile({ path: 'src/db.ts', content: 'export const TIMEOUT_MS = 5000;\n', reason: '5s timeout' });
const checkpoint = await manager.snapshot('timeouts done');
for (let turn = 1; turn <= 12; turn += 1) {
  manager.addMessage({ role: 'user', content: `Step ${turn}: tidy up the retry helper in src/retry.ts.` });
  manager.addMessage({ role: 'assistant', content: `Done with step ${turn}; the retry helper now logs each attempt.` });
}
await manager.save(); // also saved automatically on decisions, finished tasks, goodbyes and pressure

const resumed = await ContextManager.load(options); // e.g. in the next process
console.log('versions:', (await resumed.listVersions()).map((version) => `${version.version}${version.label === undefined ? '' : ` (${version.label})`}`).join(', '));
const hits = await resumed.recall('DB timeout retries', { limit: 2, show: true });
console.log('recalled from the archive:', hits.map((hit) => `${hit.id}: ${hit.text}`));
console.log('window blocks:', resumed.build().tokens.blocks);

await resumed.rollback(checkpoint.version);
console.log('after rollback, T0 holds', resumed.state().entries.length, 'entries; file:', resumed.state().files[0]?.content.trim());

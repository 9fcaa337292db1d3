// The README's usage example: one turn of an agent loop with Mobius managing the window.
import { ContextManager } from '../src/index.js';

const manager = new ContextManager({ systemPrompt: 'You are a careful coding agent.', budget: 28_000 });
manager.on('graduation-end', (report) => console.log(`graduated ${report.removed.length} entries into ${report.summary.id}`));

manager.addMessage({ role: 'user', content: 'The login hangs; add a timeout to the DB call in src/auth.py.' });
manager.addMessage({
  role: 'assistant',
  content: 'Reading the file first.',
  toolCalls: [{ id: 'call-1', name: 'read_file', input: { path: 'src/auth.py' } }],
});
const source = 'def login(user_id):\n    result = db.query(user_id)\n    return result\n';
manager.openFile({ path: 'src/auth.py', content: source, callId: 'call-1' }); // the file is the call's result
manager.updateFile({ path: 'src/auth.py', content: source.replace('db.query(user_id)', 'db.query(user_id, timeout=5.0)'), reason: 'timeout' });
manager.addMessage({ role: 'assistant', content: 'Done: DB calls now time out after 5s.' });

await manager.settle(); // wait for any graduation in flight
const { messages, tokens } = manager.build({ budget: 28_000 }); // provider-neutral messages
console.log(messages.length, tokens.total, tokens.blocks);

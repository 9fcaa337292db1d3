// The Scratchpad on its own: the current content of each open file, held once, with a compact
// one-line history record per change. Run it with `npm run example:components`.
import { Scratchpad } from '../src/index.js';

const scratchpad = new Scratchpad({ budget: 2_000, autoCloseAfter: 2 });
const original = ['def login(user):', '    if user:', '        return session_for(user)', '    return None', ''].join('\n');

console.log(scratchpad.open({ path: 'src/auth.py', content: original }).lines);
const fixed = original.replace('    if user:', '    if user and user.active:');
console.log(scratchpad.update({ path: 'src/auth.py', content: fixed, reason: 'null check' }).lines);

// Two user turns later, the untouched file closes by itself.
scratchpad.nextExchange();
scratchpad.nextExchange();
console.log(scratchpad.autoClose().flatMap((closed) => closed.lines));
console.log('open files:', scratchpad.files().length);

// The BoundaryDetector on its own: where it is safe and natural to cut an agent's history.
// Plain items in, one score per gap out. Run it with `npm run example:components`.
import { BoundaryDetector } from '../src/index.js';

const detector = new BoundaryDetector();
const items = [
  { role: 'user', text: 'Fix the failing login test.' },
  { role: 'assistant', text: 'Running the tests.', toolCalls: [{ id: 'c1', name: 'bash', input: { command: 'npm test' } }] },
  { role: 'tool', text: 'Tests: 42 passed, 0 failed', callId: 'c1' },
  { role: 'assistant', text: 'Fixed: the login test passes now.' },
  { role: 'user', text: "Moving on, let's add rate limiting to the API." },
] as const;

detector.scoreGaps(items).forEach((score, index) => {
  console.log(`after #${index + 1} (${items[index]?.role}): ${score.strength} — ${score.reason}`);
});

import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createReplayer, readSession } from '../../examples/replay.js';
import { ContextManager, countMessageTokens } from '../../src/index.js';

const BUDGET = 28_000;
const session = fileURLToPath(new URL('../../examples/sessions/synth-seed11-120min.jsonl.gz', import.meta.url));

describe('replaying the bundled two-hour session', () => {
  it('holds the budget at every checkpoint and keeps recently touched files current', async () => {
    const manager = new ContextManager({ budget: BUDGET });
    const replayer = createReplayer(manager);
    const touched: string[] = [];
    let checkpoints = 0;
    let graduations = 0;
    manager.on('graduation-end', () => (graduations += 1));
    for (const line of readSession(session)) {
      if (line.type === 'checkpoint') {
        await manager.settle();
        const built = manager.build({ budget: BUDGET });
        expect(built.tokens.total).toBeLessThanOrEqual(BUDGET);
        expect(countMessageTokens(built.messages, manager.tokenCounter)).toBeLessThanOrEqual(BUDGET);
        const files = new Map(manager.state().files.map((file) => [file.path, file]));
        for (const path of new Set(touched.slice(-10).filter((path) => path !== ''))) {
          const file = files.get(path);
          expect(file, `${path} should be open at ${line.id}`).toBeDefined();
          expect(file?.content).toBe(replayer.contents.get(path));
          if (file?.isWindowed === false) expect(built.system).toContain(file.content.slice(0, 200));
        }
        checkpoints += 1;
        continue;
      }
      if (replayer.apply(line)) touched.push(line.type === 'file_read' || line.type === 'file_edit' ? (line.path ?? '') : '');
    }
    expect(checkpoints).toBeGreaterThanOrEqual(8);
    expect(graduations).toBeGreaterThan(5);
  });
});

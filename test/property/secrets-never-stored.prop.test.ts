import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMemoryStorage, findSecrets, redactSecrets } from '../../src/index.js';
import { applyOperations, arbitraries } from '../../src/testing/index.js';
import type { SessionOperation } from '../../src/testing/index.js';
import { plantedSecrets } from '../fixtures/secrets.js';
import type { PlantedSecret } from '../fixtures/secrets.js';
import { PROPERTY_RUNS, createSmallManager } from '../helpers.js';

// Whole sessions with storage are costly: a quarter of the shared run count (250 by default).
const SESSION_RUNS = Math.max(25, Math.floor(PROPERTY_RUNS / 4));
const POOL: readonly PlantedSecret[] = [1, 2, 3, 4, 5].flatMap((variant) => plantedSecrets(variant));
const planted = fc.constantFrom(...POOL);

/** Appends a secret to one text field of an operation (pins and paths are left as they are). */
function plant(operation: SessionOperation, secret: PlantedSecret, where: number): SessionOperation {
  const add = (text: string): string => `${text}\n${secret.line}\n`;
  switch (operation.op) {
    case 'user':
    case 'assistant':
      return { ...operation, content: add(operation.content) };
    case 'open':
    case 'update':
      return { ...operation, content: add(operation.content) };
    case 'tools': {
      const index = where % operation.calls.length;
      return {
        ...operation,
        calls: operation.calls.map((call, at) =>
          at !== index ? call : where % 2 === 0 ? { ...call, output: add(call.output) } : { ...call, input: { command: secret.line, env: { API_TOKEN: secret.value } } },
        ),
      };
    }
    default:
      return operation;
  }
}

const sessionsWithSecrets = fc
  .tuple(arbitraries.operations({ maxLength: 30, hasHugeStrings: false }), fc.array(fc.tuple(fc.nat(), planted, fc.nat()), { minLength: 1, maxLength: 8 }))
  .map(([operations, plants]) => {
    const result = [...operations];
    const used: PlantedSecret[] = [];
    for (const [position, secret, where] of plants) {
      if (result.length === 0) break;
      const index = position % result.length;
      const before = result[index] as SessionOperation;
      const after = plant(before, secret, where);
      if (after !== before) used.push(secret);
      result[index] = after;
    }
    return { operations: result, used };
  });

describe('invariant 10: secrets found by the redactor never reach storage, the window, recall, summaries, facts or project memory', () => {
  it('for generated sessions with secrets planted in messages, tool calls, tool output and files', async () => {
    await fc.assert(
      fc.asyncProperty(sessionsWithSecrets, async ({ operations, used }) => {
        const storage = createMemoryStorage();
        const manager = createSmallManager({ storage, sessionId: 'p', budgets: { facts: 400, pins: 1_000, summaries: 250, scratchpad: 1_200, working: 600 } });
        applyOperations(manager, operations);
        await manager.settle();
        await manager.save();
        const seen = [
          JSON.stringify(await storage.read('p', { afterSeq: 0 })),
          JSON.stringify(await storage.loadSnapshot('p')),
          JSON.stringify(manager.state()),
          JSON.stringify(manager.build()),
          JSON.stringify(manager.projectMemory()),
          await manager.recap('full'),
          JSON.stringify(await manager.recall('deploy config token key', { limit: 20, maxTokens: 20_000 })),
        ].join('\n');
        for (const secret of used) for (const needle of secret.needles) expect(seen.includes(needle), `${secret.kind} leaked`).toBe(false);
      }),
      { numRuns: SESSION_RUNS, timeout: 30_000, endOnFailure: true },
    );
  });
});

describe('redactSecrets()', () => {
  const words = fc.constantFrom('user', 'profile', 'settings', 'handler', 'request', 'parse', 'token', 'count', 'index', 'config', 'loader', 'module', 'render', 'cache', 'value', 'build', 'error', 'retry');
  const identifier = fc.tuple(fc.array(words, { minLength: 2, maxLength: 7 }), fc.constantFrom('camel', 'snake', 'kebab', 'path', 'pascal'), fc.option(fc.integer({ min: 0, max: 99 }), { nil: undefined })).map(([parts, style, number]) => {
    const capital = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);
    const joined =
      style === 'camel' ? parts[0] + parts.slice(1).map(capital).join('')
        : style === 'pascal' ? parts.map(capital).join('')
          : parts.join(style === 'snake' ? '_' : style === 'kebab' ? '-' : '/');
    return number === undefined ? joined : `${joined}${number}`;
  });

  it('leaves identifiers and paths made of words alone', () => {
    fc.assert(
      fc.property(fc.array(identifier, { minLength: 1, maxLength: 12 }), (identifiers) => {
        expect(findSecrets(identifiers.join(' '))).toEqual([]);
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });

  it('removes every planted secret from any text around it, and is idempotent', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string({ maxLength: 80 }), fc.lorem({ maxCount: 12 }), planted.map((secret) => secret.line)), { maxLength: 8 }), (parts) => {
        const text = parts.join('\n');
        const once = redactSecrets(text).text;
        for (const secret of POOL) {
          if (parts.includes(secret.line)) for (const needle of secret.needles) expect(once.includes(needle)).toBe(false);
        }
        expect(redactSecrets(once).text).toBe(once);
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });
});

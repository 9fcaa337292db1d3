// Mastra in one file: an `Agent` whose model sees the window Mobius builds, through a processor.
// Offline: the model is the AI SDK's `MockLanguageModelV3`. Mastra 1.x needs Node >= 22.13, so
// `npm run example:mastra` runs it on Node 22.
import { Agent } from '@mastra/core/agent';
import { createTool } from '@mastra/core/tools';
import type { LanguageModelV3Content } from '@ai-sdk/provider';
import { MockLanguageModelV3 } from 'ai/test';
import { z } from 'zod';
import { ContextManager } from '../src/index.js';
import { MobiusContextProcessor } from '../src/adapters/mastra/index.js';

const manager = new ContextManager({
  systemPrompt: 'You are a coding agent on the payments service.',
  budgets: { working: 600 },
});

// A scripted model: each turn reads two files, runs the tests, then answers.
let calls = 0;
let stepInTurn = 0;
let turn = 1;
const model = new MockLanguageModelV3({
  doGenerate: async (options) => {
    calls += 1;
    console.log(`model call ${String(calls).padStart(2)}: sees ${options.prompt.length} prompt messages`);
    const script = [
      { toolName: 'read_file', input: { path: `src/payments/step-${turn}.ts` } },
      { toolName: 'read_file', input: { path: `src/payments/step-${turn}.test.ts` } },
      { toolName: 'run_tests', input: { filter: `step-${turn}` } },
    ];
    const call = script[stepInTurn];
    stepInTurn += 1;
    const content: LanguageModelV3Content[] =
      call === undefined
        ? [{ type: 'text', text: `Step ${turn} is done: tests pass.` }]
        : [
            ...(turn === 1 && stepInTurn === 1 ? [{ type: 'text' as const, text: 'Decision: amounts are integers in cents (PAYMENTS_AMOUNT_UNIT=cents); never use floats.' }] : []),
            { type: 'tool-call', toolCallId: `call-${turn}-${stepInTurn}`, toolName: call.toolName, input: JSON.stringify(call.input) },
          ];
    const usage = { inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 0, text: 0, reasoning: undefined } };
    return { content, finishReason: { unified: call === undefined ? 'stop' : 'tool-calls', raw: undefined }, usage, warnings: [] };
  },
});

const readFile = createTool({
  id: 'read_file',
  description: 'Reads a file.',
  inputSchema: z.object({ path: z.string() }),
  execute: async ({ path }) => `// ${path}\n${Array.from({ length: 15 }, (_, line) => `export const value${line} = ${line * 100}; // cents`).join('\n')}`,
});
const runTests = createTool({
  id: 'run_tests',
  description: 'Runs the tests matching a filter.',
  inputSchema: z.object({ filter: z.string() }),
  execute: async ({ filter }) => `PASS test/${filter}.test.ts (8 tests)`,
});

// The same instance records each step (input) and the final answer (output).
const mobius = new MobiusContextProcessor({ manager, budget: 2_000 });
const agent = new Agent({
  id: 'payments-agent',
  name: 'payments-agent',
  instructions: '',
  model,
  tools: { read_file: readFile, run_tests: runTests },
  inputProcessors: [mobius],
  outputProcessors: [mobius],
});

for (; turn <= 6; turn += 1) {
  stepInTurn = 0;
  // No Mastra memory is configured: the manager carries the conversation from turn to turn.
  const result = await agent.generate(`Review step ${turn} of the payment flow.`, { maxSteps: 8 });
  console.log(`turn ${turn}: ${result.text}`);
}

const window = manager.build({ budget: 2_000 });
console.log(`\nThe last window held ${window.history.length} messages in ${window.tokens.total} of 2000 tokens.`);
console.log(`Blocks: ${JSON.stringify(window.tokens.blocks)}`);
console.log(`The decision from the first turn is still in the window: ${window.system.includes('PAYMENTS_AMOUNT_UNIT')}`);

// LangChain.js in one file: a `createAgent` agent whose model sees the window Mobius builds, not the
// whole thread. Offline: the model is LangChain's own `fakeModel()`. Run it with
// `npm run example:langchain`.
import { MemorySaver } from '@langchain/langgraph';
import { AIMessage, HumanMessage, createAgent, fakeModel, tool } from 'langchain';
import { z } from 'zod';
import { ContextManager } from '../src/index.js';
import { mobiusContextMiddleware } from '../src/adapters/langchain/index.js';

const manager = new ContextManager({
  systemPrompt: 'You are a coding agent on the payments service.',
  budgets: { working: 600 },
});

// A scripted model: each turn reads two files, runs the tests, then answers.
const model = fakeModel();
let calls = 0;
for (let turn = 1; turn <= 6; turn += 1) {
  const script = [
    { tool: 'read_file', args: { path: `src/payments/step-${turn}.ts` } },
    { tool: 'read_file', args: { path: `src/payments/step-${turn}.test.ts` } },
    { tool: 'run_tests', args: { filter: `step-${turn}` } },
  ];
  for (const [index, call] of script.entries()) {
    model.respond((messages) => {
      calls += 1;
      console.log(`model call ${String(calls).padStart(2)}: sees ${messages.length} messages (system prompt + window)`);
      const text = turn === 1 && index === 0 ? 'Decision: amounts are integers in cents (PAYMENTS_AMOUNT_UNIT=cents); never use floats.' : '';
      return new AIMessage({ content: text, tool_calls: [{ id: `call-${turn}-${index}`, name: call.tool, args: call.args, type: 'tool_call' }] });
    });
  }
  model.respond(() => new AIMessage(`Step ${turn} is done: tests pass.`));
}

const readFile = tool(({ path }: { path: string }) => `// ${path}\n${Array.from({ length: 15 }, (_, line) => `export const value${line} = ${line * 100}; // cents`).join('\n')}`, {
  name: 'read_file',
  description: 'Reads a file.',
  schema: z.object({ path: z.string() }),
});
const runTests = tool(({ filter }: { filter: string }) => `PASS test/${filter}.test.ts (8 tests)`, {
  name: 'run_tests',
  description: 'Runs the tests matching a filter.',
  schema: z.object({ filter: z.string() }),
});

const agent = createAgent({
  model,
  tools: [readFile, runTests],
  middleware: [mobiusContextMiddleware({ manager, budget: 2_000 })],
  checkpointer: new MemorySaver(),
});

const config = { configurable: { thread_id: 'payments' } };
let threadLength = 0;
for (let turn = 1; turn <= 6; turn += 1) {
  const result = await agent.invoke({ messages: [new HumanMessage(`Review step ${turn} of the payment flow.`)] }, config);
  threadLength = result.messages.length;
}

const window = manager.build({ budget: 2_000 });
console.log(`\nThe agent's checkpointed thread keeps all ${threadLength} messages; the last window held ${window.history.length} messages in ${window.tokens.total} of 2000 tokens.`);
console.log(`Blocks: ${JSON.stringify(window.tokens.blocks)}`);
console.log(`The decision from the first turn is still in the window: ${window.system.includes('PAYMENTS_AMOUNT_UNIT')}`);

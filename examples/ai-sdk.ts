// The AI SDK in one file: a `generateText` tool loop whose model sees the window Mobius builds at
// every step, not the ever-growing message list; then the same window as Anthropic and OpenAI
// request bodies. Offline: the model is the AI SDK's own `MockLanguageModelV3`. Run it with
// `npm run example:ai-sdk`.
import { generateText, jsonSchema, stepCountIs, tool } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { ContextManager } from '../src/index.js';
import { createMobiusPrepareStep } from '../src/adapters/ai-sdk/index.js';
import { toAnthropic, toOpenAIChat } from '../src/providers/index.js';

const manager = new ContextManager({
  systemPrompt: 'You are a coding agent on the payments service.',
  budgets: { working: 600 },
});
const mobius = createMobiusPrepareStep({ manager, budget: 2_000 });

// A scripted model: each turn reads two files, runs the tests, then answers.
type Reply = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;
let calls = 0;
const model = new MockLanguageModelV3({
  doGenerate: async ({ prompt }) => {
    calls += 1;
    const position = (calls - 1) % 4;
    const turn = Math.floor((calls - 1) / 4) + 1;
    console.log(`model call ${String(calls).padStart(2)}: receives ${prompt.length} messages (system + ${prompt.length - 1}), window ${mobius.lastWindow()?.tokens.total ?? 0} tokens`);
    const usage: Reply['usage'] = { inputTokens: { total: 0, noCache: 0, cacheRead: undefined, cacheWrite: undefined }, outputTokens: { total: 0, text: 0, reasoning: undefined } };
    if (position === 3) return { content: [{ type: 'text', text: `Step ${turn} is done: tests pass.` }], finishReason: { unified: 'stop', raw: undefined }, usage, warnings: [] };
    const call = position === 2 ? { toolName: 'run_tests', input: { filter: `step-${turn}` } } : { toolName: 'read_file', input: { path: `src/payments/step-${turn}${position === 1 ? '.test' : ''}.ts` } };
    const text = turn === 1 && position === 0 ? 'Decision: amounts are integers in cents (PAYMENTS_AMOUNT_UNIT=cents); never use floats.' : '';
    return {
      content: [...(text.length > 0 ? [{ type: 'text' as const, text }] : []), { type: 'tool-call', toolCallId: `call-${calls}`, toolName: call.toolName, input: JSON.stringify(call.input) }],
      finishReason: { unified: 'tool-calls', raw: undefined },
      usage,
      warnings: [],
    };
  },
});

const tools = {
  read_file: tool({
    description: 'Reads a file.',
    inputSchema: jsonSchema<{ path: string }>({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] }),
    execute: async ({ path }) => `// ${path}\n${Array.from({ length: 15 }, (_, line) => `export const value${line} = ${line * 100}; // cents`).join('\n')}`,
  }),
  run_tests: tool({
    description: 'Runs the tests matching a filter.',
    inputSchema: jsonSchema<{ filter: string }>({ type: 'object', properties: { filter: { type: 'string' } }, required: ['filter'] }),
    execute: async ({ filter }) => `PASS test/${filter}.test.ts (8 tests)`,
  }),
};

for (let turn = 1; turn <= 6; turn += 1) {
  // Only the new user message: Mobius holds the conversation.
  const result = await generateText({
    model,
    tools,
    prompt: `Step ${turn}: review src/payments/step-${turn}.ts and make its tests pass.`,
    prepareStep: mobius.prepareStep,
    onStepFinish: mobius.onStepFinish,
    stopWhen: stepCountIs(10),
  });
  console.log(`turn ${turn}: ${result.text}`);
}

await manager.settle();
const built = manager.build({ budget: 2_000 });
console.log(`\nrecorded ${manager.state().lastSeq} events; the window holds ${built.history.length} messages in ${built.tokens.total} tokens`);
console.log(`the decision from turn 1 is still in the window: ${built.system.includes('PAYMENTS_AMOUNT_UNIT') || built.history.some((message) => message.content.includes('PAYMENTS_AMOUNT_UNIT'))}`);

// The same window as provider request bodies, with prompt-cache breakpoints for Anthropic.
const anthropic = toAnthropic(built, { cacheBreakpoints: 2 });
const marked = (anthropic.system ?? []).filter((block) => block.cache_control !== undefined).length;
console.log(`Anthropic: ${anthropic.system?.length ?? 0} system blocks (${marked} cache breakpoint(s) in the system prompt), ${anthropic.messages.length} messages starting with ${anthropic.messages[0]?.role}`);
console.log(`OpenAI Chat: ${toOpenAIChat(built).messages.length} messages`);

// A scripted tool-calling session shared by the adapter suites: 20 user turns of 10 model steps
// each (nine steps that call tools, then an answer), 200 model steps in all. Everything is a pure
// function of the step number, so every framework replays exactly the same conversation.

/** Model steps in the session. */
export const STEP_COUNT = 200;
/** Model steps per user turn (the last one answers without calling a tool). */
export const STEPS_PER_TURN = 10;
/** The step whose reply states the facts checked at the end. */
export const FACT_STEP = 5;
/** Identifiers from the facts stated at step {@link FACT_STEP}; each must still be in the last window. */
export const FACT_MARKERS: readonly string[] = ['LEDGER_FLUSH_INTERVAL_MS', 'ledger-writer'];
/** The budget each window is built for in the suites. */
export const BUDGET = 9_000;
/** The manager's static prefix in the suites. */
export const SYSTEM_PROMPT = 'You are a coding agent working on the billing service. Prefer small, reviewed changes.';

/** A tool call the model makes in the script. */
export interface ScriptedCall {
  readonly id: string;
  readonly name: 'read_file' | 'run_tests' | 'search_code';
  readonly args: Readonly<Record<string, string>>;
}

/** The model's reply at a step. */
export interface ScriptedReply {
  readonly text: string;
  readonly toolCalls: readonly ScriptedCall[];
}

const MODULES = ['invoices', 'ledger', 'refunds', 'payouts', 'tax', 'currency', 'webhooks', 'audit'];

/** The user's message opening turn `turn` (0-based). */
export function userMessage(turn: number): string {
  const module = MODULES[turn % MODULES.length] ?? 'invoices';
  if (turn === 0) {
    return 'The ledger totals drift after a restart. Find out why in src/ledger and fix it; keep the public API of src/ledger/index.ts unchanged.';
  }
  return `Next, review src/${module}/handler.ts (ticket BILL-${100 + turn}): look for unchecked nulls and add a regression test for each fix.`;
}

/** The model's reply at `step` (0-based). */
export function modelReply(step: number): ScriptedReply {
  const turn = Math.floor(step / STEPS_PER_TURN);
  const position = step % STEPS_PER_TURN;
  const module = MODULES[turn % MODULES.length] ?? 'invoices';
  if (step === FACT_STEP) {
    return {
      text: 'Found the cause: the ledger-writer worker batches entries in memory and only flushes on shutdown. Decision: flush every 250 ms, set through LEDGER_FLUSH_INTERVAL_MS in src/ledger/config.ts, and never hold more than 500 unflushed entries.',
      toolCalls: [{ id: `call-${step}-0`, name: 'read_file', args: { path: 'src/ledger/config.ts' } }],
    };
  }
  if (position === STEPS_PER_TURN - 1) {
    return { text: `Done with src/${module}/handler.ts: ${position - 1} checks added and the suite passes (turn ${turn}).`, toolCalls: [] };
  }
  const calls: ScriptedCall[] = [];
  if (position % 3 === 0) calls.push({ id: `call-${step}-0`, name: 'search_code', args: { query: `${module}Total${step}` } });
  else calls.push({ id: `call-${step}-0`, name: 'read_file', args: { path: `src/${module}/part-${position}.ts` } });
  // Every fourth step calls two tools at once (parallel calls).
  if (step % 4 === 2) calls.push({ id: `call-${step}-1`, name: 'run_tests', args: { filter: `${module}-${step}` } });
  const text = position % 2 === 0 ? '' : `Checking src/${module} step ${position}: the handler reads amount_${step} before validating it.`;
  return { text, toolCalls: calls };
}

/** The output of a scripted tool call; `isError` for the failures the script includes. */
export function toolOutput(call: ScriptedCall): { readonly output: string; readonly isError: boolean } {
  const step = Number(call.id.split('-')[1]);
  if (call.name === 'run_tests') {
    const isError = step % 8 === 2;
    return {
      output: isError
        ? `FAIL test/${call.args['filter']}.test.ts\n  expected 1200 to equal 1250 (rounding of amount_${step})\n  at computeTotal (src/ledger/total.ts:${40 + (step % 30)})`
        : `PASS test/${call.args['filter']}.test.ts (${12 + (step % 7)} tests, ${80 + step} ms)`,
      isError,
    };
  }
  if (call.name === 'search_code') {
    return { output: `3 matches for ${call.args['query']}:\nsrc/a.ts:${step}: const total${step} = sum(entries)\nsrc/b.ts:${step + 3}: export function total${step}()\nsrc/c.ts:${step + 9}: // total${step} is rounded in cents`, isError: false };
  }
  const lines = Array.from({ length: 12 }, (_, index) => `  const value${index} = input.amount_${step}_${index} ?? 0; // line ${index + 1}`);
  return { output: `// ${call.args['path']}\nexport function handle${step}(input: Input): number {\n${lines.join('\n')}\n  return value0 + value1;\n}`, isError: false };
}

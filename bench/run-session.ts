// Replays one session through Mobius and every baseline side by side: builds each strategy's
// window before every model call (latency, prompt-cache reuse, budget) and scores the windows at
// every checkpoint (tokens per block, probe retention, file state).
import { ContextManager, countMessageTokens, createExtractiveSummarizer } from '../src/index.js';
import type { BlockTokens, BuiltContext, ContextMessage, TokenCounter } from '../src/index.js';
import { createReplayer } from '../examples/replay.js';
import type { ReplayStats } from '../examples/replay.js';
import { createBaselines } from './baselines.js';
import type { StrategyWindow, WindowItem } from './baselines.js';
import { createCountingSummarizer } from './counting-summarizer.js';
import type { SummarizerUsage } from './counting-summarizer.js';
import { commonPrefix, mobiusBlockAt, scoreFileState, scoreProbes, windowText } from './scoring.js';
import type { FileStateScore, ProbeScore } from './scoring.js';
import type { BenchSession, Checkpoint } from './session-source.js';
import { summarizeSamples } from './statistics.js';
import type { SampleSummary } from './statistics.js';
import { createTranscript } from './transcript.js';

/** The system prompt every strategy starts with. */
export const SYSTEM_PROMPT = 'You are a careful coding agent. Follow the session facts and pinned instructions.';

/** Simulated minutes between two samples of the token timeline. */
export const TIMELINE_STEP_MINUTES = 2;

/** Files touched in this many of the latest events must be present with their exact content. */
export const FILE_STATE_EVENTS = 10;

/** One strategy at one checkpoint. */
export interface StrategyCheckpoint {
  /** Tokens of the window. */
  readonly tokens: number;
  /** Tokens per block (Mobius only). */
  readonly blocks?: BlockTokens | undefined;
  /** Probe scores (sessions with probes only). */
  readonly probes?: readonly ProbeScore[] | undefined;
  /** File-state score. */
  readonly fileState: FileStateScore;
}

/** All strategies at one checkpoint. */
export interface CheckpointResult {
  /** Checkpoint id. */
  readonly id: string;
  /** Simulated minute. */
  readonly minute: number;
  /** Naive history tokens at this point, for the ratio. */
  readonly naiveTokens: number;
  /** Results by strategy name. */
  readonly strategies: Readonly<Record<string, StrategyCheckpoint>>;
}

/** Window sizes at one model call, sampled every few simulated minutes for the charts. */
export interface TimelineSample {
  /** Simulated minute. */
  readonly minute: number;
  /** Mobius tokens per block. */
  readonly blocks: BlockTokens;
  /** Window tokens by strategy. */
  readonly tokens: Readonly<Record<string, number>>;
}

/** Prompt-cache reuse of one strategy over a session. */
export interface CacheReuse {
  /** Consecutive builds compared. */
  readonly calls: number;
  /** Σ shared-prefix tokens ÷ Σ window tokens (what a provider would bill at the cached rate). */
  readonly weightedShare: number;
  /** Mean of the per-call shares. */
  readonly meanShare: number;
  /** Share of calls that reused at least 80% of their tokens. */
  readonly callsAbove80: number;
  /** Σ window tokens over all calls: what the strategy sends in a session. */
  readonly sentTokens: number;
  /** Σ shared-prefix tokens over the compared calls. */
  readonly sharedTokens: number;
  /** Σ window tokens over the compared calls. */
  readonly comparedTokens: number;
  /**
   * Where the shared prefix ended, by number of calls: the Mobius block (`facts`, `summaries`,
   * `scratchpad`…), `history` (a message after the system message), `appended` (fully shared).
   */
  readonly breaks: Readonly<Record<string, number>>;
}

/** Summarizer cost of one strategy over a session. */
export interface SummarizerCost extends SummarizerUsage {
  /** Tokens that left the verbatim tier (T0 for Mobius, the replaced history for compaction). */
  readonly graduatedTokens: number;
  /** `inputTokens ÷ graduatedTokens`; 1.0 means every token was summarised once. */
  readonly inputRatio: number;
}

/** Everything measured on one session. */
export interface SessionResult {
  readonly name: string;
  readonly file: string;
  readonly kind: 'synth' | 'real';
  /** Whether the session carries retention probes (synthetic or hand-annotated). */
  readonly isScored: boolean;
  readonly source: string | undefined;
  readonly clock: string;
  readonly events: number;
  readonly textBytes: number;
  readonly minutes: number;
  /** What the replay recorded and what it had to adapt. */
  readonly replay: ReplayStats;
  readonly checkpoints: readonly CheckpointResult[];
  /** Window sizes over time, sampled at model calls. */
  readonly timeline: readonly TimelineSample[];
  /** Mobius `build()` latency in milliseconds, at every model call. */
  readonly latency: SampleSummary;
  /** Raw latency samples (ms), kept for pooling across sessions. */
  readonly latencySamples: readonly number[];
  readonly cache: Readonly<Record<string, CacheReuse>>;
  readonly summarizer: Readonly<Record<string, SummarizerCost>>;
  /** Mobius builds whose recounted tokens exceeded the budget. */
  readonly budgetViolations: number;
  /** Largest Mobius window seen, in tokens. */
  readonly maxMobiusTokens: number;
  /** Mobius graduations (T0 chunks and T1 consolidations). */
  readonly graduations: { readonly chunks: number; readonly consolidations: number; readonly fallbacks: number };
  /** Wall-clock seconds the replay took (all strategies). */
  readonly seconds: number;
}

/** Replays `session` through Mobius and the baselines. */
export async function runSession(options: {
  session: BenchSession;
  budget: number;
  compactionThreshold: number;
  counter: TokenCounter;
}): Promise<SessionResult> {
  const { session, budget, counter } = options;
  const started = performance.now();
  const counting = createCountingSummarizer(createExtractiveSummarizer());
  const manager = new ContextManager({ budget, systemPrompt: SYSTEM_PROMPT, summarizer: counting.summarizer, tokenCounter: counter });
  const graduations = { chunks: 0, consolidations: 0, fallbacks: 0 };
  let graduatedTokens = 0;
  manager.on('graduation-end', (report) => {
    if (report.mode === 'chunk') {
      graduations.chunks += 1;
      graduatedTokens += report.tokensIn;
    } else {
      graduations.consolidations += 1;
    }
  });
  manager.on('summarizer-fallback', () => (graduations.fallbacks += 1));
  const replayer = createReplayer(manager);
  const rejected: Record<string, number> = {};

  const transcript = createTranscript({ counter });
  const systemMessage: ContextMessage = { role: 'system', content: SYSTEM_PROMPT };
  const system: WindowItem = { message: systemMessage, tokens: countMessageTokens([systemMessage], counter) };
  const baselines = createBaselines({ transcript, system, budget, compactionThreshold: options.compactionThreshold, counter });
  const mobiusItems = createMobiusItems(counter);

  const cacheTrackers = new Map<string, CacheTracker>();
  for (const name of ['mobius', ...baselines.map((strategy) => strategy.name)]) cacheTrackers.set(name, createCacheTracker(counter, { isMobius: name === 'mobius' }));
  const latencySamples: number[] = [];
  let budgetViolations = 0;
  let maxMobiusTokens = 0;
  const touched: string[] = [];
  const checkpoints: CheckpointResult[] = [];
  const timeline: TimelineSample[] = [];
  let nextSample = 0;
  let nextCheckpoint = 0;

  const buildMobius = (): { built: BuiltContext; window: StrategyWindow } => {
    const start = performance.now();
    const built = manager.build({ budget });
    latencySamples.push(performance.now() - start);
    maxMobiusTokens = Math.max(maxMobiusTokens, built.tokens.total);
    if (built.tokens.total > budget) budgetViolations += 1;
    return { built, window: mobiusItems(built) };
  };

  const takeCheckpoint = async (checkpoint: Checkpoint): Promise<void> => {
    await manager.settle();
    const { built, window } = buildMobius();
    if (countMessageTokens(built.messages, counter) > budget) budgetViolations += 1;
    const recent = touched.slice(-FILE_STATE_EVENTS).filter((path) => path !== '');
    const score = (strategyWindow: StrategyWindow, blocks?: BlockTokens): StrategyCheckpoint => {
      const text = windowText(strategyWindow.items);
      return {
        tokens: strategyWindow.total,
        ...(blocks === undefined ? {} : { blocks }),
        ...(session.isScored ? { probes: scoreProbes({ session, checkpoint, window: text }) } : {}),
        fileState: scoreFileState({ paths: recent, contents: replayer.contents, window: text }),
      };
    };
    const strategies: Record<string, StrategyCheckpoint> = { mobius: score(window, built.tokens.blocks) };
    for (const strategy of baselines) strategies[strategy.name] = score(strategy.build());
    checkpoints.push({ id: checkpoint.id, minute: checkpoint.minute, naiveTokens: system.tokens + transcript.tokens, strategies });
  };

  for (let index = 0; index <= session.lines.length; index += 1) {
    while (nextCheckpoint < session.checkpoints.length && (session.checkpoints[nextCheckpoint]?.lineIndex ?? Infinity) <= index) {
      await takeCheckpoint(session.checkpoints[nextCheckpoint] as Checkpoint);
      nextCheckpoint += 1;
    }
    const line = session.lines[index];
    if (line === undefined) break;
    if (HARNESS_ONLY.has(line.type)) continue;
    if (MODEL_EVENTS.has(line.type)) {
      // A model call: every strategy sends its window now.
      await manager.settle();
      const mobius = buildMobius();
      cacheTrackers.get('mobius')?.add(mobius.window);
      const tokens: Record<string, number> = { mobius: mobius.built.tokens.total };
      for (const strategy of baselines) {
        const window = strategy.build();
        cacheTrackers.get(strategy.name)?.add(window);
        tokens[strategy.name] = window.total;
      }
      const minute = session.minutes[index] ?? 0;
      if (minute >= nextSample) {
        timeline.push({ minute, blocks: mobius.built.tokens.blocks, tokens });
        nextSample = minute + TIMELINE_STEP_MINUTES;
      }
    }
    try {
      replayer.apply(line);
    } catch (error) {
      const code = error instanceof Error && 'code' in error ? String(error.code) : 'error';
      rejected[`rejected by Mobius (${code})`] = (rejected[`rejected by Mobius (${code})`] ?? 0) + 1;
    }
    touched.push(line.type === 'file_read' || line.type === 'file_edit' ? (line.path ?? '') : '');
    const appended = transcript.append(line);
    for (const strategy of baselines) await strategy.observe(appended);
  }
  await manager.settle();

  const cache: Record<string, CacheReuse> = {};
  for (const [name, tracker] of cacheTrackers) cache[name] = tracker.result();
  const summarizer: Record<string, SummarizerCost> = { mobius: cost(counting.usage, graduatedTokens) };
  for (const strategy of baselines) {
    if (strategy.usage !== undefined) summarizer[strategy.name] = cost(strategy.usage, strategy.summarizedTokens);
  }
  return {
    name: session.name,
    file: session.file,
    kind: session.kind,
    isScored: session.isScored,
    source: session.source,
    clock: session.clock,
    events: session.eventCount,
    textBytes: session.textBytes,
    minutes: session.minutes[session.minutes.length - 1] ?? 0,
    replay: { recorded: replayer.stats.recorded, skipped: { ...replayer.stats.skipped, ...rejected } },
    checkpoints,
    timeline,
    latency: summarizeSamples(latencySamples),
    latencySamples,
    cache,
    summarizer,
    budgetViolations,
    maxMobiusTokens,
    graduations,
    seconds: (performance.now() - started) / 1_000,
  };
}

/** Session events the model produces: each one is preceded by a model call. */
export const MODEL_EVENTS: ReadonlySet<string> = new Set(['assistant', 'file_read', 'file_edit', 'command', 'tool']);

/** Lines for the harness only: not recorded by any strategy. */
export const HARNESS_ONLY: ReadonlySet<string> = new Set(['meta', 'probe', 'checkpoint']);

/** Turns a built Mobius window into window items, counting each history message once. */
export function createMobiusItems(counter: TokenCounter): (built: BuiltContext) => StrategyWindow {
  const cache = new Map<string, number>();
  return (built) => {
    const [systemMessage, ...history] = built.messages;
    const items: WindowItem[] = [];
    let historyTokens = 0;
    for (const message of history) {
      const key = messageKey(message);
      let tokens = cache.get(key);
      if (tokens === undefined) {
        tokens = countMessageTokens([message], counter);
        if (cache.size > 20_000) cache.clear();
        cache.set(key, tokens);
      }
      historyTokens += tokens;
      items.push({ message, tokens });
    }
    if (systemMessage !== undefined) {
      items.unshift({ message: systemMessage, tokens: built.tokens.total - built.tokens.blocks.working });
    }
    return { items, total: built.tokens.total - built.tokens.blocks.working + historyTokens };
  };
}

// --- Internal helpers ---

interface CacheTracker {
  add(window: StrategyWindow): void;
  result(): CacheReuse;
}

function createCacheTracker(counter: TokenCounter, options: { isMobius: boolean }): CacheTracker {
  let previous: readonly WindowItem[] | undefined;
  let calls = 0;
  let shared = 0;
  let total = 0;
  let shareSum = 0;
  let above = 0;
  let sent = 0;
  const breaks: Record<string, number> = {};
  return {
    add(window) {
      sent += window.total;
      if (previous !== undefined && window.total > 0) {
        const prefix = commonPrefix({ previous, current: window.items, counter });
        const common = Math.min(window.total, prefix.tokens);
        calls += 1;
        shared += common;
        total += window.total;
        shareSum += common / window.total;
        if (common / window.total >= 0.8) above += 1;
        const system = window.items[0]?.message.content ?? '';
        const where =
          prefix.messageIndex < 0 ? 'appended'
          : prefix.messageIndex > 0 ? 'history'
          : options.isMobius ? mobiusBlockAt(system, prefix.sharedCharacters)
          : 'system';
        breaks[where] = (breaks[where] ?? 0) + 1;
      }
      previous = window.items;
    },
    result: () => ({
      calls,
      weightedShare: total === 0 ? 0 : shared / total,
      meanShare: calls === 0 ? 0 : shareSum / calls,
      callsAbove80: calls === 0 ? 0 : above / calls,
      sentTokens: sent,
      sharedTokens: shared,
      comparedTokens: total,
      breaks,
    }),
  };
}

function cost(usage: SummarizerUsage, graduatedTokens: number): SummarizerCost {
  return { ...usage, graduatedTokens, inputRatio: graduatedTokens === 0 ? 0 : usage.inputTokens / graduatedTokens };
}

function messageKey(message: ContextMessage): string {
  if (message.role === 'assistant' && message.toolCalls !== undefined && message.toolCalls.length > 0) {
    return `assistant\u0000${message.content}\u0000${JSON.stringify(message.toolCalls)}`;
  }
  return `${message.role}\u0000${message.content}`;
}

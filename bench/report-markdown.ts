// The Markdown tables printed on stdout (and pasted into the README).
import { BUDGET_USE_FROM_MINUTE, CATEGORIES, describeCacheBreaks, KEY_CATEGORIES, STRATEGIES } from './aggregate.js';
import type { StrategyInfo, StrategySummary } from './aggregate.js';
import {
  formatInteger,
  formatMegabytes,
  formatMilliseconds,
  formatMinutes,
  formatPercent,
  formatShare,
  formatTokens,
} from './format.js';
import { LATENCY_COPIES } from './performance.js';
import { PERSISTENCE_BLOCK_TURNS } from './persistence.js';
import type { BenchResults, SetResult } from './results.js';
import { AGE_BUCKETS } from './scoring.js';
import type { Share } from './statistics.js';
import { checkTargets } from './targets.js';

/** Renders the run as Markdown: per-set retention at equal budget, cost, performance, targets. */
export function renderMarkdownReport(results: BenchResults): string {
  const { aggregate, performance, settings } = results;
  const lines: string[] = [];
  const held = STRATEGIES.filter((strategy) => strategy.isHeldToBudget);
  const synth = results.sessions.filter((session) => session.kind === 'synth');
  const real = results.sessions.filter((session) => session.kind === 'real');
  lines.push(
    `# mobius-context benchmark`,
    '',
    `${results.sessions.length} sessions in ${results.sets.length} sets (${results.sets.map((set) => `${set.name}: ${set.sessions.length}`).join(', ')}), budget ${formatInteger(settings.budget)} tokens, tokenizer ${settings.tokenizer}, ${results.environment.node} on ${results.environment.cpu}. Run took ${results.wallSeconds.toFixed(0)} s.`,
    '',
  );
  if (results.missingSets.length > 0) lines.push(`Sets not found and left out: ${results.missingSets.join('; ')}.`, '');
  lines.push(
    `## At equal budget (${formatInteger(settings.budget)} tokens): what each strategy keeps, per set`,
    '',
    `Every strategy is held to the same budget. Retention: share of probe scores (every probe at every later checkpoint) whose keywords are all in the window. Stale-only: updated facts of which only an older value is in the window. Budget use: window tokens ÷ budget (÷ the whole history where that is smaller) at the checkpoints from minute ${BUDGET_USE_FROM_MINUTE} on, smallest / median. File state: files touched in the last ${settings.fileStateEvents} events present with their exact content.`,
    '',
  );
  const ages = AGE_BUCKETS.filter((bucket) => bucket.to !== Number.POSITIVE_INFINITY || results.sets.some((set) => (set.aggregate.strategies['mobius']?.byAge[bucket.label]?.total ?? 0) > 0));
  for (const set of results.sets) lines.push(...setTables(set, held, ages.map((bucket) => bucket.label)));
  lines.push('## Tokens at 60 minutes (window size; naive ÷ Mobius)', '');
  const shown = ['mobius', 'naive', 'sliding-window', 'tool-pruning', 'compaction-160k'];
  lines.push(
    row(['session', 'minute', ...shown.map(labelOf), 'naive ÷ Mobius']),
    row(['---', '---:', ...shown.map(() => '---:'), '---:']),
  );
  for (const entry of aggregate.tokensAt60) {
    lines.push(row([entry.session, formatMinutes(entry.minute), ...shown.map((name) => formatInteger(entry.tokens[name] ?? 0)), `${entry.naiveRatio.toFixed(1)}×`]));
  }

  // The longest session of the first set that has synthetic ones (the bundled set by default).
  const firstSynthSet = results.sets.find((set) => set.sessions.some((name) => synth.some((session) => session.name === name)));
  const longest = [...synth].filter((session) => firstSynthSet?.sessions.includes(session.name) ?? true).sort((a, b) => b.minutes - a.minutes)[0];
  if (longest !== undefined) {
    lines.push('', `## Mobius window by block over time (${longest.name})`, '');
    lines.push(
      row(['time', 'prefix', 'facts', 'pins', 'T1', 'files', 'T0', 'window', 'naive', 'naive ÷ window']),
      row(['---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---:']),
    );
    for (const checkpoint of longest.checkpoints) {
      const mobius = checkpoint.strategies['mobius'];
      const blocks = mobius?.blocks;
      if (mobius === undefined || blocks === undefined) continue;
      lines.push(row([
        formatMinutes(checkpoint.minute),
        formatInteger(blocks.prefix),
        formatInteger(blocks.facts),
        formatInteger(blocks.pins),
        formatInteger(blocks.summaries),
        formatInteger(blocks.scratchpad),
        formatInteger(blocks.working),
        formatInteger(mobius.tokens),
        formatInteger(checkpoint.naiveTokens),
        `${(checkpoint.naiveTokens / Math.max(1, mobius.tokens)).toFixed(1)}×`,
      ]));
    }
  }

  lines.push('', '## What it costs when not held to a budget', '');
  lines.push(
    'Σ over every model call of every session: tokens sent, and the same with shared-prefix tokens billed at 10% (a typical cached-input price).',
    '',
    row(['strategy', 'largest window', 'tokens sent', 'with prompt cache', 'cache reuse', 'file state']),
    row(['---', '---:', '---:', '---:', '---:', '---:']),
  );
  for (const strategy of STRATEGIES) {
    const summary = aggregate.strategies[strategy.name];
    if (summary === undefined) continue;
    lines.push(row([
      strategy.label,
      formatInteger(summary.maxTokens),
      formatTokens(summary.sentTokens),
      formatTokens(summary.sentTokensCached),
      formatPercent(summary.cacheReuse),
      formatShare(summary.fileState),
    ]));
  }

  lines.push('', '## Mobius: speed, memory, summarizer cost', '');
  lines.push(row(['measure', 'value']), row(['---', '---']));
  lines.push(row(['build() latency, Mobius alone (10,000-turn session)', `p50 ${formatMilliseconds(performance.latency.p50)}, p99 ${formatMilliseconds(performance.latency.p99)}, max ${formatMilliseconds(performance.latency.max)} (${formatInteger(performance.latency.count)} builds, each right after a new event)`]));
  lines.push(row(['build() repeated with nothing new recorded', `p50 ${formatMilliseconds(performance.repeatLatency.p50)}, p99 ${formatMilliseconds(performance.repeatLatency.p99)}`]));
  lines.push(row(['build() latency, side by side with the baselines', `p50 ${formatMilliseconds(aggregate.latency.p50)}, p99 ${formatMilliseconds(aggregate.latency.p99)}, max ${formatMilliseconds(aggregate.latency.max)} (${formatInteger(aggregate.latency.count)} builds)`]));
  for (const entry of performance.latencyByLength.filter((candidate) => LATENCY_COPIES.includes(candidate.copies))) {
    lines.push(row([`build() at ${entry.copies}× ${performance.baseSession} (${formatInteger(entry.events)} events)`, `p50 ${formatMilliseconds(entry.latency.p50)}, p99 ${formatMilliseconds(entry.latency.p99)}`]));
  }
  lines.push(row(['prompt-cache prefix', `${formatPercent(aggregate.strategies['mobius']?.cacheReuse ?? 0)} reused; ${describeCacheBreaks(aggregate.strategies['mobius']?.cacheBreaks ?? {})}`]));
  const throughput = performance.throughput;
  lines.push(row(['ingestion', `${formatInteger(throughput.mobiusEventsPerSecond)} events/s, ${throughput.mobiusMegabytesPerSecond.toFixed(2)} MB/s = ${throughput.ratio.toFixed(2)}× the tokenizer alone (${throughput.tokenizerMegabytesPerSecond.toFixed(2)} MB/s)`]));
  const heap = performance.heap;
  lines.push(row([`heap, ${formatInteger(heap.turns)}-turn session (${formatMegabytes(heap.textBytes)} of text)`, heap.heapBytes === undefined ? 'not measured (run with --expose-gc)' : `${formatMegabytes(heap.heapBytes)} (${formatInteger(heap.bytesPerTurn ?? 0)} bytes/turn; ${formatInteger(heap.archived)} archived items)`]));
  const persistence = performance.persistence;
  lines.push(row([`storage writes, ${formatInteger(persistence.turns)}-turn session with automatic saves`, `${formatMegabytes(persistence.totalBytes)} in total = ${(persistence.totalBytes / Math.max(1, persistence.logBytes)).toFixed(2)}× the ${formatMegabytes(persistence.logBytes)} log; ${formatInteger(persistence.snapshots)} snapshots; ${formatInteger(persistence.pendingEvents)} events not durable at the end`]));
  lines.push(row([`storage writes per ${formatInteger(PERSISTENCE_BLOCK_TURNS)} turns`, persistence.blocks.map((block) => formatMegabytes(block.appendedBytes + block.snapshotBytes)).join(', ')]));
  for (const [name, cost] of Object.entries(aggregate.summarizer)) {
    lines.push(row([`summarizer: ${labelOf(name)}`, `${cost.calls} calls, ${formatInteger(cost.inputTokens)} input tokens ÷ ${formatInteger(cost.graduatedTokens)} graduated = ${cost.inputRatio.toFixed(2)}×`]));
  }

  lines.push('', '## Targets', '');
  lines.push(row(['target', 'measured', 'met']), row(['---', '---', ':---:']));
  for (const check of checkTargets(results)) {
    lines.push(row([check.target, check.measured, check.isMet === undefined ? '–' : check.isMet ? 'yes' : '**no**']));
  }

  lines.push('', '## Sessions', '');
  lines.push(row(['session', 'set', 'kind', 'events', 'length', 'checkpoints', 'clock', 'replay adaptations']), row(['---', '---', '---', '---:', '---:', '---:', '---', '---']));
  for (const session of [...synth, ...real]) {
    const skipped = Object.entries(session.replay.skipped).map(([reason, count]) => `${count} × ${reason}`).join('; ');
    const set = results.sets.find((candidate) => candidate.sessions.includes(session.name))?.name ?? '–';
    lines.push(row([session.name, set, session.isScored ? `${session.kind}, probes` : session.kind, formatInteger(session.events), formatMinutes(session.minutes), String(session.checkpoints.length), session.clock, skipped === '' ? 'none' : skipped]));
  }
  lines.push('', 'Full results: bench-results/results.json; charts: bench-results/report.html; how to read them: docs/benchmark.md.', '');
  return `${lines.join('\n')}\n`;
}

// --- Internal helpers ---

const NONE: Share = { hits: 0, total: 0, share: 0 };

// The three tables of one set: headline, retention by category, retention by age.
function setTables(set: SetResult, strategies: readonly StrategyInfo[], ages: readonly string[]): string[] {
  const lines: string[] = [];
  const mobius = set.aggregate.strategies['mobius'];
  const scores = mobius?.retention.total ?? 0;
  const checkpoints = set.aggregate.strategies['mobius']?.budgetUse.checkpoints ?? 0;
  lines.push(
    `### ${set.label}`,
    '',
    `${set.sessions.length} sessions, ${set.probes} probes (${formatInteger(scores)} probe scores); ${set.description}. Budget use over ${checkpoints} checkpoints.`,
    '',
    row(['strategy', 'retention', 'key categories', 'stale-only', 'newest wins', 'budget use (min / median)', 'file state']),
    row(['---', '---:', '---:', '---:', '---:', '---:', '---:']),
  );
  for (const strategy of strategies) {
    const summary = set.aggregate.strategies[strategy.name];
    if (summary === undefined) continue;
    lines.push(row([
      `**${strategy.label}**`,
      formatShare(summary.retention),
      formatShare(summary.keyRetention),
      staleCell(summary),
      formatShare(summary.newestWins, { counts: true }),
      summary.budgetUse.checkpoints === 0 ? '–' : `${formatPercent(summary.budgetUse.min, 0)} / ${formatPercent(summary.budgetUse.median, 0)}`,
      formatShare(summary.fileState),
    ]));
  }
  if (scores === 0) return [...lines, ''];
  const categoryLabels = CATEGORIES.map((category) => `${category.replace('_', ' ')}${KEY_CATEGORIES.includes(category) ? ' *' : ''}`);
  lines.push('', row(['by category', ...categoryLabels]), row(['---', ...categoryLabels.map(() => '---:')]));
  for (const strategy of strategies) {
    const summary = set.aggregate.strategies[strategy.name];
    if (summary !== undefined) lines.push(row([strategy.label, ...CATEGORIES.map((category) => formatShare(summary.byCategory[category] ?? NONE))]));
  }
  lines.push('', row(['by age of the fact', ...ages]), row(['---', ...ages.map(() => '---:')]));
  for (const strategy of strategies) {
    const summary = set.aggregate.strategies[strategy.name];
    if (summary !== undefined) lines.push(row([strategy.label, ...ages.map((age) => formatShare(summary.byAge[age] ?? NONE))]));
  }
  lines.push('');
  return lines;
}

function staleCell(summary: StrategySummary): string {
  return summary.stale.total === 0 ? '–' : `${formatPercent(summary.stale.share)} (${summary.stale.hits}/${summary.stale.total})`;
}

function row(cells: readonly string[]): string {
  return `| ${cells.map((cell) => cell.replaceAll('|', '\\|')).join(' | ')} |`;
}

function labelOf(name: string): string {
  return STRATEGIES.find((strategy) => strategy.name === name)?.label ?? name;
}

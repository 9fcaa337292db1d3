// The Markdown tables printed on stdout (and pasted into the README).
import { CATEGORIES, checkpointNear, describeCacheBreaks, STRATEGIES } from './aggregate.js';
import type { StrategyInfo } from './aggregate.js';
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
import type { BenchResults } from './results.js';
import { AGE_BUCKETS } from './scoring.js';
import { checkTargets } from './targets.js';

/** Renders the run as Markdown: headline, retention by age, cost, performance, targets. */
export function renderMarkdownReport(results: BenchResults): string {
  const { aggregate, performance, settings } = results;
  const lines: string[] = [];
  const held = STRATEGIES.filter((strategy) => strategy.isHeldToBudget);
  const synth = results.sessions.filter((session) => session.kind === 'synth');
  const real = results.sessions.filter((session) => session.kind === 'real');
  lines.push(
    `# mobius-context benchmark`,
    '',
    `${results.sessions.length} sessions (${synth.length} synthetic with probes, ${real.length} real), budget ${formatInteger(settings.budget)} tokens, tokenizer ${settings.tokenizer}, ${results.environment.node} on ${results.environment.cpu}. Run took ${results.wallSeconds.toFixed(0)} s.`,
    '',
    `## At equal budget (${formatInteger(settings.budget)} tokens): what each strategy keeps`,
    '',
    'Probe retention over every checkpoint of the synthetic sessions; file state over every checkpoint of all sessions.',
    '',
  );
  const categoryLabels = CATEGORIES.map((category) => category.replace('_', ' '));
  lines.push(
    row(['strategy', 'all probes', ...categoryLabels, 'newest wins', 'file state', 'tokens @60 min', 'cache reuse']),
    row(['---', ...Array.from({ length: categoryLabels.length + 5 }, () => '---:')]),
  );
  for (const strategy of held) {
    const summary = aggregate.strategies[strategy.name];
    if (summary === undefined) continue;
    lines.push(row([
      `**${strategy.label}**`,
      formatShare(summary.retention),
      ...CATEGORIES.map((category) => formatShare(summary.byCategory[category] ?? { hits: 0, total: 0, share: 0 })),
      formatShare(summary.newestWins),
      formatShare(summary.fileState),
      tokensAt60(results, strategy),
      formatPercent(summary.cacheReuse),
    ]));
  }

  lines.push('', '## Retention by age of the fact (all categories; key categories in brackets)', '');
  lines.push(row(['strategy', ...AGE_BUCKETS.map((bucket) => bucket.label)]), row(['---', ...AGE_BUCKETS.map(() => '---:')]));
  for (const strategy of STRATEGIES) {
    const summary = aggregate.strategies[strategy.name];
    if (summary === undefined || summary.retention.total === 0) continue;
    lines.push(row([
      strategy.label,
      ...AGE_BUCKETS.map((bucket) => {
        const all = summary.byAge[bucket.label];
        const key = summary.keyByAge[bucket.label];
        return all === undefined ? '–' : `${formatShare(all)} (${key === undefined ? '–' : formatShare(key)})`;
      }),
    ]));
  }

  lines.push('', '## Tokens at 60 minutes (window size; naive ÷ Mobius)', '');
  const shown = ['mobius', 'naive', 'sliding-window', 'tool-pruning', 'compaction-160k'];
  lines.push(
    row(['session', 'minute', ...shown.map(labelOf), 'naive ÷ Mobius']),
    row(['---', '---:', ...shown.map(() => '---:'), '---:']),
  );
  for (const entry of aggregate.tokensAt60) {
    lines.push(row([entry.session, formatMinutes(entry.minute), ...shown.map((name) => formatInteger(entry.tokens[name] ?? 0)), `${entry.naiveRatio.toFixed(1)}×`]));
  }

  const longest = [...synth].sort((a, b) => b.minutes - a.minutes)[0];
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
    row(['strategy', 'largest window', 'tokens sent', 'with prompt cache', 'cache reuse', 'all probes', 'file state']),
    row(['---', '---:', '---:', '---:', '---:', '---:', '---:']),
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
      formatShare(summary.retention),
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
  for (const [name, cost] of Object.entries(aggregate.summarizer)) {
    lines.push(row([`summarizer: ${labelOf(name)}`, `${cost.calls} calls, ${formatInteger(cost.inputTokens)} input tokens ÷ ${formatInteger(cost.graduatedTokens)} graduated = ${cost.inputRatio.toFixed(2)}×`]));
  }

  lines.push('', '## Targets', '');
  lines.push(row(['target', 'measured', 'met']), row(['---', '---', ':---:']));
  for (const check of checkTargets(results)) {
    lines.push(row([check.target, check.measured, check.isMet === undefined ? '–' : check.isMet ? 'yes' : '**no**']));
  }

  lines.push('', '## Sessions', '');
  lines.push(row(['session', 'kind', 'events', 'length', 'clock', 'replay adaptations']), row(['---', '---', '---:', '---:', '---', '---']));
  for (const session of [...synth, ...real]) {
    const skipped = Object.entries(session.replay.skipped).map(([reason, count]) => `${count} × ${reason}`).join('; ');
    lines.push(row([session.name, session.kind, formatInteger(session.events), formatMinutes(session.minutes), session.clock, skipped === '' ? 'none' : skipped]));
  }
  lines.push('', 'Full results: bench-results/results.json; charts: bench-results/report.html; how to read them: docs/benchmark.md.', '');
  return `${lines.join('\n')}\n`;
}

// --- Internal helpers ---

function row(cells: readonly string[]): string {
  return `| ${cells.map((cell) => cell.replaceAll('|', '\\|')).join(' | ')} |`;
}

function labelOf(name: string): string {
  return STRATEGIES.find((strategy) => strategy.name === name)?.label ?? name;
}

// Median over the sessions that reach 60 minutes.
function tokensAt60(results: BenchResults, strategy: StrategyInfo): string {
  const values = results.sessions
    .map((session) => checkpointNear(session, 60)?.strategies[strategy.name]?.tokens)
    .filter((value): value is number => value !== undefined)
    .sort((a, b) => a - b);
  if (values.length === 0) return '–';
  return formatInteger(values[Math.floor((values.length - 1) / 2)] ?? 0);
}

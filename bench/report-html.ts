// The HTML report: one self-contained page (inline CSS and SVG, no scripts, no external assets).
import { BUDGET_USE_FROM_MINUTE, CATEGORIES, describeCacheBreaks, KEY_CATEGORIES, STRATEGIES } from './aggregate.js';
import type { StrategySummary } from './aggregate.js';
import {
  formatInteger,
  formatMegabytes,
  formatMilliseconds,
  formatMinutes,
  formatPercent,
  formatShare,
  formatTokens,
} from './format.js';
import { latencyGrowth } from './performance.js';
import type { BenchResults, SetResult } from './results.js';
import { AGE_BUCKETS } from './scoring.js';
import type { Share } from './statistics.js';
import { TIMELINE_STEP_MINUTES } from './run-session.js';
import { escapeXml, groupedBarChart, lineChart, stackedAreaChart } from './svg-charts.js';
import type { Series } from './svg-charts.js';
import { checkTargets } from './targets.js';

/** Mobius blocks in window order, with their chart colours. */
export const BLOCKS: readonly { readonly name: 'prefix' | 'facts' | 'pins' | 'summaries' | 'scratchpad' | 'working'; readonly label: string; readonly color: string }[] = [
  { name: 'prefix', label: 'static prefix', color: '#94a3b8' },
  { name: 'facts', label: 'T2 facts', color: '#7c3aed' },
  { name: 'pins', label: 'pinned', color: '#db2777' },
  { name: 'summaries', label: 'T1 summaries', color: '#2563eb' },
  { name: 'scratchpad', label: 'scratchpad (open files)', color: '#0d9488' },
  { name: 'working', label: 'T0 working memory', color: '#f59e0b' },
];

/** Renders the report page. */
export function renderHtmlReport(results: BenchResults): string {
  const body = [
    hero(results),
    contextOverTime(results),
    retentionByAge(results),
    retentionTable(results),
    everySession(results),
    speedAndMemory(results),
    targets(results),
    sessionsTable(results),
  ].join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>mobius-context benchmark</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
<footer>Generated ${escapeXml(results.generatedAt)} by <code>npm run bench</code> · ${escapeXml(results.environment.node)} · ${escapeXml(results.environment.cpu)} · ${results.wallSeconds.toFixed(0)} s. How to read this page: <code>docs/benchmark.md</code>. Raw numbers: <code>bench-results/results.json</code>.</footer>
</main>
</body>
</html>
`;
}

// --- Internal helpers ---

const STYLE = `
:root { color-scheme: light; --ink: #0f172a; --muted: #64748b; --line: #e2e8f0; --card: #fff; --bg: #f1f5f9; --accent: #6d28d9; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--ink); font: 14px/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif; }
main { max-width: 1180px; margin: 0 auto; padding: 0 20px 40px; }
.hero { background: linear-gradient(135deg, #4c1d95, #6d28d9 55%, #0d9488); color: #fff; border-radius: 0 0 20px 20px; padding: 30px 32px 26px; margin-bottom: 22px; }
.hero h1 { margin: 0 0 4px; font-size: 26px; letter-spacing: -0.01em; }
.hero p { margin: 0; opacity: 0.85; }
.kpis { display: grid; grid-template-columns: repeat(3, 1fr); gap: 12px; margin-top: 20px; }
.kpi { background: rgba(255,255,255,0.12); border: 1px solid rgba(255,255,255,0.22); border-radius: 14px; padding: 14px 16px; }
.kpi .value { font-size: 30px; font-weight: 700; letter-spacing: -0.02em; line-height: 1.1; }
.kpi .label { font-size: 13px; opacity: 0.92; margin-top: 4px; }
.kpi .sub { font-size: 12px; opacity: 0.75; margin-top: 6px; }
.kpi.miss .value::after { content: ' ✗'; font-size: 18px; color: #fecaca; }
.kpi.met .value::after { content: ' ✓'; font-size: 18px; color: #bbf7d0; }
section { background: var(--card); border: 1px solid var(--line); border-radius: 16px; padding: 20px 22px; margin-bottom: 18px; box-shadow: 0 1px 2px rgba(15,23,42,0.04); }
section h2 { margin: 0 0 4px; font-size: 18px; }
section > p.lead { margin: 0 0 14px; color: var(--muted); }
.grid2 { display: grid; grid-template-columns: 1fr 1fr; gap: 18px; }
.grid3 { display: grid; grid-template-columns: repeat(3, 1fr); gap: 14px; }
.chart h3 { margin: 0 0 2px; font-size: 14px; }
.chart .note { color: var(--muted); font-size: 12px; margin: 0 0 6px; }
.legend { display: flex; flex-wrap: wrap; gap: 6px 14px; font-size: 12px; color: #334155; margin: 4px 0 8px; }
.legend span { display: inline-flex; align-items: center; gap: 6px; }
.legend i { width: 12px; height: 12px; border-radius: 3px; display: inline-block; }
.legend i.line { height: 3px; border-radius: 2px; }
table { border-collapse: collapse; width: 100%; font-size: 13px; }
th, td { padding: 6px 6px; border-bottom: 1px solid var(--line); text-align: right; white-space: nowrap; }
th { white-space: normal; vertical-align: bottom; }
.scroll { overflow-x: auto; }
th:first-child, td:first-child { text-align: left; }
th { color: var(--muted); font-weight: 600; font-size: 12px; }
td.heat { font-variant-numeric: tabular-nums; font-weight: 600; }
tr.held td:first-child { font-weight: 600; }
tr.group td { background: #f8fafc; color: var(--muted); font-size: 12px; font-weight: 600; text-align: left; }
.bar { position: relative; height: 8px; background: #f1f5f9; border-radius: 4px; min-width: 80px; margin-top: 3px; }
.bar > b { position: absolute; left: 0; top: 0; bottom: 0; border-radius: 4px; }
.badge { display: inline-block; border-radius: 999px; padding: 2px 9px; font-size: 12px; font-weight: 600; }
.badge.met { background: #dcfce7; color: #166534; }
.badge.miss { background: #fee2e2; color: #991b1b; }
.badge.na { background: #e2e8f0; color: #475569; }
.stat { border: 1px solid var(--line); border-radius: 12px; padding: 12px 14px; }
.stat .value { font-size: 22px; font-weight: 700; }
.stat .label { color: var(--muted); font-size: 12px; }
td.wrap, th.wrap { white-space: normal; text-align: left; }
footer { color: var(--muted); font-size: 12px; text-align: center; margin-top: 10px; }
code { font-size: 12px; background: #f1f5f9; padding: 1px 5px; border-radius: 4px; }
.hero code { background: rgba(255,255,255,0.15); }
@media (max-width: 900px) { .grid2, .grid3, .kpis { grid-template-columns: 1fr; } }
`;

type Session = BenchResults['sessions'][number];

function strategySummary(results: BenchResults, name: string): StrategySummary | undefined {
  return results.aggregate.strategies[name];
}

function colorOf(name: string): string {
  return STRATEGIES.find((strategy) => strategy.name === name)?.color ?? '#334155';
}

function labelOf(name: string): string {
  return STRATEGIES.find((strategy) => strategy.name === name)?.label ?? name;
}

function legend(items: readonly { label: string; color: string; isLine?: boolean }[]): string {
  return `<div class="legend">${items.map((item) => `<span><i class="${item.isLine === true ? 'line' : ''}" style="background:${item.color}"></i>${escapeXml(item.label)}</span>`).join('')}</div>`;
}

// Round simulated times for the x axis: every 10, 15, 30 or 60 minutes.
function timeTicks(x: readonly number[]): number[] {
  const min = Math.min(...x);
  const max = Math.max(0, ...x);
  const step = max <= 40 ? 10 : max <= 90 ? 15 : max <= 180 ? 30 : 60;
  const ticks: number[] = [];
  for (let tick = 0; tick <= max; tick += step) if (tick >= min) ticks.push(tick);
  return ticks;
}

// 1K, 10K, 2.5M: short labels for token axes.
function formatAxisTokens(value: number): string {
  if (value >= 1_000_000) return `${Number((value / 1_000_000).toFixed(1))}M`;
  if (value >= 1_000) return `${Number((value / 1_000).toFixed(1))}K`;
  return String(Math.round(value));
}

function median(values: readonly number[]): number | undefined {
  if (values.length === 0) return undefined;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function kpi(options: { value: string; label: string; sub?: string; isMet?: boolean | undefined }): string {
  const status = options.isMet === undefined ? '' : options.isMet ? ' met' : ' miss';
  return `<div class="kpi${status}"><div class="value">${escapeXml(options.value)}</div><div class="label">${escapeXml(options.label)}</div>${options.sub === undefined ? '' : `<div class="sub">${escapeXml(options.sub)}</div>`}</div>`;
}

function hero(results: BenchResults): string {
  const { aggregate, settings } = results;
  const mobius = strategySummary(results, 'mobius');
  const synthNames = new Set(results.sessions.filter((session) => session.kind === 'synth').map((session) => session.name));
  const ratios = aggregate.tokensAt60.filter((entry) => synthNames.has(entry.session)).map((entry) => entry.naiveRatio);
  const ratio = median(ratios);
  const sliding = strategySummary(results, 'sliding-window');
  const compaction = strategySummary(results, 'compaction-28k');
  const pruning = strategySummary(results, 'tool-pruning-28k');
  const cost = aggregate.summarizer['mobius'];
  const synthCount = synthNames.size;
  const cards = [
    kpi({
      value: ratio === undefined ? '–' : `${ratio.toFixed(0)}×`,
      label: 'fewer tokens than the full history, at 60 minutes',
      sub: ratios.length === 0 ? 'no session reaches 60 min' : `median of ${ratios.length} synthetic sessions (${Math.min(...ratios).toFixed(0)}–${Math.max(...ratios).toFixed(0)}×)`,
      isMet: ratios.length === 0 ? undefined : ratios.every((value) => value >= 10),
    }),
    retentionCard(results),
    kpi({
      value: mobius === undefined ? '–' : formatShare(mobius.fileState),
      label: 'of recently touched files in the window with their exact current content',
      sub: `sliding window ${formatShare(sliding?.fileState ?? { hits: 0, total: 0, share: 0 })} · pruning ${formatShare(pruning?.fileState ?? { hits: 0, total: 0, share: 0 })} · compaction ${formatShare(compaction?.fileState ?? { hits: 0, total: 0, share: 0 })}`,
      isMet: mobius === undefined || mobius.fileState.total === 0 ? undefined : mobius.fileState.hits === mobius.fileState.total,
    }),
    kpi({
      value: `${formatMilliseconds(results.performance.latency.p50)} / ${formatMilliseconds(results.performance.latency.p99)}`,
      label: 'build() latency, p50 / p99, right after each new event',
      sub: `${formatInteger(results.performance.latency.count)} builds, Mobius alone; repeated with nothing new: p99 ${formatMilliseconds(results.performance.repeatLatency.p99)}`,
      isMet: results.performance.latency.count === 0 ? undefined : results.performance.latency.p99 <= 1,
    }),
    kpi({
      value: formatPercent(mobius?.cacheReuse ?? 0, 0),
      label: 'of each request is a prefix the previous request already sent (prompt-cacheable)',
      sub: `naive ${formatPercent(strategySummary(results, 'naive')?.cacheReuse ?? 0, 0)} · sliding window ${formatPercent(sliding?.cacheReuse ?? 0, 0)}`,
      isMet: mobius === undefined ? undefined : mobius.cacheReuse >= 0.8,
    }),
    kpi({
      value: cost === undefined ? '–' : `${cost.inputRatio.toFixed(2)}×`,
      label: 'summarizer input ÷ tokens graduated (1.0 = each token summarised once)',
      sub: cost === undefined ? '' : `${cost.calls} summarizer calls in ${results.sessions.length} sessions`,
      isMet: cost === undefined || cost.graduatedTokens === 0 ? undefined : cost.inputRatio <= 1.3,
    }),
  ];
  return `<header class="hero">
<h1>mobius-context benchmark</h1>
<p>${results.sessions.length} sessions replayed side by side (${synthCount} synthetic, ${results.sessions.length - synthCount} real agent transcripts) in ${results.sets.length} sets (${escapeXml(results.sets.map((set) => set.name).join(', '))}) · equal budget ${formatInteger(settings.budget)} tokens · tokenizer ${escapeXml(settings.tokenizer)}</p>
<div class="kpis">${cards.join('')}</div>
</header>`;
}

// The durable facts kept by Mobius, per set; the card shows the weakest set.
function retentionCard(results: BenchResults): string {
  const scored = results.sets.filter((set) => (set.aggregate.strategies['mobius']?.retention.total ?? 0) > 0);
  const retentionOf = (set: SetResult, name: string): Share => set.aggregate.strategies[name]?.retention ?? { hits: 0, total: 0, share: 0 };
  const weakest = [...scored].sort((a, b) => retentionOf(a, 'mobius').share - retentionOf(b, 'mobius').share)[0];
  return kpi({
    value: weakest === undefined ? '–' : formatShare(retentionOf(weakest, 'mobius')),
    label: weakest === undefined ? 'no probes in these sessions' : `of durable facts still in the ${formatTokens(results.settings.budget)} window, weakest set (${weakest.name})`,
    sub: scored.map((set) => `${set.name} ${formatShare(retentionOf(set, 'mobius'))} (compaction ${formatShare(retentionOf(set, 'compaction-28k'))})`).join(' · '),
    isMet: scored.length === 0 ? undefined : scored.every((set) => retentionOf(set, 'mobius').share >= 0.95),
  });
}

function longestSynth(results: BenchResults): Session | undefined {
  // The longest synthetic session of the first set that has one (the bundled set by default).
  const synth = results.sessions.filter((session) => session.kind === 'synth');
  const firstSet = results.sets.find((set) => synth.some((session) => set.sessions.includes(session.name)));
  const inFirst = synth.filter((session) => firstSet?.sessions.includes(session.name) ?? true);
  const pool = inFirst.length > 0 ? inFirst : results.sessions;
  return [...pool].sort((a, b) => b.minutes - a.minutes)[0];
}

function contextOverTime(results: BenchResults): string {
  const session = longestSynth(results);
  if (session === undefined) return '';
  const samples = session.timeline;
  const x = samples.map((sample) => sample.minute);
  const budget = results.settings.budget;
  const stacks: Series[] = BLOCKS.map((block) => ({
    label: block.label,
    color: block.color,
    values: samples.map((sample) => sample.blocks[block.name]),
  }));
  const blocksChart = stackedAreaChart({
    title: `Mobius window by block, ${session.name}`,
    width: 540,
    height: 300,
    x,
    stacks,
    references: [{ value: budget, label: `budget ${formatTokens(budget)}`, color: '#dc2626' }],
    yMax: Math.ceil((budget * 1.12) / 5_000) * 5_000,
    formatX: formatMinutes,
    xTicks: timeTicks(x),
    formatY: formatAxisTokens,
    xTitle: 'simulated time (h:mm)',
  });
  const shown = ['naive', 'compaction-160k', 'tool-pruning', 'sliding-window', 'compaction-28k', 'mobius'];
  const lines: Series[] = shown.map((name) => ({
    label: labelOf(name),
    color: colorOf(name),
    values: samples.map((sample) => sample.tokens[name]),
    width: name === 'mobius' || name === 'naive' ? 3 : 1.6,
    isDashed: name !== 'mobius' && name !== 'naive',
  }));
  const logChart = lineChart({
    title: `Window tokens of every strategy, ${session.name}`,
    width: 540,
    height: 300,
    x,
    series: lines,
    scale: 'log',
    yMin: 1_000,
    formatX: formatMinutes,
    xTicks: timeTicks(x),
    formatY: formatAxisTokens,
    xTitle: 'simulated time (h:mm), log scale',
    showEndLabels: false,
  });
  const last = samples[samples.length - 1];
  const ratio = last === undefined ? undefined : (last.tokens['naive'] ?? 0) / Math.max(1, last.tokens['mobius'] ?? 1);
  return `<section>
<h2>Context over time</h2>
<p class="lead">${escapeXml(session.name)} (${formatMinutes(session.minutes)} h, ${formatInteger(session.events)} events). Mobius holds its window under the budget while the full history grows to ${last === undefined ? '–' : formatTokens(last.tokens['naive'] ?? 0)} tokens${ratio === undefined ? '' : ` (${ratio.toFixed(0)}× more)`}.</p>
<div class="grid2">
<div class="chart"><h3>What Mobius sends, by block</h3><p class="note">Stable blocks first (prompt-cache friendly); T0 graduates into T1 summaries and T2 facts.</p>${legend(BLOCKS.map((block) => ({ label: block.label, color: block.color })))}${blocksChart}</div>
<div class="chart"><h3>Every strategy, log scale</h3><p class="note">Naive grows without bound; compaction saw-tooths at its threshold.</p>${legend(shown.map((name) => ({ label: labelOf(name), color: colorOf(name), isLine: true })))}${logChart}</div>
</div>
</section>`;
}

function retentionByAge(results: BenchResults): string {
  const shown = ['mobius', 'sliding-window', 'tool-pruning-28k', 'compaction-28k', 'compaction-160k'];
  const scored = results.sets.filter((set) => (set.aggregate.strategies['mobius']?.retention.total ?? 0) > 0);
  if (scored.length === 0) return '';
  const groups = AGE_BUCKETS.filter((bucket) => bucket.to !== Number.POSITIVE_INFINITY || scored.some((set) => (set.aggregate.strategies['mobius']?.byAge[bucket.label]?.total ?? 0) > 0)).map((bucket) => bucket.label);
  const charts = scored.map((set) => {
    const series: Series[] = shown.map((name) => ({
      label: labelOf(name),
      color: colorOf(name),
      values: groups.map((group) => {
        const value = set.aggregate.strategies[name]?.byAge[group];
        return value === undefined || value.total === 0 ? undefined : value.share;
      }),
    }));
    const chart = groupedBarChart({
      title: `Retention by age, ${set.name}`,
      width: 360,
      height: 240,
      groups: groups.map((group) => group.replace(' min', '')),
      series,
      yMax: 1,
      references: [{ value: 0.95, label: 'target 95%', color: '#16a34a' }],
      formatX: String,
      formatY: (value) => `${Math.round(value * 100)}%`,
      showValues: false,
    });
    const counts = groups.map((group) => `${group}: ${set.aggregate.strategies['mobius']?.byAge[group]?.total ?? 0}`).join(', ');
    return `<div class="chart"><h3>${escapeXml(set.label)}</h3><p class="note">Probe scores per bucket: ${escapeXml(counts)}.</p>${chart}</div>`;
  });
  return `<section>
<h2>Retention by age of the fact, per set</h2>
<p class="lead">A probe is retained when all its answer keywords are in the window. Ages are minutes since the fact was stated; each probe is scored at every later checkpoint. All categories; the ≥ 95% target applies at every age up to 4 h.</p>
${legend(shown.map((name) => ({ label: labelOf(name), color: colorOf(name) })))}
<div class="grid3">${charts.join('')}</div>
</section>`;
}

function heatCell(share: Share | undefined): string {
  if (share === undefined || share.total === 0) return '<td class="heat" style="color:#94a3b8">–</td>';
  const hue = Math.round(share.share * 130);
  return `<td class="heat" style="background:hsl(${hue} 75% 90%);color:hsl(${hue} 70% 24%)" title="${share.hits}/${share.total}">${formatPercent(share.share, 0)}</td>`;
}

function barCell(value: number, color: string, text: string): string {
  const width = Math.max(0, Math.min(1, value)) * 100;
  return `<td><div>${escapeXml(text)}</div><div class="bar"><b style="width:${width.toFixed(1)}%;background:${color}"></b></div></td>`;
}

function retentionTable(results: BenchResults): string {
  const header = `<tr><th>strategy</th><th>retention</th>${CATEGORIES.map((category) => `<th>${escapeXml(category.replace('_', ' '))}${KEY_CATEGORIES.includes(category) ? ' *' : ''}</th>`).join('')}<th>stale-only</th><th>newest wins</th><th>budget use, min / median</th><th>file state</th><th>cache reuse</th><th>largest window</th></tr>`;
  const rows: string[] = [];
  const columns = CATEGORIES.length + 8;
  for (const set of results.sets) {
    rows.push(`<tr class="group"><td colspan="${columns}">${escapeXml(set.label)} · ${set.sessions.length} sessions, ${set.probes} probes</td></tr>`);
    for (const strategy of STRATEGIES) {
      const summary = set.aggregate.strategies[strategy.name];
      if (summary === undefined) continue;
      const budget = summary.budgetUse;
      const cells = [
        `<td><span class="legend" style="display:inline-flex;margin:0"><span><i style="background:${strategy.color}"></i>${escapeXml(strategy.label)}${strategy.isHeldToBudget ? '' : ' (no budget)'}</span></span></td>`,
        heatCell(summary.retention),
        ...CATEGORIES.map((category) => heatCell(summary.byCategory[category])),
        staleCell(summary.stale),
        heatCell(summary.newestWins),
        `<td>${budget.checkpoints === 0 || !strategy.isHeldToBudget ? '–' : `${formatPercent(budget.min, 0)} / ${formatPercent(budget.median, 0)}`}</td>`,
        heatCell(summary.fileState),
        barCell(summary.cacheReuse, strategy.color, formatPercent(summary.cacheReuse, 0)),
        `<td>${formatInteger(summary.maxTokens)}</td>`,
      ];
      rows.push(`<tr class="${strategy.isHeldToBudget ? 'held' : ''}">${cells.join('')}</tr>`);
    }
  }
  return `<section>
<h2>What each strategy keeps, per set</h2>
<p class="lead">Pooled over every checkpoint of a set's sessions. * = key categories. Stale-only: updated facts of which only an older value is in the window (target ≤ 2%). Newest wins: the new value is present and no older value is presented as current. Budget use: window tokens ÷ ${formatInteger(results.settings.budget)} (÷ the whole history where that is smaller) at the checkpoints from minute ${BUDGET_USE_FROM_MINUTE} on (target ≥ 85%). File state: files touched in the last ${results.settings.fileStateEvents} events are in the window with their exact content. Hover a cell for counts.</p>
<div class="scroll"><table>${header}${rows.join('')}</table></div>
</section>`;
}

// Stale-only is better when low: the heat scale runs the other way.
function staleCell(share: Share): string {
  if (share.total === 0) return '<td class="heat" style="color:#94a3b8">–</td>';
  const hue = Math.round((1 - Math.min(1, share.share * 10)) * 130);
  return `<td class="heat" style="background:hsl(${hue} 75% 90%);color:hsl(${hue} 70% 24%)" title="${share.hits}/${share.total}">${formatPercent(share.share, 0)}</td>`;
}

function everySession(results: BenchResults): string {
  const sessions = [...results.sessions].sort((a, b) => (a.kind === b.kind ? compareNames(a.name, b.name) : a.kind === 'synth' ? -1 : 1));
  const shown = ['naive', 'compaction-160k', 'mobius'];
  const cards = sessions.map((session) => {
    const x = session.timeline.map((sample) => sample.minute);
    if (x.length < 2) return '';
    const chart = lineChart({
      title: `Window tokens, ${session.name}`,
      width: 360,
      height: 190,
      x,
      series: shown.map((name) => ({
        label: labelOf(name),
        color: colorOf(name),
        values: session.timeline.map((sample) => sample.tokens[name]),
        width: name === 'compaction-160k' ? 1.4 : 2.4,
        isDashed: name === 'compaction-160k',
      })),
      scale: 'log',
      yMin: 1_000,
      formatX: formatMinutes,
    xTicks: timeTicks(x),
      formatY: formatAxisTokens,
      showEndLabels: true,
    });
    const files = fileStateOf(session);
    return `<div class="chart"><h3>${escapeXml(session.name)}</h3><p class="note">${session.kind} · ${formatInteger(session.events)} events · ${formatMinutes(session.minutes)} h${files}</p>${chart}</div>`;
  });
  return `<section>
<h2>Every session</h2>
<p class="lead">Window tokens at each model call (sampled every ${TIMELINE_STEP_MINUTES} simulated minutes), log scale: naive (full history), compaction at 160K, and Mobius.</p>
${legend(shown.map((name) => ({ label: labelOf(name), color: colorOf(name), isLine: true })))}
<div class="grid3">${cards.join('')}</div>
</section>`;
}

function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function fileStateOf(session: Session): string {
  let checked = 0;
  let present = 0;
  for (const checkpoint of session.checkpoints) {
    const state = checkpoint.strategies['mobius']?.fileState;
    checked += state?.checked ?? 0;
    present += state?.present ?? 0;
  }
  return checked === 0 ? '' : ` · file state ${present}/${checked}`;
}

function speedAndMemory(results: BenchResults): string {
  const { performance, aggregate } = results;
  const lengths = performance.latencyByLength;
  const chart = lineChart({
    title: 'build() latency against session length',
    width: 540,
    height: 260,
    x: lengths.map((entry) => entry.copies),
    series: [
      { label: 'p99', color: '#4c1d95', values: lengths.map((entry) => entry.latency.p99), width: 1.6 },
      { label: 'p90', color: '#7c3aed', values: lengths.map((entry) => entry.latency.p90), width: 1.6 },
      { label: 'p50', color: '#a78bfa', values: lengths.map((entry) => entry.latency.p50), width: 2.6 },
    ],
    scale: 'linear',
    references: [{ value: 1, label: 'target p99 1 ms', color: '#16a34a' }],
    formatX: (value) => `${value}×`,
    xTicks: [1, 4, 8, 12, 16, 20, 24, 28].filter((tick) => tick <= lengths.length),
    formatY: (value) => `${value.toFixed(value < 10 ? 1 : 0)} ms`,
    xTitle: `history length, in copies of ${performance.baseSession} (${formatInteger(performance.eventsPerCopy)} events each)`,
  });
  const growth = latencyGrowth(lengths);
  const throughput = performance.throughput;
  const heap = performance.heap;
  const cost = aggregate.summarizer['mobius'];
  const stats = [
    { value: `${formatInteger(throughput.mobiusEventsPerSecond)} events/s`, label: `ingestion: ${throughput.mobiusMegabytesPerSecond.toFixed(2)} MB/s, ${throughput.ratio.toFixed(2)}× the speed of counting the same text with the tokenizer alone (${throughput.tokenizerMegabytesPerSecond.toFixed(1)} MB/s)` },
    { value: heap.heapBytes === undefined ? 'n/a' : formatMegabytes(heap.heapBytes), label: `heap for a ${formatInteger(heap.turns)}-turn session (${formatMegabytes(heap.textBytes)} of event text; ${heap.bytesPerTurn === undefined ? '' : `${formatInteger(heap.bytesPerTurn)} bytes/turn; `}T0, T1, T2, the archive and open files; no Storage)` },
    { value: cost === undefined ? '–' : `${cost.inputRatio.toFixed(2)}×`, label: cost === undefined ? '' : `summarizer input ÷ graduated: ${cost.calls} calls, ${formatInteger(cost.inputTokens)} tokens in for ${formatInteger(cost.graduatedTokens)} graduated, ${formatMilliseconds(cost.milliseconds)} total` },
    { value: `${formatMilliseconds(aggregate.latency.p50)} / ${formatMilliseconds(aggregate.latency.p99)}`, label: `build() p50 / p99 in the side-by-side runs (${formatInteger(aggregate.latency.count)} builds; max ${formatMilliseconds(aggregate.latency.max)})` },
    { value: formatMegabytes(performance.persistence.totalBytes), label: `written to storage by a ${formatInteger(performance.persistence.turns)}-turn session with automatic saves: ${(performance.persistence.totalBytes / Math.max(1, performance.persistence.logBytes)).toFixed(2)}× its ${formatMegabytes(performance.persistence.logBytes)} log, ${formatInteger(performance.persistence.snapshots)} snapshots; per 1,000 turns: ${performance.persistence.blocks.map((block) => formatMegabytes(block.appendedBytes + block.snapshotBytes)).join(', ')}` },
  ];
  const mobius = strategySummary(results, 'mobius');
  stats.push({
    value: formatPercent(mobius?.cacheReuse ?? 0, 0),
    label: `prompt-cache reuse: ${describeCacheBreaks(mobius?.cacheBreaks ?? {})}`,
  });
  const compaction = strategySummary(results, 'compaction-28k');
  stats.push({
    value: formatTokens(mobius?.sentTokensCached ?? 0),
    label: `tokens billed over all model calls of all sessions with cached input at 10% (full price ${formatTokens(mobius?.sentTokens ?? 0)}); compaction at 28K: ${formatTokens(compaction?.sentTokensCached ?? 0)}, naive: ${formatTokens(strategySummary(results, 'naive')?.sentTokensCached ?? 0)}`,
  });
  return `<section>
<h2>Speed and memory</h2>
<p class="lead">build() is timed before every model call, after any graduation has settled. For the length test, ${escapeXml(performance.baseSession)} is concatenated with itself up to ${formatInteger(performance.heap.turns)} turns, Mobius alone in the process; each point summarises the builds made while that copy was replayed${growth === undefined ? '' : ` (median p50 of copies 13–16 ÷ copies 1–4: ${growth.ratio.toFixed(2)})`}.</p>
<div class="grid2">
<div class="chart">${legend([{ label: 'p50', color: '#a78bfa', isLine: true }, { label: 'p90', color: '#7c3aed', isLine: true }, { label: 'p99', color: '#4c1d95', isLine: true }])}${chart}</div>
<div class="grid2" style="align-content:start">${stats.map((stat) => `<div class="stat"><div class="value">${escapeXml(stat.value)}</div><div class="label">${escapeXml(stat.label)}</div></div>`).join('')}</div>
</div>
</section>`;
}

function targets(results: BenchResults): string {
  const rows = checkTargets(results).map((check) => {
    const badge = check.isMet === undefined ? '<span class="badge na">n/a</span>' : check.isMet ? '<span class="badge met">met</span>' : '<span class="badge miss">missed</span>';
    return `<tr><td class="wrap">${escapeXml(check.target)}</td><td class="wrap">${escapeXml(check.measured)}</td><td>${badge}</td></tr>`;
  });
  return `<section>
<h2>Targets</h2>
<p class="lead">The numbers the issue reads Mobius against. Reported, not asserted: the benchmark measures.</p>
<table><tr><th>target</th><th class="wrap">measured</th><th></th></tr>${rows.join('')}</table>
</section>`;
}

function sessionsTable(results: BenchResults): string {
  const rows = [...results.sessions]
    .sort((a, b) => (a.kind === b.kind ? compareNames(a.name, b.name) : a.kind === 'synth' ? -1 : 1))
    .map((session) => {
      const skipped = Object.entries(session.replay.skipped).map(([reason, count]) => `${count} × ${reason}`).join('; ');
      const ratio = session.checkpoints.length === 0 ? undefined : session.checkpoints[session.checkpoints.length - 1];
      const naive = ratio?.strategies['naive']?.tokens ?? 0;
      const mobius = ratio?.strategies['mobius']?.tokens ?? 0;
      return `<tr><td>${escapeXml(session.name)}</td><td>${escapeXml(session.source ?? session.kind)}</td><td>${formatInteger(session.events)}</td><td>${formatMinutes(session.minutes)}</td><td>${formatTokens(naive)} → ${formatTokens(mobius)}</td><td>${session.graduations.chunks} + ${session.graduations.consolidations}</td><td class="wrap">${escapeXml(skipped === '' ? 'none' : skipped)}</td></tr>`;
    });
  return `<section>
<h2>Sessions</h2>
<p class="lead">Real transcripts carry hand-written probes and checkpoints (bench/fixtures/README.md); their clock is their timestamps with idle gaps capped at ${results.settings.maxGapMinutes} min, or 15 s per event when they lack per-event timestamps, and unannotated ones are scored every ${results.settings.checkpointIntervalMinutes} min. The replay maps every event variant and lists what it had to adapt.</p>
<table><tr><th>session</th><th>source</th><th>events</th><th>length</th><th>naive → Mobius at end</th><th>graduations + consolidations</th><th class="wrap">replay adaptations</th></tr>${rows.join('')}</table>
</section>`;
}

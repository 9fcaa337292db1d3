// Dependency-free SVG charts for the HTML report: stacked areas, lines (linear or log scale) and
// grouped bars. Every chart is a self-contained <svg> string; no external assets.

/** A named series of values, one per x position (`undefined` leaves a gap). */
export interface Series {
  /** Legend label. */
  readonly label: string;
  /** Stroke or fill colour. */
  readonly color: string;
  /** One value per x position. */
  readonly values: readonly (number | undefined)[];
  /** Draws the line dashed. */
  readonly isDashed?: boolean | undefined;
  /** Line width. @default 2 */
  readonly width?: number | undefined;
}

/** A horizontal reference line, e.g. a budget or a target. */
export interface ReferenceLine {
  readonly value: number;
  readonly label: string;
  readonly color: string;
}

/** Frame shared by the charts. */
export interface ChartFrame {
  readonly width: number;
  readonly height: number;
  /** Formats an x value for the axis. */
  readonly formatX: (value: number) => string;
  /** Formats a y value for the axis. */
  readonly formatY: (value: number) => string;
  /** Axis title under the x axis. */
  readonly xTitle?: string | undefined;
  /** Accessible title. */
  readonly title: string;
  /** Positions of the x-axis ticks. @default evenly spaced round numbers */
  readonly xTicks?: readonly number[] | undefined;
}

/** Stacked areas (bottom series first) with optional overlaid lines and reference lines. */
export function stackedAreaChart(options: ChartFrame & {
  x: readonly number[];
  stacks: readonly Series[];
  lines?: readonly Series[] | undefined;
  references?: readonly ReferenceLine[] | undefined;
  yMax?: number | undefined;
}): string {
  const { x, stacks } = options;
  const totals = x.map((_, index) => stacks.reduce((sum, series) => sum + (series.values[index] ?? 0), 0));
  const lineMax = Math.max(0, ...(options.lines ?? []).flatMap((series) => series.values.filter(isNumber)));
  const referenceMax = Math.max(0, ...(options.references ?? []).map((line) => line.value));
  const yMax = options.yMax ?? niceCeiling(Math.max(...totals, lineMax, referenceMax, 1) * 1.05);
  const plot = plotArea(options);
  const scaleX = linearScale({ domain: [Math.min(...x), Math.max(...x, Math.min(...x) + 1)], range: [plot.left, plot.right] });
  const scaleY = linearScale({ domain: [0, yMax], range: [plot.bottom, plot.top] });
  const parts: string[] = [];
  parts.push(...gridY({ ticks: linearTicks(yMax), scaleY, plot, format: options.formatY }));
  parts.push(...axisX({ ticks: options.xTicks ?? linearTicks(Math.max(...x)).filter((tick) => tick >= Math.min(...x)), scaleX, plot, format: options.formatX, title: options.xTitle }));
  const base = x.map(() => 0);
  for (const series of stacks) {
    const top = base.map((value, index) => value + (series.values[index] ?? 0));
    const upper = x.map((value, index) => `${point(scaleX(value))},${point(scaleY(top[index] ?? 0))}`);
    const lower = x.map((value, index) => `${point(scaleX(value))},${point(scaleY(base[index] ?? 0))}`).reverse();
    parts.push(`<polygon points="${[...upper, ...lower].join(' ')}" fill="${series.color}" fill-opacity="0.85" stroke="${series.color}" stroke-width="0.5"><title>${escapeXml(series.label)}</title></polygon>`);
    top.forEach((value, index) => (base[index] = value));
  }
  for (const series of options.lines ?? []) parts.push(linePath({ series, x, scaleX, scaleY }));
  for (const line of options.references ?? []) parts.push(referenceLine({ line, scaleY, plot }));
  return svg(options, parts);
}

/** Lines on a linear or logarithmic y axis. */
export function lineChart(options: ChartFrame & {
  x: readonly number[];
  series: readonly Series[];
  scale: 'linear' | 'log';
  references?: readonly ReferenceLine[] | undefined;
  yMin?: number | undefined;
  yMax?: number | undefined;
  showEndLabels?: boolean | undefined;
}): string {
  const { x, series } = options;
  const values = series.flatMap((item) => item.values.filter(isNumber));
  const references = (options.references ?? []).map((line) => line.value);
  const dataMax = Math.max(1, ...values, ...references);
  const plot = plotArea({ ...options, right: options.showEndLabels === true ? 64 : undefined });
  const scaleX = linearScale({ domain: [Math.min(...x), Math.max(...x, Math.min(...x) + 1)], range: [plot.left, plot.right] });
  const parts: string[] = [];
  let scaleY: (value: number) => number;
  if (options.scale === 'log') {
    const positive = [...values, ...references].filter((value) => value > 0);
    const low = options.yMin ?? 10 ** Math.floor(Math.log10(Math.min(...positive, dataMax)));
    const high = options.yMax ?? 10 ** Math.ceil(Math.log10(dataMax));
    const logScale = linearScale({ domain: [Math.log10(low), Math.log10(high)], range: [plot.bottom, plot.top] });
    scaleY = (value) => logScale(Math.log10(Math.max(low, value)));
    const ticks: number[] = [];
    for (let exponent = Math.round(Math.log10(low)); exponent <= Math.round(Math.log10(high)); exponent += 1) ticks.push(10 ** exponent);
    parts.push(...gridY({ ticks, scaleY, plot, format: options.formatY }));
  } else {
    const yMax = options.yMax ?? niceCeiling(dataMax * 1.05);
    scaleY = linearScale({ domain: [options.yMin ?? 0, yMax], range: [plot.bottom, plot.top] });
    parts.push(...gridY({ ticks: linearTicks(yMax), scaleY, plot, format: options.formatY }));
  }
  parts.push(...axisX({ ticks: options.xTicks ?? linearTicks(Math.max(...x)).filter((tick) => tick >= Math.min(...x)), scaleX, plot, format: options.formatX, title: options.xTitle }));
  for (const line of options.references ?? []) parts.push(referenceLine({ line, scaleY, plot }));
  for (const item of series) parts.push(linePath({ series: item, x, scaleX, scaleY }));
  if (options.showEndLabels === true) {
    // Labels at the end of each line, pushed apart so that close values stay readable.
    const labels = series
      .map((item) => ({ item, index: lastDefined(item.values) }))
      .filter((label) => label.index >= 0)
      .map(({ item, index }) => ({ item, value: item.values[index] ?? 0, x: scaleX(x[index] ?? 0) + 6, y: scaleY(item.values[index] ?? 0) + 4 }))
      .sort((a, b) => a.y - b.y);
    for (let index = 1; index < labels.length; index += 1) {
      const previous = labels[index - 1];
      const label = labels[index];
      if (previous !== undefined && label !== undefined && label.y - previous.y < 12) label.y = previous.y + 12;
    }
    for (const label of labels) {
      parts.push(`<text x="${point(label.x)}" y="${point(label.y)}" font-size="11" font-weight="600" fill="${label.item.color}">${escapeXml(options.formatY(label.value))}</text>`);
    }
  }
  return svg(options, parts);
}

/** Vertical bars grouped by category, one bar per series, values in [0, yMax]. */
export function groupedBarChart(options: ChartFrame & {
  groups: readonly string[];
  series: readonly Series[];
  yMax: number;
  references?: readonly ReferenceLine[] | undefined;
  showValues?: boolean | undefined;
}): string {
  const { groups, series } = options;
  const plot = plotArea(options);
  const scaleY = linearScale({ domain: [0, options.yMax], range: [plot.bottom, plot.top] });
  const parts: string[] = [];
  parts.push(...gridY({ ticks: linearTicks(options.yMax), scaleY, plot, format: options.formatY }));
  const groupWidth = (plot.right - plot.left) / Math.max(1, groups.length);
  const inner = groupWidth * 0.8;
  const barWidth = inner / Math.max(1, series.length);
  groups.forEach((group, groupIndex) => {
    const start = plot.left + groupIndex * groupWidth + (groupWidth - inner) / 2;
    series.forEach((item, seriesIndex) => {
      const value = item.values[groupIndex];
      if (value === undefined) return;
      const x = start + seriesIndex * barWidth;
      const y = scaleY(Math.min(value, options.yMax));
      const height = Math.max(0, plot.bottom - y);
      parts.push(`<rect x="${point(x + 1)}" y="${point(y)}" width="${point(Math.max(1, barWidth - 2))}" height="${point(height)}" rx="2" fill="${item.color}"><title>${escapeXml(`${item.label}, ${group}: ${options.formatY(value)}`)}</title></rect>`);
      if (options.showValues === true && barWidth >= 18) {
        parts.push(`<text x="${point(x + barWidth / 2)}" y="${point(y - 4)}" font-size="${barWidth >= 30 ? 10 : 8}" text-anchor="middle" fill="#334155">${escapeXml(options.formatY(value))}</text>`);
      }
    });
    parts.push(`<text x="${point(plot.left + groupIndex * groupWidth + groupWidth / 2)}" y="${point(plot.bottom + 18)}" font-size="12" text-anchor="middle" fill="#334155">${escapeXml(group)}</text>`);
  });
  for (const line of options.references ?? []) parts.push(referenceLine({ line, scaleY, plot }));
  return svg(options, parts);
}

/** Escapes text for XML and HTML. */
export function escapeXml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');
}

// --- Internal helpers ---

interface Plot {
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
}

function isNumber(value: number | undefined): value is number {
  return value !== undefined && Number.isFinite(value);
}

function point(value: number): string {
  return value.toFixed(1);
}

function plotArea(options: { width: number; height: number; xTitle?: string | undefined; right?: number | undefined }): Plot {
  return {
    left: 58,
    right: options.width - (options.right ?? 14),
    top: 14,
    bottom: options.height - (options.xTitle === undefined ? 28 : 42),
  };
}

function linearScale(options: { domain: [number, number]; range: [number, number] }): (value: number) => number {
  const [d0, d1] = options.domain;
  const [r0, r1] = options.range;
  const span = d1 - d0 === 0 ? 1 : d1 - d0;
  return (value) => r0 + ((value - d0) / span) * (r1 - r0);
}

function niceStep(span: number): number {
  const raw = span / 5;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const residual = raw / magnitude;
  return (residual > 5 ? 10 : residual > 2 ? 5 : residual > 1 ? 2 : 1) * magnitude;
}

function niceCeiling(value: number): number {
  const step = niceStep(value);
  return Math.ceil(value / step) * step;
}

function linearTicks(max: number): number[] {
  if (max <= 0) return [0];
  const step = niceStep(max);
  const ticks: number[] = [];
  for (let tick = 0; tick <= max + step * 1e-9; tick += step) ticks.push(Number(tick.toPrecision(12)));
  return ticks;
}

function gridY(options: { ticks: readonly number[]; scaleY: (value: number) => number; plot: Plot; format: (value: number) => string }): string[] {
  const { plot } = options;
  return options.ticks.map((tick) => {
    const y = point(options.scaleY(tick));
    return `<line x1="${plot.left}" x2="${plot.right}" y1="${y}" y2="${y}" stroke="#e2e8f0" stroke-width="1"/>` +
      `<text x="${plot.left - 8}" y="${y}" dy="4" font-size="11" text-anchor="end" fill="#64748b">${escapeXml(options.format(tick))}</text>`;
  });
}

function axisX(options: {
  ticks: readonly number[];
  scaleX: (value: number) => number;
  plot: Plot;
  format: (value: number) => string;
  title: string | undefined;
}): string[] {
  const { plot } = options;
  const parts = [`<line x1="${plot.left}" x2="${plot.right}" y1="${plot.bottom}" y2="${plot.bottom}" stroke="#94a3b8" stroke-width="1"/>`];
  for (const tick of options.ticks) {
    const x = point(options.scaleX(tick));
    parts.push(`<line x1="${x}" x2="${x}" y1="${plot.bottom}" y2="${plot.bottom + 4}" stroke="#94a3b8"/>` +
      `<text x="${x}" y="${plot.bottom + 16}" font-size="11" text-anchor="middle" fill="#64748b">${escapeXml(options.format(tick))}</text>`);
  }
  if (options.title !== undefined) {
    parts.push(`<text x="${point((plot.left + plot.right) / 2)}" y="${plot.bottom + 34}" font-size="11" text-anchor="middle" fill="#64748b">${escapeXml(options.title)}</text>`);
  }
  return parts;
}

function linePath(options: { series: Series; x: readonly number[]; scaleX: (value: number) => number; scaleY: (value: number) => number }): string {
  const { series, x } = options;
  const segments: string[] = [];
  let current = '';
  series.values.forEach((value, index) => {
    if (value === undefined || !Number.isFinite(value)) {
      if (current !== '') segments.push(current);
      current = '';
      return;
    }
    current += `${current === '' ? 'M' : 'L'}${point(options.scaleX(x[index] ?? 0))},${point(options.scaleY(value))}`;
  });
  if (current !== '') segments.push(current);
  const dash = series.isDashed === true ? ' stroke-dasharray="5 4"' : '';
  return `<path d="${segments.join(' ')}" fill="none" stroke="${series.color}" stroke-width="${series.width ?? 2}" stroke-linejoin="round" stroke-linecap="round"${dash}><title>${escapeXml(series.label)}</title></path>`;
}

function referenceLine(options: { line: ReferenceLine; scaleY: (value: number) => number; plot: Plot }): string {
  const { line, plot } = options;
  const y = point(options.scaleY(line.value));
  return `<line x1="${plot.left}" x2="${plot.right}" y1="${y}" y2="${y}" stroke="${line.color}" stroke-width="1.5" stroke-dasharray="6 4"/>` +
    `<text x="${plot.right - 4}" y="${y}" dy="-5" font-size="11" font-weight="600" text-anchor="end" fill="${line.color}">${escapeXml(line.label)}</text>`;
}

function lastDefined(values: readonly (number | undefined)[]): number {
  for (let index = values.length - 1; index >= 0; index -= 1) if (isNumber(values[index])) return index;
  return -1;
}

function svg(frame: ChartFrame, parts: readonly string[]): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${frame.width} ${frame.height}" width="100%" role="img" aria-label="${escapeXml(frame.title)}" font-family="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"><title>${escapeXml(frame.title)}</title>${parts.join('')}</svg>`;
}

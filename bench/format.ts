// Number formatting shared by the Markdown and HTML reports.

/** `12345` → `"12,345"`. */
export function formatInteger(value: number): string {
  return Math.round(value).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** `0.9531` → `"95.3%"`; `"–"` for NaN. */
export function formatPercent(value: number, digits = 1): string {
  return Number.isFinite(value) ? `${(value * 100).toFixed(digits)}%` : '–';
}

/** A share with its counts, `"95.3% (123/129)"`, or `"–"` when nothing was measured. */
export function formatShare(share: { hits: number; total: number; share: number }, options: { counts?: boolean } = {}): string {
  if (share.total === 0) return '–';
  return options.counts === true ? `${formatPercent(share.share)} (${share.hits}/${share.total})` : formatPercent(share.share);
}

/** Milliseconds with 2 decimals below 10 ms. */
export function formatMilliseconds(value: number): string {
  return value < 10 ? `${value.toFixed(2)} ms` : `${value.toFixed(1)} ms`;
}

/** Tokens, abbreviated above 10K: `"27.9K"`, `"1.39M"`. */
export function formatTokens(value: number): string {
  if (value >= 1_000_000) return `${(value / 1_000_000).toFixed(2)}M`;
  if (value >= 10_000) return `${(value / 1_000).toFixed(1)}K`;
  return formatInteger(value);
}

/** Bytes as MB with one decimal. */
export function formatMegabytes(bytes: number): string {
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** Minutes as `h:mm`. */
export function formatMinutes(minutes: number): string {
  const rounded = Math.round(minutes);
  return `${Math.floor(rounded / 60)}:${String(rounded % 60).padStart(2, '0')}`;
}

/** Formats an integer with thousands separators, independent of the host locale: `12,345`. */
export function formatCount(value: number): string {
  const sign = value < 0 ? '-' : '';
  const digits = String(Math.trunc(Math.abs(value)));
  // Most counts shown (lines, edits, turns) have no thousands to separate.
  if (digits.length <= 3) return sign + digits;
  return sign + digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

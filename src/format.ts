/** Formats an integer with thousands separators, independent of the host locale: `12,345`. */
export function formatCount(value: number): string {
  const sign = value < 0 ? '-' : '';
  const digits = String(Math.trunc(Math.abs(value)));
  return sign + digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** Display helpers of the contact screens (en-US 12-hour timestamps, USD with two decimals, 'N/A' when missing). */
export const when = (iso: string) =>
  new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short', hour12: true });
export const usd = (cents: number | null | undefined) =>
  cents === null || cents === undefined
    ? 'N/A'
    : (cents / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD' });
export const bytes = (n: number) =>
  n < 1024 ? `${n} B` : n < 1048576 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1048576).toFixed(1)} MB`;
export const label = (s: string) => s.replace(/_/g, ' ');
/** "12.50" -> 1250 cents; empty -> null. */
export const toCents = (s: string) => (s.trim() === '' ? null : Math.round(Number(s) * 100));

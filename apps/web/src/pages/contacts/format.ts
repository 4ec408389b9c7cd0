/** Display helpers of the contact screens (en-US 12-hour timestamps, USD with two decimals, 'N/A' when missing). */
export const when = (iso: string) =>
  new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short', hour12: true });
export const usd = (cents: number | null | undefined) =>
  cents === null || cents === undefined
    ? 'N/A'
    : (cents / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD' });
export const bytes = (n: number) =>
  n < 1024 ? `${n} B` : n < 1048576 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1048576).toFixed(1)} MB`;
/** Stored codes spelled the British way (kept as stored); people read US English. */
const US_SPELLING: Record<string, string> = { cancelled: 'canceled' };
/** A stored code for people: `medicare_advantage` -> "Medicare advantage", `cancelled` -> "Canceled". */
export const label = (s: string) => {
  const t = (US_SPELLING[s] ?? s).replace(/_/g, ' ');
  return t.charAt(0).toUpperCase() + t.slice(1);
};
/** "12.50" or "$1,250.00" -> cents; empty -> null. */
export const toCents = (s: string) => (s.trim() === '' ? null : Math.round(Number(s.replace(/[$,\s]/g, '')) * 100));
/**
 * A date for people ("Mar 2, 1959"). A calendar date (YYYY-MM-DD) is read as that day wherever the browser is; a
 * timestamp shows the day it is in the browser's time zone. Empty -> "".
 */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '';
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  const d = day ? new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3])) : new Date(value);
  if (Number.isNaN(d.getTime())) return value;
  return d.toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
}

/**
 * Phone input helpers of crm-core.md §5: format as 1-xxx-xxx-xxxx (11 digits) or the ten-digit form, where ten
 * digits gain a leading 1; inbound numbers lose dashes and a leading +1 before contact lookup.
 */
export function phoneDigits(input: string): string {
  return input.replace(/\D+/g, '');
}

/** 10 digits -> 1-xxx-xxx-xxxx; 11 digits starting with 1 -> 1-xxx-xxx-xxxx; anything else is returned trimmed. */
export function formatPhone(input: string): string {
  let d = phoneDigits(input);
  if (d.length === 10) d = `1${d}`;
  if (d.length === 11 && d.startsWith('1')) return `${d[0]}-${d.slice(1, 4)}-${d.slice(4, 7)}-${d.slice(7)}`;
  return input.trim();
}

/** Normalised storage form: 11 digits with the leading 1, or null when the input is not a NANP number. */
export function normalizePhone(input: string): string | null {
  let d = phoneDigits(input);
  if (d.length === 10) d = `1${d}`;
  return d.length === 11 && d.startsWith('1') ? d : null;
}

/** Inbound normalisation: remove dashes and a leading +1. */
export function normalizeInbound(input: string): string {
  return input.replace(/-/g, '').replace(/^\+1/, '');
}

/** URL values gain an https:// prefix. */
export function withHttps(url: string): string {
  const t = url.trim();
  if (!t) return t;
  return /^https?:\/\//i.test(t) ? t : `https://${t}`;
}

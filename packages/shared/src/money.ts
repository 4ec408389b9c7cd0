/**
 * Money and card helpers of the spec (crm-wallet-dialer-admin.md §5 and §9): USD with two decimals and 'N/A' when
 * missing; card brand detection (visa, mastercard, amex, discover); expiry month 01-12; the last four of a card
 * masked. Money is integer cents everywhere; these are the only places dollars are read or written.
 */

// One formatter: toLocaleString with options builds a new one at every call (2.4% of bench/wallet.ts's CPU, which
// formats every refused debit's message).
const USD = /* @__PURE__ */ new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** "$1,234.56" from cents; 'N/A' when missing. */
export function formatUsd(cents: number | null | undefined): string {
  if (cents === null || cents === undefined || !Number.isFinite(cents)) return 'N/A';
  return USD.format(cents / 100);
}

/**
 * Cents from what a person typed in dollars ("12", "12.5", "$1,250.00"). Null when it is not an amount of money: a
 * third decimal (a fraction of a cent), a sign, letters, or more than ten million dollars.
 */
export function parseUsd(text: string): number | null {
  const s = text
    .trim()
    .replace(/^\$/, '')
    .replace(/,(?=\d{3}(\D|$))/g, '');
  if (!/^\d{1,8}(\.\d{0,2})?$/.test(s)) return null;
  const [whole, frac = ''] = s.split('.');
  return Number(whole) * 100 + Number(frac.padEnd(2, '0'));
}

export type CardBrand = 'visa' | 'mastercard' | 'amex' | 'discover';

export const CARD_BRAND_LABELS: Record<CardBrand, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
};

/** How a card's brand is shown ('visa' -> 'Visa'); one we do not know as the processor names it; none as 'Card'. */
export const cardBrandLabel = (brand: string | null | undefined) =>
  brand ? (CARD_BRAND_LABELS[brand as CardBrand] ?? brand) : 'Card';

export const cardDigits = (text: string) => text.replace(/[\s-]/g, '');

/** The brand from the number's leading digits (IIN ranges), or null. */
export function cardBrand(number: string): CardBrand | null {
  const n = cardDigits(number);
  if (/^4/.test(n)) return 'visa';
  if (/^(5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)/.test(n)) return 'mastercard';
  if (/^3[47]/.test(n)) return 'amex';
  if (/^(6011|65|64[4-9]|622(12[6-9]|1[3-9]\d|[2-8]\d\d|9[01]\d|92[0-5]))/.test(n)) return 'discover';
  return null;
}

/** The Luhn checksum every card number carries. */
export function luhnValid(number: string): boolean {
  const n = cardDigits(number);
  if (!/^\d{12,19}$/.test(n)) return false;
  let sum = 0;
  for (let i = 0; i < n.length; i++) {
    let d = Number(n[n.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** A number grouped as printed on the card: 4-6-5 for American Express, groups of four otherwise. */
export function formatCardNumber(text: string): string {
  const n = cardDigits(text).replace(/\D/g, '').slice(0, 19);
  if (cardBrand(n) === 'amex') return [n.slice(0, 4), n.slice(4, 10), n.slice(10, 15)].filter(Boolean).join(' ');
  return n.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** "•••• 4242": what is shown of a card. */
export const maskedCard = (last4: string | null | undefined) => (last4 ? `•••• ${last4}` : 'N/A');

/**
 * "MM/YY" (or MM/YYYY) -> month and four-digit year; null unless the month is 01-12. `now` decides whether it has
 * passed: a card is good through the last day of its expiry month.
 */
export function parseExpiry(
  text: string,
  now = new Date(),
): { month: number; year: number } | { error: 'format' | 'month' | 'past' } {
  const m = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(text);
  if (!m) return { error: 'format' };
  const month = Number(m[1]);
  if (month < 1 || month > 12) return { error: 'month' };
  const year = m[2].length === 2 ? 2000 + Number(m[2]) : Number(m[2]);
  if (year < now.getFullYear() || (year === now.getFullYear() && month < now.getMonth() + 1)) return { error: 'past' };
  return { month, year };
}

/** The security code: four digits on American Express, three on the others. */
export const cvcValid = (cvc: string, brand: CardBrand | null) =>
  brand === 'amex' ? /^\d{4}$/.test(cvc) : /^\d{3}$/.test(cvc);

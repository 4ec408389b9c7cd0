/**
 * Paid usage on the ledger: the price list (shared USAGE_PRICES), what a quantity costs, and the debit an area
 * posts when it sends a text or finishes a call leg. The debit's key is its cause (`sms:<message id>`,
 * `call:<call id>:<leg>`), so a retried send or a duplicated provider callback never charges twice; a refused
 * debit means the wallet cannot pay and the caller does not send.
 */
import { formatPhone, USAGE_PRICES, type UsageType } from '@harbor/shared';
import type { MovementResult } from './ledger.js';
import type { Ledger } from './poster.js';

export const costOf = (usageType: UsageType, quantity: number) => USAGE_PRICES[usageType].unit_price * quantity;

export interface UsageCharge {
  companyId: number;
  userId: number;
  usageType: UsageType;
  quantity: number;
  /** The cause's own id: the idempotency key of the debit. */
  key: string;
  /** What it paid for, shown in the history: `to` (a phone number), `seconds` (a call's length), ... */
  details?: Record<string, unknown>;
  actorId?: number | null;
}

/** Debits the user's wallet for usage (wallet -> revenue). Throws only for a user who is not of the company. */
export async function chargeUsage(ledger: Ledger, c: UsageCharge): Promise<MovementResult> {
  const wallet = await ledger.accounts.userWallet(c.companyId, c.userId);
  if (!wallet) throw new Error(`user ${c.userId} is not a user of company ${c.companyId}`);
  const revenue = await ledger.accounts.companyAccount(c.companyId, 'revenue');
  const amount = costOf(c.usageType, c.quantity);
  return ledger.post({
    companyId: c.companyId,
    key: c.key,
    kind: 'usage',
    actorId: c.actorId ?? c.userId,
    details: {
      ...c.details,
      usage_type: c.usageType,
      quantity: c.quantity,
      unit_price: USAGE_PRICES[c.usageType].unit_price,
    },
    legs: [
      { accountId: wallet, amount: -amount },
      { accountId: revenue, amount },
    ],
  });
}

const duration = (s: number) => {
  const m = Math.floor(s / 60);
  const r = s % 60;
  return m ? `${m} min${r ? ` ${r} s` : ''}` : `${r} s`;
};

/** "Text to 1-555-123-4567", "Outbound call to ... (2 min 5 s)", "Phone number validation x 40". */
export function describeUsage(details: Record<string, unknown>): string {
  const type = details.usage_type as UsageType | undefined;
  const price = type ? USAGE_PRICES[type] : undefined;
  if (!price) return 'Usage';
  const to = typeof details.to === 'string' ? ` to ${formatPhone(details.to) || details.to}` : '';
  const seconds = typeof details.seconds === 'number' ? ` (${duration(details.seconds)})` : '';
  const quantity = Number(details.quantity ?? 1);
  switch (type) {
    case 'sms':
      return `Text${to}${quantity > 1 ? `, ${quantity} segments` : ''}`;
    case 'mms':
      return `Picture message${to}`;
    case 'outbound_call_minute':
    case 'inbound_call_minute':
      return `${price.label}${to}${seconds || ` (${quantity} min)`}`;
    default:
      return quantity > 1 ? `${price.label} x ${quantity}` : price.label;
  }
}

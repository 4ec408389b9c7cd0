/**
 * Invoices: every card payment the processor confirmed (a top-up or an auto-refill) is one, numbered when it was
 * credited. Only the person who paid sees and downloads theirs; the PDF is drawn on request from the row.
 */
import { CARD_BRAND_LABELS, type CardBrand, formatUsd, type InvoiceHistory } from '@harbor/shared';
import { sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Db } from '../../platform/db/client.js';
import { invoicePdf } from './invoice-pdf.js';

const PER_PAGE = 20;
type Row = Record<string, unknown>;

export async function invoiceHistory(db: Db, auth: AuthContext, page: number): Promise<InvoiceHistory> {
  const mine = sql`p.company_id = ${auth.company.id} and p.user_id = ${auth.user.id} and p.status = 'succeeded'`;
  const rows = await db.execute<Row>(
    sql`select p.* from wallet_payments p where ${mine} order by p.paid_at desc, p.id desc
        limit ${PER_PAGE} offset ${(page - 1) * PER_PAGE}`,
  );
  const total = await db.execute<{ n: number }>(sql`select count(*) as n from wallet_payments p where ${mine}`);
  const count = Number(total.rows[0]?.n ?? 0);
  return {
    invoices: rows.rows.map((r) => ({
      id: Number(r.id),
      number: String(r.invoice_number),
      kind: r.kind as 'top_up' | 'auto_refill',
      amount: Number(r.amount),
      description: String(r.description),
      card_brand: (r.card_brand as string | null) ?? null,
      card_last4: (r.card_last4 as string | null) ?? null,
      paid_at: new Date(r.paid_at as string).toISOString(),
      download_url: `/v1/wallets/invoices/${r.id}/pdf`,
    })),
    pagination: {
      current_page: page,
      per_page: PER_PAGE,
      total_pages: Math.max(1, Math.ceil(count / PER_PAGE)),
      total_count: count,
    },
  };
}

export async function invoiceFor(db: Db, auth: AuthContext, id: number) {
  const res = await db.execute<Row>(
    sql`select p.*, a.kind as account_kind, c.name as company_name, c.number as company_number
        from wallet_payments p join ledger_accounts a on a.id = p.account_id join companies c on c.id = p.company_id
        where p.id = ${id} and p.company_id = ${auth.company.id} and p.user_id = ${auth.user.id}
          and p.status = 'succeeded'`,
  );
  const r = res.rows[0];
  if (!r) return null;
  const brand = CARD_BRAND_LABELS[r.card_brand as CardBrand] ?? (r.card_brand ? String(r.card_brand) : 'Card');
  const paidAt = new Date(r.paid_at as string);
  const wallet = r.account_kind === 'company_wallet' ? 'the company wallet' : 'your wallet';
  const name = `${auth.user.firstName} ${auth.user.lastName}`.trim() || auth.user.email;
  const number = String(r.invoice_number);
  const body = invoicePdf({
    number,
    issuedAt: paidAt,
    company: `${String(r.company_name)} (${String(r.company_number)})`,
    billedTo: { name, email: auth.user.email },
    lines: [
      {
        description: `${r.kind === 'auto_refill' ? 'Wallet auto-refill' : 'Wallet top-up'}: ${String(r.description)}`,
        amount: formatUsd(Number(r.amount)),
      },
    ],
    total: formatUsd(Number(r.amount)),
    paidWith: r.card_last4 ? `${brand} ending in ${String(r.card_last4)}` : brand,
    note: `Credited to ${wallet} on ${paidAt.toLocaleDateString('en-US', { dateStyle: 'medium', timeZone: 'UTC' })}.`,
  });
  return { body, filename: `harbor-invoice-${number}.pdf` };
}

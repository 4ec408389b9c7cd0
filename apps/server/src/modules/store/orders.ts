/**
 * Store orders (docs/decisions/store-and-orders.md): placed with the card on file (paid once the processor's webhook
 * lands), priced per order or per contact of the stored contacts search; read by the agent who placed them and, in
 * the admin order management, by admins with filters, a CSV export, the fulfilment status and refunds.
 */
import type { OrderAdminStatus } from '@harbor/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Db } from '../../platform/db/client.js';
import type { Deps } from '../../platform/deps.js';
import { invalid, notFound } from '../../platform/http/errors.js';
import { cardOnFile, onCharge, refundCharge, requireCard, startCharge } from '../account/charges.js';
import { likeEscape } from '../contacts/list-scope.js';
import { resolveSelection } from '../contacts/selection.js';

type Row = Record<string, unknown>;

export const presentItem = (r: Row) => ({
  id: Number(r.id),
  name: String(r.name),
  description: String(r.description ?? ''),
  price: Number(r.price),
  pricing: String(r.pricing) as 'per_order' | 'per_contact',
  months_count: r.months_count === null ? null : Number(r.months_count),
  active: Boolean(r.active),
});

export async function listItems(db: Db, companyId: number) {
  const res = await db.execute<Row>(
    sql`select * from store_items where company_id = ${companyId} and active order by name, id`,
  );
  return { data: res.rows.map(presentItem) };
}

export async function loadItem(db: Db, companyId: number, id: number) {
  const res = await db.execute<Row>(sql`select * from store_items where id = ${id} and company_id = ${companyId}`);
  if (!res.rows[0]) throw notFound('store_item');
  return presentItem(res.rows[0]);
}

const ORDER_SELECT = sql`select o.*, i.name as item_name, c.status as payment_status, c.refunded_amount,
    c.card_brand, c.card_last4, c.failure_message,
    trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) as agent_name, u.email as agent_email
  from store_orders o join store_items i on i.id = o.item_id join card_charges c on c.id = o.charge_id
  join users u on u.id = o.user_id`;

export const presentOrder = (r: Row) => ({
  id: Number(r.id),
  number: `SO-${String(r.id).padStart(5, '0')}`,
  item: { id: Number(r.item_id), name: String(r.item_name) },
  agent: { id: Number(r.user_id), name: String(r.agent_name || r.agent_email), email: String(r.agent_email) },
  quantity: Number(r.quantity),
  contacts_count: r.contacts_count === null ? null : Number(r.contacts_count),
  amount: Number(r.amount),
  refunded_amount: Number(r.refunded_amount),
  payment_status: String(r.payment_status) as 'pending' | 'succeeded' | 'failed' | 'refunded' | 'partially_refunded',
  admin_status: String(r.admin_status) as OrderAdminStatus,
  card_brand: (r.card_brand as string | null) ?? null,
  card_last4: (r.card_last4 as string | null) ?? null,
  notes: (r.notes as string | null) ?? null,
  failure_message: (r.failure_message as string | null) ?? null,
  created_at: new Date(r.created_at as string).toISOString(),
});

export async function loadOrder(db: Db, companyId: number, id: number) {
  const res = await db.execute<Row>(sql`${ORDER_SELECT} where o.id = ${id} and o.company_id = ${companyId}`);
  if (!res.rows[0]) throw notFound('order');
  return presentOrder(res.rows[0]);
}

export async function placeOrder(
  deps: Deps,
  auth: AuthContext,
  body: { store_item_id: number; quantity: number; notes?: string; contacts_scope?: Record<string, unknown> },
  requestKey: string | null,
) {
  const db = deps.database.db;
  const res = await db.execute<Row>(
    sql`select * from store_items where id = ${body.store_item_id} and company_id = ${auth.company.id} and active`,
  );
  if (!res.rows[0]) throw notFound('store_item');
  const item = presentItem(res.rows[0]);
  let contacts: number | null = null;
  if (item.pricing === 'per_contact') {
    if (!body.contacts_scope) throw invalid('contacts_scope', 'Choose the contacts this is for (a contacts search).');
    const sel = await resolveSelection(db, auth, { all: true, contacts_scope: body.contacts_scope });
    const n = await db.execute<{ n: number }>(sql`select count(*)::int as n from (${sel.idsSql}) s`);
    contacts = Number(n.rows[0].n);
    if (contacts === 0) throw invalid('contacts_scope', 'No contacts match this search.');
  }
  const amount = item.price * body.quantity * (contacts ?? 1);
  if (amount > 5_000_000) throw invalid('quantity', 'This order is over $50,000.00; please contact us instead.');
  const card = await requireCard(db, auth.user.id);
  let orderId = 0;
  const charge = await startCharge(
    deps,
    {
      companyId: auth.company.id,
      userId: auth.user.id,
      kind: 'store_order',
      amount,
      description: `Store: ${item.name}${contacts ? ` for ${contacts} contacts` : ''}${body.quantity > 1 ? ` x ${body.quantity}` : ''}`,
      requestKey,
      card,
    },
    async (tx, chargeId) => {
      const ins = await tx.execute<{ id: number }>(
        sql`insert into store_orders (company_id, user_id, item_id, quantity, contacts_scope, contacts_count, amount,
              notes, charge_id)
            values (${auth.company.id}, ${auth.user.id}, ${item.id}, ${body.quantity},
                    ${body.contacts_scope ? JSON.stringify(body.contacts_scope) : null}::jsonb, ${contacts}, ${amount},
                    ${body.notes || null}, ${chargeId}) returning id`,
      );
      orderId = Number(ins.rows[0].id);
    },
  );
  if (!orderId) {
    const found = await db.execute<{ id: number }>(sql`select id from store_orders where charge_id = ${charge.id}`);
    orderId = Number(found.rows[0].id);
  }
  return loadOrder(db, auth.company.id, orderId);
}

export async function agentInfo(db: Db, auth: AuthContext) {
  const card = await cardOnFile(db, auth.user.id);
  const n = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from store_orders where user_id = ${auth.user.id} and company_id = ${auth.company.id}`,
  );
  return {
    name: `${auth.user.firstName ?? ''} ${auth.user.lastName ?? ''}`.trim() || auth.user.email,
    email: auth.user.email,
    company: auth.company.name,
    payment_info: card
      ? { brand: card.brand, last4: card.last4, exp_month: Number(card.exp_month), exp_year: Number(card.exp_year) }
      : null,
    orders_count: Number(n.rows[0].n),
  };
}

export interface OrderFilter {
  q?: string;
  admin_status?: string;
  payment_status?: string;
  from?: string;
  to?: string;
}

export function filterSql(companyId: number, f: OrderFilter): SQL {
  const parts: SQL[] = [sql`o.company_id = ${companyId}`];
  if (f.q) {
    const like = `%${likeEscape(f.q)}%`;
    const id = /^(so-?)?0*(\d{1,12})$/i.exec(f.q)?.[2];
    parts.push(
      sql`(i.name ilike ${like} or u.email ilike ${like} or (coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) ilike ${like}${id ? sql` or o.id = ${Number(id)}` : sql``})`,
    );
  }
  if (f.admin_status) parts.push(sql`o.admin_status = ${f.admin_status}`);
  if (f.payment_status) parts.push(sql`c.status = ${f.payment_status}`);
  if (f.from) parts.push(sql`o.created_at >= ${f.from}::date`);
  if (f.to) parts.push(sql`o.created_at < ${f.to}::date + 1`);
  return sql.join(parts, sql` and `);
}

export async function listOrders(db: Db, companyId: number, f: OrderFilter & { page: number; limit: number }) {
  const where = filterSql(companyId, f);
  const res = await db.execute<Row & { total: number }>(
    sql`select s.*, count(*) over ()::int as total from (${ORDER_SELECT} where ${where}) s
        order by s.id desc limit ${f.limit} offset ${(f.page - 1) * f.limit}`,
  );
  const total = Number(res.rows[0]?.total ?? 0);
  return {
    data: res.rows.map(presentOrder),
    meta: {
      current_page: f.page,
      limit: f.limit,
      total_count: total,
      total_pages: Math.max(1, Math.ceil(total / f.limit)),
    },
  };
}

export async function ordersForExport(db: Db, companyId: number, f: OrderFilter) {
  const res = await db.execute<Row>(
    sql`${ORDER_SELECT} where ${filterSql(companyId, f)} order by o.id desc limit 100000`,
  );
  return res.rows.map(presentOrder);
}

export async function setAdminStatus(db: Db, companyId: number, id: number, status: OrderAdminStatus) {
  const res = await db.execute(
    sql`update store_orders set admin_status = ${status}, updated_at = now() where id = ${id} and company_id = ${companyId}
        returning id`,
  );
  if (!res.rows.length) throw notFound('order');
  return loadOrder(db, companyId, id);
}

export async function refundOrder(deps: Deps, auth: AuthContext, id: number, amount: number) {
  const db = deps.database.db;
  const res = await db.execute<{ charge_id: number }>(
    sql`select charge_id from store_orders where id = ${id} and company_id = ${auth.company.id}`,
  );
  if (!res.rows[0]) throw notFound('order');
  await refundCharge(deps, Number(res.rows[0].charge_id), amount, auth.user.id);
  return loadOrder(db, auth.company.id, id);
}

// A store order's payment status is its charge's; an order whose card failed is cancelled (nothing to fulfil).
onCharge('store_order', {
  async paid() {},
  async failed(tx, charge) {
    await tx.execute(
      sql`update store_orders set admin_status = 'cancelled', updated_at = now() where charge_id = ${charge.id}`,
    );
  },
});

/**
 * The store and the admin order management through HTTP: items (another company's is a 404), an order per order and
 * one per contact of a contacts search (the count from the same scope as the list), paid with the card on file and
 * settled by the processor's webhook; admins list with filters, export CSV, read one, set the fulfilment status and
 * refund part then the rest through the processor; a refund over the charge and non-admins are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, RECRUIT, signIn, type TestApp } from '../../../test/harness.js';
import { connectCard, eventually } from '../account/test-kit.js';
import { deliverWebhooks, send } from '../usage-plans/route-test-kit.js';
import { checkLedger } from '../wallet/verify.js';

let t: TestApp;
let agent: Client;
let admin: Client;
const items: Record<string, { id: number; price: number }> = {};
let orderId = 0;

beforeAll(async () => {
  t = await createTestApp();
  deliverWebhooks(t);
  agent = await signIn(t.app, DEMO('agent'));
  admin = await signIn(t.app, DEMO('admin'));
});
afterAll(async () => {
  expect((await checkLedger(t.database.db)).ok).toBe(true);
  await t.close();
});

describe('store', () => {
  it('lists the items of the company; one item; another company’s is a 404', async () => {
    const res = await agent.get('/v1/store_items');
    expect(res.status).toBe(200);
    for (const i of res.body.data) items[i.name] = i;
    expect(Object.keys(items)).toContain('Turning 65 mailer');
    const one = await agent.get(`/v1/store_items/${items['Business cards (250)'].id}`);
    expect(one.body).toMatchObject({ name: 'Business cards (250)', price: 3900, pricing: 'per_order' });
    const other = await signIn(t.app, RECRUIT('agent'));
    const theirs = (await other.get('/v1/store_items')).body.data[0];
    expect((await agent.get(`/v1/store_items/${theirs.id}`)).status).toBe(404);
    expect((await agent.get('/v1/store_items/abc')).status).toBe(404);
  });

  it('orders with the card on file: per order, and per contact of a contacts search', async () => {
    const info0 = await agent.get('/v1/store_orders/agent_info');
    expect(info0.body).toMatchObject({ email: DEMO('agent'), payment_info: null, orders_count: 1 });
    const body = { store_item_id: items['Business cards (250)'].id, quantity: 2 };
    expect((await send(agent, '/v1/store_orders', body)).status).toBe(422); // no card yet
    await connectCard(agent);
    expect((await send(agent, '/v1/store_orders', { ...body, quantity: 0 })).status).toBe(422);
    expect((await send(agent, '/v1/store_orders', { ...body, store_item_id: 999999 })).status).toBe(404);
    const res = await send(agent, '/v1/store_orders', body);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toMatchObject({ amount: 7800, quantity: 2, admin_status: 'new', card_last4: '4242' });
    orderId = res.body.id;
    const mailer = { store_item_id: items['Turning 65 mailer'].id, quantity: 1 };
    expect((await send(agent, '/v1/store_orders', mailer)).status).toBe(422);
    const count = (await agent.get('/v1/contacts/count')).body;
    const scoped = await send(agent, '/v1/store_orders', { ...mailer, contacts_scope: {} });
    expect(scoped.status, JSON.stringify(scoped.body)).toBe(202);
    expect(scoped.body.contacts_count).toBeGreaterThan(0);
    if (typeof count?.count === 'number' && count.exact !== false) expect(scoped.body.contacts_count).toBe(count.count);
    expect(scoped.body.amount).toBe(125 * scoped.body.contacts_count);
    const none = await send(agent, '/v1/store_orders', { ...mailer, contacts_scope: { q: 'zzzz-nobody-zzzz' } });
    expect(none.status).toBe(422);
    const info = await agent.get('/v1/store_orders/agent_info');
    expect(info.body).toMatchObject({ payment_info: { brand: 'visa', last4: '4242' }, orders_count: 3 });
  });

  it('admins list with filters, export CSV named with "order", read and set the status', async () => {
    const paid = await eventually(
      async () => (await admin.get(`/v1/admin/order_management/${orderId}`)).body,
      (o) => o.payment_status === 'succeeded',
      'order paid',
    );
    expect(paid).toMatchObject({ item: { name: 'Business cards (250)' }, agent: { email: DEMO('agent') } });
    const all = await admin.get('/v1/admin/order_management?limit=10');
    expect(all.body.meta.total_count).toBe(3); // the two above and the demo's declined order
    const cards = await admin.get('/v1/admin/order_management?q=business&payment_status=succeeded');
    expect(cards.body.data.map((o: { id: number }) => o.id)).toEqual([orderId]);
    expect((await admin.get(`/v1/admin/order_management?q=${paid.number}`)).body.data).toHaveLength(1);
    expect((await admin.get('/v1/admin/order_management?admin_status=fulfilled')).body.data).toHaveLength(0);
    expect((await admin.get('/v1/admin/order_management?admin_status=lost')).status).toBe(422);
    const csv = await admin.get('/v1/admin/order_management/export.csv?q=business&payment_status=succeeded');
    expect(csv.status).toBe(200);
    expect(String(csv.headers['content-disposition'])).toMatch(/filename="orders-\d{4}-\d{2}-\d{2}\.csv"/);
    expect(csv.body).toContain('Business cards (250)');
    expect(csv.body.split('\r\n').filter(Boolean)).toHaveLength(2);
    const patched = await admin.patch(`/v1/admin/order_management/${orderId}`, { admin_status: 'fulfilled' });
    expect(patched.status).toBe(200);
    expect(patched.body.admin_status).toBe('fulfilled');
    expect((await admin.patch(`/v1/admin/order_management/${orderId}`, { admin_status: 'gone' })).status).toBe(422);
  });

  it('refunds part, then the rest, through the processor; never more than the charge', async () => {
    const url = `/v1/admin/order_management/${orderId}/refund`;
    expect((await send(admin, url, { amount: 0 })).status).toBe(422);
    expect((await send(admin, url, { amount: 10.5 })).status).toBe(422);
    const over = await send(admin, url, { amount: 7801 });
    expect(over.status).toBe(422);
    expect(over.body.errors.amount[0]).toMatch(/more than what is left/);
    const part = await send(admin, url, { amount: 3000 });
    expect(part.status, JSON.stringify(part.body)).toBe(200);
    expect(part.body).toMatchObject({ refunded_amount: 3000, payment_status: 'partially_refunded' });
    expect((await send(admin, url, { amount: 4801 })).status).toBe(422);
    const rest = await send(admin, url, { amount: 4800 });
    expect(rest.body).toMatchObject({ refunded_amount: 7800, payment_status: 'refunded' });
    expect((await send(admin, url, { amount: 1 })).status).toBe(422);
  });

  it('refuses order management to non-admins and to other companies', async () => {
    expect((await agent.get('/v1/admin/order_management')).status).toBe(403);
    expect((await agent.get('/v1/admin/order_management/export.csv')).status).toBe(403);
    expect((await send(agent, `/v1/admin/order_management/${orderId}/refund`, { amount: 1 })).status).toBe(403);
    const other = await signIn(t.app, RECRUIT('admin'));
    expect((await other.get(`/v1/admin/order_management/${orderId}`)).status).toBe(404);
    expect((await other.patch(`/v1/admin/order_management/${orderId}`, { admin_status: 'new' })).status).toBe(404);
  });
});

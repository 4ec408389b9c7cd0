/**
 * Numbers a company texts from (docs/decisions/sms-numbers.md): search and buy one (`/v1/users/phone_numbers/...`,
 * the first month paid from the wallet or billed to the company), the admins' list (`/v1/admin/sms/numbers`), and
 * which number a text goes out from. US carriers deliver application texts only from senders of an approved A2P
 * 10DLC campaign: a number's registration status is kept and refreshed from the carrier while pending, and a number
 * without an approved campaign does not send.
 */
import {
  AdminSmsNumberPage,
  AdminSmsNumbersQuery,
  NumberPurchaseBody,
  NumberSearchQuery,
  NumberSearchResult,
  SmsNumber,
  SmsNumberList,
  USAGE_PRICES,
} from '@harbor/shared';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { storedPhone, toE164 } from '../../integrations/twilio/messaging.js';
import type { Deps } from '../../platform/deps.js';
import { HttpError, invalid } from '../../platform/http/errors.js';
import { pageMeta, pageOffset } from '../../platform/http/paging.js';
import { authOf } from '../../platform/http/pipeline.js';
import { rowsOf } from '../contacts/list-scope.js';
import { affordableQuantity, chargeUsageWithin, insufficientFundsMessage } from '../wallet/usage.js';

/** A pending registration is asked about again at most this often. */
const REFRESH_MS = 5_000;

export const inboundUrl = (deps: Deps) => `${deps.config.appUrl}/v1/webhooks/twilio/sms-inbound`;

function presentNumber(r: Record<string, unknown>): SmsNumber {
  return {
    id: Number(r.id),
    phone: String(r.phone),
    user: r.user_id ? { id: Number(r.user_id), name: String(r.user_name ?? 'A user') } : null,
    registration_status: r.registration_status as SmsNumber['registration_status'],
    monthly_price: Number(r.monthly_price),
    created_at: new Date(r.created_at as string).toISOString(),
  };
}

const numberSelect = sql`select n.*, nullif(trim(u.first_name || ' ' || u.last_name), '') as user_name
  from sms_numbers n left join users u on u.id = n.user_id`;

/** Asks the carrier about pending registrations of the company (at most every few seconds). */
async function refreshRegistration(deps: Deps, companyId: number) {
  const db = deps.database.db;
  const pending = await rowsOf<{ id: number }>(
    db,
    sql`select id from sms_numbers where company_id = ${companyId} and released_at is null
      and registration_status = 'pending'
      and (registration_checked_at is null or registration_checked_at < now() - make_interval(secs => ${REFRESH_MS / 1000}))`,
  );
  if (!pending.length) return;
  const status = await deps.messaging.port.registrationStatus().catch(() => 'pending' as const);
  await db.execute(
    sql`update sms_numbers set registration_status = ${status}, registration_checked_at = now()
      where id = any(${sql.param(pending.map((p) => Number(p.id)))}::bigint[]) and registration_status = 'pending'`,
  );
}

/** The number a user's texts go out from: their own, else the company's shared one. */
export async function senderNumber(
  deps: Deps,
  companyId: number,
  userId: number,
): Promise<{ ok: true; phone: string } | { ok: false; message: string; status: number }> {
  await refreshRegistration(deps, companyId);
  const [n] = await rowsOf<{ phone: string; registration_status: string }>(
    deps.database.db,
    sql`select phone, registration_status from sms_numbers where company_id = ${companyId} and released_at is null
      and (user_id = ${userId} or user_id is null) order by user_id nulls last, id limit 1`,
  );
  if (!n)
    return { ok: false, status: 409, message: 'You have no number to text from yet. Buy one on the Numbers page.' };
  if (n.registration_status !== 'approved') {
    const why = n.registration_status === 'rejected' ? 'was rejected' : 'is still pending';
    return {
      ok: false,
      status: 409,
      message: `Your number's A2P 10DLC registration ${why}; carriers do not deliver texts until it is approved.`,
    };
  }
  return { ok: true, phone: n.phone };
}

export function numberRoutes(scope: FastifyInstance) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const deps = scope.deps;
  const db = deps.database.db;
  const config = { access: 'sms.use', feature: 'sms_feature' } as const;

  app.get(
    '/v1/users/phone_numbers/search',
    {
      config,
      schema: {
        tags: ['sms'],
        summary: 'Numbers available to buy (by area code)',
        querystring: NumberSearchQuery,
        response: { 200: NumberSearchResult },
      },
    },
    async (req) => {
      const found = await deps.messaging.port.searchNumbers({
        areaCode: req.query.area_code,
        contains: req.query.contains,
      });
      return {
        data: found.map((n) => ({
          phone_number: storedPhone(n.phoneNumber),
          friendly_name: n.friendlyName,
          locality: n.locality,
        })),
      };
    },
  );

  app.post(
    '/v1/users/phone_numbers/purchase',
    {
      config: { ...config, idempotent: true },
      schema: {
        tags: ['sms'],
        summary: 'Buy a number to text from (first month from the wallet, or billed to the company)',
        body: NumberPurchaseBody,
        response: { 201: SmsNumber },
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const e164 = toE164(req.body.phone_number);
      if (!e164) throw invalid('phone_number', 'is not a valid phone number');
      const phone = storedPhone(e164);
      const price = USAGE_PRICES.phone_number_month.unit_price;
      if (req.body.pay_from_wallet) {
        const can = await affordableQuantity(deps, auth.company.id, auth.user.id, 'phone_number_month');
        if (can < 1) throw new HttpError(402, { wallet: [insufficientFundsMessage(0, price)] });
      }
      const [taken] = await rowsOf(db, sql`select 1 from sms_numbers where phone = ${phone} and released_at is null`);
      if (taken) throw invalid('phone_number', 'is not available');
      let sid: string;
      try {
        sid = (await deps.messaging.port.buyNumber(e164, inboundUrl(deps))).sid;
      } catch (err) {
        throw invalid('phone_number', (err as Error).message);
      }
      const id = await db.transaction(async (tx) => {
        const [row] = await rowsOf<{ id: number }>(
          tx,
          sql`insert into sms_numbers (company_id, user_id, phone, sid, monthly_price, created_by)
            values (${auth.company.id}, ${auth.user.id}, ${phone}, ${sid}, ${price}, ${auth.user.id}) returning id`,
        );
        if (req.body.pay_from_wallet) {
          const month = new Date().toISOString().slice(0, 7);
          const charge = await chargeUsageWithin(deps, tx, {
            companyId: auth.company.id,
            userId: auth.user.id,
            usageType: 'phone_number_month',
            quantity: 1,
            idempotencyKey: `sms-number:${row.id}:${month}`,
            details: { phone },
            ref: { type: 'sms_number', id: row.id },
          });
          if (!charge.ok) throw new HttpError(402, { wallet: [charge.message] });
        }
        return row.id;
      });
      const [n] = await rowsOf<Record<string, unknown>>(db, sql`${numberSelect} where n.id = ${id}`);
      return reply.code(201).send(presentNumber(n));
    },
  );

  app.get(
    '/v1/users/phone_numbers',
    {
      config,
      schema: {
        tags: ['sms'],
        summary: 'My numbers and the company’s shared ones, with their registration',
        response: { 200: SmsNumberList },
      },
    },
    async (req) => {
      const auth = authOf(req);
      await refreshRegistration(deps, auth.company.id);
      const rows = await rowsOf<Record<string, unknown>>(
        db,
        sql`${numberSelect} where n.company_id = ${auth.company.id} and n.released_at is null
          and (n.user_id = ${auth.user.id} or n.user_id is null) order by n.id`,
      );
      return { data: rows.map(presentNumber) };
    },
  );

  app.get(
    '/v1/admin/sms/numbers',
    {
      config: { access: 'plans.admin' },
      schema: {
        tags: ['sms-admin'],
        summary: 'The company’s numbers, whose they are, and their A2P 10DLC registration',
        querystring: AdminSmsNumbersQuery,
        response: {
          200: AdminSmsNumberPage,
        },
      },
    },
    async (req) => {
      const auth = authOf(req);
      await refreshRegistration(deps, auth.company.id);
      const { page, limit } = req.query;
      const where = sql`n.company_id = ${auth.company.id} and n.released_at is null`;
      const [{ total }] = await rowsOf<{ total: number }>(
        db,
        sql`select count(*)::int as total from sms_numbers n where ${where}`,
      );
      const rows = await rowsOf<Record<string, unknown>>(
        db,
        sql`${numberSelect} where ${where} order by n.id limit ${limit} offset ${pageOffset(page, limit)}`,
      );
      return { data: rows.map(presentNumber), meta: pageMeta(page, limit, total) };
    },
  );
}

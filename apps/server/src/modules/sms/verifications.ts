/**
 * Mobile validation (docs/decisions/sms-sending.md): a line-type lookup tells mobiles from landlines, so landlines
 * never get a text. `mobile_validation_purchase` quotes validating a selection (how many numbers need a lookup and
 * what it costs against the balance), `mobile_validation_bulk` does it, `mobile_validation_single` checks one
 * number; each lookup is paid from the wallet (a number looked up in the last 90 days is not looked up or paid
 * again). `phone_verifications` lists what was found.
 */
import {
  formatUsd,
  LINE_TYPES,
  PhoneVerification,
  PhoneVerificationList,
  PhoneVerificationsQuery,
  USAGE_PRICES,
  VerificationBulkReply,
  VerificationIdsBody,
  VerificationQuote,
  VerifySingleBody,
} from '@harbor/shared';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { storedPhone, toE164 } from '../../integrations/twilio/messaging.js';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Deps } from '../../platform/deps.js';
import { HttpError, invalid } from '../../platform/http/errors.js';
import { pageMeta, pageOffset } from '../../platform/http/paging.js';
import { authOf } from '../../platform/http/pipeline.js';
import { likeEscape, rowsOf } from '../contacts/list-scope.js';
import { visibleContactsSql } from '../contacts/visibility.js';
import { affordableQuantity, chargeUsage } from '../wallet/usage.js';
import { lineTypeOf } from './send.js';

const tags = ['sms'];
const config = { access: 'sms.use', feature: 'sms_feature' } as const;

const select = sql`select v.*, k.id as k_id, trim(k.first_name || ' ' || k.last_name) as k_name
  from phone_verifications v left join contacts k on k.id = v.contact_id`;

function present(r: Record<string, unknown>): z.infer<typeof PhoneVerification> {
  return {
    id: Number(r.id),
    phone: String(r.phone),
    line_type: r.line_type as z.infer<typeof PhoneVerification>['line_type'],
    carrier: (r.carrier as string) ?? null,
    contact: r.k_id ? { id: Number(r.k_id), name: String(r.k_name || 'Unnamed contact') } : null,
    created_at: new Date(r.created_at as string).toISOString(),
  };
}

/** The selection's phones that need a lookup (no verification in 90 days), of contacts the caller sees. */
async function needingLookup(deps: Deps, auth: AuthContext, ids: number[]) {
  return rowsOf<{ id: number; phone: string }>(
    deps.database.db,
    sql`select distinct on (contacts.phone) contacts.id, contacts.phone from contacts
      where ${visibleContactsSql(auth)} and contacts.deleted_at is null and contacts.phone is not null
        and contacts.id = any(${sql.param(ids)}::bigint[])
        and not exists (select 1 from phone_verifications v where v.company_id = ${auth.company.id}
          and v.phone = contacts.phone and v.created_at > now() - interval '90 days')
      order by contacts.phone, contacts.id`,
  );
}

/**
 * One line-type lookup paid from the caller's wallet (`phone_validation`, the price list's price), charged before
 * the carrier is asked. The key names the number, the day and the payer: asking again the same day (a retry, the
 * same number in a single and a group validation) answers the first charge and pays nothing more.
 */
export async function paidLookup(
  deps: Deps,
  who: { companyId: number; userId: number; contactId: number | null },
  phone: string,
): Promise<{ ok: true; charged: number } | { ok: false; message: string }> {
  const charge = await chargeUsage(deps, {
    companyId: who.companyId,
    userId: who.userId,
    usageType: 'phone_validation',
    quantity: 1,
    idempotencyKey: `lookup:${phone}:${new Date().toISOString().slice(0, 10)}:${who.userId}`,
    details: { phone },
  });
  if (!charge.ok) return { ok: false, message: charge.message };
  await lineTypeOf(deps, who, phone);
  return { ok: true, charged: charge.status === 'charged' ? charge.amount : 0 };
}

export function verificationRoutes(scope: FastifyInstance) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const deps = scope.deps;
  const db = deps.database.db;
  const price = USAGE_PRICES.phone_validation.unit_price;

  app.get(
    '/v1/sms/phone_verifications',
    {
      config,
      schema: {
        tags,
        summary: 'Line-type lookups of the company (meta.total_count)',
        querystring: PhoneVerificationsQuery,
        response: { 200: PhoneVerificationList },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const { q, page, limit, order_field, order } = req.query;
      const digits = q?.replace(/\D/g, '') ?? '';
      const where = sql`v.company_id = ${auth.company.id} ${q ? sql`and (v.phone like ${`%${digits || '-'}%`} or trim(k.first_name || ' ' || k.last_name) ilike ${`%${likeEscape(q)}%`})` : sql``}`;
      const [{ total }] = await rowsOf<{ total: number }>(
        db,
        sql`select count(*)::int as total from phone_verifications v left join contacts k on k.id = v.contact_id where ${where}`,
      );
      const dir = order === 'asc' ? sql`asc` : sql`desc`;
      const rows = await rowsOf<Record<string, unknown>>(
        db,
        sql`${select} where ${where} order by ${sql.raw(`v.${order_field}`)} ${dir}, v.id ${dir} limit ${limit} offset ${pageOffset(page, limit)}`,
      );
      return { data: rows.map(present), meta: pageMeta(page, limit, total ?? 0) };
    },
  );

  app.post(
    '/v1/sms/mobile_validation_single',
    {
      config,
      schema: {
        tags,
        summary: 'Is this number a mobile? (one lookup, paid from the wallet unless known)',
        body: VerifySingleBody,
        response: { 200: PhoneVerification },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const e164 = toE164(req.body.phone);
      if (!e164) throw invalid('phone', 'is not a valid phone number');
      const phone = storedPhone(e164);
      const [known] = await rowsOf(
        db,
        sql`select 1 from phone_verifications where company_id = ${auth.company.id} and phone = ${phone} and created_at > now() - interval '90 days'`,
      );
      const who = { companyId: auth.company.id, userId: auth.user.id, contactId: req.body.contact_id ?? null };
      if (known) await lineTypeOf(deps, who, phone);
      else {
        const paid = await paidLookup(deps, who, phone);
        if (!paid.ok) throw new HttpError(402, { wallet: [paid.message] });
      }
      const [r] = await rowsOf<Record<string, unknown>>(
        db,
        sql`${select} where v.company_id = ${auth.company.id} and v.phone = ${phone} order by v.created_at desc limit 1`,
      );
      return present(r);
    },
  );

  app.post(
    '/v1/sms/mobile_validation_purchase',
    {
      config,
      schema: {
        tags,
        summary: 'What validating these contacts costs: numbers needing a lookup, price, balance',
        body: VerificationIdsBody,
        response: {
          200: VerificationQuote,
        },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const need = await needingLookup(deps, auth, req.body.contact_ids);
      const can = await affordableQuantity(deps, auth.company.id, auth.user.id, 'phone_validation');
      const cost = need.length * price;
      return { numbers: need.length, cost, cost_label: formatUsd(cost), affordable: can >= need.length };
    },
  );

  app.post(
    '/v1/sms/mobile_validation_bulk',
    {
      config: { ...config, idempotent: true },
      schema: {
        tags,
        summary: 'Validate the numbers of these contacts (paid per lookup); counts by line type',
        body: VerificationIdsBody,
        response: { 200: VerificationBulkReply },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const need = await needingLookup(deps, auth, req.body.contact_ids);
      if (need.length) {
        const charge = await chargeUsage(deps, {
          companyId: auth.company.id,
          userId: auth.user.id,
          usageType: 'phone_validation',
          quantity: need.length,
          idempotencyKey: `lookups:${auth.user.id}:${req.id}`,
          description: `Phone number validation x ${need.length}`,
          details: { count: need.length },
        });
        if (!charge.ok) throw new HttpError(402, { wallet: [charge.message] });
        for (const n of need)
          await lineTypeOf(deps, { companyId: auth.company.id, userId: auth.user.id, contactId: n.id }, n.phone);
      }
      const rows = await rowsOf<{ line_type: string; n: number }>(
        db,
        sql`select v.line_type, count(*)::int as n from contacts
          join lateral (select line_type from phone_verifications v where v.company_id = ${auth.company.id} and v.phone = contacts.phone order by created_at desc limit 1) v on true
          where ${visibleContactsSql(auth)} and contacts.id = any(${sql.param(req.body.contact_ids)}::bigint[]) group by 1`,
      );
      const counts = Object.fromEntries(LINE_TYPES.map((t) => [t, 0])) as Record<(typeof LINE_TYPES)[number], number>;
      for (const r of rows) counts[r.line_type as keyof typeof counts] = Number(r.n);
      return { looked_up: need.length, counts };
    },
  );
}

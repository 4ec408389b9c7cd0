/**
 * The one question every send path asks, at send time: may this channel reach these contacts for this purpose?
 * Set-based: one statement answers a whole batch (or, through `consentRowsSql`, a whole selection inside a larger
 * statement: a broadcast's preview and snapshot). The rules are in docs/decisions/consent-record.md.
 */
import type { ConsentChannel, ConsentPurpose, ConsentStatus, ConsentWarning, RemovalReason } from '@harbor/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';

export interface ConsentAsk {
  companyId: number;
  channel: ConsentChannel;
  purpose: ConsentPurpose;
  /** The user the message goes out as: email opt-outs may be limited to one agent's messages. */
  senderId?: number | null;
  /** Medicare products the message is about: texts and calls need a permission to contact naming one. */
  products?: readonly string[];
  /** The moment of the send (default now). */
  at?: Date;
}

export interface ConsentVerdict {
  contactId: number;
  allowed: boolean;
  /** Why the contact is removed; null when allowed. */
  reason: RemovalReason | null;
  /** The address to send to (lower-cased email, or the 11-digit phone). */
  address: string | null;
  /** The contact's status on the channel at the time of the check. */
  status: ConsentStatus;
  /** What the answer rests on, recorded with the send: e.g. `allowed:form`, `unknown`, `opted_out:reply`. */
  basis: string;
  warnings: ConsentWarning[];
}

/** The address a channel uses, over alias `contacts`. */
export function addressSql(channel: ConsentChannel): SQL {
  return channel === 'email' ? sql`nullif(lower(trim(contacts.email)), '')` : sql`nullif(contacts.phone, '')`;
}

/** Normalises an address as the record keeps it (emails lower-cased; phones as stored on contacts). */
export function normaliseAddress(channel: ConsentChannel, address: string): string {
  if (channel === 'email') return address.trim().toLowerCase();
  const digits = address.replace(/\D/g, '');
  return digits.length === 10 ? `1${digits}` : digits;
}

/**
 * One row per contact of the company whose id `idsSql` yields (a subquery of `id`s, or `contacts.id` values):
 * contact_id, address, reason (null: allowed), status, source, ptc (ok | missing | expired | not_covering | null).
 */
export function consentRowsSql(ask: ConsentAsk, idsSql: SQL): SQL {
  const ch = ask.channel;
  const at = (ask.at ?? new Date()).toISOString();
  const products = ask.products?.length ? [...ask.products] : null;
  const phoneLike = ch !== 'email';
  // Texts and calls for marketing need consent on record (TCPA: prior express written consent); email is
  // opt-out based (CAN-SPAM), and so is anything sent by hand to one person.
  const needsAllowed = phoneLike && ask.purpose === 'marketing';
  const needsPtc = phoneLike && ask.purpose === 'marketing' && products !== null;
  const invalid = ch === 'email' ? sql`contacts.email_status = 'invalid'` : sql`contacts.phone !~ '^1[0-9]{10}$'`;
  const sender = ask.senderId ?? null;
  const senderJoin =
    sender === null
      ? sql`left join lateral (select null::text as status) cs on true`
      : sql`left join contact_consents cs on cs.contact_id = contacts.id and cs.channel = ${ch} and cs.sender_id = ${sender}`;
  const ptcJoin =
    products === null
      ? sql`left join lateral (select null::text as state) ptc on true`
      : sql`left join lateral (
          select case
            when bool_or(p.expires_at > ${at}::timestamptz and p.products && ${sql.param(products)}::text[]) then 'ok'
            when bool_or(p.expires_at > ${at}::timestamptz) then 'not_covering'
            when count(*) > 0 then 'expired'
            else 'missing' end as state
          from permissions_to_contact p
          where p.contact_id = contacts.id and p.revoked_at is null and p.granted_at <= ${at}::timestamptz) ptc on true`;
  return sql`select contacts.id as contact_id, a.address,
      case
        when contacts.deleted_at is not null then 'deleted'
        when cc.status = 'opted_out' then 'opted_out'
        when cs.status = 'opted_out' then 'opted_out_sender'
        when sup.reason = 'complained' then 'complained'
        when sup.reason = 'bounced' then 'bounced'
        when sup.reason = 'opted_out' then 'opted_out'
        when a.address is null then 'no_address'
        when ${invalid} then 'invalid_address'
        when ${sql.raw(String(needsAllowed))} and cc.status is distinct from 'allowed' then 'no_consent'
        when ${sql.raw(String(needsPtc))} and ptc.state <> 'ok' then 'no_permission_to_contact'
      end as reason,
      coalesce(cc.status, 'unknown') as status, cc.source, ptc.state as ptc
    from contacts
    cross join lateral (select ${addressSql(ch)} as address) a
    left join contact_consents cc on cc.contact_id = contacts.id and cc.channel = ${ch} and cc.sender_id = 0
    ${senderJoin}
    left join consent_suppressions sup
      on sup.company_id = contacts.company_id and sup.channel = ${ch} and sup.address = a.address
    ${ptcJoin}
    where contacts.company_id = ${ask.companyId} and contacts.id in (${idsSql})`;
}

interface Row {
  contact_id: number | string;
  address: string | null;
  reason: RemovalReason | null;
  status: ConsentStatus;
  source: string | null;
  ptc: 'ok' | 'missing' | 'expired' | 'not_covering' | null;
}

const WARNING_OF: Record<string, ConsentWarning> = {
  missing: 'ptc_missing',
  expired: 'ptc_expired',
  not_covering: 'ptc_not_covering',
};

function verdictOf(ask: ConsentAsk, r: Row): ConsentVerdict {
  const warnings: ConsentWarning[] = [];
  // Email may reach a beneficiary unasked (42 CFR 422.2264(a)); a call or text for a product the permission
  // does not name warns (issue 14) where it is not already refused.
  if (!r.reason && r.ptc && r.ptc !== 'ok' && ask.purpose !== 'transactional') warnings.push(WARNING_OF[r.ptc]);
  return {
    contactId: Number(r.contact_id),
    allowed: r.reason === null,
    reason: r.reason,
    address: r.address,
    status: r.status,
    basis: r.source ? `${r.status}:${r.source}` : r.status,
    warnings,
  };
}

/**
 * The verdict for each of `contactIds` (in the order given). An id that is not a contact of the company answers
 * `deleted`: there is nobody to send to.
 */
export async function checkConsent(
  db: Db,
  ask: ConsentAsk & { contactIds: readonly number[] },
): Promise<ConsentVerdict[]> {
  const ids = [...new Set(ask.contactIds.map(Number))];
  if (!ids.length) return [];
  const res = await db.execute(consentRowsSql(ask, sql`select unnest(${sql.param(ids)}::bigint[])`));
  const rows = res.rows as unknown as Row[];
  const found = new Map(rows.map((r) => [Number(r.contact_id), verdictOf(ask, r)]));
  return ids.map(
    (id) =>
      found.get(id) ?? {
        contactId: id,
        allowed: false,
        reason: 'deleted',
        address: null,
        status: 'unknown',
        basis: 'unknown',
        warnings: [],
      },
  );
}

/** How many of a selection each reason removes, and how many receive: the preview of a broadcast, in one statement. */
export async function countConsent(db: Db, ask: ConsentAsk, idsSql: SQL) {
  const res = await db.execute<{ reason: RemovalReason | null; n: number }>(
    sql`select v.reason, count(*)::int as n from (${consentRowsSql(ask, idsSql)}) v group by v.reason`,
  );
  let allowed = 0;
  const removed: Partial<Record<RemovalReason, number>> = {};
  for (const r of res.rows) {
    if (r.reason === null) allowed += Number(r.n);
    else removed[r.reason as RemovalReason] = Number(r.n);
  }
  return { allowed, removed };
}

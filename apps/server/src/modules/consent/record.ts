/**
 * Writing the consent record: opt-outs and opt-ins (the email unsubscribe, an SMS STOP or START, the dialer's
 * do-not-call, an agent's two clicks), address suppressions (bounces, complaints) and the Medicare permission to
 * contact. Each is one set-based statement that records what changed (consent_events and the contact's timeline)
 * in the same pass; recording what is already true changes nothing and records nothing, so a repeated opt-out (a
 * second click, a provider's retried callback) is harmless.
 */
import { type ConsentChannel, type ConsentSource, PTC_MONTHS, type SuppressionReason } from '@harbor/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { addressSql, normaliseAddress } from './check.js';

export interface ConsentChange {
  companyId: number;
  channel: ConsentChannel;
  status: 'allowed' | 'opted_out';
  source: ConsentSource;
  /** What was said or signed, and where ("Replied STOP to 1-813-555-0100", "import column SMS OK"). */
  detail?: string | null;
  /** The user who recorded it (an agent's note); null when the person did it themselves (link, reply, form). */
  actorId?: number | null;
  /** Email opt-outs only: limit the opt-out to this agent's messages. */
  senderId?: number | null;
  at?: Date;
  /** Whom it concerns: these contacts (of the company), or every contact holding `address` and the address. */
  contactIds?: readonly number[];
  address?: string;
}

export interface ConsentChangeResult {
  /** Contacts whose status changed. */
  changed: number[];
  /** The address suppression was added (opt-out) or lifted (opt-in). */
  addressChanged: boolean;
}

/** Records an opt-out or an opt-in; answers which contacts changed. */
export async function recordConsent(db: Db, c: ConsentChange): Promise<ConsentChangeResult> {
  const sender = c.channel === 'email' && c.senderId ? c.senderId : 0;
  if (sender && c.status === 'allowed') throw new Error('a consent is given for the channel, not one sender');
  const at = (c.at ?? new Date()).toISOString();
  const address = c.address ? normaliseAddress(c.channel, c.address) : null;
  const addr = addressSql(c.channel);
  const whom: SQL = address
    ? sql`${addr} = ${address}`
    : sql`contacts.id = any(${sql.param([...(c.contactIds ?? [])].map(Number))}::bigint[])`;
  const detail = c.detail ?? null;
  const actor = c.actorId ?? null;
  const res = await db.execute<{ id: number; address: string | null }>(
    sql`with targets as (
        select contacts.id, ${addr} as address from contacts where contacts.company_id = ${c.companyId} and ${whom}),
      prev as (
        select t.id, t.address, cc.status as from_status from targets t
        left join contact_consents cc on cc.contact_id = t.id and cc.channel = ${c.channel} and cc.sender_id = ${sender}),
      changed as (select * from prev where from_status is distinct from ${c.status}),
      up as (
        insert into contact_consents
          (contact_id, channel, sender_id, company_id, status, since, source, detail, recorded_by, updated_at)
        select id, ${c.channel}, ${sender}, ${c.companyId}, ${c.status}, ${at}::timestamptz, ${c.source}, ${detail},
          ${actor}::int, now() from changed
        on conflict (contact_id, channel, sender_id) do update set status = excluded.status, since = excluded.since,
          source = excluded.source, detail = excluded.detail, recorded_by = excluded.recorded_by, updated_at = now()
        returning contact_id),
      ev as (
        insert into consent_events
          (company_id, contact_id, channel, sender_id, address, from_status, to_status, source, detail, actor_id, created_at)
        select ${c.companyId}, id, ${c.channel}, ${sender}, address, coalesce(from_status, 'unknown'), ${c.status},
          ${c.source}, ${detail}, ${actor}::int, ${at}::timestamptz from changed),
      tl as (
        insert into contact_events (company_id, contact_id, kind, data, actor_id)
        select ${c.companyId}, id, 'consent_changed',
          jsonb_build_object('channel', ${c.channel}::text, 'from', coalesce(from_status, 'unknown'),
            'to', ${c.status}::text, 'source', ${c.source}::text, 'detail', ${detail}::text,
            'sender_id', nullif(${sender}::int, 0)),
          ${actor}::int from changed)
      select id, address from changed`,
  );
  const changed = res.rows.map((r) => Number(r.id));
  let addressChanged = false;
  if (sender === 0) {
    // The address follows the person: an opt-out covers every contact that holds it (duplicates, later imports).
    const addresses = address
      ? [address]
      : (
          await db.execute<{ address: string }>(
            sql`select distinct ${addr} as address from contacts
              where contacts.company_id = ${c.companyId} and ${whom} and ${addr} is not null`,
          )
        ).rows.map((r) => r.address);
    if (c.status === 'opted_out') {
      addressChanged = await suppressAddresses(db, {
        companyId: c.companyId,
        channel: c.channel,
        addresses,
        reason: 'opted_out',
        detail,
        at: c.at,
      });
    } else {
      // A consent lifts an earlier opt-out of the address and the per-agent ones, never a bounce or a complaint.
      const lifted = await db.execute(
        sql`delete from consent_suppressions where company_id = ${c.companyId} and channel = ${c.channel}
          and reason = 'opted_out' and address = any(${sql.param(addresses)}::text[]) returning address`,
      );
      addressChanged = lifted.rows.length > 0;
      if (changed.length) {
        await db.execute(
          sql`delete from contact_consents where channel = ${c.channel} and sender_id <> 0
            and contact_id = any(${sql.param(changed)}::bigint[])`,
        );
      }
    }
    // An opt-out from an address no contact holds (a STOP from an unknown number) is evidence too.
    if (address && !changed.length && addressChanged) {
      await db.execute(
        sql`insert into consent_events (company_id, channel, address, from_status, to_status, source, detail, actor_id, created_at)
          values (${c.companyId}, ${c.channel}, ${address}, null, ${c.status}, ${c.source}, ${detail}, ${actor}::int,
            ${at}::timestamptz)`,
      );
    }
  }
  return { changed, addressChanged };
}

/**
 * Adds address suppressions (a bounce, a complaint, an opt-out). A stronger reason replaces a weaker one
 * (complained > bounced > opted out); answers whether anything changed.
 */
export async function suppressAddresses(
  db: Db,
  s: {
    companyId: number;
    channel: ConsentChannel;
    addresses: readonly string[];
    reason: SuppressionReason;
    detail?: string | null;
    at?: Date;
  },
): Promise<boolean> {
  const addresses = [...new Set(s.addresses.map((a) => normaliseAddress(s.channel, a)).filter(Boolean))];
  if (!addresses.length) return false;
  const at = (s.at ?? new Date()).toISOString();
  const res = await db.execute(
    sql`insert into consent_suppressions as x (company_id, channel, address, reason, since, detail)
        select ${s.companyId}, ${s.channel}, a, ${s.reason}, ${at}::timestamptz, ${s.detail ?? null}
        from unnest(${sql.param(addresses)}::text[]) a
        on conflict (company_id, channel, address) do update set reason = excluded.reason, since = excluded.since,
          detail = excluded.detail
        where ${sql.raw(rankOf('x'))} < ${sql.raw(rankOf('excluded'))}
        returning address`,
  );
  return res.rows.length > 0;
}

/** complained > bounced > opted out: the strongest reason an address was suppressed for stays. */
function rankOf(alias: 'x' | 'excluded') {
  return `(case ${alias}.reason when 'opted_out' then 1 when 'bounced' then 2 when 'complained' then 3 else 0 end)`;
}

/** Medicare permission to contact, given `grantedAt` for the products named; lasts twelve months. */
export async function grantPermissionToContact(
  db: Db,
  p: {
    companyId: number;
    contactId: number;
    products: readonly string[];
    grantedAt?: Date;
    source: ConsentSource;
    detail?: string | null;
    actorId?: number | null;
  },
): Promise<number> {
  const granted = (p.grantedAt ?? new Date()).toISOString();
  const detail = p.detail ?? null;
  const res = await db.execute<{ id: number }>(
    sql`with ptc as (
        insert into permissions_to_contact (company_id, contact_id, products, granted_at, expires_at, source, detail, recorded_by)
        values (${p.companyId}, ${p.contactId}, ${sql.param([...p.products])}::text[], ${granted}::timestamptz,
          ${granted}::timestamptz + make_interval(months => ${PTC_MONTHS}), ${p.source}, ${detail}, ${p.actorId ?? null}::int)
        returning id),
      ev as (
        insert into consent_events (company_id, contact_id, channel, from_status, to_status, source, detail, actor_id)
        values (${p.companyId}, ${p.contactId}, 'medicare', null, 'granted', ${p.source},
          ${`${p.products.join(', ')}${detail ? ` — ${detail}` : ''}`}, ${p.actorId ?? null}::int)),
      tl as (
        insert into contact_events (company_id, contact_id, kind, data, actor_id)
        values (${p.companyId}, ${p.contactId}, 'permission_to_contact_granted',
          jsonb_build_object('products', ${sql.param([...p.products])}::text[], 'granted_at', ${granted}::text,
            'source', ${p.source}::text, 'detail', ${detail}::text),
          ${p.actorId ?? null}::int))
      select id from ptc`,
  );
  return Number(res.rows[0].id);
}

/** Withdraws every permission to contact still in force (the beneficiary asked not to be contacted). */
export async function revokePermissionToContact(
  db: Db,
  p: { companyId: number; contactId: number; source: ConsentSource; detail?: string | null; actorId?: number | null },
): Promise<number> {
  const res = await db.execute<{ n: number }>(
    sql`with gone as (
        update permissions_to_contact set revoked_at = now(), revoked_by = ${p.actorId ?? null}::int
        where company_id = ${p.companyId} and contact_id = ${p.contactId} and revoked_at is null and expires_at > now()
        returning id),
      ev as (
        insert into consent_events (company_id, contact_id, channel, from_status, to_status, source, detail, actor_id)
        select ${p.companyId}, ${p.contactId}, 'medicare', 'granted', 'revoked', ${p.source}, ${p.detail ?? null},
          ${p.actorId ?? null}::int where exists (select 1 from gone)),
      tl as (
        insert into contact_events (company_id, contact_id, kind, data, actor_id)
        select ${p.companyId}, ${p.contactId}, 'permission_to_contact_revoked',
          jsonb_build_object('source', ${p.source}::text, 'detail', ${p.detail ?? null}::text), ${p.actorId ?? null}::int
        where exists (select 1 from gone))
      select count(*)::int as n from gone`,
  );
  return Number(res.rows[0].n);
}

/**
 * A merge keeps the strictest answer: an opt-out of any merged contact carries over to the kept one (a consent only
 * where the kept contact has no record); the evidence and the permissions to contact move with it.
 */
export async function mergeConsent(db: Db, companyId: number, keptId: number, mergedIds: readonly number[]) {
  const ids = sql.param([...mergedIds].map(Number));
  await db.execute(
    sql`insert into contact_consents as k
          (contact_id, channel, sender_id, company_id, status, since, source, detail, recorded_by, updated_at)
        select distinct on (channel, sender_id) ${keptId}, channel, sender_id, company_id, status, since, source, detail,
          recorded_by, now()
        from contact_consents where contact_id = any(${ids}::bigint[]) and company_id = ${companyId}
        order by channel, sender_id, (status = 'opted_out') desc, since desc
        on conflict (contact_id, channel, sender_id) do update set status = excluded.status, since = excluded.since,
          source = excluded.source, detail = excluded.detail, recorded_by = excluded.recorded_by, updated_at = now()
        where k.status <> 'opted_out' and excluded.status = 'opted_out'`,
  );
  for (const table of ['consent_events', 'permissions_to_contact']) {
    await db.execute(
      sql`update ${sql.raw(table)} set contact_id = ${keptId} where contact_id = any(${ids}::bigint[])
          and company_id = ${companyId}`,
    );
  }
}

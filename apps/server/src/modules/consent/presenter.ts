/** The consent record of one contact, as the contact page shows it (ConsentRecord of @harbor/shared). */
import {
  CONSENT_CHANNELS,
  type ConsentChannel,
  type ConsentEvent,
  type ConsentRecord,
  type ConsentSource,
  type ConsentStatus,
  type PermissionToContact,
  type SuppressionReason,
} from '@harbor/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import type { ContactRow } from '../contacts/access.js';
import { rowsOf } from '../contacts/list-scope.js';
import { normaliseAddress } from './check.js';

const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string).toISOString());
const person = (id: unknown, name: unknown) =>
  id === null || id === undefined ? null : { id: Number(id), name: String(name ?? '').trim() || 'A user' };
const userName = (alias: string) => sql.raw(`nullif(trim(${alias}.first_name || ' ' || ${alias}.last_name), '')`);

export async function loadConsentRecord(db: Db, companyId: number, contact: ContactRow): Promise<ConsentRecord> {
  const email = contact.email ? normaliseAddress('email', contact.email) : null;
  const phone = contact.phone || null;
  const addressOf = (ch: ConsentChannel) => (ch === 'email' ? email : phone);
  const [states, suppressions, ptcs, history] = await Promise.all([
    rowsOf<Record<string, unknown>>(
      db,
      sql`select k.channel, k.sender_id, k.status, k.since, k.source, k.detail, k.recorded_by,
          ${userName('r')} as recorded_by_name, ${userName('s')} as sender_name
        from contact_consents k left join users r on r.id = k.recorded_by left join users s on s.id = k.sender_id
        where k.contact_id = ${contact.id} and k.company_id = ${companyId}`,
    ),
    rowsOf<Record<string, unknown>>(
      db,
      sql`select channel, address, reason, since, detail from consent_suppressions
        where company_id = ${companyId} and ((channel = 'email' and address = ${email})
          or (channel in ('sms', 'voice') and address = ${phone}))`,
    ),
    rowsOf<Record<string, unknown>>(
      db,
      sql`select p.*, ${userName('r')} as recorded_by_name from permissions_to_contact p
        left join users r on r.id = p.recorded_by
        where p.contact_id = ${contact.id} and p.company_id = ${companyId} order by p.granted_at desc, p.id desc limit 1`,
    ),
    rowsOf<Record<string, unknown>>(
      db,
      sql`select e.*, ${userName('a')} as actor_name, ${userName('s')} as sender_name from consent_events e
        left join users a on a.id = e.actor_id left join users s on s.id = nullif(e.sender_id, 0)
        where e.company_id = ${companyId} and (e.contact_id = ${contact.id}
          or (e.contact_id is null and ((e.channel = 'email' and e.address = ${email})
            or (e.channel in ('sms', 'voice') and e.address = ${phone}))))
        order by e.id desc limit 50`,
    ),
  ]);
  const channels = CONSENT_CHANNELS.map((channel) => {
    const main = states.find((s) => s.channel === channel && Number(s.sender_id) === 0);
    const sup = suppressions.find((s) => s.channel === channel && s.address === addressOf(channel));
    return {
      channel,
      status: (main?.status as ConsentStatus) ?? 'unknown',
      since: iso(main?.since),
      source: (main?.source as ConsentSource) ?? null,
      detail: (main?.detail as string) ?? null,
      recorded_by: main ? person(main.recorded_by, main.recorded_by_name) : null,
      address: addressOf(channel),
      suppressed: sup
        ? { reason: sup.reason as SuppressionReason, since: iso(sup.since)!, detail: (sup.detail as string) ?? null }
        : null,
      senders_opted_out: states
        .filter((s) => s.channel === channel && Number(s.sender_id) !== 0 && s.status === 'opted_out')
        .map((s) => ({ id: Number(s.sender_id), name: String(s.sender_name ?? 'A user'), since: iso(s.since)! })),
    };
  });
  return {
    contact_id: contact.id,
    channels,
    permission_to_contact: ptcs[0] ? presentPtc(ptcs[0]) : null,
    history: history.map(presentEvent),
  };
}

function presentPtc(p: Record<string, unknown>): PermissionToContact {
  const expires = new Date(p.expires_at as string);
  return {
    id: Number(p.id),
    products: (p.products as string[]) ?? [],
    granted_at: iso(p.granted_at)!,
    expires_at: expires.toISOString(),
    source: p.source as ConsentSource,
    detail: (p.detail as string) ?? null,
    recorded_by: person(p.recorded_by, p.recorded_by_name),
    state: p.revoked_at ? 'revoked' : expires.getTime() <= Date.now() ? 'expired' : 'active',
    revoked_at: iso(p.revoked_at),
  };
}

function presentEvent(e: Record<string, unknown>): ConsentEvent {
  return {
    id: Number(e.id),
    channel: String(e.channel),
    from_status: (e.from_status as string) ?? null,
    to_status: String(e.to_status),
    source: e.source as ConsentSource,
    detail: (e.detail as string) ?? null,
    address: (e.address as string) ?? null,
    actor: person(e.actor_id, e.actor_name),
    sender: Number(e.sender_id) ? person(e.sender_id, e.sender_name) : null,
    created_at: iso(e.created_at)!,
  };
}

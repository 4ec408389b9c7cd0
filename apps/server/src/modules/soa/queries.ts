/**
 * Reading SOA requests for agents: which requests a caller sees (their own and those of users they reach), one
 * statement per list that names the agent and the contact, and the presenter (the link only while it is open).
 */
import type { SoaRequest, SoaStatus } from '@harbor/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/context.js';
import type { SecretBox } from '../../platform/auth/tokens.js';
import type { Db } from '../../platform/db/client.js';
import { notFound } from '../../platform/http/errors.js';
import { reachesUserSql } from '../../platform/reach.js';
import { rowsOf } from '../contacts/list-scope.js';

export type Raw = Record<string, unknown>;

export const soaSelect = sql`select s.*, trim(u.first_name || ' ' || u.last_name) as user_name,
    c.number as contact_number, trim(c.first_name || ' ' || c.last_name) as contact_name, co.domain_name
  from soa_requests s join users u on u.id = s.user_id join contacts c on c.id = s.contact_id
  join companies co on co.id = s.company_id`;

/** The status a person sees: a sent request past its expiry is expired. */
export const statusSql = sql`case when s.status = 'sent' and s.expires_at <= now() then 'expired' else s.status end`;

export const visibleSql = (auth: AuthContext): SQL =>
  sql`s.company_id = ${auth.company.id} and ${reachesUserSql(auth, sql`s.user_id`)}`;

export async function loadSoa(db: Db, auth: AuthContext, id: number): Promise<Raw> {
  const [row] = await rowsOf<Raw>(db, sql`${soaSelect} where s.id = ${id} and ${visibleSql(auth)}`);
  if (!row) throw notFound('soa_request');
  return row;
}

const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string).toISOString());
const str = (v: unknown) => (v === null || v === undefined ? null : String(v));

export function soaLink(appUrl: string, domainName: string, token: string) {
  return `${appUrl}/soa/${encodeURIComponent(domainName)}/${token}`;
}

export function effectiveStatus(r: Raw): SoaStatus {
  if (r.status === 'sent' && new Date(r.expires_at as string).getTime() <= Date.now()) return 'expired';
  return r.status as SoaStatus;
}

export function presentSoa(r: Raw, opts: { appUrl: string; secrets: SecretBox; withSignature: boolean }): SoaRequest {
  const status = effectiveStatus(r);
  return {
    id: Number(r.id),
    status,
    channel: r.channel as SoaRequest['channel'],
    sent_to: str(r.sent_to),
    user: { id: Number(r.user_id), name: String(r.user_name ?? '') },
    contact: { id: Number(r.contact_id), number: Number(r.contact_number), name: String(r.contact_name ?? '') },
    products_offered: (r.products_offered as string[]) ?? [],
    products: (r.products as string[]) ?? [],
    signature_name: str(r.signature_name),
    signature_image: opts.withSignature ? str(r.signature_image) : null,
    beneficiary_address: str(r.beneficiary_address),
    beneficiary_phone: str(r.beneficiary_phone),
    signed_at: iso(r.signed_at),
    signed_ip: str(r.signed_ip),
    signed_user_agent: str(r.signed_user_agent),
    expires_at: iso(r.expires_at)!,
    completed_at: iso(r.completed_at),
    rejected_at: iso(r.rejected_at),
    reject_reason: str(r.reject_reason),
    link:
      status === 'sent' ? soaLink(opts.appUrl, String(r.domain_name), opts.secrets.open(String(r.token_sealed))) : null,
    created_at: iso(r.created_at)!,
  };
}

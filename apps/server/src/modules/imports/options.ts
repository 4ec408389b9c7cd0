/**
 * What an import will do, resolved once from the form and the caller: the owner (admins and managers may pick
 * someone within their reach), the pool, the lead vendor, the tags; all checked against the caller's company.
 */
import type { ImportForm, OnMatch, ScrubKey } from '@harbor/shared';
import { sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Db } from '../../platform/db/client.js';
import { invalid } from '../../platform/http/errors.js';
import { reachesUserSql, reachOf } from '../../platform/reach.js';
import type { InferredColumn } from './parse/fields.js';

export interface ImportOptions {
  type: 'lead' | 'client';
  userId: number;
  ownerId: number;
  poolId: number | null;
  apiVendorId: number | null;
  vendor: { vendor_name: string; vendor_type: string } | null;
  tags: Array<{ name: string; color?: string }>;
  updatedTags: Array<{ name: string; color?: string }>;
  scrub: { by: ScrubKey[]; on_match: OnMatch } | null;
  headers: string[];
  fields: InferredColumn['field'][];
  sheet: string | null;
}

const rows = <T>(res: unknown) => (res as { rows: T[] }).rows;

export async function resolveOptions(
  db: Db,
  auth: AuthContext,
  form: ImportForm,
  columns: InferredColumn[],
  sheet: string | null,
): Promise<ImportOptions> {
  const c = auth.company.id;
  let ownerId = auth.user.id;
  if (form.owner && form.owner !== auth.user.id) {
    if (reachOf(auth) === 'own') throw invalid('owner', 'You can only import into your own book');
    const scope = reachesUserSql(auth, sql`id`);
    const found = rows(
      await db.execute(
        sql`select id from users where id = ${form.owner} and company_id = ${c} and deleted_at is null and ${scope}`,
      ),
    );
    if (found.length === 0) throw invalid('owner', 'is not a user you may import for');
    ownerId = form.owner;
  }
  if (form.pool) {
    const found = rows(await db.execute(sql`select id from pools where id = ${form.pool} and company_id = ${c}`));
    if (found.length === 0) throw invalid('pool', 'not found');
  }
  if (form.api_vendor_id) {
    const found = rows(
      await db.execute(sql`select id from api_vendors where id = ${form.api_vendor_id} and company_id = ${c}`),
    );
    if (found.length === 0) throw invalid('api_vendor_id', 'not found');
  }
  const scrub = form.scrub_against ? { by: form.scrub_against.by, on_match: form.scrub_against.on_match } : null;
  return {
    type: form.type,
    userId: auth.user.id,
    ownerId,
    poolId: form.pool ?? null,
    apiVendorId: form.api_vendor_id ?? null,
    vendor: form.api_vendor_id ? null : (form.api_vendor_obj ?? null),
    tags: form.tags,
    updatedTags: form.updated_lead_tags,
    scrub,
    headers: columns.map((col) => col.header),
    fields: columns.map((col) => col.field),
    sheet,
  };
}

/** Tags by name (case-insensitive), created when new; idempotent, so a resumed job gets the same ids. */
export async function ensureTags(db: Db, companyId: number, tags: Array<{ name: string; color?: string }>) {
  if (tags.length === 0) return [];
  const names = tags.map((t) => t.name);
  const colors = tags.map((t) => t.color || 'blue');
  await db.execute(sql`insert into tags (company_id, name, color)
    select ${companyId}, n, c from unnest(${pgArray(names)}::text[], ${pgArray(colors)}::text[]) as x(n, c)
    on conflict (company_id, lower(name)) do nothing`);
  const found = rows<{ id: number }>(
    await db.execute(sql`select id from tags where company_id = ${companyId}
      and lower(name) in (select lower(n) from unnest(${pgArray(names)}::text[]) n)`),
  );
  return found.map((r) => Number(r.id));
}

/** The lead vendor named by api_vendor_obj, created when new. */
export async function ensureVendor(db: Db, companyId: number, v: { vendor_name: string; vendor_type: string }) {
  await db.execute(sql`insert into api_vendors (company_id, vendor_name, vendor_type)
    values (${companyId}, ${v.vendor_name}, ${v.vendor_type}) on conflict (company_id, lower(vendor_name)) do nothing`);
  const [row] = rows<{ id: number }>(
    await db.execute(
      sql`select id from api_vendors where company_id = ${companyId} and lower(vendor_name) = lower(${v.vendor_name})`,
    ),
  );
  return Number(row.id);
}

/** A PostgreSQL array literal, passed as one parameter (drizzle would expand a JS array into a list). */
export function pgArray(values: Array<string | number>): string {
  return `{${values.map((v) => (typeof v === 'number' ? String(v) : `"${v.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`)).join(',')}}`;
}

/**
 * Tenant guard for routes whose path names a record: the pipeline asks the resource's resolver whether the id
 * belongs to the caller's company and answers 404 before anything else runs. Handlers still pass the company to
 * every query; this makes "another tenant's record is 404" hold uniformly, and lets the permission matrix test
 * find a foreign record for any route through `sample`.
 */
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './db/client.js';

export interface TenantResolver {
  /** True when the record `id` exists in company `companyId` (and is visible at all, e.g. not hard-deleted). */
  exists(db: Db, companyId: number, id: string): Promise<boolean>;
  /** Some record id of the company, for tests; null when it has none. */
  sample(db: Db, companyId: number): Promise<string | null>;
}

export class TenantRegistry {
  private resolvers = new Map<string, TenantResolver>();
  register(resource: string, resolver: TenantResolver) {
    if (this.resolvers.has(resource)) throw new Error(`tenant resource ${resource} registered twice`);
    this.resolvers.set(resource, resolver);
  }
  get(resource: string): TenantResolver {
    const r = this.resolvers.get(resource);
    if (!r) throw new Error(`no tenant resolver for resource '${resource}'`);
    return r;
  }
  has(resource: string) {
    return this.resolvers.has(resource);
  }
}

/** Positive integer ids only: anything else cannot exist. */
export const asId = (raw: string): number | null => (/^\d{1,12}$/.test(raw) ? Number(raw) : null);

/** A table whose rows belong to one company. */
export type CompanyTable = PgTable & { id: PgColumn; companyId: PgColumn };

export interface CompanyRowOptions {
  /** The column the path's id is matched against (default `id`; contacts use their public `number`). */
  key?: PgColumn;
  /** What else makes a row exist for the path (e.g. not soft-deleted, not revoked). */
  live?: SQL;
}

/**
 * The tenant resolver of almost every resource: the row `key = id` exists in the caller's company (and is `live`).
 * One indexed lookup; a non-numeric id cannot exist.
 */
export function companyRowResolver(table: CompanyTable, opts: CompanyRowOptions = {}): TenantResolver {
  const key = opts.key ?? table.id;
  return {
    async exists(db, companyId, raw) {
      const id = asId(raw);
      if (id === null) return false;
      const [row] = await db
        .select({ id: table.id })
        .from(table as PgTable)
        .where(and(eq(key, id), eq(table.companyId, companyId), opts.live));
      return Boolean(row);
    },
    async sample(db, companyId) {
      // A key counted per company (a number, not the id) can name a record in several companies; a cross-tenant
      // probe needs one that only this company uses.
      const onlyHere =
        key === table.id
          ? undefined
          : sql`not exists (select 1 from ${table} o where o.${sql.identifier(key.name)} = ${key} and o.company_id <> ${companyId})`;
      const [row] = await db
        .select({ key })
        .from(table as PgTable)
        .where(and(eq(table.companyId, companyId), opts.live, onlyHere))
        .limit(1);
      return row ? String(row.key) : null;
    },
  };
}

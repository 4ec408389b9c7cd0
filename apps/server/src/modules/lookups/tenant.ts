import { and, eq } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { asId, type TenantResolver } from '../../platform/tenancy.js';

type CompanyTable = PgTable & { id: PgColumn; companyId: PgColumn };

/** A lookup row is visible to its own company only. */
export function companyRowResolver(table: CompanyTable): TenantResolver {
  return {
    async exists(db, companyId, raw) {
      const id = asId(raw);
      if (id === null) return false;
      const [row] = await db
        .select({ id: table.id })
        .from(table as PgTable)
        .where(and(eq(table.id, id), eq(table.companyId, companyId)));
      return Boolean(row);
    },
    async sample(db, companyId) {
      const [row] = await db
        .select({ id: table.id })
        .from(table as PgTable)
        .where(eq(table.companyId, companyId))
        .limit(1);
      return row ? String(row.id) : null;
    },
  };
}

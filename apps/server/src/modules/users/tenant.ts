import { and, eq, isNull } from 'drizzle-orm';
import { users } from '../../platform/db/schema.js';
import { asId, type TenantResolver } from '../../platform/tenancy.js';

/** A user id is visible to its own company only, and not once deleted. */
export const userTenantResolver: TenantResolver = {
  async exists(db, companyId, raw) {
    const id = asId(raw);
    if (id === null) return false;
    const [row] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, id), eq(users.companyId, companyId), isNull(users.deletedAt)));
    return Boolean(row);
  },
  async sample(db, companyId) {
    const [row] = await db.select({ id: users.id }).from(users).where(eq(users.companyId, companyId)).limit(1);
    return row ? String(row.id) : null;
  },
};

import { and, eq } from 'drizzle-orm';
import { asId, type TenantResolver } from '../../platform/tenancy.js';
import { importAttempts, importSettings } from './schema.js';

/** An import attempt belongs to its company only. */
export const importAttemptTenant: TenantResolver = {
  async exists(db, companyId, raw) {
    const id = asId(raw);
    if (id === null) return false;
    const [row] = await db
      .select({ id: importAttempts.id })
      .from(importAttempts)
      .where(and(eq(importAttempts.id, id), eq(importAttempts.companyId, companyId)));
    return Boolean(row);
  },
  async sample(db, companyId) {
    const [row] = await db
      .select({ id: importAttempts.id })
      .from(importAttempts)
      .where(eq(importAttempts.companyId, companyId))
      .limit(1);
    return row ? String(row.id) : null;
  },
};

export const importSettingTenant: TenantResolver = {
  async exists(db, companyId, raw) {
    const id = asId(raw);
    if (id === null) return false;
    const [row] = await db
      .select({ id: importSettings.id })
      .from(importSettings)
      .where(and(eq(importSettings.id, id), eq(importSettings.companyId, companyId)));
    return Boolean(row);
  },
  async sample(db, companyId) {
    const [row] = await db
      .select({ id: importSettings.id })
      .from(importSettings)
      .where(eq(importSettings.companyId, companyId))
      .limit(1);
    return row ? String(row.id) : null;
  },
};

import type { OfficeLocation, PageMeta } from '@harbor/shared';
import { and, asc, count, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { officeLocations } from './schema.js';

export type OfficeLocationRow = typeof officeLocations.$inferSelect;

export function presentOfficeLocation(o: OfficeLocationRow): OfficeLocation {
  return {
    id: o.id,
    name: o.name,
    office_type: o.officeType as OfficeLocation['office_type'],
    address: o.address,
    city: o.city,
    state: o.state,
    zip_code: o.zipCode,
    phone: o.phone,
  };
}

/** The company's offices, main office first. */
export async function listOfficeLocations(db: Db, companyId: number, page = 1, limit = 100) {
  const where = and(eq(officeLocations.companyId, companyId), isNull(officeLocations.deletedAt));
  const [{ total }] = await db.select({ total: count() }).from(officeLocations).where(where);
  const rows = await db
    .select()
    .from(officeLocations)
    .where(where)
    .orderBy(sql`${officeLocations.officeType} <> 'main'`, asc(officeLocations.name), asc(officeLocations.id))
    .limit(limit)
    .offset((page - 1) * limit);
  const meta: PageMeta = { current_page: page, limit, total_count: total, total_pages: Math.ceil(total / limit) };
  return { data: rows.map(presentOfficeLocation), meta };
}

import type { OfficeLocation } from '@harbor/shared';
import { and, asc, eq, isNull, type Placeholder, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { pageMeta, pageOffset } from '../../platform/http/paging.js';
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
const liveOffices = (companyId: number | Placeholder) =>
  and(eq(officeLocations.companyId, companyId), isNull(officeLocations.deletedAt));

export const officeLocationsCountQuery = (db: Db, companyId: number | Placeholder) =>
  db
    .select({ total: sql<number>`count(*)::int`.as('total') })
    .from(officeLocations)
    .where(liveOffices(companyId));

/** Whole rows, main office first (me-query.ts embeds it as a subquery). */
export const officeLocationsPageQuery = (db: Db, companyId: number | Placeholder, page: number, limit: number) =>
  db
    .select()
    .from(officeLocations)
    .where(liveOffices(companyId))
    .orderBy(sql`${officeLocations.officeType} <> 'main'`, asc(officeLocations.name), asc(officeLocations.id))
    .limit(limit)
    .offset(pageOffset(page, limit));

export function officeLocationsPage(rows: OfficeLocationRow[], total: number, page: number, limit: number) {
  return { data: rows.map(presentOfficeLocation), meta: pageMeta(page, limit, total) };
}

export async function listOfficeLocations(db: Db, companyId: number, page = 1, limit = 100) {
  const [[{ total }], rows] = await Promise.all([
    officeLocationsCountQuery(db, companyId),
    officeLocationsPageQuery(db, companyId, page, limit),
  ]);
  return officeLocationsPage(rows, total, page, limit);
}

/**
 * Office locations (main or branch): every user lists their company's offices (GET /v1/users/office_locations, the
 * `office_locations` of the current user); admins manage them under /v1/admin/office_locations (update by PUT), a
 * CRUD set of platform/http/crud.ts. Removing an office is a soft delete that leaves its people without an office.
 */
import { OfficeLocation, OfficeLocationBody, OfficeLocationCrud, OfficeLocationList, Paging } from '@harbor/shared';
import { and, asc, eq, isNull, ne, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { invalidateAuth } from '../../platform/auth/invalidation.js';
import type { Db } from '../../platform/db/client.js';
import { users } from '../../platform/db/schema.js';
import { crudRoutes } from '../../platform/http/crud.js';
import { invalid } from '../../platform/http/errors.js';
import { authOf } from '../../platform/http/pipeline.js';
import type { Module } from '../types.js';
import { type OfficeLocationRow, presentOfficeLocation } from './queries.js';
import { officeLocations } from './schema.js';

const tags = ['office_locations'];

type Body = z.infer<typeof OfficeLocationBody>;
const values = (b: Body) => ({
  name: b.name,
  officeType: b.office_type,
  address: b.address ?? null,
  city: b.city ?? null,
  state: b.state ?? null,
  zipCode: b.zip_code ?? null,
  phone: b.phone ?? null,
});

/** One main office per company; the partial unique index is the backstop, this is the readable answer. */
async function assertOneMain(db: Db, companyId: number, body: Body, exceptId?: number) {
  if (body.office_type !== 'main') return;
  const [main] = await db
    .select({ id: officeLocations.id })
    .from(officeLocations)
    .where(
      and(
        eq(officeLocations.companyId, companyId),
        eq(officeLocations.officeType, 'main'),
        isNull(officeLocations.deletedAt),
        exceptId ? ne(officeLocations.id, exceptId) : undefined,
      ),
    );
  if (main) throw invalid('office_type', 'main is taken: the company already has a main office');
}

export const officeLocationsModule: Module = {
  name: 'office_locations',
  register(scope: FastifyInstance, { tenants }) {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const offices = crudRoutes<OfficeLocationRow, OfficeLocation>(scope, tenants, {
      base: '/v1/admin/office_locations',
      resource: 'office_location',
      access: 'admin.manage',
      tags,
      table: officeLocations,
      body: OfficeLocationBody,
      reply: OfficeLocation,
      schemas: OfficeLocationCrud,
      present: presentOfficeLocation,
      columns: (b) => values(b as Body),
      update: 'put',
      paged: true,
      live: isNull(officeLocations.deletedAt),
      // Main office first.
      order: [sql`${officeLocations.officeType} <> 'main'`, asc(officeLocations.name), asc(officeLocations.id)],
      check: (db, companyId, body, id) => assertOneMain(db, companyId, body as Body, id),
      remove: async (tx, companyId, id) => {
        await tx
          .update(officeLocations)
          .set({ deletedAt: new Date() })
          .where(and(eq(officeLocations.id, id), eq(officeLocations.companyId, companyId)));
        await tx
          .update(users)
          .set({ officeLocationId: null })
          .where(and(eq(users.officeLocationId, id), eq(users.companyId, companyId)));
        // Its people's cached sessions carry the office: every process forgets them.
        invalidateAuth({ companies: [companyId] });
      },
      summaries: {
        list: "The company's office locations",
        create: 'Add an office',
        show: 'One office',
        update: 'Replace an office',
        remove: 'Remove an office (its people keep working, with no office)',
      },
    });

    app.get(
      '/v1/users/office_locations',
      {
        config: { access: 'authenticated' },
        schema: {
          tags,
          summary: "The company's office locations",
          querystring: Paging,
          response: { 200: OfficeLocationList },
        },
      },
      async (req) => offices.page(authOf(req).company.id, req.query.page, req.query.limit),
    );
  },
};

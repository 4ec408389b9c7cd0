/**
 * Office locations (main or branch): every user lists their company's offices (GET /v1/users/office_locations, the
 * `office_locations` of the current user); admins manage them under /v1/admin/office_locations (update by PUT).
 */
import { OfficeLocation, OfficeLocationBody, OfficeLocationList, Paging } from '@harbor/shared';
import { and, eq, isNull, ne } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../platform/db/client.js';
import { users } from '../../platform/db/schema.js';
import { invalid } from '../../platform/http/errors.js';
import { authOf } from '../../platform/http/pipeline.js';
import { asId, type TenantResolver } from '../../platform/tenancy.js';
import type { Module } from '../types.js';
import { listOfficeLocations, presentOfficeLocation } from './queries.js';
import { officeLocations } from './schema.js';

const IdParams = z.object({ id: z.coerce.number().int().positive() });
const tenant = { param: 'id', resource: 'office_location' };
const tags = ['office_locations'];

const resolver: TenantResolver = {
  async exists(db, companyId, raw) {
    const id = asId(raw);
    if (id === null) return false;
    const [row] = await db
      .select({ id: officeLocations.id })
      .from(officeLocations)
      .where(
        and(eq(officeLocations.id, id), eq(officeLocations.companyId, companyId), isNull(officeLocations.deletedAt)),
      );
    return Boolean(row);
  },
  async sample(db, companyId) {
    const [row] = await db
      .select({ id: officeLocations.id })
      .from(officeLocations)
      .where(eq(officeLocations.companyId, companyId))
      .limit(1);
    return row ? String(row.id) : null;
  },
};

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
    const db = scope.deps.database.db;
    tenants.register('office_location', resolver);
    const one = async (companyId: number, id: number) => {
      const [row] = await db
        .select()
        .from(officeLocations)
        .where(and(eq(officeLocations.id, id), eq(officeLocations.companyId, companyId)));
      return presentOfficeLocation(row);
    };

    for (const url of ['/v1/users/office_locations', '/v1/admin/office_locations']) {
      app.get(
        url,
        {
          config: { access: url.startsWith('/v1/admin') ? 'admin.manage' : 'authenticated' },
          schema: {
            tags,
            summary: "The company's office locations",
            querystring: Paging,
            response: { 200: OfficeLocationList },
          },
        },
        async (req) => listOfficeLocations(db, authOf(req).company.id, req.query.page, req.query.limit),
      );
    }

    app.post(
      '/v1/admin/office_locations',
      {
        config: { access: 'admin.manage' },
        schema: { tags, summary: 'Add an office', body: OfficeLocationBody, response: { 201: OfficeLocation } },
      },
      async (req, reply) => {
        const companyId = authOf(req).company.id;
        await assertOneMain(db, companyId, req.body);
        const [row] = await db
          .insert(officeLocations)
          .values({ ...values(req.body), companyId })
          .returning();
        return reply.code(201).send(presentOfficeLocation(row));
      },
    );

    app.get(
      '/v1/admin/office_locations/:id',
      {
        config: { access: 'admin.manage', tenant },
        schema: { tags, summary: 'One office', params: IdParams, response: { 200: OfficeLocation } },
      },
      async (req) => one(authOf(req).company.id, req.params.id),
    );

    app.put(
      '/v1/admin/office_locations/:id',
      {
        config: { access: 'admin.manage', tenant },
        schema: {
          tags,
          summary: 'Replace an office',
          params: IdParams,
          body: OfficeLocationBody,
          response: { 200: OfficeLocation },
        },
      },
      async (req) => {
        const companyId = authOf(req).company.id;
        await assertOneMain(db, companyId, req.body, req.params.id);
        await db
          .update(officeLocations)
          .set(values(req.body))
          .where(and(eq(officeLocations.id, req.params.id), eq(officeLocations.companyId, companyId)));
        return one(companyId, req.params.id);
      },
    );

    app.delete(
      '/v1/admin/office_locations/:id',
      {
        config: { access: 'admin.manage', tenant },
        schema: {
          tags,
          summary: 'Remove an office (its people keep working, with no office)',
          params: IdParams,
          response: { 204: z.null() },
        },
      },
      async (req, reply) => {
        const companyId = authOf(req).company.id;
        await db.transaction(async (tx) => {
          const t = tx as unknown as Db;
          await t
            .update(officeLocations)
            .set({ deletedAt: new Date() })
            .where(and(eq(officeLocations.id, req.params.id), eq(officeLocations.companyId, companyId)));
          await t
            .update(users)
            .set({ officeLocationId: null })
            .where(and(eq(users.officeLocationId, req.params.id), eq(users.companyId, companyId)));
        });
        return reply.code(204).send(null);
      },
    );
  },
};

/**
 * Policies and securities of a contact: the same five routes each (list, create, show, update, delete). A policy's
 * carrier must be one of the company's carriers. Money is integer cents. Changes land on the timeline.
 */
import {
  NoContent,
  Policy,
  PolicyBody,
  PolicyList,
  PolicyParams,
  PolicyUpdateBody,
  Security,
  SecurityBody,
  SecurityList,
  SecurityParams,
  SecurityUpdateBody,
} from '@harbor/shared';
import { and, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Db } from '../../platform/db/client.js';
import { invalid, notFound } from '../../platform/http/errors.js';
import { authOf } from '../../platform/http/pipeline.js';
import { findVisibleContact } from '../contacts/access.js';
import { recordContactEvent } from '../contacts/events.js';
import { policies, securities } from '../contacts/schema.js';
import { carriers } from '../lookups/schema.js';
import { ContactParams, contactTenant } from './shared.js';

const tags = ['contact-records'];
const config = { access: 'contacts.use', tenant: contactTenant } as const;

type PolicyRow = typeof policies.$inferSelect;
type SecurityRow = typeof securities.$inferSelect;
type PolicyInput = z.infer<typeof PolicyUpdateBody>;
type SecurityInput = z.infer<typeof SecurityUpdateBody>;

async function presentPolicy(db: Db, p: PolicyRow) {
  const [carrier] = p.carrierId
    ? await db.select({ id: carriers.id, name: carriers.name }).from(carriers).where(eq(carriers.id, p.carrierId))
    : [];
  return {
    id: p.id,
    carrier: carrier ?? null,
    product_type: p.productType,
    plan_name: p.planName,
    policy_number: p.policyNumber,
    premium_cents: p.premiumCents,
    status: p.status,
    effective_date: p.effectiveDate,
    termination_date: p.terminationDate,
    notes: p.notes,
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
  };
}

const presentSecurity = async (_db: Db, s: SecurityRow) => ({
  id: s.id,
  kind: s.kind,
  institution: s.institution,
  account_last4: s.accountLast4,
  value_cents: s.valueCents,
  notes: s.notes,
  created_at: s.createdAt.toISOString(),
  updated_at: s.updatedAt.toISOString(),
});

const undef = <T extends Record<string, unknown>>(o: T) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

async function policyColumns(db: Db, auth: AuthContext, b: PolicyInput) {
  if (b.carrier_id) {
    const [c] = await db
      .select({ id: carriers.id })
      .from(carriers)
      .where(and(eq(carriers.id, b.carrier_id), eq(carriers.companyId, auth.company.id)));
    if (!c) throw invalid('carrier_id', 'does not exist');
  }
  return undef({
    carrierId: b.carrier_id,
    productType: b.product_type,
    planName: b.plan_name,
    policyNumber: b.policy_number,
    premiumCents: b.premium_cents,
    status: b.status,
    effectiveDate: b.effective_date,
    terminationDate: b.termination_date,
    notes: b.notes,
  });
}

const securityColumns = async (_db: Db, _auth: AuthContext, b: SecurityInput) =>
  undef({
    kind: b.kind,
    institution: b.institution,
    accountLast4: b.account_last4,
    valueCents: b.value_cents,
    notes: b.notes,
  });

interface RecordKind {
  path: 'policies' | 'securities';
  param: 'policyId' | 'securityId';
  singular: 'policy' | 'security';
  table: typeof policies | typeof securities;
  reply: z.ZodTypeAny;
  list: z.ZodTypeAny;
  params: typeof PolicyParams | typeof SecurityParams;
  create: z.ZodTypeAny;
  update: z.ZodTypeAny;
  columns: (db: Db, auth: AuthContext, body: never) => Promise<Record<string, unknown>>;
  present: (db: Db, row: never) => Promise<unknown>;
}

function crudRoutes(scope: FastifyInstance, k: RecordKind) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const db = scope.deps.database.db;
  const table = k.table as typeof policies;
  const present = k.present as (db: Db, row: unknown) => Promise<unknown>;
  const columns = k.columns as (db: Db, auth: AuthContext, body: unknown) => Promise<Record<string, unknown>>;
  const OneParams = k.params;
  const oneId = (p: unknown) => (p as Record<string, number>)[k.param];
  const base = `/v1/contacts/:id/${k.path}`;
  const one = `${base}/:${k.param}`;

  async function find(t: Db, contactId: number, rowId: number) {
    const [row] = await t
      .select()
      .from(table)
      .where(and(eq(table.id, rowId), eq(table.contactId, contactId)));
    if (!row) throw notFound(k.singular);
    return row;
  }
  const event = (t: Db, auth: AuthContext, contactId: number, verb: string, data: Record<string, unknown>) =>
    recordContactEvent(t, {
      companyId: auth.company.id,
      contactId,
      kind: `${k.singular}_${verb}`,
      actorId: auth.user.id,
      data,
    });

  app.get(
    base,
    {
      config,
      schema: {
        tags,
        summary: `List ${k.path}`,
        params: ContactParams,
        response: { 200: k.list },
      },
    },
    async (req) => {
      const c = await findVisibleContact(db, authOf(req), req.params.id);
      const rows = await db.select().from(table).where(eq(table.contactId, c.id)).orderBy(desc(table.id));
      return { data: await Promise.all(rows.map((r) => present(db, r))) };
    },
  );

  app.post(
    base,
    {
      config,
      schema: {
        tags,
        summary: `Add a ${k.singular}`,
        params: ContactParams,
        body: k.create,
        response: { 201: k.reply },
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const out = await db.transaction(async (t) => {
        const c = await findVisibleContact(t, auth, req.params.id, true);
        const cols = await columns(t, auth, req.body);
        const [row] = await t
          .insert(table)
          .values({ ...(cols as typeof table.$inferInsert), companyId: auth.company.id, contactId: c.id })
          .returning();
        await event(t, auth, c.id, 'added', { id: row.id, ...(req.body as object) });
        return present(t, row);
      });
      return reply.code(201).send(out);
    },
  );

  app.get(
    one,
    { config, schema: { tags, summary: `One ${k.singular}`, params: OneParams, response: { 200: k.reply } } },
    async (req) => {
      const c = await findVisibleContact(db, authOf(req), req.params.id);
      return present(db, await find(db, c.id, oneId(req.params)));
    },
  );

  app.patch(
    one,
    {
      config,
      schema: { tags, summary: `Edit a ${k.singular}`, params: OneParams, body: k.update, response: { 200: k.reply } },
    },
    async (req) => {
      const auth = authOf(req);
      return db.transaction(async (t) => {
        const c = await findVisibleContact(t, auth, req.params.id, true);
        const current = await find(t, c.id, oneId(req.params));
        const cols = await columns(t, auth, req.body);
        const [row] = await t
          .update(table)
          .set({ ...cols, updatedAt: new Date() })
          .where(eq(table.id, current.id))
          .returning();
        await event(t, auth, c.id, 'updated', { id: row.id, changes: req.body });
        return present(t, row);
      });
    },
  );

  app.delete(
    one,
    { config, schema: { tags, summary: `Delete a ${k.singular}`, params: OneParams, response: { 204: NoContent } } },
    async (req, reply) => {
      const auth = authOf(req);
      await db.transaction(async (t) => {
        const c = await findVisibleContact(t, auth, req.params.id, true);
        const current = await find(t, c.id, oneId(req.params));
        await t.delete(table).where(eq(table.id, current.id));
        // The deleted record's values stay on the timeline.
        await event(t, auth, c.id, 'deleted', { id: current.id, snapshot: await present(t, current) });
      });
      return reply.code(204).send(null);
    },
  );
}

export function policyAndSecurityRoutes(scope: FastifyInstance) {
  crudRoutes(scope, {
    path: 'policies',
    param: 'policyId',
    singular: 'policy',
    table: policies,
    reply: Policy,
    list: PolicyList,
    params: PolicyParams,
    create: PolicyBody,
    update: PolicyUpdateBody,
    columns: policyColumns,
    present: presentPolicy,
  });
  crudRoutes(scope, {
    path: 'securities',
    param: 'securityId',
    singular: 'security',
    table: securities,
    reply: Security,
    list: SecurityList,
    params: SecurityParams,
    create: SecurityBody,
    update: SecurityUpdateBody,
    columns: securityColumns,
    present: presentSecurity,
  });
}

/**
 * The admin CRUD shape shared by statuses, agent-flow statuses, sources and carriers under /v1/admin/<path>: list,
 * create, show, update, delete. Names are unique per company (case-insensitive): a duplicate is a 422 on `name`.
 * Deleting a row that contacts or policies still use is refused with the count; deactivating (active: false) hides
 * it from pickers without touching anyone's data.
 */
import { and, asc, eq, ne, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../platform/db/client.js';
import { HttpError, invalid, notFound } from '../../platform/http/errors.js';
import { authOf } from '../../platform/http/pipeline.js';

export type LookupTable = PgTable & { id: PgColumn; companyId: PgColumn; name: PgColumn };

export interface AdminLookup<Row> {
  path: string;
  resource: string;
  table: LookupTable;
  body: z.ZodObject;
  reply: z.ZodTypeAny;
  present(row: Row): unknown;
  columns(body: Record<string, unknown>): Record<string, unknown>;
  /** A message when the row is still in use (delete is refused), or null. */
  inUse(db: Db, id: number): Promise<string | null>;
  /** Extra checks of a body's ids against the company (e.g. a status's group). */
  check?(db: Db, companyId: number, body: Record<string, unknown>): Promise<void>;
  order?: Array<PgColumn | SQL>;
}

export const IdParams = z.object({ id: z.coerce.number().int().positive() });

export async function assertUniqueName(db: Db, table: LookupTable, companyId: number, name: string, exceptId?: number) {
  const [dup] = await db
    .select({ id: table.id })
    .from(table as PgTable)
    .where(
      and(
        eq(table.companyId, companyId),
        sql`lower(${table.name}) = lower(${name})`,
        exceptId ? ne(table.id, exceptId) : undefined,
      ),
    );
  if (dup) throw invalid('name', 'has already been taken');
}

export function adminLookupRoutes<Row>(scope: FastifyInstance, l: AdminLookup<Row>) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const db = scope.deps.database.db;
  const t = l.table;
  const base = `/v1/admin/${l.path}`;
  const tags = ['admin'];
  const config = { access: 'lookups.manage' as const };
  const tenant = { param: 'id', resource: l.resource };

  async function find(companyId: number, id: number): Promise<Row> {
    const [row] = await db
      .select()
      .from(t as PgTable)
      .where(and(eq(t.id, id), eq(t.companyId, companyId)));
    if (!row) throw notFound(l.resource);
    return row as Row;
  }

  app.get(
    base,
    {
      config,
      schema: {
        tags,
        summary: `All ${l.path} (active and not)`,
        response: { 200: z.object({ data: z.array(l.reply) }) },
      },
    },
    async (req) => {
      const rows = await db
        .select()
        .from(t as PgTable)
        .where(eq(t.companyId, authOf(req).company.id))
        .orderBy(...(l.order ?? [asc(t.name)]));
      return { data: rows.map((r) => l.present(r as Row)) };
    },
  );

  app.post(
    base,
    { config, schema: { tags, summary: `Create one of ${l.path}`, body: l.body, response: { 201: l.reply } } },
    async (req, reply) => {
      const companyId = authOf(req).company.id;
      const body = req.body as Record<string, unknown>;
      await assertUniqueName(db, t, companyId, String(body.name));
      await l.check?.(db, companyId, body);
      const [row] = await db
        .insert(t)
        .values({ ...l.columns(body), companyId } as never)
        .returning();
      return reply.code(201).send(l.present(row as Row));
    },
  );

  app.get(
    `${base}/:id`,
    {
      config: { ...config, tenant },
      schema: { tags, summary: `One of ${l.path}`, params: IdParams, response: { 200: l.reply } },
    },
    async (req) => l.present(await find(authOf(req).company.id, req.params.id)),
  );

  app.patch(
    `${base}/:id`,
    {
      config: { ...config, tenant },
      schema: {
        tags,
        summary: `Update one of ${l.path}`,
        params: IdParams,
        body: l.body.partial(),
        response: { 200: l.reply },
      },
    },
    async (req) => {
      const companyId = authOf(req).company.id;
      await find(companyId, req.params.id);
      const body = req.body as Record<string, unknown>;
      if (body.name !== undefined) await assertUniqueName(db, t, companyId, String(body.name), req.params.id);
      await l.check?.(db, companyId, body);
      const cols = l.columns(body);
      if (!Object.keys(cols).length) return l.present(await find(companyId, req.params.id));
      const [row] = await db
        .update(t)
        .set(cols as never)
        .where(and(eq(t.id, req.params.id), eq(t.companyId, companyId)))
        .returning();
      return l.present(row as Row);
    },
  );

  app.delete(
    `${base}/:id`,
    {
      config: { ...config, tenant },
      schema: { tags, summary: `Delete one of ${l.path} (refused while in use)`, params: IdParams },
    },
    async (req, reply) => {
      const companyId = authOf(req).company.id;
      await find(companyId, req.params.id);
      const used = await l.inUse(db, req.params.id);
      if (used) throw new HttpError(422, { base: [used] });
      await db.delete(t).where(and(eq(t.id, req.params.id), eq(t.companyId, companyId)));
      return reply.code(204).send();
    },
  );
}

/** Drops keys whose value is undefined (not given in a PATCH). */
export const given = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/** "is used by N contacts" when a count is positive. */
export async function usage(db: Db, what: string, countSql: ReturnType<typeof sql>): Promise<string | null> {
  const res = (await db.execute(countSql)) as unknown as { rows: Array<{ n: number | string }> };
  const n = Number(res.rows[0]?.n ?? 0);
  return n > 0 ? `is used by ${n} ${what}; set it inactive instead, or move them first` : null;
}

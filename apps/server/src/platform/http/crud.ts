/**
 * The five-route CRUD set of a company-owned resource, generated once: list, create, show, update (PATCH with a
 * partial body, or PUT with a whole one), delete. The set registers its tenant resolver, so another company's id is
 * 404 before the handler runs; every query still names the company. Statuses, sources, carriers, office locations
 * and the admin back office use it; an area supplies its table, schemas, presenter and its own rules (unique name,
 * checks of referenced ids, "still in use" refusals, soft delete).
 */
import type { FeatureGate, Permission } from '@harbor/shared';
import { NoContent, PageMeta, Paging } from '@harbor/shared';
import { and, asc, count, eq, ne, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../db/client.js';
import { type CompanyTable, companyRowResolver, type TenantRegistry } from '../tenancy.js';
import { HttpError, invalid, notFound } from './errors.js';
import { pageMeta, pageOffset } from './paging.js';
import { authOf } from './pipeline.js';

export const IdParams = z.object({ id: z.coerce.number().int().positive() });

type Body = Record<string, unknown>;

export interface CrudSet<Row, Out = unknown> {
  /** The collection's URL, e.g. `/v1/admin/statuses`; one record is `${base}/:id`. */
  base: string;
  /** The tenant resource (and the field of a 404), e.g. `status`. */
  resource: string;
  access: Permission;
  /** The feature the set belongs to (403 naming it when closed). */
  feature?: FeatureGate;
  tags: readonly string[];
  table: CompanyTable;
  body: z.ZodObject;
  reply: z.ZodTypeAny;
  /** The list reply and PATCH body from packages/shared (`crudSchemas`), so the contract names the same objects. */
  schemas?: { list: z.ZodTypeAny; patch: z.ZodTypeAny };
  present(row: Row): Out;
  /** Table columns from a (possibly partial) body; undefined values are left out (see `given`). */
  columns(body: Body): Record<string, unknown>;
  /** 'patch' (default): a partial body; 'put': the whole body replaces the record. */
  update?: 'patch' | 'put';
  /** What makes a row exist (e.g. not soft-deleted): list, show, update and the tenant check see only these. */
  live?: SQL;
  order?: Array<PgColumn | SQL>;
  /** The list answers pages (`page`, `limit`, meta) instead of every row. */
  paged?: boolean;
  /**
   * A list query of the set's own (it replaces `page`/`limit`; implies `paged`): search, order, or every row in one
   * page. The schema must still give `page` and `limit`.
   */
  listQuery?: {
    schema: z.ZodObject;
    where?(q: Record<string, unknown>): SQL | undefined;
    order?(q: Record<string, unknown>): Array<PgColumn | SQL>;
    /** Every row, in one page (e.g. `all=true`). */
    all?(q: Record<string, unknown>): boolean;
  };
  /** The table's `name` is unique in the company, compared case-insensitively: a duplicate is a 422 on `name`. */
  uniqueName?: boolean;
  /** Checks of the body against the company (referenced ids, one-of rules); `id` when updating. */
  check?(db: Db, companyId: number, body: Body, id?: number): Promise<void>;
  /** A message when the row is still in use (delete is refused with it), or null. */
  inUse?(db: Db, id: number): Promise<string | null>;
  /** Deletes the row in a transaction (default: DELETE); a soft delete and detaching dependents go here. */
  remove?(tx: Db, companyId: number, id: number): Promise<void>;
  summaries?: Partial<Record<'list' | 'create' | 'show' | 'update' | 'remove', string>>;
}

export type NamedTable = CompanyTable & { name: PgColumn };

export async function assertUniqueName(db: Db, table: NamedTable, companyId: number, value: string, exceptId?: number) {
  const [dup] = await db
    .select({ id: table.id })
    .from(table as PgTable)
    .where(
      and(
        eq(table.companyId, companyId),
        sql`lower(${table.name}) = lower(${value})`,
        exceptId ? ne(table.id, exceptId) : undefined,
      ),
    );
  if (dup) throw invalid('name', 'has already been taken');
}

/** Registers the set's routes and tenant resolver; answers its list function for routes that show it elsewhere. */
export function crudRoutes<Row, Out = unknown>(scope: FastifyInstance, tenants: TenantRegistry, s: CrudSet<Row, Out>) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const db = scope.deps.database.db;
  const t = s.table;
  const what = s.base.split('/').pop()!;
  const config = { access: s.access, ...(s.feature ? { feature: s.feature } : {}) };
  const byId = { ...config, tenant: { param: 'id', resource: s.resource } };
  const tags = [...s.tags];
  const mine = (companyId: number) => and(eq(t.companyId, companyId), s.live);
  tenants.register(s.resource, companyRowResolver(t, { live: s.live }));

  async function find(companyId: number, id: number): Promise<Row> {
    const [row] = await db
      .select()
      .from(t as PgTable)
      .where(and(eq(t.id, id), mine(companyId)));
    if (!row) throw notFound(s.resource);
    return row as Row;
  }

  async function checkBody(companyId: number, body: Body, id?: number) {
    if (s.uniqueName && body.name !== undefined) {
      await assertUniqueName(db, t as NamedTable, companyId, String(body.name), id);
    }
    await s.check?.(db, companyId, body, id);
  }

  const order = s.order ?? [asc(s.uniqueName ? (t as NamedTable).name : t.id)];
  const rows = (companyId: number) =>
    db
      .select()
      .from(t as PgTable)
      .where(mine(companyId))
      .orderBy(...order);
  async function all(companyId: number): Promise<{ data: Out[] }> {
    return { data: (await rows(companyId)).map((r) => s.present(r as Row)) };
  }
  async function page(
    companyId: number,
    n = 1,
    limit = 25,
    q: Record<string, unknown> = {},
  ): Promise<{ data: Out[]; meta: PageMeta }> {
    const lq = s.listQuery;
    const where = and(mine(companyId), lq?.where?.(q));
    const [{ total }] = await db
      .select({ total: count() })
      .from(t as PgTable)
      .where(where);
    const sorted = db
      .select()
      .from(t as PgTable)
      .where(where)
      .orderBy(...(lq?.order?.(q) ?? order));
    if (lq?.all?.(q)) {
      const found = await sorted;
      return { data: found.map((r) => s.present(r as Row)), meta: pageMeta(1, Math.max(1, total), total) };
    }
    const found = await sorted.limit(limit).offset(pageOffset(n, limit));
    return { data: found.map((r) => s.present(r as Row)), meta: pageMeta(n, limit, total) };
  }
  const paged = s.paged || Boolean(s.listQuery);
  const listReply =
    s.schemas?.list ??
    (paged ? z.object({ data: z.array(s.reply), meta: PageMeta }) : z.object({ data: z.array(s.reply) }));

  app.get(
    s.base,
    {
      config,
      schema: {
        tags,
        summary: s.summaries?.list ?? `All ${what}`,
        ...(paged ? { querystring: s.listQuery?.schema ?? Paging } : {}),
        response: { 200: listReply },
      },
    },
    async (req) => {
      const q = req.query as { page?: number; limit?: number };
      const companyId = authOf(req).company.id;
      return paged ? page(companyId, q.page, q.limit, q as Record<string, unknown>) : all(companyId);
    },
  );

  app.post(
    s.base,
    {
      config,
      schema: {
        tags,
        summary: s.summaries?.create ?? `Create one of ${what}`,
        body: s.body,
        response: { 201: s.reply },
      },
    },
    async (req, reply) => {
      const companyId = authOf(req).company.id;
      const body = req.body as Body;
      await checkBody(companyId, body);
      const [row] = await db
        .insert(t)
        .values({ ...s.columns(body), companyId } as never)
        .returning();
      return reply.code(201).send(s.present(row as Row));
    },
  );

  app.get(
    `${s.base}/:id`,
    {
      config: byId,
      schema: { tags, summary: s.summaries?.show ?? `One of ${what}`, params: IdParams, response: { 200: s.reply } },
    },
    async (req) => s.present(await find(authOf(req).company.id, req.params.id)),
  );

  const put = s.update === 'put';
  app.route({
    method: put ? 'PUT' : 'PATCH',
    url: `${s.base}/:id`,
    config: byId,
    schema: {
      tags,
      summary: s.summaries?.update ?? `${put ? 'Replace' : 'Update'} one of ${what}`,
      params: IdParams,
      body: put ? s.body : (s.schemas?.patch ?? s.body.partial()),
      response: { 200: s.reply },
    },
    handler: async (req) => {
      const companyId = authOf(req).company.id;
      const id = (req.params as { id: number }).id;
      await find(companyId, id);
      const body = req.body as Body;
      await checkBody(companyId, body, id);
      const cols = s.columns(body);
      if (!Object.keys(cols).length) return s.present(await find(companyId, id));
      const [row] = await db
        .update(t)
        .set(cols as never)
        .where(and(eq(t.id, id), mine(companyId)))
        .returning();
      return s.present(row as Row);
    },
  });

  app.delete(
    `${s.base}/:id`,
    {
      config: byId,
      schema: {
        tags,
        summary: s.summaries?.remove ?? `Delete one of ${what}${s.inUse ? ' (refused while in use)' : ''}`,
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      const companyId = authOf(req).company.id;
      const id = req.params.id;
      await find(companyId, id);
      const used = await s.inUse?.(db, id);
      if (used) throw new HttpError(422, { base: [used] });
      await db.transaction(async (tx) => {
        if (s.remove) await s.remove(tx, companyId, id);
        else await tx.delete(t).where(and(eq(t.id, id), eq(t.companyId, companyId)));
      });
      return reply.code(204).send(null);
    },
  );

  return { all, page };
}

/** Drops keys whose value is undefined (not given in a PATCH). */
export const given = (o: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));

/** "is used by N contacts" when a count is positive. */
export async function usage(db: Db, what: string, countSql: SQL): Promise<string | null> {
  const res = await db.execute<{ n: number | string }>(countSql);
  const n = Number(res.rows[0]?.n ?? 0);
  return n > 0 ? `is used by ${n} ${what}; set it inactive instead, or move them first` : null;
}

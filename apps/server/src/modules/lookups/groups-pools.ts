/**
 * /v1/groups and /v1/pools. Deleting either never deletes a contact: its contacts are detached (group_id/pool_id
 * set to null in one statement) and each gets a timeline event (docs/decisions/deleting-groups-and-pools.md).
 * Pools decide visibility (holders see their contacts), so only admins manage them; non-admins see the pools they hold.
 */
import { Group, GroupBody, GroupList, NoContent, Pool, PoolBody, PoolList, PoolUpdateBody } from '@harbor/shared';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Db } from '../../platform/db/client.js';
import { users } from '../../platform/db/schema.js';
import { assertUniqueName, IdParams } from '../../platform/http/crud.js';
import { invalid, notFound } from '../../platform/http/errors.js';
import { authOf } from '../../platform/http/pipeline.js';
import { reachOf } from '../../platform/reach.js';
import { groups, poolHolders, pools } from './schema.js';

// The outer table is named explicitly: in a single-table select Drizzle renders a column as bare "id", which inside
// this subquery would mean contacts.id.
const countOf = (column: 'group_id' | 'pool_id', table: 'groups' | 'pools') =>
  sql<number>`(select count(*)::int from contacts where contacts.${sql.raw(column)} = ${sql.raw(`"${table}"."id"`)} and contacts.deleted_at is null)`;

async function presentPools(db: Db, rows: Array<typeof pools.$inferSelect & { n: number }>) {
  const ids = rows.map((p) => p.id);
  const holders = ids.length
    ? await db
        .select({ poolId: poolHolders.poolId, id: users.id, first: users.firstName, last: users.lastName })
        .from(poolHolders)
        .innerJoin(users, eq(users.id, poolHolders.userId))
        .where(inArray(poolHolders.poolId, ids))
        .orderBy(asc(users.lastName))
    : [];
  return rows.map((p) => ({
    id: p.id,
    name: p.name,
    contacts_count: Number(p.n),
    holders: holders.filter((h) => h.poolId === p.id).map((h) => ({ id: h.id, name: `${h.first} ${h.last}`.trim() })),
  }));
}

/** Detaches every contact of a deleted group/pool in one statement, with one timeline event each. */
async function detachContacts(t: Db, auth: AuthContext, column: 'group_id' | 'pool_id', id: number, name: string) {
  const col = sql.raw(column);
  await t.execute(sql`insert into contact_events (company_id, contact_id, kind, data, actor_id)
    select company_id, id, ${`${column === 'group_id' ? 'group' : 'pool'}_removed`}, ${JSON.stringify({ id, name })}::jsonb, ${auth.user.id}
    from contacts where company_id = ${auth.company.id} and ${col} = ${id}`);
  await t.execute(
    sql`update contacts set ${col} = null, updated_at = now() where company_id = ${auth.company.id} and ${col} = ${id}`,
  );
}

async function assertHolders(db: Db, companyId: number, ids: number[]) {
  const unique = [...new Set(ids)];
  if (!unique.length) return unique;
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.companyId, companyId), inArray(users.id, unique), isNull(users.deletedAt)));
  if (rows.length !== unique.length) throw invalid('holder_ids', 'contains a user that does not exist');
  return unique;
}

export function groupAndPoolRoutes(scope: FastifyInstance) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const db = scope.deps.database.db;
  const gTags = ['groups'];
  const pTags = ['pools'];
  const groupTenant = { param: 'id', resource: 'group' };
  const poolTenant = { param: 'id', resource: 'pool' };

  const findGroup = async (companyId: number, id: number) => {
    const [g] = await db
      .select({ id: groups.id, name: groups.name, contacts_count: countOf('group_id', 'groups') })
      .from(groups)
      .where(and(eq(groups.id, id), eq(groups.companyId, companyId)));
    if (!g) throw notFound('group');
    return { ...g, contacts_count: Number(g.contacts_count) };
  };

  app.get(
    '/v1/groups',
    {
      config: { access: 'contacts.use' },
      schema: { tags: gTags, summary: 'Contact groups', response: { 200: GroupList } },
    },
    async (req) => {
      const rows = await db
        .select({ id: groups.id, name: groups.name, contacts_count: countOf('group_id', 'groups') })
        .from(groups)
        .where(eq(groups.companyId, authOf(req).company.id))
        .orderBy(asc(groups.name));
      return { data: rows.map((g) => ({ ...g, contacts_count: Number(g.contacts_count) })) };
    },
  );

  app.get(
    '/v1/groups/:id',
    {
      config: { access: 'contacts.use', tenant: groupTenant },
      schema: { tags: gTags, summary: 'One group', params: IdParams, response: { 200: Group } },
    },
    async (req) => findGroup(authOf(req).company.id, req.params.id),
  );

  app.post(
    '/v1/groups',
    {
      config: { access: 'groups.manage' },
      schema: { tags: gTags, summary: 'Create a group', body: GroupBody, response: { 201: Group } },
    },
    async (req, reply) => {
      const companyId = authOf(req).company.id;
      await assertUniqueName(db, groups, companyId, req.body.name);
      const [g] = await db.insert(groups).values({ companyId, name: req.body.name }).returning();
      return reply.code(201).send({ id: g.id, name: g.name, contacts_count: 0 });
    },
  );

  app.patch(
    '/v1/groups/:id',
    {
      config: { access: 'groups.manage', tenant: groupTenant },
      schema: { tags: gTags, summary: 'Rename a group', params: IdParams, body: GroupBody, response: { 200: Group } },
    },
    async (req) => {
      const companyId = authOf(req).company.id;
      await findGroup(companyId, req.params.id);
      await assertUniqueName(db, groups, companyId, req.body.name, req.params.id);
      await db
        .update(groups)
        .set({ name: req.body.name })
        .where(and(eq(groups.id, req.params.id), eq(groups.companyId, companyId)));
      return findGroup(companyId, req.params.id);
    },
  );

  app.delete(
    '/v1/groups/:id',
    {
      config: { access: 'groups.manage', tenant: groupTenant },
      schema: {
        tags: gTags,
        summary: 'Delete a group (its contacts stay, without a group)',
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const g = await findGroup(auth.company.id, req.params.id);
      await db.transaction(async (t) => {
        await detachContacts(t, auth, 'group_id', g.id, g.name);
        await t.delete(groups).where(eq(groups.id, g.id));
      });
      return reply.code(204).send(null);
    },
  );

  /** Pools the caller may see: all for company-wide reach, else those they hold. */
  async function listPools(auth: AuthContext, id?: number) {
    const held = sql`${pools.id} in (select pool_id from pool_holders where user_id = ${auth.user.id})`;
    const rows = await db
      .select({
        id: pools.id,
        companyId: pools.companyId,
        name: pools.name,
        createdAt: pools.createdAt,
        n: countOf('pool_id', 'pools'),
      })
      .from(pools)
      .where(
        and(
          eq(pools.companyId, auth.company.id),
          id ? eq(pools.id, id) : undefined,
          reachOf(auth) === 'company' ? undefined : held,
        ),
      )
      .orderBy(asc(pools.name));
    return presentPools(db, rows);
  }
  const findPool = async (auth: AuthContext, id: number) => {
    const [p] = await listPools(auth, id);
    if (!p) throw notFound('pool');
    return p;
  };
  async function setHolders(t: Db, poolId: number, ids: number[]) {
    await t.delete(poolHolders).where(eq(poolHolders.poolId, poolId));
    if (ids.length) await t.insert(poolHolders).values(ids.map((userId) => ({ poolId, userId })));
  }

  app.get(
    '/v1/pools',
    {
      config: { access: 'contacts.use' },
      schema: {
        tags: pTags,
        summary: 'Pools (admins: all; others: the pools they hold)',
        response: { 200: PoolList },
      },
    },
    async (req) => ({
      data: await listPools(authOf(req)),
    }),
  );

  app.get(
    '/v1/pools/:id',
    {
      config: { access: 'contacts.use', tenant: poolTenant },
      schema: { tags: pTags, summary: 'One pool with its holders', params: IdParams, response: { 200: Pool } },
    },
    async (req) => findPool(authOf(req), req.params.id),
  );

  app.post(
    '/v1/pools',
    {
      config: { access: 'pools.manage' },
      schema: {
        tags: pTags,
        summary: 'Create a pool, optionally with holders',
        body: PoolBody,
        response: { 201: Pool },
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      await assertUniqueName(db, pools, auth.company.id, req.body.name);
      const holders = await assertHolders(db, auth.company.id, req.body.holder_ids ?? []);
      const id = await db.transaction(async (t) => {
        const [p] = await t.insert(pools).values({ companyId: auth.company.id, name: req.body.name }).returning();
        await setHolders(t, p.id, holders);
        return p.id;
      });
      return reply.code(201).send(await findPool(auth, id));
    },
  );

  app.patch(
    '/v1/pools/:id',
    {
      config: { access: 'pools.manage', tenant: poolTenant },
      schema: {
        tags: pTags,
        summary: 'Rename a pool and/or replace its holders',
        params: IdParams,
        body: PoolUpdateBody,
        response: { 200: Pool },
      },
    },
    async (req) => {
      const auth = authOf(req);
      await findPool(auth, req.params.id);
      if (req.body.name) await assertUniqueName(db, pools, auth.company.id, req.body.name, req.params.id);
      const holders = req.body.holder_ids ? await assertHolders(db, auth.company.id, req.body.holder_ids) : null;
      await db.transaction(async (t) => {
        if (req.body.name) await t.update(pools).set({ name: req.body.name }).where(eq(pools.id, req.params.id));
        if (holders) await setHolders(t, req.params.id, holders);
      });
      return findPool(auth, req.params.id);
    },
  );

  app.delete(
    '/v1/pools/:id',
    {
      config: { access: 'pools.manage', tenant: poolTenant },
      schema: {
        tags: pTags,
        summary: 'Delete a pool (its contacts stay with their owners)',
        params: IdParams,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const p = await findPool(auth, req.params.id);
      await db.transaction(async (t) => {
        await detachContacts(t, auth, 'pool_id', p.id, p.name);
        await t.delete(pools).where(eq(pools.id, p.id));
      });
      return reply.code(204).send(null);
    },
  );
}

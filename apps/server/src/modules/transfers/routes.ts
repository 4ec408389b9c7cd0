/**
 * Transfers: starting one (transfer_group), resuming a failed one (update_transfer_group), and the transfer
 * attempts with their logs, status and revert. Admins see every attempt of the company; BU admins and managers
 * the attempts they or their downline started.
 */
import {
  IdParams,
  ownValue,
  RevertTransferBody,
  TRANSFER_DETAIL_PAGE_SIZE,
  TransferAttempt,
  TransferAttemptList,
  TransferAttemptsQuery,
  TransferGroupBody,
  TransferLogList,
  TransferLogsQuery,
  TransferStatus,
  UpdateTransferGroupBody,
} from '@harbor/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AuthContext } from '../../platform/auth/context.js';
import { invalid, notFound } from '../../platform/http/errors.js';
import { pageMeta, pageOffset } from '../../platform/http/paging.js';
import { authOf } from '../../platform/http/pipeline.js';
import { reachesUserSql } from '../../platform/reach.js';
import { companyRowResolver } from '../../platform/tenancy.js';
import { likeEscape, rowsOf } from '../contacts/list-scope.js';
import { resolveSelection } from '../contacts/selection.js';
import type { Module } from '../types.js';
import { registerTransferLive } from './live.js';
import { transferAttempts } from './schema.js';
import { registerTransferJobs, resumeTransfer, startRevert, startTransfer } from './transfer.js';

/** Attempts the caller may see (within the company the tenant guard already checked). */
function attemptsVisible(auth: AuthContext): SQL {
  return sql`a.company_id = ${auth.company.id} and ${reachesUserSql(auth, sql`a.created_by`)}`;
}

/** Read with own-key checks only: `constructor` or `toString` must never name a column (issue 15). */
const ORDER_FIELDS: Readonly<Record<string, string>> = Object.freeze({
  id: 'a.id',
  created_at: 'a.created_at',
  updated_at: 'a.updated_at',
  status: 'a.status',
  total: 'a.total',
});

const attemptSelect = sql`select a.*, nullif(trim(cb.first_name || ' ' || cb.last_name), '') as created_by_name,
    nullif(trim(tu.first_name || ' ' || tu.last_name), '') as to_user_name, p.name as to_pool_name
  from transfer_attempts a left join users cb on cb.id = a.created_by left join users tu on tu.id = a.to_user_id
  left join pools p on p.id = a.to_pool_id`;

type Raw = Record<string, unknown>;
const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string).toISOString());
const ref = (id: unknown, name: unknown) =>
  id === null || id === undefined ? null : { id: Number(id), name: String(name ?? '') };

function present(r: Raw): TransferAttempt {
  return {
    // The company's own number: what URLs and the routes' {id} use (docs/decisions/per-company-numbers.md).
    id: Number(r.number),
    status: String(r.status),
    reverted: Boolean(r.reverted),
    reverting: Boolean(r.reverting),
    total: Number(r.total),
    processed: Number(r.processed),
    error: (r.error as string) ?? null,
    created_by: ref(r.created_by, r.created_by_name),
    to_user: ref(r.to_user_id, r.to_user_name),
    to_pool: ref(r.to_pool_id, r.to_pool_name),
    created_at: iso(r.created_at)!,
    updated_at: iso(r.updated_at)!,
    completed_at: iso(r.completed_at),
  };
}

const tags = ['transfers'];

export const transfersModule: Module = {
  name: 'transfers',
  register(scope: FastifyInstance, { tenants }) {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const db = scope.deps.database.db;
    tenants.register('transfer_attempt', companyRowResolver(transferAttempts, { key: transferAttempts.number }));
    registerTransferJobs(scope);
    registerTransferLive(scope);
    const config = { access: 'contacts.transfer' as const };
    const byId = { ...config, tenant: { param: 'id', resource: 'transfer_attempt' } };

    /** The attempt the path's number names (per company), when the caller may see it; `a.id` stays internal. */
    async function load(auth: AuthContext, number: number, by: 'number' | 'id' = 'number'): Promise<Raw> {
      const key = by === 'number' ? sql`a.number` : sql`a.id`;
      const [row] = await rowsOf<Raw>(db, sql`${attemptSelect} where ${key} = ${number} and ${attemptsVisible(auth)}`);
      if (!row) throw notFound('transfer_attempt');
      return row;
    }

    app.patch(
      '/v1/contacts/transfer_group',
      {
        config,
        schema: {
          tags,
          summary: 'Transfer a selection to an agent or a pool (a job; answers the transfer attempt)',
          body: TransferGroupBody,
          response: { 202: TransferAttempt },
        },
      },
      async (req, reply) => {
        const auth = authOf(req);
        const id = await db.transaction(async (tx) => {
          const sel = await resolveSelection(tx, auth, req.body);
          return startTransfer(scope, auth, tx, sel, req.body, req.body.all ? 'all' : 'ids');
        });
        scope.deps.jobs.poke();
        return reply.code(202).send(present(await load(auth, id, 'id')));
      },
    );

    app.patch(
      '/v1/contacts/update_transfer_group',
      {
        config,
        schema: {
          tags,
          summary: 'Resume a failed transfer from where it stopped',
          body: UpdateTransferGroupBody,
          response: { 202: TransferAttempt },
        },
      },
      async (req, reply) => {
        const auth = authOf(req);
        const number = req.body.transfer_attempt_id;
        const a = await load(auth, number);
        await db.transaction((t) => resumeTransfer(scope, t, auth, Number(a.id)));
        scope.deps.jobs.poke();
        return reply.code(202).send(present(await load(auth, number)));
      },
    );

    app.get(
      '/v1/contacts/transfer_attempts',
      {
        config,
        schema: {
          tags,
          summary: 'Transfer attempts (15 a page)',
          querystring: TransferAttemptsQuery,
          response: { 200: TransferAttemptList },
        },
      },
      async (req) => {
        const auth = authOf(req);
        const { limit, page, order_field, order, q } = req.query;
        const col = ownValue(ORDER_FIELDS, order_field);
        if (!col) throw invalid('order_field', `unknown order field '${order_field}'`);
        let where = attemptsVisible(auth);
        if (q?.trim()) {
          const like = `%${likeEscape(q.trim())}%`;
          where = sql`${where} and (a.status ilike ${like} or tu.first_name || ' ' || tu.last_name ilike ${like}
            or p.name ilike ${like} or a.number::text = ${q.trim()})`;
        }
        const [{ n }] = await rowsOf<{ n: number }>(
          db,
          sql`select count(*)::int as n from transfer_attempts a left join users tu on tu.id = a.to_user_id
              left join pools p on p.id = a.to_pool_id where ${where}`,
        );
        const rows = await rowsOf<Raw>(
          db,
          sql`${attemptSelect} where ${where} order by ${sql.raw(col)} ${sql.raw(order)}, a.id ${sql.raw(order)}
              limit ${limit} offset ${pageOffset(page, limit)}`,
        );
        return { data: rows.map(present), meta: pageMeta(page, limit, n) };
      },
    );

    app.get(
      '/v1/contacts/transfer_attempts/:id',
      {
        config: byId,
        schema: { tags, summary: 'One transfer attempt', params: IdParams, response: { 200: TransferAttempt } },
      },
      async (req) => present(await load(authOf(req), req.params.id)),
    );

    app.get(
      '/v1/contacts/transfer_attempts/:id/status',
      {
        config: byId,
        schema: {
          tags,
          summary: 'Progress of a transfer attempt',
          params: IdParams,
          response: {
            200: TransferStatus,
          },
        },
      },
      async (req) => {
        const a = present(await load(authOf(req), req.params.id));
        return {
          id: a.id,
          status: a.status,
          reverted: a.reverted,
          reverting: a.reverting,
          processed: a.processed,
          total: a.total,
          error: a.error,
        };
      },
    );

    app.get(
      '/v1/contacts/transfer_attempts/:id/logs',
      {
        config: byId,
        schema: {
          tags,
          summary: 'The contacts of a transfer attempt (50 a page)',
          params: IdParams,
          querystring: TransferLogsQuery,
          response: { 200: TransferLogList },
        },
      },
      async (req) => {
        const a = await load(authOf(req), req.params.id);
        const limit = TRANSFER_DETAIL_PAGE_SIZE;
        const page = req.query.page;
        const rows = await rowsOf<Raw>(
          db,
          sql`select l.id, l.contact_id, c.number, trim(c.first_name || ' ' || c.last_name) as contact_name,
                l.from_user_id, nullif(trim(fu.first_name || ' ' || fu.last_name), '') as from_name,
                l.to_user_id, nullif(trim(tu.first_name || ' ' || tu.last_name), '') as to_name,
                l.from_pool_id, l.reverted_at, l.created_at
              from transfer_logs l left join contacts c on c.id = l.contact_id
              left join users fu on fu.id = l.from_user_id left join users tu on tu.id = l.to_user_id
              where l.attempt_id = ${Number(a.id)} order by l.id limit ${limit} offset ${pageOffset(page, limit)}`,
        );
        return {
          data: rows.map((r) => ({
            id: Number(r.id),
            contact:
              r.number === null
                ? null
                : { id: Number(r.contact_id), number: Number(r.number), name: String(r.contact_name) },
            from_user: ref(r.from_user_id, r.from_name),
            to_user: ref(r.to_user_id, r.to_name),
            from_pool_id: r.from_pool_id === null ? null : Number(r.from_pool_id),
            reverted: r.reverted_at !== null,
            created_at: iso(r.created_at)!,
          })),
          meta: pageMeta(page, limit, Number(a.total)),
        };
      },
    );

    const revert = async (auth: AuthContext, number: number) => {
      const a = await load(auth, number);
      await db.transaction((t) => startRevert(scope, t, auth, Number(a.id)));
      scope.deps.jobs.poke();
      return present(await load(auth, number));
    };
    const revertSchema = {
      tags,
      summary: 'Revert a transfer: every contact back to its previous owner (a job; marks the attempt reverted)',
      params: IdParams,
      body: RevertTransferBody,
      response: { 202: TransferAttempt },
    };
    app.patch('/v1/contacts/transfer_attempts/:id', { config: byId, schema: revertSchema }, async (req, reply) =>
      reply.code(202).send(await revert(authOf(req), req.params.id)),
    );
    app.post('/v1/contacts/transfer_attempts/:id', { config: byId, schema: revertSchema }, async (req, reply) =>
      reply.code(202).send(await revert(authOf(req), req.params.id)),
    );
  },
};

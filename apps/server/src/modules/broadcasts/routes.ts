/**
 * Broadcasts, whatever the channel (DECIDED routes, docs/decisions/broadcasts.md): the preview before sending, the
 * sender's list and one broadcast's progress, its recipients (who got it, who was removed and why), and cancel.
 * The channels' own send routes (send_broadcast_email, send_broadcast_sms) create them through create.ts.
 */
import {
  BROADCASTS_CHANNEL,
  Broadcast,
  BroadcastList,
  BroadcastListQuery,
  BroadcastPreview,
  BroadcastPreviewBody,
  BroadcastRecipientList,
  BroadcastRecipientsQuery,
  type RemovalReason,
  removalReasonLabel,
} from '@harbor/shared';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { conflict } from '../../platform/http/errors.js';
import { pageMeta, pageOffset } from '../../platform/http/paging.js';
import { authOf } from '../../platform/http/pipeline.js';
import { publishLive } from '../../platform/live/publish.js';
import { companyRowResolver } from '../../platform/tenancy.js';
import { rowsOf } from '../contacts/list-scope.js';
import type { Module } from '../types.js';
import { previewBroadcast } from './create.js';
import { BROADCAST_JOB, broadcastJob } from './job.js';
import {
  broadcastStream,
  listBroadcasts,
  loadBroadcast,
  mustLoadBroadcast,
  presentBroadcast,
  visibleBroadcastSql,
} from './presenter.js';
import { broadcasts } from './schema.js';

const tags = ['broadcasts'];
const Id = z.object({ id: z.coerce.number().int().positive() });
const config = { access: 'contacts.use' } as const;
const byId = { ...config, tenant: { param: 'id', resource: 'broadcast' } } as const;
/** Broadcasts take long id lists: the body may be larger than the 1 MB default. */
const BODY_LIMIT = 4 * 1024 * 1024;

export const broadcastsModule: Module = {
  name: 'broadcasts',
  register(scope: FastifyInstance, { channels, tenants }) {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const { database, jobs, bus } = scope.deps;
    const db = database.db;
    tenants.register('broadcast', companyRowResolver(broadcasts));
    // A broadcast runs for minutes: give each kind's jobs room, the provider throttle paces the sending.
    jobs.register(BROADCAST_JOB, broadcastJob(scope.deps), { concurrency: 4 });
    channels.register({
      name: BROADCASTS_CHANNEL,
      streamFor: (auth) => broadcastStream(auth.user.id),
      // A small broadcast ends before the browser subscribes: replay the subscriber's running and recent ones.
      catchUp: async (auth) => {
        const rows = await listBroadcasts(
          db,
          sql`b.company_id = ${auth.company.id} and b.user_id = ${auth.user.id}
            and (b.status in ('scheduled', 'running') or b.finished_at > now() - interval '10 minutes')`,
          10,
          0,
        );
        return rows.reverse().map((b) => ({ type: 'broadcast', broadcast: presentBroadcast(b) }));
      },
    });

    app.post(
      '/v1/broadcasts/preview',
      {
        config,
        bodyLimit: BODY_LIMIT,
        schema: {
          tags,
          summary: 'Who would receive a broadcast, and who is removed and why (opted out, bounced, no address, ...)',
          body: BroadcastPreviewBody,
          response: { 200: BroadcastPreview },
        },
      },
      async (req) => previewBroadcast(db, authOf(req), req.body),
    );

    app.get(
      '/v1/broadcasts',
      {
        config,
        schema: {
          tags,
          summary: 'Broadcasts the caller sent (and, for managers, their downline), newest first',
          querystring: BroadcastListQuery,
          response: { 200: BroadcastList },
        },
      },
      async (req) => {
        const auth = authOf(req);
        const { page, limit, channel } = req.query;
        const where = sql`${visibleBroadcastSql(auth)} ${channel ? sql`and b.channel = ${channel}` : sql``}`;
        const [{ n }] = await rowsOf<{ n: number }>(
          db,
          sql`select count(*)::int as n from broadcasts b where ${where}`,
        );
        const rows = await listBroadcasts(db, where, limit, pageOffset(page, limit));
        return { data: rows.map(presentBroadcast), meta: pageMeta(page, limit, n) };
      },
    );

    app.get(
      '/v1/broadcasts/:id',
      {
        config: byId,
        schema: { tags, summary: 'One broadcast and its progress', params: Id, response: { 200: Broadcast } },
      },
      async (req) => presentBroadcast(await mustLoadBroadcast(db, req.params.id, authOf(req))),
    );

    app.get(
      '/v1/broadcasts/:id/recipients',
      {
        config: byId,
        schema: {
          tags,
          summary: "A broadcast's recipients: sent, removed (with the reason), failed, waiting",
          params: Id,
          querystring: BroadcastRecipientsQuery,
          response: { 200: BroadcastRecipientList },
        },
      },
      async (req) => {
        const b = await mustLoadBroadcast(db, req.params.id, authOf(req));
        const { status, page, limit } = req.query;
        const where = sql`r.broadcast_id = ${b.id} ${status ? sql`and r.status = ${status}` : sql``}`;
        const [{ n }] = await rowsOf<{ n: number }>(
          db,
          sql`select count(*)::int as n from broadcast_recipients r where ${where}`,
        );
        const rows = await rowsOf<Record<string, unknown>>(
          db,
          sql`select r.*, c.number, nullif(trim(c.first_name || ' ' || c.last_name), '') as name
            from broadcast_recipients r join contacts c on c.id = r.contact_id
            where ${where} order by r.contact_id limit ${limit} offset ${pageOffset(page, limit)}`,
        );
        const channel = String(b.channel) as 'email' | 'sms';
        return {
          data: rows.map((r) => ({
            contact: { id: Number(r.contact_id), number: Number(r.number), name: String(r.name ?? `#${r.number}`) },
            status: r.status as 'sent',
            reason: (r.reason as RemovalReason) ?? null,
            label: r.reason ? removalReasonLabel(r.reason as RemovalReason, channel) : null,
            address: (r.address as string) ?? null,
            basis: (r.basis as string) ?? null,
            updated_at: new Date(r.updated_at as string).toISOString(),
          })),
          meta: pageMeta(page, limit, n),
        };
      },
    );

    app.post(
      '/v1/broadcasts/:id/cancel',
      {
        config: byId,
        schema: {
          tags,
          summary: 'Cancel a scheduled or running broadcast: nobody not yet sent to receives it',
          params: Id,
          response: { 200: Broadcast },
        },
      },
      async (req) => {
        const auth = authOf(req);
        const b = await mustLoadBroadcast(db, req.params.id, auth);
        const done = await db.transaction(async (tx) => {
          const [moved] = await rowsOf<{ id: number }>(
            tx,
            sql`update broadcasts set status = 'cancelled', cancelled_at = now(), cancelled_by = ${auth.user.id},
                finished_at = now()
              where id = ${b.id} and status in ('scheduled', 'running') returning id`,
          );
          if (!moved) return false;
          // Rows already handed to the provider (`sending`) finish as the provider answers; the rest never go.
          await tx.execute(
            sql`update broadcast_recipients set status = 'cancelled', updated_at = now()
              where broadcast_id = ${b.id} and status = 'pending'`,
          );
          return true;
        });
        if (!done) throw conflict('status', `this broadcast is ${String(b.status)} and can no longer be canceled`);
        const fresh = presentBroadcast((await loadBroadcast(db, b.id))!);
        await publishLive(bus, BROADCASTS_CHANNEL, broadcastStream(Number(b.user_id)), {
          type: 'broadcast',
          broadcast: fresh,
        });
        return fresh;
      },
    );
  },
};

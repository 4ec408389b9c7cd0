/**
 * Campaign triggers: the admin's CRUD (`/v1/admin/campaign_triggers`, JSON or multipart with `file`), the lists an
 * agent picks from (`/v1/contacts/email_campaign_triggers`, `/v1/contacts/sms_campaign_triggers`), the file, and
 * the daily run of automatic triggers (auto.ts).
 */
import crypto from 'node:crypto';
import multipart from '@fastify/multipart';
import {
  CampaignTrigger,
  CampaignTriggerForm,
  CampaignTriggerList,
  CampaignTriggerListQuery,
  CampaignTriggerPatchForm,
  NoContent,
  TRIGGER_FILE_MAX_BYTES,
  UsableTriggerList,
  UsableTriggersQuery,
} from '@harbor/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuthContext } from '../../platform/auth/context.js';
import { commitBlobs, discardBlobs, purgeBlobs, releaseBlobs, storeBlob } from '../../platform/files/blobs.js';
import { notFound } from '../../platform/http/errors.js';
import { pageMeta, pageOffset } from '../../platform/http/paging.js';
import { authOf } from '../../platform/http/pipeline.js';
import { reachOf } from '../../platform/reach.js';
import { companyRowResolver } from '../../platform/tenancy.js';
import { rowsOf } from '../contacts/list-scope.js';
import type { Module } from '../types.js';
import { registerTriggerRuns } from './auto.js';
import { assertTriggerRules, mergedOf, readCreate, readPatch, type TriggerFileInput } from './input.js';
import { loadTriggers, presentTrigger } from './presenter.js';
import { type CampaignTriggerRow, campaignTriggers } from './schema.js';

const tags = ['campaign_triggers'];
const Id = z.object({ id: z.coerce.number().int().positive() });
const admin = { access: 'admin.manage' } as const;
const adminById = { ...admin, tenant: { param: 'id', resource: 'campaign_trigger' } } as const;
const FORM = 'JSON, or multipart/form-data with the same fields as text and an optional `file` (pdf, png, jpg, gif)';

/** Triggers an agent may use: enabled, compliant, and global (corporation-limited ones: admins only, until corporations exist). */
export function usableSql(auth: AuthContext): SQL {
  const everyone = reachOf(auth) === 'company' ? sql`true` : sql`t.global`;
  return sql`t.company_id = ${auth.company.id} and t.deleted_at is null and t.enabled and t.compliant and ${everyone}`;
}

export const campaignTriggersModule: Module = {
  name: 'campaign-triggers',
  async register(scope: FastifyInstance, { tenants }) {
    await scope.register(multipart, { limits: { fileSize: TRIGGER_FILE_MAX_BYTES, files: 1, fields: 40, parts: 41 } });
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const { database } = scope.deps;
    const db = database.db;
    tenants.register('campaign_trigger', companyRowResolver(campaignTriggers));
    registerTriggerRuns(scope.deps);

    const one = async (companyId: number, id: number) => {
      const [row] = await loadTriggers(
        db,
        sql`t.id = ${id} and t.company_id = ${companyId} and t.deleted_at is null`,
        1,
      );
      if (!row) throw notFound('campaign_trigger');
      return presentTrigger(row);
    };

    /** Stores the file first (the quota is checked there), then the row; a failed write leaves no blob behind. */
    async function withFile<T>(
      companyId: number,
      file: TriggerFileInput | null,
      write: (key: string | null) => Promise<T>,
    ) {
      if (!file) return write(null);
      const key = `campaign_triggers/${companyId}/${crypto.randomUUID()}`;
      await storeBlob(scope.deps, { companyId, key, data: file.data, contentType: file.contentType });
      try {
        return await write(key);
      } catch (err) {
        await discardBlobs(scope.deps, [key]);
        throw err;
      }
    }

    app.get(
      '/v1/admin/campaign_triggers',
      {
        config: admin,
        schema: {
          tags,
          summary: 'Campaign triggers',
          querystring: CampaignTriggerListQuery,
          response: { 200: CampaignTriggerList },
        },
      },
      async (req) => {
        const auth = authOf(req);
        const { q, trigger_type, page, limit } = req.query;
        const where = sql`t.company_id = ${auth.company.id} and t.deleted_at is null
          ${trigger_type ? sql`and t.trigger_type = ${trigger_type}` : sql``}
          ${q ? sql`and (t.name ilike ${`%${q}%`} or ${q} = any(t.tags))` : sql``}`;
        const [{ n }] = await rowsOf<{ n: number }>(
          db,
          sql`select count(*)::int as n from campaign_triggers t where ${where}`,
        );
        const rows = await loadTriggers(db, where, limit, pageOffset(page, limit));
        return { data: rows.map(presentTrigger), meta: pageMeta(page, limit, n) };
      },
    );

    app.post(
      '/v1/admin/campaign_triggers',
      {
        config: admin,
        schema: {
          tags,
          summary: `Create a campaign trigger (${FORM})`,
          consumes: ['application/json', 'multipart/form-data'],
          multipart: CampaignTriggerForm,
          response: { 201: CampaignTrigger },
        },
      },
      async (req, reply) => {
        const auth = authOf(req);
        const { body, file } = await readCreate(req);
        await assertTriggerRules(db, auth.company.id, body);
        const id = await withFile(auth.company.id, file, (key) =>
          db.transaction(async (tx) => {
            const [row] = await tx
              .insert(campaignTriggers)
              .values({
                ...(columnsOf(body) as typeof campaignTriggers.$inferInsert),
                companyId: auth.company.id,
                ...(file && key
                  ? { fileKey: key, fileName: file.name, fileType: file.contentType, fileSize: file.data.length }
                  : {}),
                createdBy: auth.user.id,
              })
              .returning({ id: campaignTriggers.id });
            if (key) await commitBlobs(tx, [key]);
            return row.id;
          }),
        );
        return reply.code(201).send(await one(auth.company.id, id));
      },
    );

    app.get(
      '/v1/admin/campaign_triggers/:id',
      {
        config: adminById,
        schema: { tags, summary: 'One campaign trigger', params: Id, response: { 200: CampaignTrigger } },
      },
      async (req) => one(authOf(req).company.id, req.params.id),
    );

    app.patch(
      '/v1/admin/campaign_triggers/:id',
      {
        config: adminById,
        schema: {
          tags,
          summary: `Update a campaign trigger (${FORM}; remove_file drops the file)`,
          params: Id,
          consumes: ['application/json', 'multipart/form-data'],
          multipart: CampaignTriggerPatchForm,
          response: { 200: CampaignTrigger },
        },
      },
      async (req) => {
        const auth = authOf(req);
        const current = await rowOf(auth.company.id, req.params.id);
        const { body, file } = await readPatch(req);
        await assertTriggerRules(db, auth.company.id, mergedOf(current, body), current.id);
        const { remove_file, ...patch } = body;
        const dropped = file || remove_file ? current.fileKey : null;
        await withFile(auth.company.id, file, (key) =>
          db.transaction(async (tx) => {
            const fileSet =
              file && key
                ? { fileKey: key, fileName: file.name, fileType: file.contentType, fileSize: file.data.length }
                : remove_file
                  ? { fileKey: null, fileName: null, fileType: null, fileSize: null }
                  : {};
            await tx
              .update(campaignTriggers)
              .set({ ...columnsOf(patch), ...fileSet, updatedAt: new Date() })
              .where(sql`id = ${current.id}`);
            if (key) await commitBlobs(tx, [key]);
            if (dropped) await releaseBlobs(tx, [dropped]);
          }),
        );
        if (dropped) await purgeBlobs(scope.deps, [dropped]);
        return one(auth.company.id, current.id);
      },
    );

    app.delete(
      '/v1/admin/campaign_triggers/:id',
      {
        config: adminById,
        schema: {
          tags,
          summary: 'Delete a campaign trigger (broadcasts that used it keep their record)',
          params: Id,
          response: { 204: NoContent },
        },
      },
      async (req, reply) => {
        const auth = authOf(req);
        const current = await rowOf(auth.company.id, req.params.id);
        await db.update(campaignTriggers).set({ deletedAt: new Date(), enabled: false }).where(sql`id = ${current.id}`);
        return reply.code(204).send(null);
      },
    );

    async function rowOf(companyId: number, id: number): Promise<CampaignTriggerRow> {
      const [row] = await db
        .select()
        .from(campaignTriggers)
        .where(sql`id = ${id} and company_id = ${companyId} and deleted_at is null`);
      if (!row) throw notFound('campaign_trigger');
      return row;
    }

    for (const type of ['email', 'sms'] as const) {
      app.get(
        `/v1/contacts/${type}_campaign_triggers`,
        {
          config: { access: 'contacts.use', ...(type === 'sms' ? { feature: 'sms_campaigns' as const } : {}) },
          schema: {
            tags,
            summary: `${type === 'email' ? 'Email' : 'SMS'} campaign triggers the caller may send (enabled, compliant), by where they are shown`,
            querystring: UsableTriggersQuery,
            response: { 200: UsableTriggerList },
          },
        },
        async (req) => {
          const auth = authOf(req);
          const on = req.query.show_on;
          const where = sql`${usableSql(auth)} and t.trigger_type = ${type}
            ${on ? sql`and ${sql.identifier(`show_on_${on}`)}` : sql``}`;
          return { data: (await loadTriggers(db, where)).map(presentTrigger) };
        },
      );
    }

    app.get(
      '/v1/campaign_triggers/:id/file',
      {
        config: { access: 'contacts.use', tenant: { param: 'id', resource: 'campaign_trigger' } },
        schema: { tags, summary: "A campaign trigger's file", params: Id },
      },
      async (req, reply) => {
        const auth = authOf(req);
        const where =
          reachOf(auth) === 'company'
            ? sql`t.company_id = ${auth.company.id} and t.deleted_at is null`
            : usableSql(auth);
        const [row] = await rowsOf<Record<string, unknown>>(
          db,
          sql`select t.* from campaign_triggers t where t.id = ${req.params.id} and ${where}`,
        );
        const stream = row?.file_key ? await scope.deps.storage.get(String(row.file_key)) : null;
        if (!row || !stream) throw notFound('file');
        const name = String(row.file_name);
        return reply
          .header('content-type', String(row.file_type))
          .header('content-disposition', `inline; filename="${name.replace(/[^\x20-\x7e]/g, '_')}"`)
          .header('x-content-type-options', 'nosniff')
          .header('cache-control', 'private, no-store')
          .send(stream);
      },
    );
  },
};

type Cols = Partial<typeof campaignTriggers.$inferInsert>;
function columnsOf(b: Partial<Record<string, unknown>>): Cols {
  const map: Record<string, keyof Cols> = {
    name: 'name',
    description: 'description',
    tags: 'tags',
    body: 'body',
    trigger_type: 'triggerType',
    category: 'category',
    trigger: 'trigger',
    enabled: 'enabled',
    compliant: 'compliant',
    global: 'global',
    auto_trigger: 'autoTrigger',
    show_on_bulk: 'showOnBulk',
    show_on_conversation: 'showOnConversation',
    show_on_event: 'showOnEvent',
    recurrence: 'recurrence',
    all_email_ids: 'emailIds',
    corporation_ids: 'corporationIds',
    all_sms_trigger_ids: 'smsTriggerIds',
  };
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(b)) if (v !== undefined && map[k]) out[map[k]] = v;
  return out as Cols;
}

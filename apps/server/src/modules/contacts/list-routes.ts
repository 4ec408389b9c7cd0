/**
 * The contacts list and the bulk actions on a selection (issue 4, list half). Static paths such as /merge and
 * /restore are registered here; Fastify matches static segments before /v1/contacts/:id, so they never collide
 * with the detail routes.
 */
import {
  BulkReply,
  ContactCountReply,
  ContactListReply,
  ContactsScope,
  ExportBody,
  ExportParams,
  MAX_EXPORT_LIMIT,
  MergeBody,
  MergeReply,
  SELECT_FIRST_LAST_MAX,
  SelectedItemsBody,
  SelectedItemsReply,
  SelectFirstLastBody,
  SelectionBody,
  UpdateGroupBody,
  UpdateTagsGroupBody,
  UpdateTagsSingleBody,
} from '@harbor/shared';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../platform/db/client.js';
import { invalid } from '../../platform/http/errors.js';
import { authOf } from '../../platform/http/pipeline.js';
import type { Module } from '../types.js';
import { addTags, destroyAll, removeTags, restoreAll, setTags, updateGroup } from './bulk.js';
import { countScope } from './count.js';
import { exportCsv, exportOrder, exportXlsx } from './export.js';
import { checkLimit, listContacts } from './list.js';
import { fullScope, orderBySql, resolveScope, rowsOf } from './list-scope.js';
import { mergeContacts } from './merge.js';
import { countSelection, resolveSelection } from './selection.js';

const tags = ['contacts'];

export const contactsListModule: Module = {
  name: 'contacts-list',
  register(scope: FastifyInstance) {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const database = scope.deps.database;
    const db = database.db;
    const tx = <T>(fn: (t: Db) => Promise<T>) => db.transaction(fn);
    const config = { access: 'contacts.use' as const };

    app.patch(
      '/v1/contacts',
      {
        config,
        schema: {
          tags,
          summary: 'List contacts (body: contacts scope)',
          body: ContactsScope,
          response: { 200: ContactListReply },
        },
      },
      async (req) => listContacts(db, authOf(req), req.body),
    );

    app.patch(
      '/v1/contacts/count',
      {
        config,
        schema: {
          tags,
          summary:
            'DECIDED: how many contacts a scope matches (same body as the list): exact, or an estimate within `margin` (99%) marked exact: false',
          body: ContactsScope,
          response: { 200: ContactCountReply },
        },
      },
      async (req) => {
        const scope = { ...req.body, cursor: null, page: 1 };
        return countScope(database, await resolveScope(db, authOf(req), scope));
      },
    );

    app.post(
      '/v1/contacts/selected_items',
      {
        config,
        schema: {
          tags,
          summary: 'Count a selection and preview its first ids (shown before a bulk action)',
          body: SelectedItemsBody,
          response: { 200: SelectedItemsReply },
        },
      },
      async (req) => {
        const sel = await resolveSelection(db, authOf(req), req.body, 'any');
        const count = await countSelection(db, sel);
        const ids = await rowsOf<{ id: string }>(
          db,
          sql`select contacts.id from contacts where ${sel.condition} order by contacts.id limit ${req.body.limit}`,
        );
        return { count, ids: ids.map((r) => Number(r.id)) };
      },
    );

    app.patch(
      '/v1/contacts/select_first_last',
      {
        config,
        schema: {
          tags,
          summary: 'Ids of the first or last n contacts of the list in its order',
          body: SelectFirstLastBody,
          response: { 200: SelectedItemsReply },
        },
      },
      async (req) => {
        const { select_n, position } = req.body;
        if (select_n > SELECT_FIRST_LAST_MAX) throw invalid('select_n', `must be at most ${SELECT_FIRST_LAST_MAX}`);
        const s = fullScope({ ...req.body.contacts_scope, cursor: null });
        checkLimit({ ...s, page: 1 });
        const r = await resolveScope(db, authOf(req), s);
        const rows = await rowsOf<{ id: string }>(
          db,
          sql`select contacts.id from contacts where ${r.where} order by ${orderBySql(r, position === 'last')} limit ${select_n}`,
        );
        const ids = rows.map((row) => Number(row.id));
        return { count: ids.length, ids: position === 'last' ? ids.reverse() : ids };
      },
    );

    app.delete(
      '/v1/contacts/destroy_all',
      {
        config,
        schema: { tags, summary: 'Soft-delete a selection', body: SelectionBody, response: { 200: BulkReply } },
      },
      async (req) =>
        tx(async (t) => ({
          count: await destroyAll(t, authOf(req), await resolveSelection(t, authOf(req), req.body)),
        })),
    );

    app.put(
      '/v1/contacts/restore',
      {
        config,
        schema: { tags, summary: 'Restore deleted contacts', body: SelectionBody, response: { 200: BulkReply } },
      },
      async (req) =>
        tx(async (t) => ({
          count: await restoreAll(t, authOf(req), await resolveSelection(t, authOf(req), req.body, 'deleted')),
        })),
    );

    app.patch(
      '/v1/contacts/update_group',
      {
        config,
        schema: {
          tags,
          summary: 'Put a selection in a group (null: no group)',
          body: UpdateGroupBody,
          response: { 200: BulkReply },
        },
      },
      async (req) =>
        tx(async (t) => {
          const sel = await resolveSelection(t, authOf(req), req.body);
          return { count: await updateGroup(t, authOf(req), sel, req.body.group_id) };
        }),
    );

    app.patch(
      '/v1/contacts/update_tags_group',
      {
        config,
        schema: {
          tags,
          summary: 'Add tags to (or remove them from) a selection',
          body: UpdateTagsGroupBody,
          response: { 200: BulkReply },
        },
      },
      async (req) =>
        tx(async (t) => {
          const auth = authOf(req);
          const sel = await resolveSelection(t, auth, req.body);
          const count =
            req.body.action === 'add'
              ? await addTags(t, auth, sel, req.body.tags)
              : await removeTags(t, auth, sel, req.body.tags);
          return { count };
        }),
    );

    app.patch(
      '/v1/contacts/update_tags_single',
      {
        config,
        schema: {
          tags,
          summary: "Set one contact's tags",
          body: UpdateTagsSingleBody,
          response: { 200: BulkReply },
        },
      },
      async (req) =>
        tx(async (t) => {
          const auth = authOf(req);
          await resolveSelection(t, auth, { ids: [req.body.id] }, 'any');
          await setTags(t, auth, req.body.id, req.body.tags);
          return { count: 1 };
        }),
    );

    app.patch(
      '/v1/contacts/merge',
      {
        config,
        schema: {
          tags,
          summary: 'Merge duplicates into one kept contact, each differing field taken from the contact chosen for it',
          body: MergeBody,
          response: { 200: MergeReply },
        },
      },
      async (req) => tx((t) => mergeContacts(t, authOf(req), req.body)),
    );

    app.patch(
      '/v1/export.:format',
      {
        config,
        schema: {
          tags,
          summary: `Export a selection as CSV or XLSX (at most ${MAX_EXPORT_LIMIT} rows)`,
          params: ExportParams,
          body: ExportBody,
        },
      },
      async (req, reply) => {
        const auth = authOf(req);
        const sel = await resolveSelection(db, auth, req.body, 'any');
        const order = await exportOrder(db, auth, req.body);
        const count = await countSelection(db, sel);
        if (count > MAX_EXPORT_LIMIT) {
          throw invalid(
            req.body.all ? 'all' : 'ids',
            `at most ${MAX_EXPORT_LIMIT} contacts can be exported at once (${count} selected)`,
          );
        }
        await scope.deps.audit.record(
          {
            event: 'contacts_exported',
            companyId: auth.company.id,
            userId: auth.user.id,
            data: { ...sel.describe, count, format: req.params.format },
          },
          req,
        );
        const csv = req.params.format === 'csv';
        const stamp = new Date().toISOString().slice(0, 10);
        reply
          .header(
            'content-type',
            csv ? 'text/csv; charset=utf-8' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          )
          .header('content-disposition', `attachment; filename="contacts-${stamp}.${req.params.format}"`)
          .header('x-total-count', String(count));
        return reply.send(csv ? await exportCsv(database, sel, order) : await exportXlsx(database, sel, order));
      },
    );
  },
};

/**
 * The quick actions of the contact detail page: card note, email force-verify and validation, linked contact,
 * assign to me, data capture, activity info, Rx details and the transfer history. Each write appends a timeline event.
 */
import {
  ActivityInfoBody,
  ContactDetail,
  DataCaptureBody,
  DataCaptureReply,
  EmailValidation,
  LinkedContactBody,
  RxDetailsBody,
  RxDetailsReply,
  TransferHistoryList,
  UpdateNoteBody,
} from '@harbor/shared';
import { and, desc, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Db } from '../../platform/db/client.js';
import { users } from '../../platform/db/schema.js';
import { invalid } from '../../platform/http/errors.js';
import { authOf } from '../../platform/http/pipeline.js';
import { transferAttempts, transferLogs } from '../transfers/schema.js';
import { type ContactRow, findVisibleContact, findVisibleContactById } from './access.js';
import { presentContact } from './detail-presenter.js';
import { ContactParams, contactTenant } from './detail-routes.js';
import { checkEmail } from './email-check.js';
import { recordContactEvent } from './events.js';
import { contactDocuments, contacts } from './schema.js';

const tags = ['contacts'];
const config = { access: 'contacts.use', tenant: contactTenant } as const;
type DocKind = 'data_capture' | 'rx_details';

export function contactActionRoutes(scope: FastifyInstance) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const db = scope.deps.database.db;

  /** Runs `change` on the visible, not-deleted contact in one transaction and answers the fresh contact. */
  async function act(
    req: FastifyRequest,
    change: (
      t: Db,
      auth: AuthContext,
      c: ContactRow,
    ) => Promise<{ set?: Partial<ContactRow>; kind: string; data?: Record<string, unknown> }>,
  ) {
    const auth = authOf(req);
    const row = await db.transaction(async (t) => {
      const current = await findVisibleContact(t, auth, (req.params as { id: string }).id, true);
      const { set, kind, data } = await change(t, auth, current);
      let next = current;
      if (set)
        [next] = await t
          .update(contacts)
          .set({ ...set, updatedAt: new Date() })
          .where(eq(contacts.id, current.id))
          .returning();
      await recordContactEvent(t, {
        companyId: auth.company.id,
        contactId: current.id,
        kind,
        actorId: auth.user.id,
        data,
      });
      return next;
    });
    return presentContact(db, row);
  }

  app.patch(
    '/v1/contacts/:id/update_note',
    {
      config,
      schema: {
        tags,
        summary: 'Set the short note on the contact card',
        params: ContactParams,
        body: UpdateNoteBody,
        response: { 200: ContactDetail },
      },
    },
    async (req) =>
      act(req, async (_t, _a, c) => ({
        set: { note: req.body.note || null },
        kind: 'note_updated',
        data: { from: c.note, to: req.body.note || null },
      })),
  );

  app.patch(
    '/v1/contacts/:id/force_verify_email',
    {
      config,
      schema: {
        tags,
        summary: 'Mark the email as verified by the agent (status forced)',
        params: ContactParams,
        response: { 200: ContactDetail },
      },
    },
    async (req) =>
      act(req, async (_t, _a, c) => {
        if (!c.email) throw invalid('email', 'is empty; add an email first');
        return {
          set: { emailStatus: 'forced' },
          kind: 'email_force_verified',
          data: { email: c.email, from: c.emailStatus },
        };
      }),
  );

  app.patch(
    '/v1/contacts/:id/validate_email',
    {
      config,
      schema: {
        tags,
        summary: 'Check the email offline (syntax, domain, known typos and disposable domains; no mailbox probe)',
        params: ContactParams,
        response: { 200: EmailValidation },
      },
    },
    async (req) => {
      let result: ReturnType<typeof checkEmail> | null = null;
      const contact = await act(req, async (_t, _a, c) => {
        if (!c.email) throw invalid('email', 'is empty; add an email first');
        result = checkEmail(c.email);
        // An agent's forced verification outranks a heuristic "valid"; an "invalid" finding still replaces it.
        const status = result.valid ? (c.emailStatus === 'forced' ? 'forced' : 'valid') : 'invalid';
        return { set: { emailStatus: status }, kind: 'email_validated', data: { email: c.email, ...result, status } };
      });
      const r = result as unknown as ReturnType<typeof checkEmail>;
      return {
        email_status: contact.email_status,
        valid: r.valid,
        reasons: r.reasons,
        suggestion: r.suggestion,
        mailbox_checked: false,
        contact,
      };
    },
  );

  app.patch(
    '/v1/contacts/:id/update_linked_contact',
    {
      config: { ...config, feature: 'linked_contacts' },
      schema: {
        tags,
        summary: 'Link another contact (e.g. a spouse), or unlink with null',
        params: ContactParams,
        body: LinkedContactBody,
        response: { 200: ContactDetail },
      },
    },
    async (req) =>
      act(req, async (t, auth, c) => {
        const target = req.body.linked_contact_id;
        if (target !== null) {
          if (target === c.id) throw invalid('linked_contact_id', 'cannot be the contact itself');
          const other = await findVisibleContactById(t, auth, target);
          if (!other || other.deletedAt) throw invalid('linked_contact_id', 'is not a contact you can see');
        }
        return {
          set: { linkedContactId: target },
          kind: 'linked_contact_updated',
          data: { from: c.linkedContactId, to: target },
        };
      }),
  );

  app.patch(
    '/v1/contacts/:id/assign_to_me',
    {
      config,
      schema: {
        tags,
        summary: 'Become the owner (takes the contact out of its pool)',
        params: ContactParams,
        response: { 200: ContactDetail },
      },
    },
    async (req) =>
      act(req, async (_t, auth, c) => {
        if (c.ownerId === auth.user.id && c.poolId === null) throw invalid('owner_id', 'is already you');
        return {
          set: { ownerId: auth.user.id, poolId: null },
          kind: 'assigned',
          data: { from_owner_id: c.ownerId, from_pool_id: c.poolId, to_owner_id: auth.user.id },
        };
      }),
  );

  app.put(
    '/v1/contacts/:id/activity_info',
    {
      config,
      schema: {
        tags,
        summary: 'Record an activity (call, email, meeting, ...) on the timeline',
        params: ContactParams,
        body: ActivityInfoBody,
        response: { 200: ContactDetail },
      },
    },
    async (req) =>
      act(req, async () => ({
        kind: 'activity',
        data: { type: req.body.type, description: req.body.description ?? null },
      })),
  );

  /** GET/PATCH of one JSON document per contact (data capture, Rx details). */
  function documentRoutes<T>(
    kind: DocKind,
    field: 'data_captures' | 'rx_details',
    reply: z.ZodType,
    body: z.ZodType<Record<string, T[]>>,
  ) {
    const read = async (t: Db, c: ContactRow) => {
      const [doc] = await t
        .select()
        .from(contactDocuments)
        .where(and(eq(contactDocuments.contactId, c.id), eq(contactDocuments.kind, kind)));
      return { [field]: (doc?.data as T[] | undefined) ?? [], updated_at: doc?.updatedAt.toISOString() ?? null };
    };
    app.get(
      `/v1/contacts/:id/${kind}`,
      {
        config,
        schema: {
          tags,
          summary: `The contact's ${kind.replace('_', ' ')}`,
          params: ContactParams,
          response: { 200: reply },
        },
      },
      async (req) => read(db, await findVisibleContact(db, authOf(req), req.params.id)),
    );
    app.patch(
      `/v1/contacts/:id/${kind}`,
      {
        config,
        schema: {
          tags,
          summary: `Replace the contact's ${kind.replace('_', ' ')}`,
          params: ContactParams,
          body,
          response: { 200: reply },
        },
      },
      async (req) => {
        const auth = authOf(req);
        const list = (req.body as Record<string, T[]>)[field];
        return db.transaction(async (t) => {
          const c = await findVisibleContact(t, auth, req.params.id, true);
          const values = {
            contactId: c.id,
            kind,
            companyId: auth.company.id,
            data: list,
            updatedBy: auth.user.id,
            updatedAt: new Date(),
          };
          await t
            .insert(contactDocuments)
            .values(values)
            .onConflictDoUpdate({ target: [contactDocuments.contactId, contactDocuments.kind], set: values });
          await recordContactEvent(t, {
            companyId: auth.company.id,
            contactId: c.id,
            kind: `${kind}_updated`,
            actorId: auth.user.id,
            data: { entries: list.length },
          });
          return read(t, c);
        });
      },
    );
  }
  documentRoutes('data_capture', 'data_captures', DataCaptureReply, DataCaptureBody);
  documentRoutes('rx_details', 'rx_details', RxDetailsReply, RxDetailsBody);

  app.get(
    '/v1/contacts/:id/transfer_history',
    {
      config,
      schema: {
        tags,
        summary: 'Transfers that moved this contact, newest first',
        params: ContactParams,
        response: { 200: TransferHistoryList },
      },
    },
    async (req) => {
      const c = await findVisibleContact(db, authOf(req), req.params.id);
      const from = alias(users, 'from_user');
      const to = alias(users, 'to_user');
      const rows = await db
        .select({
          log: transferLogs,
          attempt: transferAttempts,
          fromFirst: from.firstName,
          fromLast: from.lastName,
          toFirst: to.firstName,
          toLast: to.lastName,
        })
        .from(transferLogs)
        .innerJoin(
          transferAttempts,
          and(eq(transferAttempts.id, transferLogs.attemptId), eq(transferAttempts.companyId, c.companyId)),
        )
        .leftJoin(from, eq(from.id, transferLogs.fromUserId))
        .leftJoin(to, eq(to.id, transferLogs.toUserId))
        .where(eq(transferLogs.contactId, c.id))
        .orderBy(desc(transferLogs.id))
        .limit(200);
      const name = (f: string | null, l: string | null) => `${f ?? ''} ${l ?? ''}`.trim();
      return {
        data: rows.map((r) => ({
          id: r.log.id,
          attempt_id: r.attempt.number,
          from_user: r.log.fromUserId ? { id: r.log.fromUserId, name: name(r.fromFirst, r.fromLast) } : null,
          to_user: r.log.toUserId ? { id: r.log.toUserId, name: name(r.toFirst, r.toLast) } : null,
          status: r.attempt.status,
          // Per contact: a revert skips contacts someone moved again meanwhile.
          reverted: r.log.revertedAt !== null,
          created_at: r.log.createdAt.toISOString(),
        })),
      };
    },
  );
}

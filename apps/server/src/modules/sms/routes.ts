/**
 * The conversations inbox (routes.md `sms`): conversations newest first with unread counts and search, read/unread,
 * one contact's thread, sending a text or a picture, and the agent's decision on a contact's texting permission.
 * Every route is behind the SMS feature gate (spec §6: non-basic, wallet on, active premium Max Plus).
 */
import {
  ConversationReply,
  FetchConversationsBody,
  FetchMessagesBody,
  type LineType,
  ReadConversationBody,
  SendMessageForm,
  ShowConversation,
  ShowConversationQuery,
  SmsConversation,
  SmsConversationList,
  SmsMessage,
  SmsMessageList,
  UpdatePermissionBody,
} from '@harbor/shared';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Db } from '../../platform/db/client.js';
import { invalid, notFound } from '../../platform/http/errors.js';
import { cappedPageMeta, countUpTo, pageOffset } from '../../platform/http/paging.js';
import { authOf } from '../../platform/http/pipeline.js';
import { checkConsent, recordConsent } from '../consent/index.js';
import { findVisibleContactById } from '../contacts/access.js';
import { likeEscape, rowsOf } from '../contacts/list-scope.js';
import { visibleContactsSql } from '../contacts/visibility.js';
import { sendText } from './send.js';
import { readSendForm } from './send-form.js';
import { conversationSelect, messageSelect, presentConversation, presentMessage } from './store.js';

const tags = ['sms'];
const config = { access: 'sms.use', feature: 'sms_feature' } as const;

async function visibleContact(db: Db, auth: AuthContext, id: number) {
  const c = await findVisibleContactById(db, auth, id);
  if (!c || c.deletedAt) throw notFound('contact');
  return c;
}

async function thread(db: Db, companyId: number, contactId: number, beforeId: number | undefined, limit: number) {
  const rows = await rowsOf<Record<string, unknown>>(
    db,
    sql`${messageSelect} where m.company_id = ${companyId} and m.contact_id = ${contactId}
      ${beforeId ? sql`and m.id < ${beforeId}` : sql``} order by m.id desc limit ${limit + 1}`,
  );
  const has_more = rows.length > limit;
  return { data: rows.slice(0, limit).reverse().map(presentMessage), has_more };
}

async function conversationOf(db: Db, auth: AuthContext, contactId: number) {
  const [r] = await rowsOf<Record<string, unknown>>(
    db,
    conversationSelect(
      sql`c.company_id = ${auth.company.id} and c.contact_id = ${contactId} and ${visibleContactsSql(auth)}`,
    ),
  );
  return r ? presentConversation(r) : null;
}

/** Conversations counted past the page asked for, at most (the inbox's meta says total_at_least beyond). */
export const COUNT_AHEAD = 1_000;

export function conversationRoutes(scope: FastifyInstance) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const deps = scope.deps;
  const db = deps.database.db;

  app.post(
    '/v1/sms/fetch_conversations',
    {
      config,
      schema: {
        tags,
        summary: 'Conversations, newest first, with unread counts (search by name or number)',
        body: FetchConversationsBody,
        response: { 200: SmsConversationList },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const { q, unread, page, limit } = req.body;
      const digits = q?.replace(/\D/g, '') ?? '';
      const search = q
        ? sql`and (trim(contacts.first_name || ' ' || contacts.last_name) ilike ${`%${likeEscape(q)}%`}
            ${digits.length >= 3 ? sql`or c.phone like ${`%${digits}%`}` : sql``})`
        : sql``;
      const where = sql`c.company_id = ${auth.company.id} and contacts.deleted_at is null and ${visibleContactsSql(auth)}
        ${unread ? sql`and c.unread_count > 0` : sql``} ${search}`;
      // Counted only so far past the page (an inbox of 100,000 conversations counted whole took ~45 ms a request),
      // beside the page rather than before it.
      const [counted, rows] = await Promise.all([
        countUpTo(
          db,
          sql`select 1 from sms_conversations c join contacts on contacts.id = c.contact_id where ${where}`,
          pageOffset(page, limit) + COUNT_AHEAD,
        ),
        rowsOf<Record<string, unknown>>(
          db,
          sql`${conversationSelect(where)} order by c.last_at desc, c.contact_id desc limit ${limit} offset ${pageOffset(page, limit)}`,
        ),
      ]);
      return { data: rows.map(presentConversation), meta: cappedPageMeta(page, limit, counted) };
    },
  );

  app.post(
    '/v1/sms/read_conversation',
    {
      config,
      schema: {
        tags,
        summary: 'Mark a conversation read (or unread again)',
        body: ReadConversationBody,
        response: { 200: SmsConversation },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const c = await visibleContact(db, auth, req.body.contact_id);
      await db.transaction(async (tx) => {
        if (req.body.read) {
          await tx.execute(sql`update sms_messages set read_at = now() where company_id = ${auth.company.id}
            and contact_id = ${c.id} and direction = 'inbound' and read_at is null`);
          await tx.execute(
            sql`update sms_conversations set unread_count = 0 where contact_id = ${c.id} and company_id = ${auth.company.id}`,
          );
        } else {
          await tx.execute(sql`update sms_messages set read_at = null where id = (select max(id) from sms_messages
            where company_id = ${auth.company.id} and contact_id = ${c.id} and direction = 'inbound')`);
          await tx.execute(sql`update sms_conversations set unread_count = greatest(unread_count, 1)
            where contact_id = ${c.id} and company_id = ${auth.company.id}`);
        }
      });
      const conv = await conversationOf(db, auth, c.id);
      if (!conv) throw notFound('conversation');
      return conv;
    },
  );

  app.post(
    '/v1/sms/fetch_messages',
    {
      config,
      schema: {
        tags,
        summary: "One contact's texts, newest last, loading backwards with before_id",
        body: FetchMessagesBody,
        response: { 200: SmsMessageList },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const c = await visibleContact(db, auth, req.body.contact_id);
      return thread(db, auth.company.id, c.id, req.body.before_id, req.body.limit);
    },
  );

  app.get(
    '/v1/sms/show_conversation',
    {
      config,
      schema: {
        tags,
        summary: 'One conversation: the contact, whether they can be texted now, the latest texts',
        querystring: ShowConversationQuery,
        response: { 200: ShowConversation },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const c = await visibleContact(db, auth, req.query.contact_id);
      const [verdict] = await checkConsent(db, {
        companyId: auth.company.id,
        channel: 'sms',
        purpose: 'conversation',
        senderId: auth.user.id,
        contactIds: [c.id],
      });
      const [line] = c.phone
        ? await rowsOf<{ line_type: LineType }>(
            db,
            sql`select line_type from phone_verifications where company_id = ${auth.company.id}
            and phone = ${c.phone} order by created_at desc limit 1`,
          )
        : [];
      let blocked: string | null = null;
      if (!c.phone) blocked = 'This contact has no phone number.';
      else if (!verdict?.allowed)
        blocked =
          verdict?.reason === 'opted_out' ? 'This contact opted out of texts.' : 'This contact cannot be texted.';
      else if (line?.line_type === 'landline') blocked = 'This number is a landline; texts cannot reach it.';
      else if (line?.line_type === 'invalid') blocked = 'This number is not a valid phone number.';
      const t = await thread(db, auth.company.id, c.id, undefined, 50);
      return {
        conversation: await conversationOf(db, auth, c.id),
        contact: {
          id: c.id,
          number: c.number,
          name: `${c.firstName} ${c.lastName}`.trim() || 'Unnamed contact',
          phone: c.phone,
        },
        can_text: blocked === null,
        blocked_reason: blocked,
        line_type: line?.line_type ?? null,
        messages: t.data,
        has_more: t.has_more,
      };
    },
  );

  app.post(
    '/v1/sms/send_message',
    {
      config: { ...config, idempotent: true },
      schema: {
        tags,
        summary: 'Text a contact (multipart: contact_id, message_to, message_content, campaign_trigger_id?, file, mms)',
        consumes: ['multipart/form-data', 'application/json'],
        multipart: SendMessageForm,
        response: { 201: SmsMessage },
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const form = await readSendForm(deps, req, auth);
      const c = await visibleContact(db, auth, form.contactId);
      const phones = [c.phone, c.secondaryPhone].filter(Boolean);
      if (!phones.includes(form.phone)) {
        throw invalid('message_to', "is not one of this contact's phone numbers");
      }
      const message = await sendText(deps, {
        companyId: auth.company.id,
        userId: auth.user.id,
        contactId: c.id,
        phone: form.phone,
        body: form.body,
        media: form.media,
        triggerId: form.triggerId,
      });
      return reply.code(201).send(message);
    },
  );

  app.post(
    '/v1/sms/update_permission',
    {
      config,
      schema: {
        tags,
        summary: "Record a contact's texting consent (or settle a flagged reply)",
        body: UpdatePermissionBody,
        response: { 200: ConversationReply },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const c = await visibleContact(db, auth, req.body.contact_id);
      await db.transaction(async (tx) => {
        await recordConsent(tx, {
          companyId: auth.company.id,
          channel: 'sms',
          status: req.body.status,
          source: 'agent',
          actorId: auth.user.id,
          detail:
            req.body.detail ??
            (req.body.status === 'opted_out' ? 'Opted out by the agent' : 'Consent recorded by the agent'),
          contactIds: [c.id],
        });
        if (req.body.clear_flag || req.body.status === 'opted_out') {
          await tx.execute(
            sql`update sms_conversations set flagged = false where contact_id = ${c.id} and company_id = ${auth.company.id}`,
          );
          await tx.execute(
            sql`update sms_messages set flagged = false where contact_id = ${c.id} and company_id = ${auth.company.id} and flagged`,
          );
        }
      });
      return conversationOf(db, auth, c.id);
    },
  );
}

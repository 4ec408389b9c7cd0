/**
 * Texting a selection from the contacts list (routes.md `messaging`): the preview (who receives it, who is removed
 * and why, who waits for the morning, what it costs against the balance: `POST /v1/contacts/sms_broadcast_preview`,
 * DECIDED), `send_broadcast_sms` (a message or a campaign trigger's text, now or at a time), `sms_group` (a message
 * written now), `send_test_sms` (to your own mobile) and `bulk_sms_verification_group` (line types of a selection).
 * Broadcasts go through modules/broadcasts with purpose `marketing` (texts need consent on record).
 */
import {
  Broadcast,
  BulkVerificationBody,
  BulkVerificationReply,
  formatUsd,
  removalReasonLabel,
  SendBroadcastSmsBody,
  SendTestSmsBody,
  SMS_MAX_SEGMENTS,
  SmsBroadcastPreview,
  SmsBroadcastPreviewBody,
  SmsGroupBody,
  SmsMessage,
  smsSegments,
  USAGE_PRICES,
} from '@harbor/shared';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { storedPhone, toE164 } from '../../integrations/twilio/messaging.js';
import type { AuthContext } from '../../platform/auth/context.js';
import { HttpError, invalid, notFound } from '../../platform/http/errors.js';
import { authOf } from '../../platform/http/pipeline.js';
import { createBroadcast, fingerprintOf, previewBroadcast, selectionRecipients } from '../broadcasts/create.js';
import { loadBroadcast, presentBroadcast } from '../broadcasts/presenter.js';
import { usableSql } from '../campaign-triggers/routes.js';
import { consentRowsSql } from '../consent/index.js';
import { rowsOf } from '../contacts/list-scope.js';
import { resolveSelection, type SelectionBody } from '../contacts/selection.js';
import { checkSmsAllocation } from '../usage-plans/enforcement.js';
import { affordableQuantity } from '../wallet/usage.js';
import type { SmsContent } from './channel.js';
import { quietUntil, zoneOfState } from './quiet-hours.js';
import { sendTestText } from './send.js';
import { paidLookup } from './verifications.js';

const tags = ['messaging'];
const config = { access: 'sms.use', feature: 'sms_feature', idempotent: true } as const;
const BODY_LIMIT = 4 * 1024 * 1024;

function contentOfText(body: string, triggerId: number | null): SmsContent {
  const seg = smsSegments(body);
  if (!body.trim()) throw invalid('message', "can't be blank");
  if (seg.segments > SMS_MAX_SEGMENTS)
    throw invalid('message', `is ${seg.segments} segments long; a text may be at most ${SMS_MAX_SEGMENTS}`);
  return { body: body.trim(), segments: seg.segments, trigger_id: triggerId };
}

export function bulkRoutes(scope: FastifyInstance) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const deps = scope.deps;
  const db = deps.database.db;

  async function start(
    auth: AuthContext,
    body: SelectionBody,
    content: SmsContent,
    title: string,
    sendAt: Date | null,
  ) {
    const { recipientsSql, selection } = await selectionRecipients(db, auth, body);
    const ids = body.all ? null : [...new Set(body.ids ?? [])].sort((a, b) => a - b);
    const b = await createBroadcast(deps, {
      companyId: auth.company.id,
      userId: auth.user.id,
      channel: 'sms',
      purpose: 'marketing',
      content: { ...content },
      title,
      triggerId: content.trigger_id ?? null,
      sendAt,
      selection,
      recipientsSql,
      fingerprint: fingerprintOf({
        u: auth.user.id,
        ch: 'sms',
        c: content.body,
        ids,
        scope: body.all ? (body.contacts_scope ?? {}) : null,
        at: sendAt?.toISOString() ?? null,
      }),
    });
    return presentBroadcast((await loadBroadcast(db, b!.id))!);
  }

  app.post(
    '/v1/contacts/sms_broadcast_preview',
    {
      config,
      bodyLimit: BODY_LIMIT,
      schema: {
        tags,
        summary: 'Who a text broadcast reaches, who is removed and why, who waits for morning, and its cost',
        body: SmsBroadcastPreviewBody,
        response: { 200: SmsBroadcastPreview },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const base = await previewBroadcast(db, auth, { ...req.body, channel: 'sms', purpose: 'marketing' });
      const sel = await resolveSelection(db, auth, req.body);
      const ask = {
        companyId: auth.company.id,
        channel: 'sms' as const,
        purpose: 'marketing' as const,
        senderId: auth.user.id,
      };
      // Of those consent allows: their line type (the latest lookup) and their state (time zone).
      const rows = await rowsOf<{
        id: number;
        number: number;
        name: string | null;
        state: string | null;
        line_type: string | null;
      }>(
        db,
        sql`select c.id, c.number, nullif(trim(c.first_name || ' ' || c.last_name), '') as name, c.state, lt.line_type
          from (${consentRowsSql(ask, sel.idsSql)}) v join contacts c on c.id = v.contact_id
          left join lateral (select line_type from phone_verifications pv where pv.company_id = ${auth.company.id}
            and pv.phone = v.address order by created_at desc limit 1) lt on true
          where v.reason is null`,
      );
      const landlines = rows.filter((r) => r.line_type === 'landline' || r.line_type === 'invalid');
      const sendable = rows.filter((r) => !(r.line_type === 'landline' || r.line_type === 'invalid'));
      const waiting = sendable.filter((r) => quietUntil(zoneOfState(r.state), deps.clock()) !== null).length;
      const segments = Math.max(1, smsSegments(req.body.message).segments);
      const quota = await checkSmsAllocation(db, { companyId: auth.company.id, userId: auth.user.id }).catch(
        () => null,
      );
      const unit = quota?.unitPrice ?? USAGE_PRICES.sms.unit_price;
      const cost = sendable.length * segments * unit;
      const balance = await affordableQuantity(deps, auth.company.id, auth.user.id, 'sms', 1);
      const removed = [...base.removed.map((r) => ({ reason: r.reason as string, label: r.label, count: r.count }))];
      if (landlines.length)
        removed.push({ reason: 'landline', label: 'Landline or invalid number', count: landlines.length });
      return {
        total: base.total,
        receive: sendable.length,
        removed,
        removed_sample: [
          ...base.removed_sample.map((s) => ({
            id: s.id,
            number: s.number,
            name: s.name,
            label: removalReasonLabel(s.reason, 'sms'),
          })),
          ...landlines.slice(0, 10).map((r) => ({
            id: Number(r.id),
            number: Number(r.number),
            name: r.name ?? `Contact #${r.number}`,
            label: 'Landline or invalid number',
          })),
        ],
        waiting_for_morning: waiting,
        segments,
        unit_price: unit,
        cost,
        cost_label: formatUsd(cost),
        balance,
        affordable: balance >= cost,
      };
    },
  );

  app.post(
    '/v1/contacts/send_broadcast_sms',
    {
      config,
      bodyLimit: BODY_LIMIT,
      schema: {
        tags,
        summary: 'Text a selection: a message or a campaign trigger’s text, now or at send_at',
        body: SendBroadcastSmsBody,
        response: { 201: Broadcast },
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const b = req.body;
      const triggerId = b.campaign_trigger_id ?? b.recurrence_campaign_trigger_id ?? null;
      let text = b.message ?? '';
      let title = text.slice(0, 60);
      if (triggerId) {
        const [t] = await rowsOf<{ name: string; body: string | null }>(
          db,
          sql`select t.name, t.body from campaign_triggers t where t.id = ${triggerId} and ${usableSql(auth)} and t.trigger_type = 'sms'`,
        );
        if (!t) throw notFound('campaign_trigger');
        text = text || (t.body ?? '');
        title = t.name;
      }
      const sendAt = b.send_at
        ? new Date(b.send_at)
        : b.send_now === false
          ? (() => {
              throw invalid('send_at', 'choose a time, or send now');
            })()
          : null;
      return reply.code(201).send(await start(auth, b, contentOfText(text, triggerId), title || 'Text', sendAt));
    },
  );

  app.post(
    '/v1/contacts/sms_group',
    {
      config,
      bodyLimit: BODY_LIMIT,
      schema: {
        tags,
        summary: 'Text a selection a message written now',
        body: SmsGroupBody,
        response: { 201: Broadcast },
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const sendAt = req.body.send_at ? new Date(req.body.send_at) : null;
      return reply
        .code(201)
        .send(
          await start(auth, req.body, contentOfText(req.body.message, null), req.body.message.slice(0, 60), sendAt),
        );
    },
  );

  app.post(
    '/v1/contacts/send_test_sms',
    {
      config,
      schema: {
        tags,
        summary: 'A test text to your own mobile (paid like any text)',
        body: SendTestSmsBody,
        response: { 201: SmsMessage },
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const e164 = toE164(req.body.to);
      if (!e164) throw invalid('to', 'is not a valid phone number');
      contentOfText(req.body.message, null);
      return reply.code(201).send(
        await sendTestText(deps, {
          companyId: auth.company.id,
          userId: auth.user.id,
          phone: storedPhone(e164),
          body: `[Test] ${req.body.message}`,
        }),
      );
    },
  );

  app.post(
    '/v1/contacts/bulk_sms_verification_group',
    {
      config,
      bodyLimit: BODY_LIMIT,
      schema: {
        tags,
        summary:
          'Look up the line type of a selection’s numbers not known yet, each paid from the wallet (as many as it pays for)',
        body: BulkVerificationBody,
        response: { 200: BulkVerificationReply },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const sel = await resolveSelection(db, auth, req.body);
      const need = await rowsOf<{ id: number; phone: string }>(
        db,
        sql`select distinct on (contacts.phone) contacts.id, contacts.phone from contacts
          where contacts.id in (${sel.idsSql}) and contacts.phone is not null
            and not exists (select 1 from phone_verifications v where v.company_id = ${auth.company.id}
              and v.phone = contacts.phone and v.created_at > now() - interval '90 days')
          order by contacts.phone, contacts.id limit 1000`,
      );
      // Each lookup is paid on its own, as a single validation is: a wallet that runs out mid-way keeps what it paid
      // for (partial), and one that cannot pay the first is refused with nothing looked up.
      let done = 0;
      let cost = 0;
      let refusal: string | null = null;
      for (const n of need) {
        const paid = await paidLookup(
          deps,
          { companyId: auth.company.id, userId: auth.user.id, contactId: n.id },
          n.phone,
        );
        if (!paid.ok) {
          refusal = paid.message;
          break;
        }
        done++;
        cost += paid.charged;
      }
      if (refusal && done === 0) throw new HttpError(402, { wallet: [refusal] });
      return { looked_up: done, not_paid: need.length - done, cost, cost_label: formatUsd(cost) };
    },
  );
}

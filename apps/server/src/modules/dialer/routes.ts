/**
 * The dialer's user routes (routes.md `dialer`, the first nine, plus the DECIDED `POST /v1/dialer/calls` that
 * accepts a dial before the browser connects) and the contact's `call_files`. The plan, subscription, licence and
 * order routes of the same area live in modules/usage-plans.
 */
import {
  ACTIVE_CALL_STATUSES,
  AssociatedContactFilter,
  AssociatedContactReply,
  AssociatedContactsReply,
  CALL_RECORDING_OFF,
  CALL_TIMEOUT_S,
  CallFiles,
  CallHistory,
  CallIdBody,
  CallList,
  CallLogs,
  CallLogsFilter,
  CallReply,
  DeviceToken,
  EmptyBody,
  StartCallBody,
  StartCallReply,
  VOICE_NOT_CONFIGURED,
} from '@harbor/shared';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type VoicePort, VoiceUnavailable } from '../../integrations/voice/port.js';
import type { AuthContext } from '../../platform/auth/context.js';
import { readAll, sendWithRanges } from '../../platform/http/byte-ranges.js';
import { HttpError, invalid, notFound } from '../../platform/http/errors.js';
import { authOf } from '../../platform/http/pipeline.js';
import { findVisibleContact } from '../contacts/access.js';
import { ContactParams, contactTenant } from '../contacts/detail-routes.js';
import { visibleContactsSql } from '../contacts/visibility.js';
import { dialerEnablement } from '../usage-plans/enforcement.js';
import { publishCall } from './events.js';
import { contactsByPhone, countCalls, listCalls, loadCall, ownCallRow } from './queries.js';
import { identityOf, startOutbound } from './start.js';

const tags = ['dialer'];
const config = { access: 'dialer.use', feature: 'dialer' } as const;
const active = sql`c.status in ('initiated', 'ringing', 'in-progress')`;

export function registerDialerRoutes(scope: FastifyInstance, voice: VoicePort) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const deps = scope.deps;
  const db = deps.database.db;

  app.get(
    '/v1/dialer/fetch_device_token',
    {
      config,
      schema: {
        tags,
        summary: 'The softphone token (Twilio access token or lab credentials)',
        response: { 200: DeviceToken },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const e = await dialerEnablement(db, { companyId: auth.company.id, userId: auth.user.id });
      const t = e.enabled ? voice.token(identityOf(auth.user.id)) : null;
      return {
        token: t?.token ?? null,
        provider: voice.provider,
        identity: t?.identity ?? null,
        expires_at: t?.expiresAt.toISOString() ?? null,
        sip: t?.sip ?? null,
        message: voice.provider === 'none' ? VOICE_NOT_CONFIGURED : e.enabled ? null : e.messages.join(' '),
        enabled: e.enabled,
        hidden: ['stage', 'demo'].includes(deps.config.environment),
        reasons: e.messages,
      };
    },
  );

  app.post(
    '/v1/dialer/calls',
    {
      config,
      schema: {
        tags,
        summary: 'Accept an outbound dial: every gate, then the call the browser connects',
        body: StartCallBody,
        response: { 200: StartCallReply },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const started = await startOutbound(deps, voice, auth, req.body);
      const call = (await loadCall(db, auth.company.id, started.id))!;
      return {
        call,
        params: { To: started.to, timeout: CALL_TIMEOUT_S, callerId: started.from, cid: String(started.id) },
        max_seconds: started.maxSeconds,
      };
    },
  );

  app.post(
    '/v1/dialer/fetch_active_calls',
    {
      config,
      schema: {
        tags,
        summary: 'Live calls: mine and those of the people I reach',
        body: EmptyBody,
        response: { 200: CallList },
      },
    },
    async (req) => ({ call_list: await listCalls(db, authOf(req), active, 100) }),
  );

  app.post(
    '/v1/dialer/fetch_historical_calls',
    {
      config,
      schema: { tags, summary: 'My recent calls (the Recent tab)', body: EmptyBody, response: { 200: CallHistory } },
    },
    async (req) => {
      const auth = authOf(req);
      return { call_history: await listCalls(db, auth, sql`c.user_id = ${auth.user.id}`, 50) };
    },
  );

  app.post(
    '/v1/dialer/fetch_call_logs',
    {
      config,
      schema: {
        tags,
        summary: 'Call logs with filters (mine and my reach)',
        body: CallLogsFilter,
        response: { 200: CallLogs },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const f = req.body;
      if (f.from && f.to && f.from > f.to) throw invalid('to', 'must be on or after from');
      const parts = [sql`true`];
      if (f.direction) parts.push(sql`c.direction = ${f.direction}`);
      if (f.status) parts.push(sql`c.status = ${f.status}`);
      if (f.from) parts.push(sql`c.created_at >= ${f.from}::date`);
      if (f.to) parts.push(sql`c.created_at < ${f.to}::date + 1`);
      if (f.phone_number) {
        const d = f.phone_number.replace(/\D/g, '');
        if (!d) throw invalid('phone_number', 'must contain digits');
        parts.push(sql`(c.from_number like ${`%${d}%`} or c.to_number like ${`%${d}%`})`);
      }
      if (f.contact_number) {
        const contact = await findVisibleContact(db, auth, f.contact_number);
        parts.push(sql`c.contact_id = ${contact.id}`);
      }
      const where = sql.join(parts, sql` and `);
      const [calls, total] = await Promise.all([
        listCalls(db, auth, where, f.limit, (f.page - 1) * f.limit),
        countCalls(db, auth, where),
      ]);
      return { calls, pagination: { page: f.page, limit: f.limit, total } };
    },
  );

  const matches = (auth: AuthContext, phone: string, limit: number) =>
    contactsByPhone(db, auth.company.id, phone, visibleContactsSql(auth), limit);

  app.post(
    '/v1/dialer/fetch_associated_contact',
    {
      config,
      schema: {
        tags,
        summary: 'The contact a number belongs to (dashes and a leading +1 removed)',
        body: AssociatedContactFilter,
        response: { 200: AssociatedContactReply },
      },
    },
    async (req) => {
      const [c] = await matches(authOf(req), req.body.phone_number, 1);
      return { contact: c ? { number: c.number, name: c.name, phone: c.phone, owner: c.owner } : null };
    },
  );

  app.post(
    '/v1/dialer/fetch_associated_contacts',
    {
      config,
      schema: {
        tags,
        summary: 'Every contact a number belongs to',
        body: AssociatedContactFilter,
        response: { 200: AssociatedContactsReply },
      },
    },
    async (req) => ({
      contacts: (await matches(authOf(req), req.body.phone_number, 50)).map((c) => ({
        number: c.number,
        name: c.name,
        phone: c.phone,
        owner: c.owner,
      })),
    }),
  );

  /** The caller's own live call, answered, with a room the provider can act on. */
  const liveCall = async (auth: AuthContext, id: number) => {
    const row = await ownCallRow(db, auth, id);
    if (!row) throw notFound('call');
    if (!ACTIVE_CALL_STATUSES.includes(row.status as never)) throw invalid('call_id', 'this call has ended');
    if (row.answered_at == null) throw invalid('call_id', 'this call is not connected yet');
    return row;
  };
  const provider = async <T>(work: () => Promise<T>) => {
    if (voice.provider === 'none') throw new HttpError(503, { user: [VOICE_NOT_CONFIGURED] });
    try {
      return await work();
    } catch (err) {
      if (err instanceof VoiceUnavailable)
        throw new HttpError(503, { user: [`The voice service refused: ${err.message}`] });
      throw err;
    }
  };

  app.post(
    '/v1/dialer/device_start_disclaimer_prompt',
    {
      config,
      schema: {
        tags,
        summary: 'Play the TPMO disclaimer into the call and record when',
        body: CallIdBody,
        response: { 200: CallReply },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const row = await liveCall(auth, req.body.call_id);
      const ref = { id: Number(row.id), room: (row.room as string | null) ?? null };
      await provider(() => voice.playDisclaimer(ref, `${deps.config.appUrl}/v1/voice/twiml/disclaimer`));
      // The first play is what CMS asks about (within the first minute); a replay keeps it.
      await db.execute(
        sql`update calls set disclaimer_at_s = coalesce(disclaimer_at_s,
              greatest(0, floor(extract(epoch from now() - answered_at)))::int) where id = ${row.id}`,
      );
      await publishCall(deps, db, auth.company.id, Number(row.id), null);
      return { call: (await loadCall(db, auth.company.id, Number(row.id)))! };
    },
  );

  for (const [path, on] of [
    ['device_resume_call_recording', true],
    ['device_stop_call_recording', false],
  ] as const) {
    app.post(
      `/v1/dialer/${path}`,
      {
        config,
        schema: {
          tags,
          summary: on ? 'Resume the call recording' : 'Pause the call recording',
          body: CallIdBody,
          response: { 200: CallReply },
        },
      },
      async (req) => {
        const auth = authOf(req);
        const row = await liveCall(auth, req.body.call_id);
        // A call the company does not record has no recording to pause or resume (the 'Record calls' setting).
        if (row.recording === 'off') throw invalid('call_id', CALL_RECORDING_OFF);
        await provider(() => voice.setRecording({ id: Number(row.id), room: (row.room as string | null) ?? null }, on));
        // Spec §4: the state changes only when the provider has done it.
        await db.execute(sql`update calls set recording = ${on ? 'recording' : 'paused'} where id = ${row.id}`);
        return { call: (await loadCall(db, auth.company.id, Number(row.id)))! };
      },
    );
  }

  app.get(
    '/v1/contacts/:id/call_files',
    {
      config: { access: 'contacts.use', tenant: contactTenant },
      schema: {
        tags: ['contacts'],
        summary: "The contact's calls and their recordings",
        params: ContactParams,
        response: { 200: CallFiles },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const contact = await findVisibleContact(db, auth, req.params.id);
      const calls = await listCalls(db, auth, sql`c.contact_id = ${contact.id}`, 200);
      const byId = new Map(calls.map((c) => [c.id, c]));
      const recs = await db.execute<Record<string, unknown>>(
        sql`select r.* from call_recordings r join calls c on c.id = r.call_id
            where r.company_id = ${auth.company.id} and c.contact_id = ${contact.id} order by r.created_at desc`,
      );
      const call_files = recs.rows
        .filter((r) => byId.has(Number(r.call_id)))
        .map((r) => ({
          id: Number(r.id),
          call_id: Number(r.call_id),
          duration_s: r.duration_s == null ? null : Number(r.duration_s),
          url: `/v1/dialer/recordings/${r.id}`,
          created_at: new Date(r.created_at as string).toISOString(),
          retain_until: new Date(r.retain_until as string).toISOString(),
          call: byId.get(Number(r.call_id))!,
        }));
      return { call_files, calls };
    },
  );

  app.get(
    '/v1/dialer/recordings/:id',
    {
      // Already compressed audio; and a byte range must be of the file itself.
      compress: false,
      config: { access: 'contacts.use' },
      schema: {
        tags,
        summary: "Play a call recording (mine or my reach's), whole or by one byte range",
        params: z.object({ id: z.coerce.number().int().positive() }),
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const res = await db.execute<Record<string, unknown>>(
        sql`select r.storage_key, r.content_type, r.call_id from call_recordings r where r.id = ${req.params.id}
            and r.company_id = ${auth.company.id}`,
      );
      const r = res.rows[0];
      if (!r) throw notFound('recording');
      const visible = await listCalls(db, auth, sql`c.id = ${r.call_id}`, 1);
      if (!visible.length) throw notFound('recording');
      const stream = await deps.storage.get(String(r.storage_key));
      if (!stream) throw notFound('recording');
      reply.header('cache-control', 'private, max-age=3600');
      return sendWithRanges(req, reply, await readAll(stream), String(r.content_type));
    },
  );
}

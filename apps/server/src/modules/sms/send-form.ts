/**
 * The send-message form (spec §3: contact_id, message_to, message_content, campaign_trigger_id?, file, mms, is_mss),
 * as multipart or JSON, checked before anything is stored: the text within SMS_MAX_SEGMENTS, a picture of an MMS
 * type (by its bytes, not its name) within MMS_MAX_BYTES, a campaign trigger of the company. The picture is stored
 * under an unguessable key the carrier fetches it by (`GET /v1/sms/media/...`, public: the carrier has no session).
 */
import crypto from 'node:crypto';
import {
  MMS_MAX_BYTES,
  MMS_TYPES,
  normalizePhone,
  SendMessageFields,
  SMS_MAX_SEGMENTS,
  smsSegments,
} from '@harbor/shared';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Deps } from '../../platform/deps.js';
import { commitBlobs, storeBlob } from '../../platform/files/blobs.js';
import { bufferPart } from '../../platform/files/uploads.js';
import { invalid, notFound } from '../../platform/http/errors.js';
import { parseOr422 } from '../campaign-triggers/input.js';
import { checkUpload } from '../contact-records/file-type.js';
import { rowsOf } from '../contacts/list-scope.js';

const EXT: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/gif': 'gif' };

export interface SendForm {
  contactId: number;
  phone: string;
  body: string;
  media: Array<{ url: string; content_type: string }>;
  triggerId: number | null;
}

export async function readSendForm(deps: Deps, req: FastifyRequest, auth: AuthContext): Promise<SendForm> {
  const fields: Record<string, unknown> = {};
  let file: { name: string; type: string; data: Buffer } | null = null;
  if (req.isMultipart()) {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') throw invalid(part.fieldname, 'is not a file field');
        const data = await bufferPart(part, MMS_MAX_BYTES);
        if (!data.length) continue;
        file = { name: part.filename || 'picture', type: part.mimetype, data };
      } else fields[part.fieldname] = part.value;
    }
  } else Object.assign(fields, req.body ?? {});
  const f = parseOr422(SendMessageFields, fields);
  const phone = normalizePhone(f.message_to);
  if (!phone) throw invalid('message_to', 'is not a valid phone number');
  let body = f.message_content.trim();
  if (f.campaign_trigger_id) {
    const [t] = await rowsOf<{ body: string | null }>(
      deps.database.db,
      sql`select body from campaign_triggers where id = ${f.campaign_trigger_id} and company_id = ${auth.company.id}
        and deleted_at is null and enabled`,
    );
    if (!t) throw invalid('campaign_trigger_id', 'is not a template you can use');
    if (!body) body = (t.body ?? '').trim();
  }
  const seg = smsSegments(body);
  if (seg.segments > SMS_MAX_SEGMENTS) {
    throw invalid(
      'message_content',
      `is ${seg.segments} segments long; a text may be at most ${SMS_MAX_SEGMENTS} (${SMS_MAX_SEGMENTS * (seg.encoding === 'GSM-7' ? 153 : 67)} characters)`,
    );
  }
  const media: SendForm['media'] = [];
  if (file) {
    const ext = file.name.includes('.') ? file.name : `${file.name}.${EXT[file.type] ?? 'bin'}`;
    const check = await checkUpload(ext, file.type, file.data);
    if (!check.ok || !(MMS_TYPES as readonly string[]).includes(check.contentType)) {
      throw invalid(
        'file',
        `must be a picture (${MMS_TYPES.map((t) => EXT[t].toUpperCase()).join(', ')}); carriers do not deliver other files by text`,
      );
    }
    const token = crypto.randomBytes(16).toString('hex');
    const key = `sms-media/${auth.company.id}/${token}-${EXT[check.contentType]}`;
    await storeBlob(deps, { companyId: auth.company.id, key, data: file.data, contentType: check.contentType });
    await commitBlobs(deps.database.db, [key]);
    media.push({
      url: `${deps.config.appUrl}/v1/sms/media/${auth.company.id}/${token}-${EXT[check.contentType]}`,
      content_type: check.contentType,
    });
  } else if (f.mms === 'true') {
    throw invalid('file', 'is required for a picture message');
  }
  if (!body && !media.length) throw invalid('message_content', "can't be blank");
  return { contactId: f.contact_id, phone, body, media, triggerId: f.campaign_trigger_id ?? null };
}

/** The carrier fetches an MMS picture here (no session; the key is unguessable). */
export function mediaRoute(scope: FastifyInstance) {
  const Params = z.object({
    company: z.coerce.number().int().positive(),
    file: z.string().regex(/^[0-9a-f]{32}-(jpg|png|gif)$/),
  });
  scope.get(
    '/v1/sms/media/:company/:file',
    {
      config: { access: 'public', rateLimit: { name: 'sms_media', max: 600, windowMs: 60_000 } },
      schema: { tags: ['sms'], summary: 'An MMS picture, for the carrier', params: Params },
    },
    async (req, reply) => {
      const p = Params.safeParse(req.params);
      if (!p.success) throw notFound('file');
      const stream = await scope.deps.storage.get(`sms-media/${p.data.company}/${p.data.file}`);
      if (!stream) throw notFound('file');
      const type = { jpg: 'image/jpeg', png: 'image/png', gif: 'image/gif' }[p.data.file.slice(-3)]!;
      return reply
        .type(type)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, max-age=86400')
        .send(stream);
    },
  );
}

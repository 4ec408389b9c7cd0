/**
 * A campaign trigger's form, as JSON or as multipart (fields as text, the `file` part checked against its type), and
 * the rules its fields must keep together (docs/decisions/campaign-triggers.md).
 */
import { CampaignTriggerBody, CampaignTriggerPatch, TRIGGER_FILE_MAX_BYTES, TRIGGER_FILE_TYPES } from '@harbor/shared';
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { Db } from '../../platform/db/client.js';
import { bufferPart } from '../../platform/files/uploads.js';
import { HttpError, invalid } from '../../platform/http/errors.js';
import { checkUpload } from '../contact-records/file-type.js';
import { cleanFileName } from '../contact-records/files.js';
import { rowsOf } from '../contacts/list-scope.js';
import type { CampaignTriggerRow } from './schema.js';

export interface TriggerFileInput {
  name: string;
  contentType: string;
  data: Buffer;
}

/** Zod's issues in our error shape: `{ errors: { field: [message] } }` with a 422. */
export function parseOr422<T>(schema: z.ZodType<T>, value: unknown): T {
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const errors: Record<string, string[]> = {};
  for (const issue of r.error.issues) {
    const field = issue.path.join('.') || 'base';
    errors[field] = [...(errors[field] ?? []), issue.message];
  }
  throw new HttpError(422, errors);
}

/** The body's fields and the optional file, from JSON or multipart. */
async function readForm(
  req: FastifyRequest,
): Promise<{ fields: Record<string, unknown>; file: TriggerFileInput | null }> {
  if (!req.isMultipart()) return { fields: (req.body ?? {}) as Record<string, unknown>, file: null };
  const fields: Record<string, unknown> = {};
  let file: TriggerFileInput | null = null;
  for await (const part of req.parts()) {
    if (part.type === 'file') {
      if (part.fieldname !== 'file') throw invalid(part.fieldname, 'is not a file field');
      const data = await bufferPart(part, TRIGGER_FILE_MAX_BYTES);
      const name = cleanFileName(part.filename);
      const check = await checkUpload(name, part.mimetype, data);
      if (!check.ok) throw invalid('file', check.message);
      if (!(TRIGGER_FILE_TYPES as readonly string[]).includes(check.kind)) {
        throw invalid('file', `must be a ${TRIGGER_FILE_TYPES.join(', ')} file (what an MMS and an email both carry)`);
      }
      file = { name, contentType: check.contentType, data };
    } else {
      const prev = fields[part.fieldname];
      // Repeated fields (tags=a&tags=b) make a list.
      fields[part.fieldname] =
        prev === undefined ? part.value : Array.isArray(prev) ? [...prev, part.value] : [prev, part.value];
    }
  }
  return { fields, file };
}

export async function readCreate(req: FastifyRequest) {
  const { fields, file } = await readForm(req);
  return { body: parseOr422(CampaignTriggerBody, fields), file };
}

export async function readPatch(req: FastifyRequest) {
  const { fields, file } = await readForm(req);
  return { body: parseOr422(CampaignTriggerPatch, fields), file };
}

type Merged = Omit<CampaignTriggerBody, never>;

/** The merged trigger (a patch over the stored row) as the create body's shape. */
export function mergedOf(row: CampaignTriggerRow, patch: Partial<CampaignTriggerBody>): Merged {
  return {
    name: patch.name ?? row.name,
    description: patch.description !== undefined ? patch.description : row.description,
    tags: patch.tags ?? row.tags,
    body: patch.body !== undefined ? patch.body : row.body,
    trigger_type: patch.trigger_type ?? (row.triggerType as Merged['trigger_type']),
    category: patch.category ?? (row.category as Merged['category']),
    trigger: patch.trigger ?? (row.trigger as Merged['trigger']),
    enabled: patch.enabled ?? row.enabled,
    compliant: patch.compliant ?? row.compliant,
    global: patch.global ?? row.global,
    auto_trigger: patch.auto_trigger ?? row.autoTrigger,
    show_on_bulk: patch.show_on_bulk ?? row.showOnBulk,
    show_on_conversation: patch.show_on_conversation ?? row.showOnConversation,
    show_on_event: patch.show_on_event ?? row.showOnEvent,
    recurrence: patch.recurrence ?? (row.recurrence as Merged['recurrence']),
    all_email_ids: patch.all_email_ids ?? row.emailIds,
    corporation_ids: patch.corporation_ids ?? row.corporationIds,
    all_sms_trigger_ids: patch.all_sms_trigger_ids ?? row.smsTriggerIds,
  };
}

const YEARLY = ['birthday', 'aep_start', 'ma_oep_start'];

/** The rules across fields, and every id checked against the company's own records. */
export async function assertTriggerRules(db: Db, companyId: number, b: Merged, selfId?: number) {
  const errors: Record<string, string[]> = {};
  const add = (f: string, m: string) => {
    errors[f] = [...(errors[f] ?? []), m];
  };
  if (b.trigger_type === 'email' && !b.all_email_ids.length) add('all_email_ids', 'an email trigger needs an email');
  if (b.trigger_type === 'sms' && !(b.body ?? '').trim()) add('body', 'an SMS trigger needs the text it sends');
  if (b.trigger_type === 'sms' && b.all_sms_trigger_ids.length) {
    add('all_sms_trigger_ids', 'only an email trigger sends SMS triggers with it');
  }
  if (b.auto_trigger && b.trigger === 'manual') add('trigger', 'an automatic trigger needs a date to run on');
  if (b.recurrence === 'yearly' && !YEARLY.includes(b.trigger)) {
    add('recurrence', 'yearly runs need a birthday, AEP or MA open enrollment trigger');
  }
  if (!b.global && !b.corporation_ids.length) add('corporation_ids', 'name the corporations, or make it global');
  if (b.all_email_ids.length) {
    const found = await rowsOf<{ id: number }>(
      db,
      sql`select id from email_templates where company_id = ${companyId} and deleted_at is null
        and id = any(${sql.param(b.all_email_ids)}::bigint[])`,
    );
    if (found.length !== new Set(b.all_email_ids).size) add('all_email_ids', 'contains an email that does not exist');
  }
  if (b.all_sms_trigger_ids.length) {
    if (selfId && b.all_sms_trigger_ids.includes(selfId)) add('all_sms_trigger_ids', 'cannot name this trigger');
    const found = await rowsOf<{ id: number }>(
      db,
      sql`select id from campaign_triggers where company_id = ${companyId} and deleted_at is null
        and trigger_type = 'sms' and id = any(${sql.param(b.all_sms_trigger_ids)}::bigint[])`,
    );
    if (found.length !== new Set(b.all_sms_trigger_ids).size) {
      add('all_sms_trigger_ids', 'contains a trigger that is not an SMS trigger of your company');
    }
  }
  if (Object.keys(errors).length) throw new HttpError(422, errors);
}

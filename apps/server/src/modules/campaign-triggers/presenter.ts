/** The only shape of a campaign trigger that leaves the server (CampaignTrigger of @harbor/shared). */
import type { CampaignTrigger } from '@harbor/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { rowsOf } from '../contacts/list-scope.js';

export type RawTrigger = Record<string, unknown> & { id: number };

const select = sql`select t.*, to_char(t.last_run_on, 'YYYY-MM-DD') as last_run_day, nullif(trim(u.first_name || ' ' || u.last_name), '') as created_by_name,
    coalesce((select jsonb_agg(jsonb_build_object('id', e.id, 'name', e.name, 'subject', e.subject) order by e.id)
      from email_templates e where e.id = any(t.email_ids) and e.deleted_at is null), '[]'::jsonb) as emails,
    coalesce((select jsonb_agg(jsonb_build_object('id', s.id, 'name', s.name) order by s.id)
      from campaign_triggers s where s.id = any(t.sms_trigger_ids) and s.deleted_at is null), '[]'::jsonb) as sms
  from campaign_triggers t left join users u on u.id = t.created_by`;

export function loadTriggers(db: Db, where: SQL, limit = 500, offset = 0) {
  return rowsOf<RawTrigger>(db, sql`${select} where ${where} order by t.name, t.id limit ${limit} offset ${offset}`);
}

const json = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;
const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string).toISOString());
const nums = (v: unknown) => ((v as Array<number | string>) ?? []).map(Number);

export function presentTrigger(t: RawTrigger): CampaignTrigger {
  return {
    id: Number(t.id),
    name: String(t.name),
    description: (t.description as string) ?? null,
    tags: (t.tags as string[]) ?? [],
    body: (t.body as string) ?? null,
    trigger_type: t.trigger_type as CampaignTrigger['trigger_type'],
    category: t.category as CampaignTrigger['category'],
    trigger: t.trigger as CampaignTrigger['trigger'],
    enabled: Boolean(t.enabled),
    compliant: Boolean(t.compliant),
    global: Boolean(t.global),
    auto_trigger: Boolean(t.auto_trigger),
    show_on_bulk: Boolean(t.show_on_bulk),
    show_on_conversation: Boolean(t.show_on_conversation),
    show_on_event: Boolean(t.show_on_event),
    recurrence: t.recurrence as CampaignTrigger['recurrence'],
    all_email_ids: nums(t.email_ids),
    corporation_ids: nums(t.corporation_ids),
    all_sms_trigger_ids: nums(t.sms_trigger_ids),
    emails: json<Array<{ id: number; name: string; subject: string }>>(t.emails).map((e) => ({
      ...e,
      id: Number(e.id),
    })),
    sms_triggers: json<Array<{ id: number; name: string }>>(t.sms).map((e) => ({ ...e, id: Number(e.id) })),
    file: t.file_key
      ? {
          name: String(t.file_name),
          content_type: String(t.file_type),
          size: Number(t.file_size),
          url: `/v1/campaign_triggers/${t.id}/file`,
        }
      : null,
    last_run_on: (t.last_run_day as string) ?? null,
    created_by: t.created_by ? { id: Number(t.created_by), name: String(t.created_by_name ?? 'A user') } : null,
    created_at: iso(t.created_at)!,
    updated_at: iso(t.updated_at)!,
  };
}

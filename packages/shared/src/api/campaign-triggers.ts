/**
 * Campaign triggers (spec document 2 §3; docs/decisions/campaign-triggers.md): a named message an agent can send from
 * the contacts bulk menu, a conversation or an event, and that runs by itself when `auto_trigger` is on (a birthday
 * note every year, an AEP reminder). Admin CRUD at /v1/admin/campaign_triggers (JSON or multipart with `file`);
 * agents list the usable ones at /v1/contacts/email_campaign_triggers and /v1/contacts/sms_campaign_triggers.
 */
import { z } from 'zod';
import { PageMeta } from './paging.js';
import { textPartsOf } from './params.js';

export const TRIGGER_TYPES = ['email', 'sms'] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];
/** What starts it: by hand, or a date of the contact's or of the Medicare year. */
export const TRIGGER_EVENTS = ['manual', 'birthday', 'turning_65', 'aep_start', 'ma_oep_start'] as const;
export type TriggerEvent = (typeof TRIGGER_EVENTS)[number];
export const TRIGGER_EVENT_LABELS: Record<TriggerEvent, string> = {
  manual: 'Sent by hand',
  birthday: "On the contact's birthday",
  turning_65: 'Ninety days before the contact turns 65',
  aep_start: 'Annual Enrollment Period opens (October 15)',
  ma_oep_start: 'Medicare Advantage Open Enrollment opens (January 1)',
};
export const TRIGGER_RECURRENCES = ['none', 'yearly'] as const;
export const TRIGGER_CATEGORIES = ['birthday', 'holiday', 'medicare', 'follow_up', 'newsletter', 'other'] as const;
/** What a trigger's file may be: what an MMS and an email attachment both carry. */
export const TRIGGER_FILE_TYPES = ['pdf', 'png', 'jpg', 'gif'] as const;
export const TRIGGER_FILE_MAX_BYTES = 5 * 1024 * 1024;

/** Multipart sends every value as text: "true", "1", ["a","b"] as JSON, or "a, b". */
const bool = z.preprocess(
  (v) => (v === 'true' || v === '1' ? true : v === 'false' || v === '0' ? false : v),
  z.boolean(),
);
const list = <T extends z.ZodTypeAny>(item: T, max: number) =>
  z.preprocess((v) => {
    if (typeof v !== 'string') return v;
    const s = v.trim();
    if (s.startsWith('[')) {
      try {
        return JSON.parse(s);
      } catch {
        return v;
      }
    }
    return s === '' ? [] : s.split(',').map((x) => x.trim());
  }, z.array(item).max(max));
const id = z.coerce.number().int().positive();

const fields = {
  name: z.string().trim().min(1).max(120),
  description: z.string().trim().max(1000).nullable(),
  tags: list(z.string().trim().min(1).max(40), 20),
  /** The text of an SMS trigger (merge fields allowed); an email trigger's note. */
  body: z.string().max(1600).nullable(),
  trigger_type: z.enum(TRIGGER_TYPES),
  category: z.enum(TRIGGER_CATEGORIES),
  trigger: z.enum(TRIGGER_EVENTS),
  enabled: bool,
  /** Reviewed and approved for compliance (e.g. Medicare marketing rules): agents only see compliant triggers. */
  compliant: bool,
  /** Available to everyone in the company; otherwise only to the corporations named. */
  global: bool,
  /** Runs by itself on its date (needs a `trigger` other than manual). */
  auto_trigger: bool,
  show_on_bulk: bool,
  show_on_conversation: bool,
  show_on_event: bool,
  recurrence: z.enum(TRIGGER_RECURRENCES),
  /** Email templates (GET /v1/admin/emails) this trigger sends; the first active one is the default. */
  all_email_ids: list(id, 20),
  corporation_ids: list(id, 100),
  /** SMS triggers sent together with this one (an email trigger's text follow-up). */
  all_sms_trigger_ids: list(id, 20),
};

export const CampaignTriggerBody = z.strictObject({
  ...fields,
  description: fields.description.optional(),
  tags: fields.tags.default([]),
  body: fields.body.optional(),
  category: fields.category.default('other'),
  trigger: fields.trigger.default('manual'),
  enabled: fields.enabled.default(true),
  compliant: fields.compliant.default(false),
  global: fields.global.default(true),
  auto_trigger: fields.auto_trigger.default(false),
  show_on_bulk: fields.show_on_bulk.default(true),
  show_on_conversation: fields.show_on_conversation.default(false),
  show_on_event: fields.show_on_event.default(false),
  recurrence: fields.recurrence.default('none'),
  all_email_ids: fields.all_email_ids.default([]),
  corporation_ids: fields.corporation_ids.default([]),
  all_sms_trigger_ids: fields.all_sms_trigger_ids.default([]),
});
export type CampaignTriggerBody = z.infer<typeof CampaignTriggerBody>;

export const CampaignTriggerPatch = z.strictObject({
  ...Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.optional()])),
  /** Removes the file (a new `file` part replaces it). */
  remove_file: bool.optional(),
}) as z.ZodType<Partial<CampaignTriggerBody> & { remove_file?: boolean }>;

const Ref = z.object({ id: z.number(), name: z.string() });
export const TriggerFile = z.object({ name: z.string(), content_type: z.string(), size: z.number(), url: z.string() });

export const CampaignTrigger = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string().nullable(),
  tags: z.array(z.string()),
  body: z.string().nullable(),
  trigger_type: z.enum(TRIGGER_TYPES),
  category: z.enum(TRIGGER_CATEGORIES),
  trigger: z.enum(TRIGGER_EVENTS),
  enabled: z.boolean(),
  compliant: z.boolean(),
  global: z.boolean(),
  auto_trigger: z.boolean(),
  show_on_bulk: z.boolean(),
  show_on_conversation: z.boolean(),
  show_on_event: z.boolean(),
  recurrence: z.enum(TRIGGER_RECURRENCES),
  all_email_ids: z.array(z.number()),
  corporation_ids: z.array(z.number()),
  all_sms_trigger_ids: z.array(z.number()),
  emails: z.array(Ref.extend({ subject: z.string() })),
  sms_triggers: z.array(Ref),
  file: TriggerFile.nullable(),
  /** The last automatic run (the day it ran for). */
  last_run_on: z.string().nullable(),
  created_by: Ref.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type CampaignTrigger = z.infer<typeof CampaignTrigger>;

export const CampaignTriggerListQuery = z.object({
  q: z.string().trim().max(100).optional(),
  trigger_type: z.enum(TRIGGER_TYPES).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});
export const CampaignTriggerList = z.object({ data: z.array(CampaignTrigger), meta: PageMeta });

/** What an agent sees: triggers that are enabled, compliant and theirs to use, where they are shown. */
export const UsableTriggersQuery = z.object({ show_on: z.enum(['bulk', 'conversation', 'event']).optional() });
export const UsableTrigger = CampaignTrigger.pick({
  id: true,
  name: true,
  description: true,
  category: true,
  trigger: true,
  body: true,
  show_on_bulk: true,
  show_on_conversation: true,
  show_on_event: true,
  emails: true,
  file: true,
});
export const UsableTriggerList = z.object({ data: z.array(UsableTrigger) });

/** The same fields as multipart/form-data text parts, and an optional `file` (pdf, png, jpg, gif). */
export const CampaignTriggerForm = textPartsOf(CampaignTriggerBody).extend({ file: z.file().optional() });
export const CampaignTriggerPatchForm = CampaignTriggerForm.extend({ remove_file: z.string().optional() });

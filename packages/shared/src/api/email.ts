/**
 * Email (issue 11; docs/decisions/email.md): the admin's templates (/v1/admin/emails, "broadcast emails"), the
 * agents' sending (mailing_group, send_test_email, send_broadcast_email, a contact's send_email), the history and
 * the event log of a contact, and the unsubscribe page.
 */
import { z } from 'zod';
import { BroadcastSelection } from './broadcasts.js';
import { PageMeta } from './paging.js';

/** Merge fields a template may use, as {{name}}. */
export const EMAIL_MERGE_FIELDS = [
  { key: 'first_name', label: 'First name', sample: 'Mary' },
  { key: 'last_name', label: 'Last name', sample: 'Smith' },
  { key: 'full_name', label: 'Full name', sample: 'Mary Smith' },
  { key: 'email', label: 'Email', sample: 'mary@example.com' },
  { key: 'phone', label: 'Phone', sample: '1-502-555-0143' },
  { key: 'city', label: 'City', sample: 'Louisville' },
  { key: 'state', label: 'State', sample: 'KY' },
  { key: 'agent_name', label: 'Agent name', sample: 'Angela Diaz' },
  { key: 'agent_first_name', label: 'Agent first name', sample: 'Angela' },
  { key: 'agent_email', label: 'Agent email', sample: 'angela@example.com' },
  { key: 'agent_phone', label: 'Agent phone', sample: '1-813-555-0100' },
  { key: 'company_name', label: 'Agency name', sample: 'Harbor Demo Insurance' },
  { key: 'unsubscribe_url', label: 'Unsubscribe link', sample: 'https://example.com/unsubscribe/…' },
] as const;
export type EmailMergeField = (typeof EMAIL_MERGE_FIELDS)[number]['key'];
export const EMAIL_CATEGORIES = ['birthday', 'holiday', 'medicare', 'follow_up', 'newsletter', 'other'] as const;
export const EMAIL_SUBJECT_MAX = 200;
/** The HTML of a template or a message, at most (about 200 kB of text). */
export const EMAIL_HTML_MAX = 200_000;
/** The session storage key the assistant leaves a generated template under (spec §3); read once, then removed. */
export const AI_GENERATED_EMAIL_KEY = 'ai_generated_email';

export const EmailTemplateBody = z.strictObject({
  name: z.string().trim().min(1).max(120),
  subject: z.string().trim().min(1).max(EMAIL_SUBJECT_MAX),
  body_html: z.string().min(1).max(EMAIL_HTML_MAX),
  category: z.enum(EMAIL_CATEGORIES).default('other'),
  active: z.boolean().default(true),
});
export type EmailTemplateBody = z.infer<typeof EmailTemplateBody>;
export const EmailTemplatePatch = EmailTemplateBody.partial();

export const EmailTemplate = z.object({
  id: z.number(),
  name: z.string(),
  subject: z.string(),
  body_html: z.string(),
  category: z.enum(EMAIL_CATEGORIES),
  active: z.boolean(),
  created_by: z.object({ id: z.number(), name: z.string() }).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type EmailTemplate = z.infer<typeof EmailTemplate>;
export const EmailTemplateList = z.object({ data: z.array(EmailTemplate), meta: PageMeta });
export const EmailTemplateListQuery = z.object({
  q: z.string().trim().max(100).optional(),
  active: z.enum(['true', 'false']).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});

/** Bulk update: the same change to many templates (activate, deactivate, recategorise), or delete them. */
export const EmailBulkUpdateBody = z.strictObject({
  ids: z.array(z.number().int().positive()).min(1).max(500),
  active: z.boolean().optional(),
  category: z.enum(EMAIL_CATEGORIES).optional(),
  delete: z.boolean().optional(),
});
export const EmailBulkUpdateReply = z.object({
  updated: z.number(),
  changes: z.array(
    z.object({ id: z.number(), from: z.record(z.string(), z.unknown()), to: z.record(z.string(), z.unknown()) }),
  ),
});

/** A preview: the subject and HTML with a contact's data (or samples) merged in, sanitised as it would be sent. */
export const EmailPreviewBody = z.strictObject({
  subject: z.string().max(EMAIL_SUBJECT_MAX),
  body_html: z.string().max(EMAIL_HTML_MAX),
  /** A contact's internal id; samples when absent. */
  contact_id: z.number().int().positive().optional(),
});
export const EmailPreview = z.object({ subject: z.string(), html: z.string(), unknown_fields: z.array(z.string()) });

/** What agents pick from: active templates. */
export const AgentEmailList = z.object({
  data: z.array(z.object({ id: z.number(), name: z.string(), subject: z.string(), category: z.string() })),
});

export const SendBroadcastEmailBody = BroadcastSelection.extend({
  email_id: z.number().int().positive().optional(),
  email_campaign_trigger_id: z.number().int().positive().optional(),
  /** A recurring trigger (yearly): the broadcast goes now; the trigger keeps its own yearly run. */
  recurrence_campaign_trigger_id: z.number().int().positive().optional(),
  send_now: z.boolean().default(true),
  send_at: z.iso.datetime({ offset: true }).optional(),
});
export type SendBroadcastEmailBody = z.infer<typeof SendBroadcastEmailBody>;

/** Email a selection with a message written now (the contacts bulk menu's "Email"). */
export const MailingGroupBody = BroadcastSelection.extend({
  subject: z.string().trim().min(1).max(EMAIL_SUBJECT_MAX),
  email_body: z.string().min(1).max(EMAIL_HTML_MAX),
  send_at: z.iso.datetime({ offset: true }).optional(),
});

/** A test to oneself: a template or a message, merged with one of the selected contacts (or samples). */
export const SendTestEmailBody = z.strictObject({
  email_id: z.number().int().positive().optional(),
  subject: z.string().max(EMAIL_SUBJECT_MAX).optional(),
  email_body: z.string().max(EMAIL_HTML_MAX).optional(),
  contact_id: z.number().int().positive().optional(),
  ids: z.array(z.number().int().positive()).max(50_000).optional(),
});
export const SendTestEmailReply = z.object({ sent_to: z.string(), subject: z.string() });

export const SendEmailBody = z.strictObject({
  subject: z.string().trim().min(1).max(EMAIL_SUBJECT_MAX),
  email_body: z.string().min(1).max(EMAIL_HTML_MAX),
});

export const EMAIL_MESSAGE_STATUSES = [
  'queued',
  'sending',
  'sent',
  'deferred',
  'delivered',
  'bounced',
  'dropped',
  'failed',
  'opened',
  'clicked',
  'complained',
] as const;
export type EmailMessageStatus = (typeof EMAIL_MESSAGE_STATUSES)[number];
export const EMAIL_MESSAGE_STATUS_LABELS: Record<EmailMessageStatus, string> = {
  queued: 'Queued',
  sending: 'Sending',
  sent: 'Sent',
  deferred: 'Delayed',
  delivered: 'Delivered',
  bounced: 'Bounced',
  dropped: 'Dropped',
  failed: 'Failed',
  opened: 'Opened',
  clicked: 'Clicked',
  complained: 'Marked as spam',
};

export const EmailMessage = z.object({
  id: z.number(),
  subject: z.string(),
  to: z.string(),
  status: z.enum(EMAIL_MESSAGE_STATUSES),
  from: z.object({ id: z.number(), name: z.string() }),
  broadcast_id: z.number().nullable(),
  /** What the consent answer rested on when it was sent. */
  consent_basis: z.string().nullable(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
  /** The body, in the one-message reply of send_email and in the history. */
  html: z.string().nullable(),
});
export type EmailMessage = z.infer<typeof EmailMessage>;
export const EmailHistoryBody = z.object({
  page: z.number().int().min(1).max(100_000).default(1),
  limit: z.number().int().min(1).max(100).default(10),
});
export const EmailHistory = z.object({ data: z.array(EmailMessage), meta: PageMeta });

export const EMAIL_EVENTS = [
  'processed',
  'deferred',
  'delivered',
  'bounce',
  'dropped',
  'open',
  'click',
  'spamreport',
  'unsubscribe',
] as const;
export const EMAIL_EVENT_LABELS: Record<(typeof EMAIL_EVENTS)[number], string> = {
  processed: 'Accepted by the mail service',
  deferred: 'Delayed',
  delivered: 'Delivered',
  bounce: 'Bounced',
  dropped: 'Dropped',
  open: 'Opened',
  click: 'Clicked',
  spamreport: 'Marked as spam',
  unsubscribe: 'Unsubscribed',
};
export const EmailLogQuery = z.object({
  /** Spec: email logs default to 5. */
  limit: z.coerce.number().int().min(1).max(100).default(5),
  before: z.coerce.number().int().positive().optional(),
});
export const EmailLogEntry = z.object({
  id: z.number(),
  message_id: z.number(),
  subject: z.string(),
  event: z.enum(EMAIL_EVENTS),
  label: z.string(),
  count: z.number(),
  detail: z.string().nullable(),
  at: z.string(),
});
export const EmailLog = z.object({ data: z.array(EmailLogEntry), has_more: z.boolean() });

/** The unsubscribe page (public, by the link's token). */
export const UnsubscribeInfo = z.object({
  agent_name: z.string(),
  company_name: z.string(),
  /** The address, partly hidden. */
  email: z.string(),
  opted_out_all: z.boolean(),
  opted_out_agent: z.boolean(),
});
export const UnsubscribeBody = z.object({ scope: z.enum(['agent', 'all']).default('all') });

export const UnsubscribeParams = z.object({
  token: z
    .string()
    .min(10)
    .max(400)
    .regex(/^[A-Za-z0-9_.-]+$/),
});
export const UnsubscribeReply = z.object({ unsubscribed: z.literal(true), scope: z.enum(['agent', 'all']) });

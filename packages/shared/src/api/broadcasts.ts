/**
 * Broadcasts, whatever the channel (docs/decisions/broadcasts.md): a snapshot of the recipients chosen (`ids`, or
 * `all` over a contacts scope, within the caller's reach), a preview of who receives it and who is removed and why,
 * then a durable job that sends once per recipient, with progress on BroadcastsChannel and a cancel.
 */
import { z } from 'zod';
import { CONSENT_PURPOSES, REMOVAL_REASONS } from './consent.js';
import { PageMeta } from './paging.js';

export const BROADCAST_CHANNELS = ['email', 'sms'] as const;
export type BroadcastChannel = (typeof BROADCAST_CHANNELS)[number];
export const BROADCAST_STATUSES = ['scheduled', 'running', 'completed', 'cancelled', 'failed'] as const;
export type BroadcastStatus = (typeof BROADCAST_STATUSES)[number];
export const BROADCAST_STATUS_LABELS: Record<BroadcastStatus, string> = {
  scheduled: 'Scheduled',
  running: 'Sending',
  completed: 'Sent',
  cancelled: 'Canceled',
  failed: 'Failed',
};
export const RECIPIENT_STATUSES = ['pending', 'sending', 'sent', 'removed', 'failed', 'cancelled'] as const;
export type RecipientStatus = (typeof RECIPIENT_STATUSES)[number];
/** The live channel a browser subscribes to for the progress of its broadcasts. */
export const BROADCASTS_CHANNEL = 'BroadcastsChannel';
/** A broadcast this large or larger needs `all` with a scope rather than a list of ids. */
export const BROADCAST_MAX_IDS = 50_000;

/** A selection of contacts: chosen `ids`, or `all` contacts matching `contacts_scope` (the list's filters). */
export const BroadcastSelection = z.object({
  ids: z.array(z.number().int().positive()).max(BROADCAST_MAX_IDS).optional(),
  all: z.boolean().optional(),
  contacts_scope: z.record(z.string(), z.unknown()).optional(),
});

export const BroadcastPreviewBody = BroadcastSelection.extend({
  channel: z.enum(BROADCAST_CHANNELS),
  purpose: z.enum(CONSENT_PURPOSES).default('marketing'),
  /** Medicare products the message is about (texts need a permission to contact naming one). */
  products: z.array(z.string()).max(10).optional(),
});
export type BroadcastPreviewBody = z.infer<typeof BroadcastPreviewBody>;

export const RemovedCount = z.object({ reason: z.enum(REMOVAL_REASONS), label: z.string(), count: z.number() });
export const BroadcastPreview = z.object({
  channel: z.enum(BROADCAST_CHANNELS),
  /** Contacts selected. */
  total: z.number(),
  /** Who would receive it now (consent is asked again at send time). */
  receive: z.number(),
  removed: z.array(RemovedCount),
  /** Up to 20 of those removed, so the sender sees who and why. */
  removed_sample: z.array(
    z.object({
      id: z.number(),
      number: z.number(),
      name: z.string(),
      reason: z.enum(REMOVAL_REASONS),
      label: z.string(),
    }),
  ),
});
export type BroadcastPreview = z.infer<typeof BroadcastPreview>;

export const Broadcast = z.object({
  id: z.number(),
  channel: z.enum(BROADCAST_CHANNELS),
  status: z.enum(BROADCAST_STATUSES),
  /** What is sent, for people: the template's name or the subject. */
  title: z.string(),
  user: z.object({ id: z.number(), name: z.string() }),
  trigger: z.object({ id: z.number(), name: z.string() }).nullable(),
  send_at: z.string().nullable(),
  total: z.number(),
  /** Recipients whose turn has come and gone: sent + removed + failed. */
  processed: z.number(),
  sent: z.number(),
  removed: z.number(),
  failed: z.number(),
  removed_reasons: z.array(RemovedCount),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  cancelled_at: z.string().nullable(),
});
export type Broadcast = z.infer<typeof Broadcast>;

export const BroadcastList = z.object({ data: z.array(Broadcast), meta: PageMeta });
export const BroadcastListQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
  channel: z.enum(BROADCAST_CHANNELS).optional(),
});

export const BroadcastRecipientsQuery = z.object({
  status: z.enum(RECIPIENT_STATUSES).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export const BroadcastRecipient = z.object({
  contact: z.object({ id: z.number(), number: z.number(), name: z.string() }),
  status: z.enum(RECIPIENT_STATUSES),
  reason: z.enum(REMOVAL_REASONS).nullable(),
  label: z.string().nullable(),
  address: z.string().nullable(),
  /** What the consent answer rested on at send time (e.g. `unknown`, `allowed:form`). */
  basis: z.string().nullable(),
  updated_at: z.string(),
});
export const BroadcastRecipientList = z.object({ data: z.array(BroadcastRecipient), meta: PageMeta });

/** The progress message of BroadcastsChannel: the broadcast as GET /v1/broadcasts/{id} answers it. */
export const BroadcastProgressMessage = z.object({ type: z.literal('broadcast'), broadcast: Broadcast });
export type BroadcastProgressMessage = z.infer<typeof BroadcastProgressMessage>;

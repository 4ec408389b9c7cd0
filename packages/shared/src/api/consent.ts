/**
 * The consent record (issue 11; docs/decisions/consent-record.md): per contact and channel (email, text, call) a
 * status (allowed, opted out, unknown) with since when, how and who; addresses suppressed after a bounce, a spam
 * complaint or an opt-out; and for Medicare the permission to contact (12 months, the products named). Every send
 * path asks the server's checkConsent at send time; these labels explain its answers to a person.
 */
import { z } from 'zod';
import { SOA_PRODUCTS } from '../medicare/soa-rule.js';

export const CONSENT_CHANNELS = ['email', 'sms', 'voice'] as const;
export type ConsentChannel = (typeof CONSENT_CHANNELS)[number];
export const CONSENT_CHANNEL_LABELS: Record<ConsentChannel, string> = {
  email: 'Email',
  sms: 'Text messages',
  voice: 'Calls',
};

export const CONSENT_STATUSES = ['allowed', 'opted_out', 'unknown'] as const;
export type ConsentStatus = (typeof CONSENT_STATUSES)[number];
export const CONSENT_STATUS_LABELS: Record<ConsentStatus, string> = {
  allowed: 'Allowed',
  opted_out: 'Opted out',
  unknown: 'Unknown',
};

/** How a consent or an opt-out reached Harbor. `agent` is a person's note, and the record keeps who wrote it. */
export const CONSENT_SOURCES = ['form', 'reply', 'import', 'agent', 'call', 'unsubscribe', 'complaint', 'api'] as const;
export type ConsentSource = (typeof CONSENT_SOURCES)[number];
export const CONSENT_SOURCE_LABELS: Record<ConsentSource, string> = {
  form: 'A form the person filled in',
  reply: 'A reply from the person (e.g. STOP or START)',
  import: 'An import column',
  agent: "An agent's note",
  call: 'Said during a call',
  unsubscribe: 'The unsubscribe link',
  complaint: 'A spam complaint',
  api: 'Another system, through the API',
};

/**
 * Why a send asks: `marketing` (broadcasts, campaign triggers: texts and calls need consent on record),
 * `conversation` (one person, by hand: an opt-out blocks, unknown does not) and `transactional` (something the
 * person asked for, such as an SOA link: an opt-out still blocks; Medicare permission is not needed).
 */
export const CONSENT_PURPOSES = ['marketing', 'conversation', 'transactional'] as const;
export type ConsentPurpose = (typeof CONSENT_PURPOSES)[number];

/** Why a recipient is removed from a send, most significant first (a recipient is counted under one reason). */
export const REMOVAL_REASONS = [
  'deleted',
  'opted_out',
  'opted_out_sender',
  'complained',
  'bounced',
  'no_address',
  'invalid_address',
  'no_consent',
  'no_permission_to_contact',
] as const;
export type RemovalReason = (typeof REMOVAL_REASONS)[number];

/** A person-readable reason; `channel` names the missing address ("No email address", "No phone number"). */
export function removalReasonLabel(reason: RemovalReason, channel: ConsentChannel): string {
  switch (reason) {
    case 'deleted':
      return 'Contact deleted';
    case 'opted_out':
      return 'Opted out';
    case 'opted_out_sender':
      return 'Opted out of your messages';
    case 'complained':
      return 'Marked a message as spam';
    case 'bounced':
      return 'Address bounced';
    case 'no_address':
      return channel === 'email' ? 'No email address' : 'No phone number';
    case 'invalid_address':
      return channel === 'email' ? 'Invalid email address' : 'Invalid phone number';
    case 'no_consent':
      return 'No consent on record';
    case 'no_permission_to_contact':
      return 'No Medicare permission to contact';
  }
}

/** What an allowed send should still tell the person (issue 14: a product not covered warns). */
export const CONSENT_WARNINGS = ['ptc_missing', 'ptc_expired', 'ptc_not_covering'] as const;
export type ConsentWarning = (typeof CONSENT_WARNINGS)[number];
export const CONSENT_WARNING_LABELS: Record<ConsentWarning, string> = {
  ptc_missing: 'No Medicare permission to contact on record',
  ptc_expired: 'The Medicare permission to contact has expired',
  ptc_not_covering: 'The Medicare permission to contact does not name this product',
};

/** Address-level suppressions: every contact with the address is removed from sends on that channel. */
export const SUPPRESSION_REASONS = ['bounced', 'complained', 'opted_out'] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

/** Medicare permission to contact lasts twelve months and covers the products it names. */
export const PTC_MONTHS = 12;

const iso = z.string();
const Person = z.object({ id: z.number(), name: z.string() }).nullable();

export const ConsentChannelState = z.object({
  channel: z.enum(CONSENT_CHANNELS),
  status: z.enum(CONSENT_STATUSES),
  since: iso.nullable(),
  source: z.enum(CONSENT_SOURCES).nullable(),
  detail: z.string().nullable(),
  recorded_by: Person,
  /** The address this channel uses (email, or the phone for texts and calls); null when the contact has none. */
  address: z.string().nullable(),
  /** The address is suppressed (bounced, complained, opted out), whichever contact it belongs to. */
  suppressed: z.object({ reason: z.enum(SUPPRESSION_REASONS), since: iso, detail: z.string().nullable() }).nullable(),
  /** Email only: agents whose messages the person declined (the unsubscribe page's "this agent only"). */
  senders_opted_out: z.array(z.object({ id: z.number(), name: z.string(), since: iso })),
});
export type ConsentChannelState = z.infer<typeof ConsentChannelState>;

export const PermissionToContact = z.object({
  id: z.number(),
  products: z.array(z.string()),
  granted_at: iso,
  expires_at: iso,
  source: z.enum(CONSENT_SOURCES),
  detail: z.string().nullable(),
  recorded_by: Person,
  /** active | expired | revoked */
  state: z.enum(['active', 'expired', 'revoked']),
  revoked_at: iso.nullable(),
});
export type PermissionToContact = z.infer<typeof PermissionToContact>;

export const ConsentEvent = z.object({
  id: z.number(),
  /** email, sms, voice, or medicare (permission to contact). */
  channel: z.string(),
  from_status: z.string().nullable(),
  to_status: z.string(),
  source: z.enum(CONSENT_SOURCES),
  detail: z.string().nullable(),
  address: z.string().nullable(),
  actor: Person,
  /** Email opt-outs limited to one agent's messages name the agent. */
  sender: Person,
  created_at: iso,
});
export type ConsentEvent = z.infer<typeof ConsentEvent>;

export const ConsentRecord = z.object({
  contact_id: z.number(),
  channels: z.array(ConsentChannelState),
  /** The latest permission to contact (active, expired or revoked); null when none was ever recorded. */
  permission_to_contact: PermissionToContact.nullable(),
  /** Newest first, at most 50. */
  history: z.array(ConsentEvent),
});
export type ConsentRecord = z.infer<typeof ConsentRecord>;

export const ConsentChangeBody = z
  .strictObject({
    channels: z.array(z.enum(CONSENT_CHANNELS)).min(1).max(3),
    status: z.enum(['allowed', 'opted_out']),
    source: z.enum(['form', 'reply', 'agent', 'call']).default('agent'),
    /** What the person said or signed, and where. Needed to record a consent; an opt-out counts without one. */
    note: z.string().trim().max(500).optional(),
  })
  .refine((b) => b.status === 'opted_out' || (b.note ?? '').length >= 3, {
    path: ['note'],
    message: 'say how the person gave consent (at least 3 characters)',
  });
export type ConsentChangeBody = z.infer<typeof ConsentChangeBody>;

export const PtcBody = z.strictObject({
  products: z.array(z.enum(SOA_PRODUCTS)).min(1).max(SOA_PRODUCTS.length),
  source: z.enum(['form', 'reply', 'agent', 'call']).default('agent'),
  note: z.string().trim().max(500).optional(),
  /** When the beneficiary gave it (default now); not in the future, not older than 12 months. */
  granted_at: z.iso.datetime({ offset: true }).optional(),
});
export type PtcBody = z.infer<typeof PtcBody>;

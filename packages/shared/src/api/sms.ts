/**
 * Two-way texting (issue 12; docs/decisions/sms-*.md): the conversations inbox (/v1/sms/...), the numbers a company
 * texts from, phone verifications (line type), and what the SMS channel of /cable carries. Plans, subscriptions,
 * licences and orders are in usage-plans.ts.
 */
import { z } from 'zod';
import { BroadcastSelection } from './broadcasts.js';
import { PageMeta } from './paging.js';
import { textPartsOf } from './params.js';

export const SMS_CHANNEL = 'SmsChannel';
/** Spec §9: the toast and the notification of an inbound text wait this long (ms). */
export const SMS_NOTIFICATION_DELAY_MS = 500;
export const SMS_NOTIFICATION_TITLE = 'New Message';
export const smsToastText = (phone: string) => `New message from ${phone}`;

/** A text longer than this many segments is refused (carriers drop or split longer ones; Twilio caps at 10). */
export const SMS_MAX_SEGMENTS = 10;
/** MMS: what a picture may be, and its size (carriers reliably deliver up to 5 MB with Twilio). */
export const MMS_TYPES = ['image/jpeg', 'image/png', 'image/gif'] as const;
export const MMS_MAX_BYTES = 5 * 1024 * 1024;

export const SMS_DIRECTIONS = ['outbound', 'inbound'] as const;
/** Outbound statuses move forward only: queued < sending < sent < delivered | undelivered | failed. */
export const SMS_STATUSES = ['queued', 'sending', 'sent', 'delivered', 'undelivered', 'failed', 'received'] as const;
export type SmsStatus = (typeof SMS_STATUSES)[number];
export const SMS_STATUS_LABELS: Record<SmsStatus, string> = {
  queued: 'Queued',
  sending: 'Sending',
  sent: 'Sent',
  delivered: 'Delivered',
  undelivered: 'Not delivered',
  failed: 'Failed',
  received: 'Received',
};
export const LINE_TYPES = ['mobile', 'landline', 'voip', 'unknown', 'invalid'] as const;
export type LineType = (typeof LINE_TYPES)[number];

// GSM 03.38 basic set and its extension (which takes two septets).
const GSM7 =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
const GSM7_EXT = '^{}\\[~]|€\f';

/**
 * How carriers split a text: GSM-7 (160 septets, 153 a part when split) unless any character needs UCS-2 (70, 67 a
 * part; an emoji counts as two units). What the composer shows and what is charged come from this one function.
 */
export function smsSegments(text: string): { encoding: 'GSM-7' | 'UCS-2'; units: number; segments: number } {
  if (!text) return { encoding: 'GSM-7', units: 0, segments: 0 };
  let septets = 0;
  let gsm = true;
  for (const ch of text) {
    if (GSM7.includes(ch)) septets += 1;
    else if (GSM7_EXT.includes(ch)) septets += 2;
    else {
      gsm = false;
      break;
    }
  }
  if (gsm) return { encoding: 'GSM-7', units: septets, segments: septets <= 160 ? 1 : Math.ceil(septets / 153) };
  const units = text.length; // UTF-16 code units: what UCS-2 carries
  return { encoding: 'UCS-2', units, segments: units <= 70 ? 1 : Math.ceil(units / 67) };
}

export const SmsMedia = z.object({ url: z.string(), content_type: z.string() });
export const SmsMessage = z.object({
  id: z.number(),
  contact_id: z.number().nullable(),
  direction: z.enum(SMS_DIRECTIONS),
  from: z.string(),
  to: z.string(),
  body: z.string(),
  media: z.array(SmsMedia),
  segments: z.number(),
  status: z.enum(SMS_STATUSES),
  error_code: z.number().nullable(),
  error_message: z.string().nullable(),
  /** An inbound reply that may mean "stop" but is not clear: the agent decides (docs/decisions/sms-opt-out.md). */
  flagged: z.boolean(),
  /** What an inbound reply did to the consent record: 'opted_out', 'opted_in', or null. */
  consent_change: z.enum(['opted_out', 'opted_in']).nullable(),
  /** Cents given back because the carrier never took the text (docs/decisions/sms-refunds.md); 0 otherwise. */
  refunded_cents: z.number(),
  user: z.object({ id: z.number(), name: z.string() }).nullable(),
  created_at: z.string(),
});
export type SmsMessage = z.infer<typeof SmsMessage>;

export const SmsConversation = z.object({
  contact: z.object({ id: z.number(), number: z.number(), name: z.string(), phone: z.string().nullable() }),
  last_message: z.object({ body: z.string(), direction: z.enum(SMS_DIRECTIONS), at: z.string() }),
  unread_count: z.number(),
  opted_out: z.boolean(),
  flagged: z.boolean(),
});
export type SmsConversation = z.infer<typeof SmsConversation>;

export const FetchConversationsBody = z.strictObject({
  q: z.string().trim().max(100).optional(),
  unread: z.boolean().optional(),
  page: z.number().int().min(1).max(100_000).default(1),
  limit: z.number().int().min(1).max(100).default(30),
});
export const SmsConversationList = z.object({ data: z.array(SmsConversation), meta: PageMeta });

export const FetchMessagesBody = z.strictObject({
  contact_id: z.number().int().positive(),
  /** Older than this message id (the thread loads backwards). */
  before_id: z.number().int().positive().optional(),
  limit: z.number().int().min(1).max(200).default(50),
});
export const SmsMessageList = z.object({ data: z.array(SmsMessage), has_more: z.boolean() });

export const ReadConversationBody = z.strictObject({
  contact_id: z.number().int().positive(),
  /** false marks the conversation unread again (its newest reply). */
  read: z.boolean().default(true),
});

export const ShowConversation = z.object({
  conversation: SmsConversation.nullable(),
  contact: SmsConversation.shape.contact,
  /** Whether texting this contact is possible now, and if not why (opted out, landline, no number...). */
  can_text: z.boolean(),
  blocked_reason: z.string().nullable(),
  line_type: z.enum(LINE_TYPES).nullable(),
  messages: z.array(SmsMessage),
  has_more: z.boolean(),
});

/** The form fields of send_message (multipart; spec §3). */
export const SendMessageFields = z.object({
  contact_id: z.coerce.number().int().positive(),
  message_to: z.string().trim().min(1).max(32),
  message_content: z.string().max(1600).default(''),
  campaign_trigger_id: z.coerce.number().int().positive().optional(),
  mms: z.enum(['true', 'false']).optional(),
  is_mss: z.enum(['true', 'false']).optional(),
});

export const UpdatePermissionBody = z.strictObject({
  contact_id: z.number().int().positive(),
  /** Record the contact's texting consent: allowed (with how it was given) or opted_out. */
  status: z.enum(['allowed', 'opted_out']),
  detail: z.string().trim().max(300).optional(),
  /** Clears the flag of an ambiguous reply once the agent has decided. */
  clear_flag: z.boolean().optional(),
});

/** What the SMS channel of /cable carries: an inbound text (with the number, spec §7), or a status change. */
export const SmsInboundMessage = z.object({
  type: z.literal('sms_inbound'),
  phone_number: z.string(),
  contact_id: z.number().nullable(),
  contact_name: z.string().nullable(),
  message: SmsMessage,
});
export const SmsStatusMessage = z.object({
  type: z.literal('sms_status'),
  id: z.number(),
  contact_id: z.number().nullable(),
  status: z.enum(SMS_STATUSES),
  error_code: z.number().nullable(),
  error_message: z.string().nullable(),
});
export const SmsChannelMessage = z.discriminatedUnion('type', [SmsInboundMessage, SmsStatusMessage]);
export type SmsChannelMessage = z.infer<typeof SmsChannelMessage>;

export const PhoneVerification = z.object({
  id: z.number(),
  phone: z.string(),
  line_type: z.enum(LINE_TYPES),
  carrier: z.string().nullable(),
  contact: z.object({ id: z.number(), name: z.string() }).nullable(),
  created_at: z.string(),
});
export const PhoneVerificationsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  q: z.string().trim().max(100).optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  order_field: z.enum(['created_at', 'phone', 'line_type']).default('created_at'),
  order: z.enum(['asc', 'desc']).default('desc'),
});
export const PhoneVerificationList = z.object({ data: z.array(PhoneVerification), meta: PageMeta });

export const NUMBER_REGISTRATION_STATUSES = ['pending', 'approved', 'rejected'] as const;
export const SmsNumber = z.object({
  id: z.number(),
  phone: z.string(),
  user: z.object({ id: z.number(), name: z.string() }).nullable(),
  /** A2P 10DLC: the campaign this number sends under must be approved before it can text (production). */
  registration_status: z.enum(NUMBER_REGISTRATION_STATUSES),
  monthly_price: z.number(),
  created_at: z.string(),
});
export type SmsNumber = z.infer<typeof SmsNumber>;
export const NumberSearchQuery = z.object({
  area_code: z
    .string()
    .regex(/^[2-9][0-9]{2}$/, 'An area code is three digits')
    .optional(),
  contains: z
    .string()
    .regex(/^[0-9]{1,7}$/)
    .optional(),
});
export const NumberSearchResult = z.object({
  data: z.array(z.object({ phone_number: z.string(), friendly_name: z.string(), locality: z.string().nullable() })),
});
export const NumberPurchaseBody = z.strictObject({
  phone_number: z.string().trim().min(10).max(20),
  /** Pay the first month from the wallet (otherwise it is billed to the company). */
  pay_from_wallet: z.boolean().default(true),
});

/** Bulk texting from the contacts list (routes.md `messaging`): a message written now or a campaign trigger's text. */
export const SendBroadcastSmsBody = BroadcastSelection.extend({
  message: z.string().trim().max(1600).optional(),
  campaign_trigger_id: z.number().int().positive().optional(),
  /** A recurring trigger: the broadcast goes now; the trigger keeps its own yearly run. */
  recurrence_campaign_trigger_id: z.number().int().positive().optional(),
  send_now: z.boolean().default(true),
  send_at: z.iso.datetime({ offset: true }).optional(),
});
export const SmsGroupBody = BroadcastSelection.extend({
  message: z.string().trim().min(1).max(1600),
  send_at: z.iso.datetime({ offset: true }).optional(),
});
export const SendTestSmsBody = z.strictObject({
  message: z.string().trim().min(1).max(1600),
  /** Your own mobile. */
  to: z.string().trim().min(10).max(20),
});
export const SmsBroadcastPreviewBody = BroadcastSelection.extend({ message: z.string().max(1600).default('') });
/** Quiet hours in the recipient's time zone (TCPA: no texts before 8 a.m. or after 9 p.m. local time). */
export const SMS_QUIET_HOURS = { from: 21, to: 8 } as const;
export const SmsBroadcastPreview = z.object({
  total: z.number(),
  /** Receive it now. */
  receive: z.number(),
  removed: z.array(z.object({ reason: z.string(), label: z.string(), count: z.number() })),
  removed_sample: z.array(z.object({ id: z.number(), number: z.number(), name: z.string(), label: z.string() })),
  /** In quiet hours where they are now: their text waits for 8 a.m. their time. */
  waiting_for_morning: z.number(),
  segments: z.number(),
  unit_price: z.number(),
  /** Cents: receive x segments x unit price. */
  cost: z.number(),
  cost_label: z.string(),
  balance: z.number(),
  affordable: z.boolean(),
});
export type SmsBroadcastPreview = z.infer<typeof SmsBroadcastPreview>;

/** Texting a contact as multipart/form-data: the fields as text parts and the MMS picture as `file`. */
export const SendMessageForm = textPartsOf(SendMessageFields).extend({ file: z.file().optional() });
export const ShowConversationQuery = z.object({ contact_id: z.coerce.number().int().positive() });
export const ConversationReply = ShowConversation.shape.conversation;
export const SmsNumberList = z.object({ data: z.array(SmsNumber) });
export const AdminSmsNumbersQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});
export const AdminSmsNumberPage = z.object({
  data: z.array(SmsNumber),
  meta: z.object({
    current_page: z.number(),
    limit: z.number(),
    total_count: z.number(),
    total_pages: z.number(),
  }),
});
export const VerificationIdsBody = z.strictObject({
  contact_ids: z.array(z.number().int().positive()).min(1).max(1000),
});
export const LineTypeCounts = z.object(
  Object.fromEntries(LINE_TYPES.map((t) => [t, z.number()])) as Record<(typeof LINE_TYPES)[number], z.ZodNumber>,
);
export const VerifySingleBody = z.strictObject({
  phone: z.string().trim().min(9).max(20),
  contact_id: z.number().int().positive().optional(),
});
export const VerificationQuote = z.object({
  numbers: z.number(),
  cost: z.number(),
  cost_label: z.string(),
  affordable: z.boolean(),
});
export const VerificationBulkReply = z.object({ looked_up: z.number(), counts: LineTypeCounts });
export const BulkVerificationBody = SmsBroadcastPreviewBody.omit({ message: true });
export const BulkVerificationReply = z.object({
  looked_up: z.number(),
  /** Numbers left without a lookup because the wallet ran out (0: all done). */
  not_paid: z.number(),
  cost: z.number(),
  cost_label: z.string(),
});

/**
 * The browser softphone and the dialer routes (issue 13; spec document 2 §2, §4, §5, §8, §9): what the server and
 * the browser agree on. Texts are binding as the spec spells them ('Invlaid phone number').
 */
import { z } from 'zod';
import { PHONE_DIAL_MAX, PHONE_DIAL_MIN } from '../constants.js';

export const CALLS_CHANNEL = 'CallsChannel';

/** Spec §8 dialer messages. */
export const DIALER_MESSAGES = {
  dialer: 'Unable to initialize dialer',
  interactivity: 'Unable to initialize interactivity',
  device: 'Unable to initialize device',
  deviceEvents: 'Unable to initialize device events',
  outbound: 'Unable to initialize outbound call',
  outboundEvents: 'Unable to initialize outbound call events',
  call: 'Unable to initialize call',
  inbound: 'Unable to initialize inbound call',
  inboundEvents: 'Unable to initialize inbound call events',
  hangup: 'Unable to hangup',
  updateNumber: 'Unable to update number',
} as const;

/** Spec §8 result codes and engine messages. */
export const INVALID_PHONE_NUMBER = 'Invlaid phone number';
export const NO_DEVICE_READY = 'No valid device ready';
export const NO_CALL_READY = 'No valid call ready';
export const CALL_ALREADY_ACTIVE = 'A Call is already active';
export const DEVICE_BUSY = 'Device busy';
export const ILLEGAL_DIGITS = 'Illegal character passed into sendDigits';
export const VOICE_NOT_CONFIGURED =
  'The voice service is not configured on this server: an administrator sets the Twilio keys (TWILIO_*) or the local voice lab (VOICE_SIP_*).';
/** A call whose company (or user setting) does not record calls: there is nothing to pause or resume. */
export const CALL_RECORDING_OFF = 'Calls are not recorded for your account (the Record calls setting).';

/** Spec §8 voice error codes a failed call reports (the ones the softphone maps SIP failures onto). */
export const VOICE_ERRORS: Record<number, string> = {
  20101: 'access token invalid',
  20104: 'token expired',
  31000: 'unknown error',
  31002: 'connection declined',
  31003: 'timeout',
  31005: 'connection error',
  31008: 'call cancelled',
  31009: 'transport error',
  31401: 'microphone permission denied',
  31402: 'media acquisition failed',
  31404: 'not found',
  31480: 'temporarily unavailable',
  31486: 'busy',
  31603: 'decline',
  53000: 'signalling connection error',
  53001: 'signalling disconnected',
  53405: 'media connection failed',
};

/** A SIP final response or a transport/media failure onto the spec's voice error codes. */
export function voiceErrorOf(cause: { sipStatus?: number; kind?: 'media' | 'transport' | 'mic' | 'timeout' }): number {
  if (cause.kind === 'media') return 53405;
  if (cause.kind === 'transport') return 53001;
  if (cause.kind === 'mic') return 31401;
  if (cause.kind === 'timeout') return 31003;
  switch (cause.sipStatus) {
    case 486:
    case 600:
      return 31486;
    case 603:
      return 31603;
    case 480:
    case 408:
      return 31480;
    case 404:
    case 484:
      return 31404;
    case 487:
      return 31008;
    case 401:
    case 407:
      return 20101;
    default:
      return 31000;
  }
}

/** Keypad input: formatting characters a person types or pastes (spaces, dashes, dots, parentheses) are dropped. */
export function dialString(input: string): string {
  return input.replace(/[\s\-().]/g, '');
}

/** Spec §5: 9 to 16 characters, digits 0-9 * # w (a leading + allowed). Null when valid, else the spec's text. */
export function dialNumberProblem(input: string): string | null {
  const n = dialString(input);
  if (n.length < PHONE_DIAL_MIN || n.length > PHONE_DIAL_MAX) return INVALID_PHONE_NUMBER;
  if (!/^\+?[0-9*#w]+$/.test(n)) return INVALID_PHONE_NUMBER;
  return null;
}

/** Spec §5: digits sent in a call: 0-9, *, # and w (pause). */
export const DTMF_DIGITS = /^[0-9*#w]+$/;

export const CALL_DIRECTIONS = ['inbound', 'outbound'] as const;
export const CALL_STATUSES = [
  'initiated',
  'ringing',
  'in-progress',
  'completed',
  'busy',
  'no-answer',
  'failed',
  'canceled',
] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];
export const ACTIVE_CALL_STATUSES: readonly CallStatus[] = ['initiated', 'ringing', 'in-progress'];
export const RECORDING_STATES = ['recording', 'paused', 'off'] as const;

/** GET /v1/dialer/fetch_device_token. `provider: none`: the softphone shows VOICE_NOT_CONFIGURED. */
export const DeviceToken = z.object({
  token: z.string().nullable(),
  provider: z.enum(['twilio', 'sip', 'none']),
  identity: z.string().nullable(),
  expires_at: z.string().nullable(),
  /** The local lab: JsSIP's WebSocket URL and SIP address; the token is the autheph password. */
  sip: z.object({ ws_url: z.string(), uri: z.string(), username: z.string() }).nullable(),
  message: z.string().nullable(),
  enabled: z.boolean(),
  /** Spec §2: the softphone is hidden in the stage and demo deployments (docs/decisions/voice-provider.md). */
  hidden: z.boolean(),
  /** Why the dialer is disabled (spec §4), in the order a person fixes them. */
  reasons: z.array(z.string()),
});
export type DeviceToken = z.infer<typeof DeviceToken>;

export const CallItem = z.object({
  id: z.number().int(),
  call_direction: z.enum(CALL_DIRECTIONS),
  call_from: z.string(),
  call_to: z.string(),
  caller_city: z.string().nullable(),
  caller_state: z.string().nullable(),
  status: z.enum(CALL_STATUSES),
  recording: z.enum(RECORDING_STATES),
  duration_s: z.number().int().nullable(),
  answered_at: z.string().nullable(),
  ended_at: z.string().nullable(),
  created_at: z.string(),
  disclaimer_played_at_s: z.number().int().nullable(),
  /** CMS: the TPMO disclaimer within the first minute of the call. */
  disclaimer_in_first_minute: z.boolean(),
  contact: z.object({ number: z.number().int(), name: z.string() }).nullable(),
  agent: z.object({ id: z.number().int(), name: z.string() }),
  error_code: z.number().int().nullable(),
  billed_minutes: z.number().int(),
});
export type CallItem = z.infer<typeof CallItem>;

export const CallList = z.object({ call_list: z.array(CallItem) });
export const CallHistory = z.object({ call_history: z.array(CallItem) });

export const CallLogsFilter = z.object({
  direction: z.enum(CALL_DIRECTIONS).optional(),
  status: z.enum(CALL_STATUSES).optional(),
  phone_number: z.string().max(32).optional(),
  contact_number: z.number().int().positive().optional(),
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
  page: z.number().int().min(1).default(1),
  limit: z.number().int().min(1).max(100).default(25),
});
export const CallLogs = z.object({
  calls: z.array(CallItem),
  pagination: z.object({ page: z.number().int(), limit: z.number().int(), total: z.number().int() }),
});
export type CallLogs = z.infer<typeof CallLogs>;

export const StartCallBody = z.object({
  to: z.string().min(1).max(40),
  contact_number: z.number().int().positive().optional(),
});
export const StartCallReply = z.object({
  call: CallItem,
  /** What the browser passes to the voice engine's connect (spec §7: To, timeout, callerId, ... cid). */
  params: z.object({ To: z.string(), timeout: z.number().int(), callerId: z.string(), cid: z.string() }),
  /** Seconds the wallet and the allocation pay for: the call is cut with a warning at this length. */
  max_seconds: z.number().int().nullable(),
});
export type StartCallReply = z.infer<typeof StartCallReply>;

export const CallIdBody = z.object({ call_id: z.number().int().positive() });
export const CallReply = z.object({ call: CallItem });

export const AssociatedContactFilter = z.object({ phone_number: z.string().min(1).max(32) });
export const AssociatedContact = z.object({
  number: z.number().int(),
  name: z.string(),
  phone: z.string().nullable(),
  owner: z.string().nullable(),
});
export const AssociatedContactReply = z.object({ contact: AssociatedContact.nullable() });
export const AssociatedContactsReply = z.object({ contacts: z.array(AssociatedContact) });

export const CallFile = z.object({
  id: z.number().int(),
  call_id: z.number().int(),
  duration_s: z.number().int().nullable(),
  url: z.string(),
  created_at: z.string(),
  retain_until: z.string(),
  call: CallItem,
});
export const CallFiles = z.object({ call_files: z.array(CallFile), calls: z.array(CallItem) });
export type CallFiles = z.infer<typeof CallFiles>;

/** The call channel of /cable: an incoming call (the screen pop), a call's state, a call cut by the wallet. */
export const IncomingCallMessage = z.object({
  type: z.literal('incoming_call'),
  call_id: z.number().int(),
  phone_number: z.string(),
  /** The contacts the normalised number matched (spec §6: one opens its page, several open /contacts). */
  contact_numbers: z.array(z.number().int()),
});
export const CallStatusMessage = z.object({
  type: z.literal('call_status'),
  call: CallItem,
  /** Set when the server ended the call: the wallet or the allocation ran out. */
  warning: z.string().nullable(),
});
export const CallsChannelMessage = z.discriminatedUnion('type', [IncomingCallMessage, CallStatusMessage]);
export type CallsChannelMessage = z.infer<typeof CallsChannelMessage>;

/** A POST that takes no fields (an empty JSON object, or no body). */
export const EmptyBody = z.object({}).strict().optional();

/**
 * The messaging port (texts, MMS, line-type lookups, numbers, A2P 10DLC status), one adapter: the real `twilio`
 * client. In production it talks to Twilio (a Messaging Service); by default its `httpClient` is the loopback
 * carrier (loopback-carrier.ts), which answers in Twilio's REST shape and sends signed callbacks back, so the same
 * code path runs on a laptop, in tests and in production. docs/decisions/sms-messaging-port.md.
 */
import type { LineType } from '@harbor/shared';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import twilio from 'twilio';
import type RequestClient from 'twilio/lib/base/RequestClient.js';

export interface OutgoingText {
  /** E.164 numbers. */
  to: string;
  from: string;
  body: string;
  mediaUrls?: string[];
  /** Where Twilio posts MessageStatus callbacks (our signed webhook route). */
  statusCallback: string;
}

export interface AcceptedText {
  sid: string;
  status: string;
  segments: number;
}

/**
 * A refusal by the provider: `temporary` ones (429, 5xx, network) may be tried again; others never will work.
 * `ambiguous`: no HTTP answer came back (a timeout, a reset connection), so the carrier may have taken the message:
 * sending it again could text the person twice; the reconciler asks the carrier instead.
 */
export class MessagingError extends Error {
  constructor(
    message: string,
    readonly code: number | null,
    readonly temporary: boolean,
    readonly ambiguous = false,
  ) {
    super(message);
  }
}

/** A message as the carrier knows it (Twilio's Message resource). */
export interface CarrierMessage {
  sid: string;
  status: string;
  errorCode: number | null;
  body: string;
  /** When the carrier created it. */
  createdAt: Date;
}

export interface LookupResult {
  lineType: LineType;
  carrier: string | null;
}

export interface AvailableNumber {
  phoneNumber: string;
  friendlyName: string;
  locality: string | null;
}

export type RegistrationStatus = 'pending' | 'approved' | 'rejected';

export interface MessagingPort {
  readonly kind: 'twilio' | 'loopback';
  /** The account's auth token: X-Twilio-Signature of the callbacks is checked with it. */
  readonly authToken: string;
  send(text: OutgoingText): Promise<AcceptedText>;
  /** One message by its sid; null when the carrier does not know it. */
  fetchMessage(sid: string): Promise<CarrierMessage | null>;
  /** Messages from `from` to `to` created at or after `since`, newest first (to find one whose answer was lost). */
  findMessages(q: { to: string; from: string; since: Date }): Promise<CarrierMessage[]>;
  lookup(e164: string): Promise<LookupResult>;
  searchNumbers(q: { areaCode?: string; contains?: string }): Promise<AvailableNumber[]>;
  buyNumber(e164: string, smsUrl: string): Promise<{ sid: string }>;
  /** The A2P 10DLC campaign of the Messaging Service: US carriers deliver only from approved campaigns. */
  registrationStatus(): Promise<RegistrationStatus>;
}

/** A US number in E.164 (+1...), or null when it is not a valid number. Any input form: 1-813-555-0100, (813)... */
export function toE164(input: string): string | null {
  const p = parsePhoneNumberFromString(input, 'US');
  return p?.isValid() ? p.number : null;
}

/** E.164 to Harbor's stored form (11 digits, leading 1), as contacts keep it. */
export const storedPhone = (e164: string) => e164.replace(/^\+/, '');

/** Twilio's line types to ours: fixed VoIP counts as a landline for texting (it cannot receive texts reliably). */
export function lineTypeOf(type: string | null | undefined): LineType {
  switch (type) {
    case 'mobile':
      return 'mobile';
    case 'landline':
    case 'fixedVoip':
    case 'tollFree':
      return 'landline';
    case 'nonFixedVoip':
      return 'voip';
    default:
      return 'unknown';
  }
}

export interface TwilioMessagingOptions {
  accountSid: string;
  authToken: string;
  messagingServiceSid: string;
  /** The loopback carrier (default) or absent for Twilio itself. */
  httpClient?: RequestClient;
}

export class TwilioMessaging implements MessagingPort {
  readonly kind: 'twilio' | 'loopback';
  readonly authToken: string;
  private readonly client: twilio.Twilio;

  constructor(private readonly opts: TwilioMessagingOptions) {
    this.kind = opts.httpClient ? 'loopback' : 'twilio';
    this.authToken = opts.authToken;
    this.client = twilio(opts.accountSid, opts.authToken, opts.httpClient ? { httpClient: opts.httpClient } : {});
  }

  async send(t: OutgoingText): Promise<AcceptedText> {
    try {
      const m = await this.client.messages.create({
        to: t.to,
        from: t.from,
        body: t.body || undefined,
        mediaUrl: t.mediaUrls?.length ? t.mediaUrls : undefined,
        statusCallback: t.statusCallback,
      });
      return { sid: m.sid, status: m.status, segments: Number(m.numSegments) || 1 };
    } catch (err) {
      throw asMessagingError(err);
    }
  }

  async fetchMessage(sid: string): Promise<CarrierMessage | null> {
    try {
      return carrierMessage(await this.client.messages(sid).fetch());
    } catch (err) {
      if ((err as { status?: number }).status === 404) return null;
      throw asMessagingError(err);
    }
  }

  async findMessages(q: { to: string; from: string; since: Date }): Promise<CarrierMessage[]> {
    try {
      const list = await this.client.messages.list({ to: q.to, from: q.from, dateSentAfter: q.since, limit: 50 });
      return list.map(carrierMessage);
    } catch (err) {
      throw asMessagingError(err);
    }
  }

  async lookup(e164: string): Promise<LookupResult> {
    try {
      const r = await this.client.lookups.v2.phoneNumbers(e164).fetch({ fields: 'line_type_intelligence' });
      if (!r.valid) return { lineType: 'invalid', carrier: null };
      const lti = r.lineTypeIntelligence as { type?: string; carrier_name?: string } | null;
      return { lineType: lineTypeOf(lti?.type), carrier: lti?.carrier_name ?? null };
    } catch (err) {
      throw asMessagingError(err);
    }
  }

  async searchNumbers(q: { areaCode?: string; contains?: string }): Promise<AvailableNumber[]> {
    const list = await this.client.availablePhoneNumbers('US').local.list({
      areaCode: q.areaCode ? Number(q.areaCode) : undefined,
      contains: q.contains,
      smsEnabled: true,
      limit: 20,
    });
    return list.map((n) => ({
      phoneNumber: n.phoneNumber,
      friendlyName: n.friendlyName,
      locality: n.locality ?? null,
    }));
  }

  async buyNumber(e164: string, smsUrl: string) {
    try {
      const n = await this.client.incomingPhoneNumbers.create({ phoneNumber: e164, smsUrl, smsMethod: 'POST' });
      // Senders of a Messaging Service share its A2P campaign: the bought number joins it.
      await this.client.messaging.v1
        .services(this.opts.messagingServiceSid)
        .phoneNumbers.create({ phoneNumberSid: n.sid });
      return { sid: n.sid };
    } catch (err) {
      throw asMessagingError(err);
    }
  }

  async registrationStatus(): Promise<RegistrationStatus> {
    const list = await this.client.messaging.v1
      .services(this.opts.messagingServiceSid)
      .usAppToPerson.list({ limit: 5 });
    const statuses = list.map((c) => c.campaignStatus);
    if (statuses.includes('VERIFIED')) return 'approved';
    if (statuses.length && statuses.every((s) => s === 'FAILED')) return 'rejected';
    return 'pending';
  }
}

function carrierMessage(m: {
  sid: string;
  status: string;
  errorCode: number | null;
  body: string;
  dateCreated: Date;
}): CarrierMessage {
  return {
    sid: m.sid,
    status: m.status,
    errorCode: m.errorCode == null ? null : Number(m.errorCode),
    body: m.body ?? '',
    createdAt: new Date(m.dateCreated),
  };
}

function asMessagingError(err: unknown): MessagingError {
  const e = err as { status?: number; code?: number; message?: string };
  const status = Number(e.status ?? 0);
  const temporary = !status || status === 429 || status >= 500;
  // No HTTP status: the request may have reached the carrier and its answer been lost.
  return new MessagingError(e.message ?? 'The carrier refused the request', e.code ?? null, temporary, !status);
}

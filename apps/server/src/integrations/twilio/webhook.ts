/**
 * Twilio's signed callbacks (SMS and voice status, inbound messages, recordings): X-Twilio-Signature is an
 * HMAC-SHA1, with the account's auth token, of the exact public URL followed by the POST parameters sorted by name,
 * checked by the twilio package's `validateRequest` (JSON bodies: `validateRequestWithBody` and bodySHA256).
 * A status callback is deduplicated on (SID, status), not on the SID alone: one message or call legitimately sends
 * queued, sent, delivered... each once.
 */
import twilio from 'twilio';
import type { VerifiedEvent, WebhookProvider, WebhookRequest } from '../../platform/webhooks/ingress.js';
import { WebhookRefused } from '../../platform/webhooks/ingress.js';

/** The form fields of a Twilio callback; a repeated field keeps its last value. */
export function formParams(raw: Buffer): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
}

/** The callback's identity and kind: which SID, which status field, from the fields Twilio sends. */
export function twilioEvent(params: Record<string, string>, topic: string | null): Omit<VerifiedEvent, 'companyId'> {
  const pairs: Array<[sid: string, status: string, type: string]> = [
    ['RecordingSid', 'RecordingStatus', 'recording'],
    ['MessageSid', 'MessageStatus', 'message.status'],
    ['CallSid', 'CallStatus', 'call.status'],
  ];
  for (const [sidField, statusField, type] of pairs) {
    const sid = params[sidField];
    if (!sid) continue;
    const status = params[statusField] ?? params.SmsStatus;
    // An inbound message carries a SID and no delivery status: the SID alone is its identity.
    if (type === 'message.status' && (!status || status === 'received')) {
      return { id: sid, type: topic ?? 'message.inbound', payload: params };
    }
    return { id: status ? `${sid}:${status}` : sid, type: topic ?? type, payload: params };
  }
  throw new WebhookRefused('no MessageSid, CallSid or RecordingSid in the callback');
}

export function verifyTwilio(req: WebhookRequest, authToken: string): VerifiedEvent[] {
  const signature = req.headers['x-twilio-signature'];
  if (typeof signature !== 'string' || !signature) throw new WebhookRefused('X-Twilio-Signature is missing', 401);
  const type = String(req.headers['content-type'] ?? '');
  const body = req.rawBody.toString('utf8');
  let params: Record<string, string>;
  let ok: boolean;
  if (type.startsWith('application/json')) {
    ok = twilio.validateRequestWithBody(authToken, signature, req.url, body);
    try {
      params = JSON.parse(body) as Record<string, string>;
    } catch {
      throw new WebhookRefused('the body is not JSON');
    }
  } else {
    params = formParams(req.rawBody);
    ok = twilio.validateRequest(authToken, signature, req.url, params);
  }
  if (!ok) throw new WebhookRefused('X-Twilio-Signature does not match', 401);
  return [twilioEvent(params, req.topic)];
}

export function twilioProvider(opts: {
  authToken: string;
  /** The company of an event, from its account or number (e.g. AccountSid -> company). */
  companyOf?: (params: Record<string, unknown>) => number | null;
  handle: WebhookProvider['handle'];
}): WebhookProvider {
  return {
    name: 'twilio',
    verify: (req) =>
      verifyTwilio(req, opts.authToken).map((e) => ({ ...e, companyId: opts.companyOf?.(e.payload) ?? null })),
    handle: opts.handle,
    // Twilio wants TwiML back; an empty Response means "nothing to say or do now".
    respond: () => ({ contentType: 'text/xml', body: '<?xml version="1.0" encoding="UTF-8"?><Response></Response>' }),
    concurrency: 8,
    // One event a request, in bursts (call and message statuses): stored together while a store is in flight.
    groupAccepts: true,
  };
}

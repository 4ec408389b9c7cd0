/**
 * SendGrid's signed event webhook: X-Twilio-Email-Event-Webhook-Signature is an ECDSA (P-256, SHA-256) signature of
 * the timestamp header followed by the raw body (base64 of DER), checked with the account's verification key. One
 * request carries many events; each is deduplicated on its `sg_event_id`.
 *
 * Checked with node:crypto, not SendGrid's @sendgrid/eventwebhook: that package verifies in pure JavaScript
 * (starkbank-ecdsa, big-integer), ~10 ms a request on the event loop, which made it the largest cost of a broadcast
 * (bench/email.ts: 11 s of the server's 97 s busy). The unit test checks both agree on the same signatures.
 */
import crypto from 'node:crypto';
import type { VerifiedEvent, WebhookProvider, WebhookRequest } from '../../platform/webhooks/ingress.js';
import { WebhookRefused } from '../../platform/webhooks/ingress.js';

/** SendGrid shows the key as bare base64 (DER); the verifier reads PEM. */
export function sendgridKeyPem(key: string) {
  if (key.includes('-----BEGIN')) return key;
  const body = key.replace(/\s+/g, '').replace(/(.{64})/g, '$1\n');
  return `-----BEGIN PUBLIC KEY-----\n${body}\n-----END PUBLIC KEY-----\n`;
}

export const SENDGRID_SIGNATURE_HEADER = 'x-twilio-email-event-webhook-signature';
export const SENDGRID_TIMESTAMP_HEADER = 'x-twilio-email-event-webhook-timestamp';

const keyObjects = new Map<string, crypto.KeyObject>();
function keyObjectOf(publicKey: string) {
  let key = keyObjects.get(publicKey);
  if (!key) {
    key = crypto.createPublicKey(sendgridKeyPem(publicKey));
    keyObjects.set(publicKey, key);
  }
  return key;
}

export function verifySendgrid(req: WebhookRequest, publicKey: string, toleranceSeconds?: number): VerifiedEvent[] {
  const signature = req.headers[SENDGRID_SIGNATURE_HEADER];
  const timestamp = req.headers[SENDGRID_TIMESTAMP_HEADER];
  if (typeof signature !== 'string' || typeof timestamp !== 'string') {
    throw new WebhookRefused('the SendGrid signature headers are missing', 401);
  }
  if (toleranceSeconds !== undefined && Math.abs(Date.now() / 1000 - Number(timestamp)) > toleranceSeconds) {
    throw new WebhookRefused('the SendGrid timestamp is outside the tolerance', 401);
  }
  let ok = false;
  try {
    const signed = Buffer.concat([Buffer.from(timestamp, 'utf8'), req.rawBody]);
    ok = crypto.verify('sha256', signed, keyObjectOf(publicKey), Buffer.from(signature, 'base64'));
  } catch {
    ok = false;
  }
  if (!ok) throw new WebhookRefused('the SendGrid signature does not match', 401);
  let events: unknown;
  try {
    events = JSON.parse(req.rawBody.toString('utf8'));
  } catch {
    throw new WebhookRefused('the body is not JSON');
  }
  if (!Array.isArray(events)) throw new WebhookRefused('the body is not a list of events');
  return events.map((e: Record<string, unknown>) => {
    if (typeof e.sg_event_id !== 'string' || typeof e.event !== 'string') {
      throw new WebhookRefused('an event has no sg_event_id or event');
    }
    const company = Number(e.company_id);
    return {
      id: e.sg_event_id,
      type: e.event,
      companyId: Number.isInteger(company) && company > 0 ? company : null,
      payload: e,
    };
  });
}

export function sendgridProvider(opts: {
  /** One key, or several while a key is rotated (or the local stand-in signs beside a real account). */
  publicKey: string | string[];
  handle: WebhookProvider['handle'];
  handleMany?: WebhookProvider['handleMany'];
  toleranceSeconds?: number;
}): WebhookProvider {
  return {
    name: 'sendgrid',
    verify: (req) => {
      const keys = [opts.publicKey].flat();
      for (const [i, key] of keys.entries()) {
        try {
          return verifySendgrid(req, key, opts.toleranceSeconds);
        } catch (err) {
          if (i === keys.length - 1) throw err;
        }
      }
      throw new WebhookRefused('no SendGrid key is configured', 401);
    },
    handle: opts.handle,
    handleMany: opts.handleMany,
    concurrency: 8,
  };
}

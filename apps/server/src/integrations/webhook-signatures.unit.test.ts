/**
 * The real verification of Stripe, Twilio and SendGrid callbacks, fed with requests signed the way each provider
 * signs them: Stripe's and Twilio's own signing helpers from their packages, and for SendGrid (whose package only
 * verifies) an ECDSA P-256 signature over timestamp + body made with node:crypto, as SendGrid makes it.
 */

import crypto from 'node:crypto';
import { EventWebhook } from '@sendgrid/eventwebhook';
// @ts-expect-error: starkbank-ecdsa ships no types; only its signer is used, to cross-check ours.
import { Ecdsa, PrivateKey } from 'starkbank-ecdsa';
import Stripe from 'stripe';
import twilio from 'twilio';
import { describe, expect, it } from 'vitest';
import { WebhookRefused, type WebhookRequest } from '../platform/webhooks/ingress.js';
import { sendgridKeyPem, verifySendgrid } from './sendgrid/webhook.js';
import { verifyStripe } from './stripe/webhook.js';
import { formParams, twilioEvent, verifyTwilio } from './twilio/webhook.js';

const request = (body: string, headers: Record<string, string>, url = 'https://crm.example.test/v1/webhooks/x') =>
  ({ provider: 'x', topic: null, rawBody: Buffer.from(body), headers, url }) as WebhookRequest;

describe('Stripe', () => {
  const secret = 'whsec_test_secret';
  const payload = JSON.stringify({
    id: 'evt_123',
    object: 'event',
    type: 'payment_intent.succeeded',
    data: { object: { id: 'pi_1', metadata: { company_id: '7' } } },
  });
  const sign = (body: string, timestamp?: number, key = secret) =>
    Stripe.webhooks.generateTestHeaderString({ payload: body, secret: key, timestamp });

  it('accepts a signed event and answers its id, type and company', () => {
    const [e] = verifyStripe(request(payload, { 'stripe-signature': sign(payload) }), secret);
    expect(e).toMatchObject({ id: 'evt_123', type: 'payment_intent.succeeded', companyId: 7 });
  });

  it('refuses another secret, a changed body, an old timestamp and no header', () => {
    const refused = (req: WebhookRequest) => {
      expect(() => verifyStripe(req, secret)).toThrow(WebhookRefused);
    };
    refused(request(payload, { 'stripe-signature': sign(payload, undefined, 'whsec_other') }));
    refused(request(payload.replace('pi_1', 'pi_2'), { 'stripe-signature': sign(payload) }));
    refused(request(payload, { 'stripe-signature': sign(payload, Math.floor(Date.now() / 1000) - 3600) }));
    refused(request(payload, {}));
    // Re-serialising the JSON (what a parsed-then-restringified body would do) breaks the signature: bytes matter.
    const pretty = JSON.stringify(JSON.parse(payload), null, 2);
    refused(request(pretty, { 'stripe-signature': sign(payload) }));
  });
});

describe('Twilio', () => {
  const token = 'twilio-auth-token';
  const url = 'https://crm.example.test/v1/webhooks/twilio/sms-status?company=7';
  const params = { MessageSid: 'SM1', MessageStatus: 'delivered', AccountSid: 'AC1', To: '+13055550100' };
  const body = new URLSearchParams(params).toString();

  it('accepts the signature over the exact URL and the sorted parameters, keyed by SID and status', () => {
    const signature = twilio.getExpectedTwilioSignature(token, url, params);
    const req = request(
      body,
      { 'x-twilio-signature': signature, 'content-type': 'application/x-www-form-urlencoded' },
      url,
    );
    const [e] = verifyTwilio(req, token);
    expect(e).toMatchObject({ id: 'SM1:delivered', type: 'message.status', payload: params });
  });

  it('refuses another URL, another token, a changed parameter and no signature', () => {
    const signature = twilio.getExpectedTwilioSignature(token, url, params);
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const refused = (req: WebhookRequest, t = token) => expect(() => verifyTwilio(req, t)).toThrow(WebhookRefused);
    refused(request(body, { ...form, 'x-twilio-signature': signature }, url.replace('company=7', 'company=8')));
    refused(request(body, { ...form, 'x-twilio-signature': signature }, url), 'other-token');
    refused(request(body.replace('delivered', 'failed'), { ...form, 'x-twilio-signature': signature }, url));
    refused(request(body, form, url));
  });

  it('tells inbound messages, call status and recordings apart', () => {
    expect(twilioEvent({ MessageSid: 'SM2', SmsStatus: 'received', Body: 'STOP' }, null)).toMatchObject({
      id: 'SM2',
      type: 'message.inbound',
    });
    expect(twilioEvent({ CallSid: 'CA1', CallStatus: 'completed' }, null).id).toBe('CA1:completed');
    expect(twilioEvent({ CallSid: 'CA1', RecordingSid: 'RE1', RecordingStatus: 'completed' }, null).id).toBe(
      'RE1:completed',
    );
    expect(() => twilioEvent(formParams(Buffer.from('Foo=1')), null)).toThrow(WebhookRefused);
  });
});

describe('SendGrid', () => {
  const { publicKey, privateKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  // The key as SendGrid's settings page shows it: base64 of the DER public key, no PEM lines.
  const shown = publicKey.export({ type: 'spki', format: 'der' }).toString('base64');
  const body = JSON.stringify([
    { email: 'a@example.test', event: 'delivered', sg_event_id: 'sg-1', sg_message_id: 'm1', company_id: 7 },
    { email: 'a@example.test', event: 'open', sg_event_id: 'sg-2', sg_message_id: 'm1', company_id: 7 },
  ]);
  const sign = (payload: string, timestamp: string) =>
    crypto.sign('sha256', Buffer.from(timestamp + payload), privateKey).toString('base64');
  const headers = (signature: string, timestamp: string) => ({
    'x-twilio-email-event-webhook-signature': signature,
    'x-twilio-email-event-webhook-timestamp': timestamp,
  });

  it('accepts a signed batch and answers each event by its sg_event_id', () => {
    const ts = String(Math.floor(Date.now() / 1000));
    const events = verifySendgrid(request(body, headers(sign(body, ts), ts)), shown, 600);
    expect(events.map((e) => [e.id, e.type, e.companyId])).toEqual([
      ['sg-1', 'delivered', 7],
      ['sg-2', 'open', 7],
    ]);
    expect(sendgridKeyPem(shown)).toContain('-----BEGIN PUBLIC KEY-----');
  });

  it('refuses a changed body, another timestamp, another key, and an old timestamp when a tolerance is set', () => {
    const ts = String(Math.floor(Date.now() / 1000));
    const sig = sign(body, ts);
    const other = crypto.generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).publicKey;
    const otherShown = other.export({ type: 'spki', format: 'der' }).toString('base64');
    const refused = (req: WebhookRequest, key = shown, tolerance?: number) =>
      expect(() => verifySendgrid(req, key, tolerance)).toThrow(WebhookRefused);
    refused(request(body.replace('open', 'click'), headers(sig, ts)));
    refused(request(body, headers(sig, String(Number(ts) + 1))));
    refused(request(body, headers(sig, ts)), otherShown);
    const old = String(Number(ts) - 3600);
    refused(request(body, headers(sign(body, old), old)), shown, 600);
    refused(request(body, {}));
  });

  it("agrees with SendGrid's own verifier, and accepts what its ECDSA library signs", () => {
    const ts = String(Math.floor(Date.now() / 1000));
    const hook = new EventWebhook();
    const theirKey = hook.convertPublicKeyToECDSA(sendgridKeyPem(shown));
    const ours = (payload: string, sig: string) => {
      try {
        verifySendgrid(request(payload, headers(sig, ts)), shown);
        return true;
      } catch {
        return false;
      }
    };
    const sig = sign(body, ts);
    for (const payload of [body, body.replace('open', 'click'), `${body} `]) {
      expect(ours(payload, sig)).toBe(hook.verifySignature(theirKey, payload, sig, ts));
    }
    expect(ours(body, sig)).toBe(true);
    // starkbank-ecdsa is what @sendgrid/eventwebhook verifies with: its signatures (DER, base64) pass ours.
    const pem = privateKey.export({ type: 'sec1', format: 'pem' }).toString();
    const theirs = Ecdsa.sign(ts + body, PrivateKey.fromPem(pem)).toBase64();
    expect(ours(body, theirs)).toBe(true);
    expect(ours(body.replace('open', 'click'), theirs)).toBe(false);
  });
});

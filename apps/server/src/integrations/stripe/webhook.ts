/**
 * Stripe's signed webhooks: `Stripe-Signature: t=<unix time>,v1=<HMAC-SHA256 of "t.body" with the endpoint
 * secret>`, checked over the raw body by the stripe package's own `constructEvent`, with a timestamp tolerance so an
 * old captured request cannot be replayed. The event id (`evt_...`) is the deduplication key.
 */
import Stripe from 'stripe';
import type { VerifiedEvent, WebhookProvider, WebhookRequest } from '../../platform/webhooks/ingress.js';
import { WebhookRefused } from '../../platform/webhooks/ingress.js';

/** Stripe's own default: 5 minutes. */
export const STRIPE_TOLERANCE_SECONDS = 300;

export function verifyStripe(req: WebhookRequest, secret: string, toleranceSeconds = STRIPE_TOLERANCE_SECONDS) {
  const header = req.headers['stripe-signature'];
  if (typeof header !== 'string' || !header) throw new WebhookRefused('Stripe-Signature is missing', 401);
  let event: Stripe.Event;
  try {
    event = Stripe.webhooks.constructEvent(req.rawBody, header, secret, toleranceSeconds);
  } catch (err) {
    throw new WebhookRefused(`Stripe signature refused: ${(err as Error).message}`, 401);
  }
  const metadata = (event.data?.object as { metadata?: Record<string, string> } | undefined)?.metadata;
  const company = Number(metadata?.company_id);
  const verified: VerifiedEvent = {
    id: event.id,
    type: event.type,
    companyId: Number.isInteger(company) && company > 0 ? company : null,
    payload: event as unknown as Record<string, unknown>,
  };
  return [verified];
}

export function stripeProvider(opts: {
  secret: string;
  handle: WebhookProvider['handle'];
  toleranceSeconds?: number;
}): WebhookProvider {
  return {
    name: 'stripe',
    verify: (req) => verifyStripe(req, opts.secret, opts.toleranceSeconds),
    handle: opts.handle,
  };
}

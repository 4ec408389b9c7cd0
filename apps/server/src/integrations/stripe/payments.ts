/**
 * The payments port: card payments through the `stripe` package, against Stripe itself when STRIPE_SECRET_KEY is set
 * (production) and against the loopback processor otherwise (the default: embedded mode, development and tests).
 * The same adapter code runs in both; only the client's host differs. Areas never see Stripe's types: they charge,
 * refund, read a card's brand and last four, and subscribe to processor events by the `purpose` they put in the
 * payment's metadata. Webhooks are Harbor's `stripe` provider (webhook.ts verifies them), registered here.
 */
import crypto from 'node:crypto';
import Stripe from 'stripe';
import type { Db } from '../../platform/db/client.js';
import type { StoredWebhookEvent, WebhookProvider } from '../../platform/webhooks/ingress.js';
import { LoopbackProcessor } from './loopback.js';
import { stripeProvider } from './webhook.js';

export interface StripeConfig {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
}

export interface CardOnFile {
  paymentMethodId: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  customerId: string | null;
}

export interface ChargeRequest {
  /** Cents. */
  amount: number;
  description: string;
  paymentMethodId: string;
  customerId?: string | null;
  /** Charged without the cardholder present (an auto-refill): a card that wants authentication fails. */
  offSession?: boolean;
  /** Keep the card on the customer for later off-session charges. */
  saveCard?: boolean;
  /** Must carry `purpose` (who handles this payment's events) and `company_id`. */
  metadata: Record<string, string>;
  /** The processor's idempotency key: a retry never charges twice. */
  idempotencyKey: string;
}

export type ChargeOutcome =
  | { status: 'succeeded' | 'processing'; paymentIntentId: string }
  | { status: 'requires_action'; paymentIntentId: string; message: string }
  | { status: 'failed'; paymentIntentId: string | null; code: string; message: string };

/** The processor could not be reached or answered something unexpected: nothing is known to have been charged. */
export class ProcessorUnavailable extends Error {}

/** The message a person reads when their card wants 3-D Secure, which our own card form cannot do. */
export const AUTHENTICATION_MESSAGE =
  'Your bank asks to confirm this card (3-D Secure authentication), which this card form cannot do. Please use another card.';

/** What an area does with a processor event about one of its payments; runs in the event's transaction. */
export type ProcessorEventHandler = (
  type: string,
  object: Record<string, unknown>,
  tx: Db,
  event: StoredWebhookEvent,
) => Promise<void>;

export class Payments {
  private readonly handlers = new Map<string, ProcessorEventHandler>();

  constructor(
    readonly kind: 'stripe' | 'loopback',
    private readonly client: Stripe,
    readonly keys: StripeConfig,
    /** The in-process processor, when it is the one in use. */
    readonly loopback: LoopbackProcessor | null,
  ) {}

  static async create(config: { stripe: StripeConfig | null; loopbackPort?: number }): Promise<Payments> {
    const common = { telemetry: false, maxNetworkRetries: 2, timeout: 20_000 } as const;
    if (config.stripe) return new Payments('stripe', new Stripe(config.stripe.secretKey, common), config.stripe, null);
    const random = () => crypto.randomBytes(18).toString('base64url');
    const keys = {
      secretKey: `sk_test_loopback_${random()}`,
      publishableKey: `pk_test_loopback_${random()}`,
      webhookSecret: `whsec_loopback_${random()}`,
    };
    const loopback = await LoopbackProcessor.start({ ...keys, port: config.loopbackPort });
    const client = new Stripe(keys.secretKey, { ...common, host: '127.0.0.1', port: loopback.port, protocol: 'http' });
    return new Payments('loopback', client, keys, loopback);
  }

  /** The `stripe` webhook provider: verifies the signature, then hands each event to the area named by its purpose. */
  provider(): WebhookProvider {
    return stripeProvider({
      secret: this.keys.webhookSecret,
      handle: async (event, tx) => {
        const object = ((event.payload.data as { object?: Record<string, unknown> } | undefined)?.object ??
          {}) as Record<string, unknown>;
        const purpose = (object.metadata as Record<string, string> | undefined)?.purpose;
        const handler = purpose ? this.handlers.get(purpose) : undefined;
        if (handler) await handler(event.type, object, tx, event);
      },
    });
  }

  /** An area takes the events of the payments it created with `metadata.purpose = purpose`. */
  onEvent(purpose: string, handler: ProcessorEventHandler) {
    if (this.handlers.has(purpose)) throw new Error(`processor events of ${purpose} already have a handler`);
    this.handlers.set(purpose, handler);
  }

  async paymentMethod(id: string): Promise<CardOnFile | null> {
    try {
      const pm = await this.client.paymentMethods.retrieve(id);
      if (!pm.card) return null;
      return {
        paymentMethodId: pm.id,
        brand: pm.card.brand,
        last4: pm.card.last4,
        expMonth: pm.card.exp_month,
        expYear: pm.card.exp_year,
        customerId: typeof pm.customer === 'string' ? pm.customer : (pm.customer?.id ?? null),
      };
    } catch (err) {
      if (err instanceof Stripe.errors.StripeInvalidRequestError) return null;
      throw unavailable(err);
    }
  }

  async createCustomer(opts: {
    email: string;
    name: string;
    metadata: Record<string, string>;
    idempotencyKey: string;
  }) {
    try {
      const c = await this.client.customers.create(
        { email: opts.email, name: opts.name, metadata: opts.metadata },
        { idempotencyKey: opts.idempotencyKey },
      );
      return c.id;
    } catch (err) {
      throw unavailable(err);
    }
  }

  async charge(req: ChargeRequest): Promise<ChargeOutcome> {
    let pi: Stripe.PaymentIntent;
    try {
      pi = await this.client.paymentIntents.create(
        {
          amount: req.amount,
          currency: 'usd',
          payment_method: req.paymentMethodId,
          ...(req.customerId ? { customer: req.customerId } : {}),
          ...(req.saveCard && req.customerId ? { setup_future_usage: 'off_session' as const } : {}),
          ...(req.offSession ? { off_session: true } : {}),
          confirm: true,
          description: req.description,
          metadata: req.metadata,
          // Cards only, and never a redirect: our own form has nowhere to return to.
          automatic_payment_methods: { enabled: true, allow_redirects: 'never' },
        },
        { idempotencyKey: req.idempotencyKey },
      );
    } catch (err) {
      if (err instanceof Stripe.errors.StripeCardError) {
        const code = err.code ?? 'card_declined';
        return {
          status: 'failed',
          paymentIntentId: err.payment_intent?.id ?? null,
          code,
          message:
            code === 'authentication_required' ? AUTHENTICATION_MESSAGE : (err.message ?? 'Your card was declined.'),
        };
      }
      throw unavailable(err);
    }
    if (pi.status === 'succeeded') return { status: 'succeeded', paymentIntentId: pi.id };
    if (pi.status === 'processing') return { status: 'processing', paymentIntentId: pi.id };
    if (pi.status === 'requires_action') {
      // Nothing can complete it here; cancel so it never lingers as an open charge.
      await this.client.paymentIntents.cancel(pi.id).catch(() => undefined);
      return { status: 'requires_action', paymentIntentId: pi.id, message: AUTHENTICATION_MESSAGE };
    }
    return { status: 'failed', paymentIntentId: pi.id, code: pi.status, message: 'The card payment did not complete.' };
  }

  async refund(opts: {
    paymentIntentId: string;
    amount: number;
    metadata: Record<string, string>;
    idempotencyKey: string;
  }) {
    try {
      const r = await this.client.refunds.create(
        { payment_intent: opts.paymentIntentId, amount: opts.amount, metadata: opts.metadata },
        { idempotencyKey: opts.idempotencyKey },
      );
      return { id: r.id, status: r.status ?? 'pending' };
    } catch (err) {
      if (err instanceof Stripe.errors.StripeInvalidRequestError) return { error: err.message ?? 'Refund refused.' };
      throw unavailable(err);
    }
  }

  async close() {
    await this.loopback?.close();
  }
}

function unavailable(err: unknown) {
  return new ProcessorUnavailable(`card processor: ${(err as Error).message ?? String(err)}`);
}

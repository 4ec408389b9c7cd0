/**
 * The loopback processor's objects and their rules: customers, card payment methods, payment intents (with the
 * published test cards' behaviour), charges and refunds, shaped as Stripe's API returns them. Card numbers are
 * looked at once, when a payment method is created, and never kept: a payment method keeps the brand, the last
 * four, the expiry and what the test card does.
 */
import crypto from 'node:crypto';
import { type CardBrand, cardBrand, cardDigits, luhnValid } from '@harbor/shared';

/** An error as Stripe answers it: HTTP status and `{ error: {...} }`. */
export class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.message));
  }
}

const cardError = (code: string, message: string, extra: Record<string, unknown> = {}) =>
  new StripeApiError(402, { type: 'card_error', code, message, ...extra });
export const invalidRequest = (message: string, param?: string, code?: string, status = 400) =>
  new StripeApiError(status, {
    type: 'invalid_request_error',
    message,
    ...(param && { param }),
    ...(code && { code }),
  });
const missing = (kind: string, id: string) => invalidRequest(`No such ${kind}: '${id}'`, 'id', 'resource_missing', 404);

/** What a test card does when charged (https://docs.stripe.com/testing). */
type Behaviour =
  | { kind: 'succeed' }
  | { kind: 'decline'; decline: string; message: string; code?: string }
  | { kind: 'authenticate' };

const DECLINED = 'Your card was declined.';
const TEST_CARDS: Record<string, Behaviour> = {
  '4242424242424242': { kind: 'succeed' },
  '4000056655665556': { kind: 'succeed' },
  '5555555555554444': { kind: 'succeed' },
  '2223003122003222': { kind: 'succeed' },
  '378282246310005': { kind: 'succeed' },
  '6011111111111117': { kind: 'succeed' },
  '4000000000000002': { kind: 'decline', decline: 'generic_decline', message: DECLINED },
  '4000000000009995': {
    kind: 'decline',
    decline: 'insufficient_funds',
    message: 'Your card has insufficient funds.',
  },
  '4000000000000069': {
    kind: 'decline',
    decline: 'expired_card',
    code: 'expired_card',
    message: 'Your card has expired.',
  },
  '4000000000000127': {
    kind: 'decline',
    decline: 'incorrect_cvc',
    code: 'incorrect_cvc',
    message: "Your card's security code is incorrect.",
  },
  '4000002500003155': { kind: 'authenticate' },
  '4000002760003184': { kind: 'authenticate' },
};
const LIVE_CARD: Behaviour = {
  kind: 'decline',
  decline: 'test_mode_live_card',
  message:
    'Your card was declined. Your request was in test mode, but used a non test (live) card. For a list of valid test cards, visit: https://stripe.com/docs/testing.',
};

export interface PaymentMethod {
  id: string;
  object: 'payment_method';
  type: 'card';
  card: { brand: CardBrand | 'unknown'; last4: string; exp_month: number; exp_year: number; funding: 'credit' };
  customer: string | null;
  created: number;
  livemode: false;
  metadata: Record<string, string>;
}

export type Params = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const int = (v: unknown) => (typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : undefined);
const bool = (v: unknown) => v === 'true' || v === true;
const now = () => Math.floor(Date.now() / 1000);
const newId = (prefix: string) => `${prefix}_${crypto.randomBytes(12).toString('base64url')}`;
const metadataOf = (v: unknown) =>
  Object.fromEntries(Object.entries((v as Record<string, unknown>) ?? {}).map(([k, x]) => [k, String(x)]));

/** An event to send once the request that caused it has been answered. */
export interface Emitted {
  type: string;
  object: Record<string, unknown>;
}

export class LoopbackState {
  readonly customers = new Map<string, Record<string, unknown>>();
  readonly methods = new Map<string, PaymentMethod>();
  private readonly behaviours = new Map<string, Behaviour>();
  readonly intents = new Map<string, Record<string, unknown>>();
  readonly charges = new Map<string, Record<string, unknown>>();
  readonly refunds = new Map<string, Record<string, unknown>>();

  createCustomer(p: Params) {
    const c = {
      id: newId('cus'),
      object: 'customer',
      email: str(p.email) ?? null,
      name: str(p.name) ?? null,
      metadata: metadataOf(p.metadata),
      created: now(),
      livemode: false,
    };
    this.customers.set(c.id, c);
    return c;
  }

  customer(id: string) {
    const c = this.customers.get(id);
    if (!c) throw missing('customer', id);
    return c;
  }

  /** The card is read here and forgotten: only brand, last four, expiry and its test behaviour are kept. */
  createPaymentMethod(p: Params): PaymentMethod {
    if (p.type !== 'card') throw invalidRequest('Only card payment methods are supported here.', 'type');
    const card = (p.card ?? {}) as Params;
    const number = cardDigits(str(card.number) ?? '');
    if (!number) throw invalidRequest('Missing required param: card[number].', 'card[number]');
    if (!luhnValid(number)) throw cardError('incorrect_number', 'Your card number is incorrect.', { param: 'number' });
    const month = int(card.exp_month);
    if (!month || month < 1 || month > 12) {
      throw cardError('invalid_expiry_month', "Your card's expiration month is invalid.", { param: 'exp_month' });
    }
    const rawYear = int(card.exp_year);
    const year = rawYear !== undefined && rawYear < 100 ? 2000 + rawYear : rawYear;
    const today = new Date();
    if (!year || year < today.getFullYear() || year > today.getFullYear() + 50) {
      throw cardError('invalid_expiry_year', "Your card's expiration year is invalid.", { param: 'exp_year' });
    }
    if (year === today.getFullYear() && month < today.getMonth() + 1) {
      throw cardError('invalid_expiry_month', "Your card's expiration month is invalid.", { param: 'exp_month' });
    }
    const brand = cardBrand(number);
    const cvc = str(card.cvc);
    if (cvc !== undefined && !(brand === 'amex' ? /^\d{4}$/ : /^\d{3}$/).test(cvc)) {
      throw cardError('invalid_cvc', "Your card's security code is invalid.", { param: 'cvc' });
    }
    const pm: PaymentMethod = {
      id: newId('pm'),
      object: 'payment_method',
      type: 'card',
      card: { brand: brand ?? 'unknown', last4: number.slice(-4), exp_month: month, exp_year: year, funding: 'credit' },
      customer: null,
      created: now(),
      livemode: false,
      metadata: metadataOf(p.metadata),
    };
    this.methods.set(pm.id, pm);
    this.behaviours.set(pm.id, TEST_CARDS[number] ?? LIVE_CARD);
    return pm;
  }

  method(id: string) {
    const pm = this.methods.get(id);
    if (!pm) throw missing('payment_method', id);
    return pm;
  }

  attach(id: string, p: Params) {
    const pm = this.method(id);
    const customer = str(p.customer);
    if (!customer) throw invalidRequest('Missing required param: customer.', 'customer');
    this.customer(customer);
    if (pm.customer && pm.customer !== customer) {
      throw invalidRequest('The payment method you provided is already attached to another customer.');
    }
    pm.customer = customer;
    return pm;
  }

  intent(id: string) {
    const pi = this.intents.get(id);
    if (!pi) throw missing('payment_intent', id);
    return pi;
  }

  createIntent(p: Params, emit: (e: Emitted) => void) {
    const amount = int(p.amount);
    if (amount === undefined) throw invalidRequest('Missing required param: amount.', 'amount');
    if (amount < 50) throw invalidRequest('Amount must be at least $0.50 usd', 'amount', 'amount_too_small');
    if (amount > 99_999_999) {
      throw invalidRequest('Amount must be no more than $999,999.99', 'amount', 'amount_too_large');
    }
    if (str(p.currency) !== 'usd') throw invalidRequest('Only usd is supported here.', 'currency');
    const customer = str(p.customer) ?? null;
    if (customer) this.customer(customer);
    const pmId = str(p.payment_method) ?? null;
    if (pmId) this.method(pmId);
    const pi: Record<string, unknown> = {
      id: newId('pi'),
      object: 'payment_intent',
      amount,
      amount_received: 0,
      currency: 'usd',
      customer,
      payment_method: pmId,
      description: str(p.description) ?? null,
      metadata: metadataOf(p.metadata),
      setup_future_usage: str(p.setup_future_usage) ?? null,
      status: pmId ? 'requires_confirmation' : 'requires_payment_method',
      last_payment_error: null,
      next_action: null,
      latest_charge: null,
      created: now(),
      livemode: false,
    };
    pi.client_secret = `${pi.id}_secret_${crypto.randomBytes(8).toString('hex')}`;
    this.intents.set(pi.id as string, pi);
    emit({ type: 'payment_intent.created', object: { ...pi } });
    if (bool(p.confirm)) return this.confirm(pi, bool(p.off_session), emit);
    return pi;
  }

  confirmIntent(id: string, p: Params, emit: (e: Emitted) => void) {
    const pi = this.intent(id);
    if (str(p.payment_method)) pi.payment_method = this.method(str(p.payment_method)!).id;
    if (!['requires_confirmation', 'requires_payment_method'].includes(pi.status as string)) {
      throw invalidRequest(
        `This PaymentIntent's status is ${pi.status}, which does not allow confirmation.`,
        undefined,
        'payment_intent_unexpected_state',
      );
    }
    return this.confirm(pi, bool(p.off_session), emit);
  }

  cancelIntent(id: string, emit: (e: Emitted) => void) {
    const pi = this.intent(id);
    if (pi.status === 'succeeded' || pi.status === 'canceled') {
      throw invalidRequest(
        `You cannot cancel this PaymentIntent because it has a status of ${pi.status}.`,
        undefined,
        'payment_intent_unexpected_state',
      );
    }
    pi.status = 'canceled';
    pi.next_action = null;
    emit({ type: 'payment_intent.canceled', object: { ...pi } });
    return pi;
  }

  private confirm(pi: Record<string, unknown>, offSession: boolean, emit: (e: Emitted) => void) {
    const pmId = pi.payment_method as string | null;
    if (!pmId) throw invalidRequest('You must provide a payment method to confirm this PaymentIntent.');
    const behaviour = this.behaviours.get(pmId)!;
    if (behaviour.kind === 'authenticate') {
      if (offSession) {
        return this.fail(
          pi,
          'authentication_required',
          'authentication_required',
          'Your card requires authentication.',
          emit,
        );
      }
      pi.status = 'requires_action';
      pi.next_action = { type: 'use_stripe_sdk', use_stripe_sdk: { type: 'three_d_secure_redirect' } };
      emit({ type: 'payment_intent.requires_action', object: { ...pi } });
      return pi;
    }
    if (behaviour.kind === 'decline') {
      return this.fail(pi, behaviour.code ?? 'card_declined', behaviour.decline, behaviour.message, emit);
    }
    const charge = {
      id: newId('ch'),
      object: 'charge',
      amount: pi.amount,
      amount_refunded: 0,
      currency: 'usd',
      payment_intent: pi.id,
      payment_method: pmId,
      payment_method_details: { type: 'card', card: { ...this.method(pmId).card } },
      refunded: false,
      status: 'succeeded',
      metadata: pi.metadata,
      created: now(),
      livemode: false,
    };
    this.charges.set(charge.id, charge);
    if (pi.setup_future_usage && pi.customer) this.method(pmId).customer = pi.customer as string;
    Object.assign(pi, { status: 'succeeded', amount_received: pi.amount, latest_charge: charge.id, next_action: null });
    emit({ type: 'charge.succeeded', object: { ...charge } });
    emit({ type: 'payment_intent.succeeded', object: { ...pi } });
    return pi;
  }

  /** A declined confirmation: the intent waits for another method, the caller gets a card error naming it. */
  private fail(
    pi: Record<string, unknown>,
    code: string,
    decline: string,
    message: string,
    emit: (e: Emitted) => void,
  ): never {
    const error = { type: 'card_error', code, decline_code: decline, message, payment_method: pi.payment_method };
    Object.assign(pi, { status: 'requires_payment_method', last_payment_error: error, next_action: null });
    emit({ type: 'payment_intent.payment_failed', object: { ...pi } });
    throw cardError(code, message, { decline_code: decline, payment_intent: { ...pi } });
  }

  createRefund(p: Params, emit: (e: Emitted) => void) {
    const piId = str(p.payment_intent);
    if (!piId) throw invalidRequest('Missing required param: payment_intent.', 'payment_intent');
    const pi = this.intent(piId);
    if (pi.status !== 'succeeded') {
      throw invalidRequest(`This PaymentIntent (${piId}) does not have a successful charge to refund.`);
    }
    const charge = this.charges.get(pi.latest_charge as string)!;
    const left = (charge.amount as number) - (charge.amount_refunded as number);
    const amount = p.amount === undefined ? left : int(p.amount);
    if (amount === undefined || amount < 1) throw invalidRequest('Invalid positive integer', 'amount');
    if (amount > left) {
      throw invalidRequest(
        `Refund amount ($${(amount / 100).toFixed(2)}) is greater than unrefunded amount on charge ($${(left / 100).toFixed(2)})`,
        'amount',
        'amount_too_large',
      );
    }
    const refund = {
      id: newId('re'),
      object: 'refund',
      amount,
      currency: 'usd',
      charge: charge.id,
      payment_intent: pi.id,
      metadata: { ...(pi.metadata as object), ...metadataOf(p.metadata) },
      reason: str(p.reason) ?? null,
      status: 'succeeded',
      created: now(),
    };
    this.refunds.set(refund.id, refund);
    charge.amount_refunded = (charge.amount_refunded as number) + amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    emit({ type: 'refund.created', object: { ...refund } });
    emit({ type: 'charge.refunded', object: { ...charge } });
    return refund;
  }
}

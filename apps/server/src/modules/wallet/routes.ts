/**
 * The `wallet` area (routes.md, all ten paths as written, plus the DECIDED helpers a browser needs: a payment's
 * status, an invoice's PDF, the people one allocates to, and the loopback card form's endpoint). Every route needs
 * the wallet feature; money writes take an Idempotency-Key (required where a retry could move money twice).
 */
import {
  AllocateBody,
  AnalyticsQuery,
  CardBody,
  CardToken,
  CostEstimate,
  EstimateCostBody,
  InvoiceHistory,
  InvoiceHistoryQuery,
  ProcessorIdParams,
  ReclaimBody,
  TopUpBody,
  TransactionHistory,
  TransactionHistoryQuery,
  UpdateSettingsBody,
  USAGE_PRICES,
  USAGE_TYPES,
  UsagePricing,
  WalletAnalytics,
  WalletMembers,
  WalletMove,
  WalletPayment,
  WalletState,
} from '@harbor/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { StripeApiError } from '../../integrations/stripe/loopback-state.js';
import { forbidden, invalid, notFound } from '../../platform/http/errors.js';
import { authOf } from '../../platform/http/pipeline.js';
import { asId } from '../../platform/tenancy.js';
import { analytics, transactionHistory } from './history.js';
import { invoiceFor, invoiceHistory } from './invoices.js';
import { allocate, members, reclaim } from './moves.js';
import { findPayment, topUp } from './payments.js';
import { balanceOf, fundsFromCompany, ledgerOf, updateSettings, walletState } from './service.js';
import { costOf } from './usage.js';

const tags = ['wallet'];
const use = { access: 'wallet.use' as const, feature: 'wallet_feature' as const };
const manage = { access: 'wallet.allocate' as const, feature: 'wallet_feature' as const };
/** A record id in the path; anything but digits names no record (404, as the tenant guard answers elsewhere). */
const idOf = (raw: string, what: string) => {
  const id = asId(raw);
  if (id === null) throw notFound(what);
  return id;
};

export function registerWalletRoutes(scope: FastifyInstance) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const deps = scope.deps;
  const db = deps.database.db;
  const ledger = ledgerOf(deps);
  const myWallet = async (req: Parameters<typeof authOf>[0]) => {
    const auth = authOf(req);
    return { auth, account: (await ledger.accounts.userWallet(auth.company.id, auth.user.id))! };
  };

  app.get(
    '/v1/wallets',
    { config: use, schema: { tags, summary: 'Balance and auto-refill settings', response: { 200: WalletState } } },
    async (req) => walletState(deps, authOf(req)),
  );

  app.post(
    '/v1/wallets/top_up',
    {
      config: { ...use, idempotent: 'required' },
      schema: {
        tags,
        summary: 'Top up with a card; credited when the processor confirms (webhook)',
        body: TopUpBody,
        response: { 202: WalletPayment },
      },
    },
    async (req, reply) => reply.code(202).send(await topUp(deps, authOf(req), req.body, req.idempotency!.key)),
  );

  app.put(
    '/v1/wallets/update_settings',
    {
      config: { ...use, idempotent: true },
      schema: {
        tags,
        summary: 'Auto-refill: enabled, threshold, amount',
        body: UpdateSettingsBody,
        response: { 200: WalletState },
      },
    },
    async (req) => {
      const { auth, account } = await myWallet(req);
      await updateSettings(deps, auth, account, req.body);
      return walletState(deps, auth);
    },
  );

  app.get(
    '/v1/wallets/transaction_history',
    {
      config: use,
      schema: {
        tags,
        summary: 'Transactions, newest first',
        querystring: TransactionHistoryQuery,
        response: { 200: TransactionHistory },
      },
    },
    async (req) => transactionHistory(db, (await myWallet(req)).account, req.query),
  );

  app.post(
    '/v1/wallets/estimate_cost',
    {
      config: use,
      schema: { tags, summary: 'What a usage would cost', body: EstimateCostBody, response: { 200: CostEstimate } },
    },
    async (req) => {
      const { account } = await myWallet(req);
      const amount = costOf(req.body.usageType, req.body.quantity);
      const balance = await balanceOf(db, account);
      return {
        usageType: req.body.usageType,
        quantity: req.body.quantity,
        unit_price: USAGE_PRICES[req.body.usageType].unit_price,
        amount,
        balance,
        affordable: balance >= amount,
      };
    },
  );

  app.get(
    '/v1/wallets/analytics',
    {
      config: use,
      schema: {
        tags,
        summary: 'Money in and usage by period',
        querystring: AnalyticsQuery,
        response: { 200: WalletAnalytics },
      },
    },
    async (req) => {
      const { auth, account } = await myWallet(req);
      const admin = fundsFromCompany(auth);
      if (req.query.corporation_id !== undefined) {
        if (!admin) throw forbidden();
        // Corporations are an admin record not built yet: no id can name one.
        throw notFound('corporation');
      }
      return analytics(
        db,
        admin ? { kind: 'company', companyId: auth.company.id } : { kind: 'user', accountId: account },
        req.query,
      );
    },
  );

  app.get(
    '/v1/wallets/invoice_history',
    {
      config: use,
      schema: {
        tags,
        summary: 'Invoices of my card payments',
        querystring: InvoiceHistoryQuery,
        response: { 200: InvoiceHistory },
      },
    },
    async (req) => invoiceHistory(db, authOf(req), req.query.page),
  );

  app.get(
    '/v1/wallets/invoices/:id/pdf',
    { config: use, schema: { tags, summary: 'One invoice as a PDF', params: ProcessorIdParams } },
    async (req, reply) => {
      const pdf = await invoiceFor(db, authOf(req), idOf(req.params.id, 'invoice'));
      if (!pdf) throw notFound('invoice');
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${pdf.filename}"`)
        .header('cache-control', 'private, no-store')
        .send(pdf.body);
    },
  );

  app.get(
    '/v1/wallets/payments/:id',
    {
      config: use,
      schema: {
        tags,
        summary: 'One of my card payments (the receipt)',
        params: ProcessorIdParams,
        response: { 200: WalletPayment },
      },
    },
    async (req) => {
      const p = await findPayment(db, authOf(req), idOf(req.params.id, 'payment'));
      if (!p) throw notFound('payment');
      return p;
    },
  );

  app.post(
    '/v1/wallets/allocate',
    {
      config: { ...manage, idempotent: 'required' },
      schema: {
        tags,
        summary: 'Move money to the wallets of people I manage',
        body: AllocateBody,
        response: { 200: WalletMove },
      },
    },
    async (req) => allocate(deps, authOf(req), req.body, req.idempotency!.key),
  );

  app.post(
    '/v1/wallets/reclaim',
    {
      config: { ...manage, idempotent: 'required' },
      schema: {
        tags,
        summary: 'Take money back from people I manage',
        body: ReclaimBody,
        response: { 200: WalletMove },
      },
    },
    async (req) => reclaim(deps, authOf(req), req.body, req.idempotency!.key),
  );

  app.get(
    '/v1/wallets/members',
    {
      config: manage,
      schema: { tags, summary: 'People I may allocate to, with their balances', response: { 200: WalletMembers } },
    },
    async (req) => ({ members: await members(deps, authOf(req)) }),
  );

  app.get(
    '/v1/wallets/usage_pricing',
    { config: use, schema: { tags, summary: 'What each kind of usage costs', response: { 200: UsagePricing } } },
    async () => ({ prices: USAGE_TYPES.map((t) => ({ usage_type: t, ...USAGE_PRICES[t] })) }),
  );

  // The card form's endpoint in loopback mode (docs/decisions/loopback-processor.md): the number is handed to the
  // processor in memory and never stored or logged. With real Stripe, Stripe.js does this and the route is absent.
  app.post(
    '/v1/wallets/payment_methods',
    {
      config: { ...use, rateLimit: { name: 'card_entry', max: 30, windowMs: 60_000 } },
      schema: {
        tags,
        summary: 'Loopback processor: a card to a payment method',
        body: CardBody,
        response: { 200: CardToken },
      },
    },
    async (req) => {
      const loopback = deps.payments.loopback;
      if (!loopback) throw notFound('path');
      try {
        const pm = loopback.tokenize(req.body);
        return { id: pm.id, ...pm.card };
      } catch (err) {
        if (err instanceof StripeApiError) throw invalid(cardField(err.body.param), err.message);
        throw err;
      }
    },
  );
}

const cardField = (param: unknown) =>
  param === 'exp_month' || param === 'exp_year' ? 'expiry' : param === 'cvc' ? 'cvc' : 'number';

/**
 * routes.md `account` (6): the account's billing. Every signed-in person may reach their own (`account.self`); an
 * unpaid one must, since the access guard sends them to /billing.
 */
import {
  AccountInfo,
  AccountPlanList,
  BillingHistory,
  ConnectCardBody,
  PageQuery,
  UpdatePlanBody,
} from '@harbor/shared';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf } from '../../platform/http/pipeline.js';
import type { Module } from '../types.js';
import { accountInfo, billingHistory, cancelPlan, connectCard, planList, updatePlan } from './billing.js';
import { CHARGE_PURPOSE, handleChargeEvent } from './charges.js';
import { RENEW_JOB, renewDue } from './renewal.js';

const tags = ['account'];
const self = { access: 'account.self' as const };

export const accountModule: Module = {
  name: 'account',
  register(scope) {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const deps = scope.deps;
    const db = deps.database.db;
    deps.payments.onEvent(CHARGE_PURPOSE, (type, object, tx) => handleChargeEvent(deps, type, object, tx));
    deps.jobs.register(RENEW_JOB, async () => void (await renewDue(deps)), { concurrency: 1 });
    deps.schedules.add({ name: RENEW_JOB, cron: '*/5 * * * *' });

    app.get(
      '/v1/accounts/info',
      {
        config: self,
        schema: { tags, summary: 'Billing state: plan, card, chosen plan', response: { 200: AccountInfo } },
      },
      async (req) => accountInfo(db, authOf(req)),
    );
    app.post(
      '/v1/accounts/connect_card',
      {
        config: { ...self, rateLimit: { name: 'card_entry', max: 30, windowMs: 60_000 } },
        schema: {
          tags,
          summary: 'Keep a card on file (brand and last four)',
          body: ConnectCardBody,
          response: { 200: AccountInfo },
        },
      },
      async (req) => {
        const auth = authOf(req);
        await connectCard(deps, auth, req.body);
        return accountInfo(db, auth);
      },
    );
    app.post(
      '/v1/accounts/update_plan',
      {
        config: { ...self, idempotent: 'required' },
        schema: {
          tags,
          summary: 'Choose a plan: charged by card now (202) or changed from the next month (200)',
          body: UpdatePlanBody,
          response: { 200: AccountInfo, 202: AccountInfo },
        },
      },
      async (req, reply) => {
        const auth = authOf(req);
        const { charged } = await updatePlan(deps, auth, req.body.plan, req.idempotency?.key ?? null);
        return reply.code(charged ? 202 : 200).send(await accountInfo(db, auth));
      },
    );
    app.get(
      '/v1/accounts/history',
      {
        config: self,
        schema: {
          tags,
          summary: 'Billing history (card charges)',
          querystring: PageQuery,
          response: { 200: BillingHistory },
        },
      },
      async (req) => billingHistory(db, authOf(req), req.query),
    );
    app.put(
      '/v1/accounts/cancel_subscription',
      {
        config: { ...self, idempotent: true },
        schema: { tags, summary: 'Cancel the plan at the end of the paid month', response: { 200: AccountInfo } },
      },
      async (req) => {
        const auth = authOf(req);
        await cancelPlan(db, auth);
        return accountInfo(db, auth);
      },
    );
    app.get(
      '/v1/plans',
      { config: self, schema: { tags, summary: 'Harbor account plans', response: { 200: AccountPlanList } } },
      async () => ({ data: planList() }),
    );
  },
};

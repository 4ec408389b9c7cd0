/**
 * routes.md `max-plus` (5). Anyone subscribes and cancels their own; managers (max_plus.manage) list the people they
 * reach, bulk-subscribe them on their own card and cancel for one. The browser refreshes the current user after each.
 */
import {
  ManageableUsers,
  MaxPlusBulkBody,
  MaxPlusForUserBody,
  MaxPlusSubscribeBody,
  MaxPlusWrite,
} from '@harbor/shared';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf } from '../../platform/http/pipeline.js';
import type { Module } from '../types.js';
import { bulkSubscribe, cancelFor, cancelForUser, manageableUsers, subscribeSelf } from './service.js';

const tags = ['max-plus'];
const self = { access: 'account.self' as const };
const manage = { access: 'max_plus.manage' as const };

export const maxPlusModule: Module = {
  name: 'max-plus',
  register(scope) {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const deps = scope.deps;
    const base = '/v1/max_plus_subscriptions';

    app.get(
      `${base}/manageable_users`,
      {
        config: manage,
        schema: { tags, summary: 'People the manager may subscribe', response: { 200: ManageableUsers } },
      },
      async (req) => manageableUsers(deps.database.db, authOf(req)),
    );
    app.post(
      base,
      {
        config: { ...self, idempotent: 'required' },
        schema: {
          tags,
          summary: 'Subscribe (payment_type credit_card: the card on file); active once the processor confirms',
          body: MaxPlusSubscribeBody,
          response: { 202: MaxPlusWrite },
        },
      },
      async (req, reply) =>
        reply.code(202).send(await subscribeSelf(deps, authOf(req), req.body.plan, req.idempotency?.key ?? null)),
    );
    app.post(
      `${base}/cancel`,
      {
        config: { ...self, idempotent: true },
        schema: { tags, summary: 'Cancel your own Max Plus (ends now)', response: { 200: MaxPlusWrite } },
      },
      async (req) => {
        const auth = authOf(req);
        return cancelFor(deps, auth, auth.user.id);
      },
    );
    app.post(
      `${base}/cancel_for_user`,
      {
        config: { ...manage, idempotent: true },
        schema: {
          tags,
          summary: 'Cancel the Max Plus of someone you manage',
          body: MaxPlusForUserBody,
          response: { 200: MaxPlusWrite },
        },
      },
      async (req) => cancelForUser(deps, authOf(req), req.body.user_id),
    );
    app.post(
      `${base}/bulk_subscribe`,
      {
        config: { ...manage, idempotent: 'required' },
        schema: {
          tags,
          summary: 'Subscribe people you manage, on your card (one charge)',
          body: MaxPlusBulkBody,
          response: { 202: MaxPlusWrite },
        },
      },
      async (req, reply) =>
        reply
          .code(202)
          .send(await bulkSubscribe(deps, authOf(req), req.body.user_ids, req.body.plan, req.idempotency?.key ?? null)),
    );
  },
};

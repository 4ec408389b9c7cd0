/**
 * Two-way texting (issue 12): the conversations inbox, sending, numbers, mobile validation, the carrier's signed
 * callbacks (status and inbound, `/v1/webhooks/twilio/sms-status` and `/sms-inbound`), the SMS channel of /cable, and
 * the "be the phone" page's routes. Plans, subscriptions, licences and orders are modules/usage-plans.
 * docs/decisions/sms-*.md.
 */
import multipart from '@fastify/multipart';
import { MMS_MAX_BYTES, SMS_CHANNEL } from '@harbor/shared';
import { addTwilioTopic } from '../../integrations/twilio/topics.js';
import { broadcastChannels } from '../broadcasts/channels.js';
import type { Module } from '../types.js';
import { bulkRoutes } from './bulk-routes.js';
import { smsChannel } from './channel.js';
import { devPhoneRoutes } from './dev-phone.js';
import { confirmJob, inboundHandler, SMS_CONFIRM_JOB, statusHandler } from './inbound.js';
import { numberRoutes } from './numbers.js';
import { reconcileStale, SMS_RECONCILE_JOB } from './reconcile.js';
import { conversationRoutes } from './routes.js';
import { handToCarrier, SMS_SEND_JOB } from './send.js';
import { mediaRoute } from './send-form.js';
import { statusBatchHandler } from './status-batch.js';
import { smsStream } from './store.js';
import { verificationRoutes } from './verifications.js';

export const smsModule: Module = {
  name: 'sms',
  async register(scope, { channels }) {
    const deps = scope.deps;
    const { port, carrier } = deps.messaging;
    await scope.register(multipart, { limits: { fileSize: MMS_MAX_BYTES, files: 1, fields: 20, parts: 21 } });
    channels.register({ name: SMS_CHANNEL, streamFor: (auth) => smsStream(auth.user.id) });
    addTwilioTopic(
      deps,
      'sms-status',
      { handle: statusHandler(deps), handleMany: statusBatchHandler(deps) },
      port.authToken,
    );
    addTwilioTopic(deps, 'sms-inbound', inboundHandler(deps), port.authToken);
    deps.jobs.register(SMS_SEND_JOB, async ({ job }) => void (await handToCarrier(deps, Number(job.payload.id))), {
      concurrency: 4,
    });
    deps.jobs.register(SMS_CONFIRM_JOB, confirmJob(deps), { concurrency: 2 });
    deps.jobs.register(SMS_RECONCILE_JOB, async () => void (await reconcileStale(deps)), { concurrency: 1 });
    deps.schedules.add({ name: SMS_RECONCILE_JOB, cron: '* * * * *' });
    if (carrier) {
      // The loopback carrier posts its signed callbacks through the app itself (the same route Twilio calls).
      scope.addHook('onReady', async () => {
        carrier.setTarget(async (url, params, signature) => {
          const u = new URL(url);
          const res = await scope.inject({
            method: 'POST',
            url: u.pathname + u.search,
            payload: new URLSearchParams(params).toString(),
            headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
          });
          return res.statusCode;
        });
      });
    }
    broadcastChannels(deps).register(smsChannel(deps));
    conversationRoutes(scope);
    bulkRoutes(scope);
    numberRoutes(scope);
    verificationRoutes(scope);
    mediaRoute(scope);
    devPhoneRoutes(scope);
  },
};

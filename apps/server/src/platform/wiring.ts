/** Wires the process's dependencies from config and an open database; main.ts and the test harness share it. */
import path from 'node:path';
import type { Config } from '../config.js';
import { LocalInbox } from '../integrations/mail/local-inbox.js';
import type { MailPort } from '../integrations/mail/port.js';
import { SmtpMail } from '../integrations/mail/smtp.js';
import { OpenIdSso } from '../integrations/sso/openid.js';
import { LocalDiskStorage } from '../integrations/storage/local-disk.js';
import { S3Storage } from '../integrations/storage/s3.js';
import { Payments } from '../integrations/stripe/payments.js';
import { wireMessaging } from '../integrations/twilio/wiring.js';
import { AuditLog } from './audit/audit.js';
import { SessionCache } from './auth/session-cache.js';
import { SecretBox } from './auth/tokens.js';
import type { Database } from './db/client.js';
import type { Deps } from './deps.js';
import { Outbox } from './events/outbox.js';
import { registerHousekeeping } from './housekeeping.js';
import { RateLimiter } from './http/rate-limit.js';
import { attachBullmq } from './jobs/bullmq.js';
import { JobQueue } from './jobs/queue.js';
import { Scheduler } from './jobs/schedule.js';
import { RedisThrottle } from './jobs/throttle.js';
import { createBus } from './live/bus.js';
import { commandOptions, RedisClients } from './redis.js';
import { WebhookRegistry } from './webhooks/ingress.js';

export async function wireDeps(config: Config, database: Database, limits: Record<string, number> = {}): Promise<Deps> {
  const mail: MailPort = config.smtpUrl
    ? new SmtpMail(config.smtpUrl, config.mailFrom)
    : await LocalInbox.start(database.db, config.mailFrom, {
        failPercent: config.mail.standinFailPercent,
        eventPrivateKey: config.mail.standinEventKey,
      });
  const redis = config.redisUrl ? new RedisClients(config.redisUrl) : null;
  // With Redis, throttles are one budget for every process; without it, this process is the only one.
  const throttle = redis ? new RedisThrottle(redis.create('throttles', commandOptions()), config.jobsQueue) : undefined;
  const jobs = new JobQueue(database, { processConcurrency: config.jobsConcurrency, throttle });
  const schedules = new Scheduler(database, jobs);
  jobs.onTick(() => schedules.tick());
  const events = new Outbox(database);
  jobs.addWorker(events);
  const webhooks = new WebhookRegistry(database, jobs);
  const payments = await Payments.create({ stripe: config.stripe, loopbackPort: config.paymentsLoopbackPort });
  webhooks.register(payments.provider());
  registerHousekeeping(database, jobs, schedules);
  const detachBullmq = redis ? await attachBullmq(jobs, redis, config.jobsQueue) : null;
  // One deployment's Redis namespace is its job queue's name (JOBS_QUEUE): its live channels share it.
  const bus = createBus(redis, config.jobsQueue);
  const sessionCache = new SessionCache(bus, config.sessionCacheMs);
  await sessionCache.start();
  // Limits wait 250 ms for Redis at most, then count in-process (rate-limit.ts).
  const limiterRedis = redis?.create(
    'rate limits',
    commandOptions({ commandTimeout: 250, enableAutoPipelining: true }),
  );
  closers.set(jobs, async () => {
    await jobs.stop();
    await detachBullmq?.();
    await jobs.throttle.close();
    await sessionCache.close();
    await bus.close();
    await redis?.close();
  });
  return {
    clock: config.clockOffsetMs ? () => new Date(Date.now() + config.clockOffsetMs) : () => new Date(),
    jobs,
    schedules,
    events,
    webhooks,
    config,
    database,
    mail,
    messaging: wireMessaging(config),
    payments,
    sso: new OpenIdSso({ allowPrivateNetwork: ['development', 'test'].includes(config.environment) }),
    storage: config.s3 ? new S3Storage(config.s3) : new LocalDiskStorage(path.join(config.dataDir, 'files')),
    bus,
    sessionCache,
    limiter: new RateLimiter({ ...config.rateLimits, ...limits }, limiterRedis ?? null, config.jobsQueue),
    redis,
    audit: new AuditLog(database.db),
    secrets: new SecretBox(config.secretKey),
  };
}

const closers = new WeakMap<JobQueue, () => Promise<void>>();

export async function closeDeps(deps: Deps) {
  await closers.get(deps.jobs)?.();
  await deps.mail.close();
  await deps.payments.close();
  deps.messaging.close();
  deps.storage.close?.();
  await deps.database.close();
}

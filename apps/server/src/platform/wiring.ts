/** Wires the process's dependencies from config and an open database; main.ts and the test harness share it. */
import path from 'node:path';
import type { Config } from '../config.js';
import { LocalInbox } from '../integrations/mail/local-inbox.js';
import type { MailPort } from '../integrations/mail/port.js';
import { SmtpMail } from '../integrations/mail/smtp.js';
import { OpenIdSso } from '../integrations/sso/openid.js';
import { LocalDiskStorage } from '../integrations/storage/local-disk.js';
import { S3Storage } from '../integrations/storage/s3.js';
import { AuditLog } from './audit/audit.js';
import { SecretBox } from './auth/tokens.js';
import type { Database } from './db/client.js';
import type { Deps } from './deps.js';
import { RateLimiter } from './http/rate-limit.js';
import { attachBullmq } from './jobs/bullmq.js';
import { JobQueue } from './jobs/queue.js';
import { createBus } from './live/bus.js';

export async function wireDeps(config: Config, database: Database, limits: Record<string, number> = {}): Promise<Deps> {
  const mail: MailPort = config.smtpUrl
    ? new SmtpMail(config.smtpUrl, config.mailFrom)
    : await LocalInbox.start(database.db, config.mailFrom);
  const jobs = new JobQueue(database);
  const detachBullmq = config.redisUrl ? await attachBullmq(jobs, config.redisUrl, config.jobsQueue) : null;
  closers.set(jobs, async () => {
    await jobs.stop();
    await detachBullmq?.();
  });
  return {
    jobs,
    config,
    database,
    mail,
    sso: new OpenIdSso(),
    storage: config.s3 ? new S3Storage(config.s3) : new LocalDiskStorage(path.join(config.dataDir, 'files')),
    bus: createBus(config.redisUrl),
    limiter: new RateLimiter(limits),
    audit: new AuditLog(database.db),
    secrets: new SecretBox(config.secretKey),
  };
}

const closers = new WeakMap<JobQueue, () => Promise<void>>();

export async function closeDeps(deps: Deps) {
  await closers.get(deps.jobs)?.();
  await deps.mail.close();
  await deps.bus.close();
  deps.storage.close?.();
  await deps.database.close();
}

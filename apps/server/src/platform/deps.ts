/** What the process wires once and every area reads from `app.deps`. */
import type { Config } from '../config.js';
import type { MailPort } from '../integrations/mail/port.js';
import type { SsoPort } from '../integrations/sso/port.js';
import type { StoragePort } from '../integrations/storage/port.js';
import type { Payments } from '../integrations/stripe/payments.js';
import type { Messaging } from '../integrations/twilio/wiring.js';
import type { AuditLog } from './audit/audit.js';
import type { SessionCache } from './auth/session-cache.js';
import type { SecretBox } from './auth/tokens.js';
import type { Database } from './db/client.js';
import type { Outbox } from './events/outbox.js';
import type { RateLimiter } from './http/rate-limit.js';
import type { JobQueue } from './jobs/queue.js';
import type { Scheduler } from './jobs/schedule.js';
import type { Bus } from './live/bus.js';
import type { RedisClients } from './redis.js';
import type { WebhookRegistry } from './webhooks/ingress.js';

export interface Deps {
  config: Config;
  database: Database;
  mail: MailPort;
  /** Single sign-on (OpenID Connect): openid-client in production and tests alike (tests run a real provider). */
  sso: SsoPort;
  /** Texts, line-type lookups and numbers: Twilio with TWILIO_* set, the loopback carrier otherwise. */
  messaging: Messaging;
  /** Card payments: Stripe with STRIPE_SECRET_KEY, the loopback processor otherwise (integrations/stripe/). */
  payments: Payments;
  /** Contact files and other uploads (local disk under DATA_DIR/files by default). */
  storage: StoragePort;
  bus: Bus;
  /** Sessions resolved without a database round trip for a few seconds (session-cache.ts). */
  sessionCache: SessionCache;
  limiter: RateLimiter;
  /** The process's Redis clients when REDIS_URL is set (health reads their state). */
  redis: RedisClients | null;
  audit: AuditLog;
  secrets: SecretBox;
  jobs: JobQueue;
  /** Cron-like schedules of jobs, fired once per slot across processes. */
  schedules: Scheduler;
  /** Domain events: areas record them in their writes' transactions and subscribe to them. */
  events: Outbox;
  /** Signed provider callbacks: integrations register their provider (verify + handle). */
  webhooks: WebhookRegistry;
  /**
   * The wall clock of rules that depend on the time of day where a person is (texting quiet hours). Tests set it, so
   * a rule is checked at the hour it is about, not at whatever hour CI happens to run.
   */
  clock: () => Date;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: Deps;
  }
}

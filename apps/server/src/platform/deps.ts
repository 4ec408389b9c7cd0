/** What the process wires once and every area reads from `app.deps`. */
import type { Config } from '../config.js';
import type { MailPort } from '../integrations/mail/port.js';
import type { SsoPort } from '../integrations/sso/port.js';
import type { StoragePort } from '../integrations/storage/port.js';
import type { AuditLog } from './audit/audit.js';
import type { SecretBox } from './auth/tokens.js';
import type { Database } from './db/client.js';
import type { RateLimiter } from './http/rate-limit.js';
import type { JobQueue } from './jobs/queue.js';
import type { Bus } from './live/bus.js';

export interface Deps {
  config: Config;
  database: Database;
  mail: MailPort;
  /** Single sign-on (OpenID Connect): openid-client in production and tests alike (tests run a real provider). */
  sso: SsoPort;
  /** Contact files and other uploads (local disk under DATA_DIR/files by default). */
  storage: StoragePort;
  bus: Bus;
  limiter: RateLimiter;
  audit: AuditLog;
  secrets: SecretBox;
  jobs: JobQueue;
}

declare module 'fastify' {
  interface FastifyInstance {
    deps: Deps;
  }
}

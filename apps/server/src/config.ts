/**
 * Process configuration from the environment, read once. The embedded defaults make `npm start` work on a bare
 * machine: PGlite under ./data, in-process jobs and fan-out, the local mail stand-in.
 */
import path from 'node:path';
import { loadVoiceConfig, type VoiceConfig } from './integrations/voice/config.js';

export interface Config {
  port: number;
  host: string;
  /** Public URL used in emailed links. */
  appUrl: string;
  databaseUrl: string | null;
  dataDir: string;
  redisUrl: string | null;
  /** BullMQ queue name: processes sharing one database must share it; separate databases must not. */
  jobsQueue: string;
  /** Jobs running at once in one process, all kinds together (each kind also has its own limit). */
  jobsConcurrency: number;
  /** Seed demo data into a new database. On for the embedded database, opt-in (HARBOR_DEMO=1) for a server. */
  demo: boolean;
  environment: 'development' | 'stage' | 'demo' | 'production' | 'test';
  secretKey: string;
  sessionIdleMinutes: number;
  sessionAbsoluteHours: number;
  smtpUrl: string | null;
  mailFrom: string;
  /**
   * Email (docs/decisions/email.md): SENDGRID_WEBHOOK_PUBLIC_KEY verifies SendGrid's signed events (the local
   * stand-in signs its own); MAIL_RATE is the provider's messages per second for all processes together;
   * MAIL_BOUNCE_DOMAIN the domain of per-message return paths (VERP); MAIL_STANDIN_FAIL_PERCENT makes the local
   * stand-in answer that share of messages with a temporary failure (benches; ignored in production).
   */
  mail: {
    webhookKey: string | null;
    ratePerSecond: number;
    bounceDomain: string;
    standinFailPercent: number;
    /** The stand-in's event signing key (PKCS#8 DER, base64), so a bench can verify with a key it configured. */
    standinEventKey: string | null;
  };
  allowedOrigins: string[];
  webDist: string;
  logLevel: string;
  /**
   * Shifts the clock of time-of-day rules (deps.clock: texting quiet hours) by this many ms. Never in production:
   * browser flows set it so a flow that needs someone awake and someone asleep does not depend on when it runs.
   */
  clockOffsetMs: number;
  /** Files go to this S3-compatible bucket when set (integrations/storage/s3.ts); to DATA_DIR/files otherwise. */
  s3: S3Config | null;
  /**
   * How long a resolved session is trusted without the database (platform/auth/session-cache.ts); 0 turns the cache
   * off. Default 3 s, 0 under test (tests write to the database behind the app's back).
   */
  sessionCacheMs: number;
  /** How long a person's dashboard birthday lists are reused (modules/users/birthdays.ts); 0 off. Default 60 s. */
  dashboardCacheMs: number;
  /**
   * Stripe (STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY, STRIPE_WEBHOOK_SECRET); null: the loopback processor
   * (integrations/stripe/loopback.ts) on 127.0.0.1, PAYMENTS_LOOPBACK_PORT or a free port.
   */
  stripe: { secretKey: string; publishableKey: string; webhookSecret: string } | null;
  paymentsLoopbackPort: number;
  /**
   * Texting (docs/decisions/sms-messaging-port.md): TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and
   * TWILIO_MESSAGING_SERVICE_SID select Twilio; without them the loopback carrier. SMS_RATE is the carrier's
   * messages per second for all processes; SMS_LOOPBACK_FAIL_PERCENT makes the loopback refuse that share of sends
   * (benches); SMS_REGISTRATION_DELAY_MS how long its A2P campaign stays pending (default 20 s, 0 under test).
   */
  sms: {
    twilio: { accountSid: string; authToken: string; messagingServiceSid: string } | null;
    ratePerSecond: number;
    loopbackFailPercent: number;
    registrationDelayMs: number;
    /** SMS_LOOPBACK_JOURNAL: the file the loopback carrier keeps what it accepted in (survives a killed process). */
    loopbackJournal: string | null;
    /** SMS_RECONCILE_AFTER_MS: a text `sending` this long is settled with the carrier (modules/sms/reconcile.ts). */
    reconcileAfterMs: number;
  };
  /** Per-rule overrides of rate-limit maxima (`RATE_LIMITS=user=20000,sign_in=30`), see platform/http/rate-limit.ts. */
  rateLimits: Record<string, number>;
  /** The softphone's voice service: Twilio, the local SIP lab, or none (integrations/voice/config.ts). */
  voice: VoiceConfig;
}

export interface S3Config {
  bucket: string;
  prefix: string;
  region: string;
  endpoint?: string;
  forcePathStyle?: boolean;
  accessKeyId?: string;
  secretAccessKey?: string;
}

const repoRoot = path.resolve(import.meta.dirname, '../../..');

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  const databaseUrl = env.DATABASE_URL || null;
  const environment = (env.HARBOR_ENV ?? (env.NODE_ENV === 'test' ? 'test' : 'development')) as Config['environment'];
  const secretKey = env.SECRET_KEY ?? '';
  if (environment === 'production' && secretKey.length < 32) {
    throw new Error('SECRET_KEY (at least 32 characters) is required in production');
  }
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    appUrl: env.APP_URL ?? `http://localhost:${port}`,
    databaseUrl,
    dataDir: path.resolve(repoRoot, env.DATA_DIR ?? 'data'),
    redisUrl: env.REDIS_URL || null,
    jobsQueue: env.JOBS_QUEUE ?? 'harbor-jobs',
    jobsConcurrency: Number(env.JOBS_CONCURRENCY ?? 8),
    demo: env.HARBOR_DEMO ? env.HARBOR_DEMO === '1' : !databaseUrl,
    environment,
    // The embedded default gets a fixed development key so the data dir stays readable across restarts.
    secretKey: secretKey || 'harbor-development-secret-key-not-for-production',
    sessionIdleMinutes: Number(env.SESSION_IDLE_MINUTES ?? 120),
    sessionAbsoluteHours: Number(env.SESSION_ABSOLUTE_HOURS ?? 24),
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM ?? 'Harbor <no-reply@harbor.test>',
    mail: {
      webhookKey: env.SENDGRID_WEBHOOK_PUBLIC_KEY || null,
      ratePerSecond: Number(env.MAIL_RATE ?? (env.SMTP_URL ? 50 : 2_000)),
      bounceDomain:
        env.MAIL_BOUNCE_DOMAIN ?? /@([^>\s]+)/.exec(env.MAIL_FROM ?? 'no-reply@harbor.test')?.[1] ?? 'harbor.test',
      standinFailPercent: environment === 'production' ? 0 : Number(env.MAIL_STANDIN_FAIL_PERCENT ?? 0),
      standinEventKey: (environment !== 'production' && env.MAIL_STANDIN_EVENT_PRIVATE_KEY) || null,
    },
    allowedOrigins: (env.ALLOWED_ORIGINS ?? '').split(',').filter(Boolean),
    webDist: path.resolve(repoRoot, env.WEB_DIST ?? 'apps/web/dist'),
    logLevel: env.LOG_LEVEL ?? (environment === 'test' ? 'silent' : 'info'),
    clockOffsetMs: clockOffsetOf(env.HARBOR_CLOCK_OFFSET_MS, environment),
    s3: env.STORAGE_S3_BUCKET
      ? {
          bucket: env.STORAGE_S3_BUCKET,
          prefix: env.STORAGE_S3_PREFIX ?? '',
          region: env.STORAGE_S3_REGION ?? 'us-east-1',
          endpoint: env.STORAGE_S3_ENDPOINT || undefined,
          forcePathStyle: env.STORAGE_S3_FORCE_PATH_STYLE ? env.STORAGE_S3_FORCE_PATH_STYLE === '1' : undefined,
          accessKeyId: env.STORAGE_S3_ACCESS_KEY_ID || undefined,
          secretAccessKey: env.STORAGE_S3_SECRET_ACCESS_KEY || undefined,
        }
      : null,
    rateLimits: parseRateLimits(env.RATE_LIMITS ?? ''),
    voice: loadVoiceConfig(env),
    stripe: env.STRIPE_SECRET_KEY
      ? {
          secretKey: env.STRIPE_SECRET_KEY,
          publishableKey: env.STRIPE_PUBLISHABLE_KEY ?? '',
          webhookSecret: env.STRIPE_WEBHOOK_SECRET ?? '',
        }
      : null,
    paymentsLoopbackPort: Number(env.PAYMENTS_LOOPBACK_PORT ?? 0),
    sms: {
      twilio:
        env.TWILIO_ACCOUNT_SID && env.TWILIO_AUTH_TOKEN
          ? {
              accountSid: env.TWILIO_ACCOUNT_SID,
              authToken: env.TWILIO_AUTH_TOKEN,
              messagingServiceSid: env.TWILIO_MESSAGING_SERVICE_SID ?? '',
            }
          : null,
      ratePerSecond: Number(env.SMS_RATE ?? 200),
      loopbackFailPercent: environment === 'production' ? 0 : Number(env.SMS_LOOPBACK_FAIL_PERCENT ?? 0),
      registrationDelayMs: Number(env.SMS_REGISTRATION_DELAY_MS ?? (environment === 'test' ? 0 : 20_000)),
      loopbackJournal: env.SMS_LOOPBACK_JOURNAL || null,
      reconcileAfterMs: Number(env.SMS_RECONCILE_AFTER_MS ?? 5 * 60_000),
    },
    sessionCacheMs: Number(env.SESSION_CACHE_MS ?? (environment === 'test' ? 0 : 3_000)),
    dashboardCacheMs: Number(env.DASHBOARD_CACHE_MS ?? (environment === 'test' ? 0 : 60_000)),
  };
}

function parseRateLimits(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of text.split(',').filter(Boolean)) {
    const [name, value] = part.split('=');
    const max = Number(value);
    if (!name || !Number.isInteger(max) || max < 1) throw new Error(`RATE_LIMITS: bad entry "${part}"`);
    out[name.trim()] = max;
  }
  return out;
}

function clockOffsetOf(value: string | undefined, environment: Config['environment']): number {
  if (!value) return 0;
  const ms = Number(value);
  if (!Number.isInteger(ms)) throw new Error(`HARBOR_CLOCK_OFFSET_MS must be an integer, not ${value}`);
  if (environment === 'production' && ms !== 0) throw new Error('HARBOR_CLOCK_OFFSET_MS is refused in production');
  return ms;
}

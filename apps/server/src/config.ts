/**
 * Process configuration from the environment, read once. The embedded defaults make `npm start` work on a bare
 * machine: PGlite under ./data, in-process jobs and fan-out, the local mail stand-in.
 */
import path from 'node:path';

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
  /** Seed demo data into a new database. On for the embedded database, opt-in (HARBOR_DEMO=1) for a server. */
  demo: boolean;
  environment: 'development' | 'stage' | 'demo' | 'production' | 'test';
  secretKey: string;
  sessionIdleMinutes: number;
  sessionAbsoluteHours: number;
  smtpUrl: string | null;
  mailFrom: string;
  allowedOrigins: string[];
  webDist: string;
  logLevel: string;
  /** Files go to this S3-compatible bucket when set (integrations/storage/s3.ts); to DATA_DIR/files otherwise. */
  s3: S3Config | null;
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
    demo: env.HARBOR_DEMO ? env.HARBOR_DEMO === '1' : !databaseUrl,
    environment,
    // The embedded default gets a fixed development key so the data dir stays readable across restarts.
    secretKey: secretKey || 'harbor-development-secret-key-not-for-production',
    sessionIdleMinutes: Number(env.SESSION_IDLE_MINUTES ?? 120),
    sessionAbsoluteHours: Number(env.SESSION_ABSOLUTE_HOURS ?? 24),
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM ?? 'Harbor <no-reply@harbor.test>',
    allowedOrigins: (env.ALLOWED_ORIGINS ?? '').split(',').filter(Boolean),
    webDist: path.resolve(repoRoot, 'apps/web/dist'),
    logLevel: env.LOG_LEVEL ?? (environment === 'test' ? 'silent' : 'info'),
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
  };
}

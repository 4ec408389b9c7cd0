import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM } from './chromium';

/** A fresh embedded database for every run: the flows start from the fixed demo data. */
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-e2e-'));
const PORT = Number(process.env.E2E_PORT ?? 3100);
export const BASE_URL = `http://localhost:${PORT}`;
/** The identity provider of the single sign-on flow (e2e/oidc-provider.mjs), on 127.0.0.1: its own cookie jar. */
const OIDC_PORT = Number(process.env.E2E_OIDC_PORT ?? 3101);
const OIDC_ISSUER = `http://127.0.0.1:${OIDC_PORT}`;

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  // The real calls need the voice lab: their own config (e2e/voice-lab.config.ts, scripts/e2e-voice.mjs).
  testIgnore: 'voice-lab.spec.ts',
  outputDir: '../test-results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  // On CI a flow that fails is run once more and, if it passes then, reported as flaky in the list: a broken flow
  // still fails twice, while one lost race on a loaded two-core machine does not throw away a whole submission.
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  use: {
    baseURL: BASE_URL,
    screenshot: 'only-on-failure',
    trace: 'off',
    launchOptions: CHROMIUM,
  },
  webServer: [
    {
      command: 'node --import tsx apps/server/src/main.ts',
      cwd: '..',
      url: `${BASE_URL}/v1/health`,
      reuseExistingServer: false,
      // A fresh database is migrated and seeded first: on a busy two-core machine that alone can pass a minute.
      timeout: 180_000,
      env: { PORT: String(PORT), DATA_DIR: dataDir, HARBOR_DEMO: '1', LOG_LEVEL: 'warn', APP_URL: BASE_URL },
    },
    {
      command: 'node e2e/oidc-provider.mjs',
      cwd: '..',
      url: `${OIDC_ISSUER}/.well-known/openid-configuration`,
      reuseExistingServer: false,
      timeout: 30_000,
      env: { E2E_OIDC_PORT: String(OIDC_PORT), E2E_BASE_URL: BASE_URL },
    },
  ],
});

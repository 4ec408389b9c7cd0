import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { CHROMIUM } from './chromium';

/**
 * One Harbor server per Playwright worker, each on its own copy of the freshly seeded demo (e2e/seed-data.ts):
 * flows change demo users (a password, a plan, a wallet), so two workers on one server would step on each other.
 * Each worker finds its server by its parallelIndex (e2e/fixtures.ts). One worker unless E2E_WORKERS says more: on
 * the CI machine's two cores, two workers beside the integration lanes slowed everything (decision test-speed).
 */
const WORKERS = Number(process.env.E2E_WORKERS ?? 1);
// The config is loaded again in every worker: what the runner decided travels in the environment workers inherit.
process.env.E2E_DATA_ROOT ??= fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-e2e-'));
const dataDirs = Array.from({ length: WORKERS }, (_, i) => path.join(process.env.E2E_DATA_ROOT!, `worker-${i}`));
// scripts/e2e.mjs passes free ports; a bare `npx playwright test` uses 3100, 3102, 3103... (3101: the provider).
const base = Number(process.env.E2E_PORT ?? 3100);
const ports = process.env.E2E_PORTS
  ? process.env.E2E_PORTS.split(',').map(Number)
  : Array.from({ length: WORKERS }, (_, i) => (i === 0 ? base : base + 1 + i));
if (ports.length < WORKERS) throw new Error(`E2E_PORTS has ${ports.length} ports for ${WORKERS} workers`);
const baseUrls = dataDirs.map((_, i) => `http://localhost:${ports[i]}`);
process.env.E2E_BASE_URLS = baseUrls.join(',');
/**
 * The servers' clock of quiet hours runs at about 15:00 UTC whenever the flows run (HARBOR_CLOCK_OFFSET_MS): Florida
 * is then awake and Hawaii asleep, which the text broadcast flow needs; from ~07:00 to 12:00 UTC every US zone is
 * asleep in real time. Flows read the same offset (clockNow in helpers.ts).
 */
process.env.E2E_CLOCK_OFFSET_MS ??= String(15 * 3_600_000 - (Date.now() % 86_400_000));
/** The identity provider of the single sign-on flow (e2e/oidc-provider.mjs), on 127.0.0.1: its own cookie jar. */
const OIDC_PORT = Number(process.env.E2E_OIDC_PORT ?? 3101);
const OIDC_ISSUER = `http://127.0.0.1:${OIDC_PORT}`;

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  // The real calls need the voice lab: their own config (e2e/voice-lab.config.ts, scripts/e2e-voice.mjs).
  testIgnore: 'voice-lab.spec.ts',
  outputDir: '../test-results',
  // Two minutes a flow: on a slower two-core machine (a `select 1` round trip at ~170 us, the whole test command at
  // ~25 minutes) the contacts-list flow, which takes ~35 s on a quiet fast one, ran past one minute.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: WORKERS,
  // On CI a flow that fails is run once more and, if it passes then, reported as flaky in the list: a broken flow
  // still fails twice, while one lost race on a loaded two-core machine does not throw away a whole submission.
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  use: {
    screenshot: 'only-on-failure',
    trace: 'off',
    launchOptions: CHROMIUM,
  },
  // Playwright starts these one after another, each once its URL answers: the first seeds every worker's copy.
  webServer: [
    ...dataDirs.map((dataDir, i) => ({
      command: `${i === 0 ? `node --import tsx e2e/seed-data.ts ${dataDirs.join(' ')} && ` : ''}node --import tsx apps/server/src/main.ts`,
      cwd: '..',
      url: `${baseUrls[i]}/v1/health`,
      reuseExistingServer: false,
      // Migrating and seeding on a busy two-core machine can alone pass a minute.
      timeout: 180_000,
      env: {
        PORT: String(ports[i]),
        DATA_DIR: dataDir,
        HARBOR_DEMO: '1',
        LOG_LEVEL: 'warn',
        APP_URL: baseUrls[i],
        HARBOR_CLOCK_OFFSET_MS: process.env.E2E_CLOCK_OFFSET_MS ?? '0',
      },
    })),
    {
      command: 'node e2e/oidc-provider.mjs',
      cwd: '..',
      url: `${OIDC_ISSUER}/.well-known/openid-configuration`,
      reuseExistingServer: false,
      timeout: 30_000,
      env: { E2E_OIDC_PORT: String(OIDC_PORT), E2E_BASE_URLS: process.env.E2E_BASE_URLS },
    },
  ],
});

import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig } from '@playwright/test';
import { voiceChromium } from './chromium';
import { writeSpeechLikeWav } from './voice/tone';

/**
 * The real calls through the local voice lab (e2e/voice-lab.spec.ts): Harbor and the lab (Kamailio, rtpengine,
 * SIPp) start together (e2e/voice/lab-server.mjs); Chromium's fake microphone plays speech-like notes (voice/tone.ts), and loopback is allowed
 * for WebRTC so ICE pairs with rtpengine on 127.0.0.1. Run through `node scripts/e2e-voice.mjs`, which installs the
 * lab's packages as root. The directory and secret are set once here and inherited by the workers (recordings).
 */
process.env.VOICE_LAB_DIR ??= fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-voice-e2e-'));
process.env.VOICE_LAB_SECRET ??= crypto.randomBytes(24).toString('hex');
export const LAB_DIR = process.env.VOICE_LAB_DIR;
const tone = path.join(LAB_DIR, 'voice.wav');
if (!fs.existsSync(tone)) writeSpeechLikeWav(tone);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-voice-e2e-db-'));
const PORT = Number(process.env.E2E_VOICE_PORT ?? 3302);
const BASE_URL = `http://localhost:${PORT}`;

export default defineConfig({
  testDir: '.',
  testMatch: 'voice-lab.spec.ts',
  outputDir: '../test-results/voice',
  // Beside the whole test command on two cores (load 16-18) a page's first load alone has taken over 10 s (the
  // contacts-list flows wait 30 s for it), and CI failed these flows once with no call at fault: room for that.
  timeout: 150_000,
  expect: { timeout: 30_000 },
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  use: {
    baseURL: BASE_URL,
    screenshot: 'only-on-failure',
    trace: 'off',
    permissions: ['microphone'],
    launchOptions: voiceChromium(tone),
  },
  webServer: {
    command: 'node e2e/voice/lab-server.mjs',
    cwd: '..',
    url: `${BASE_URL}/v1/health`,
    reuseExistingServer: false,
    // SIGTERM first: the wrapper stops the lab's daemons before it exits.
    gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
    timeout: 180_000,
    env: { PORT: String(PORT), DATA_DIR: dataDir, HARBOR_DEMO: '1', LOG_LEVEL: 'warn', APP_URL: BASE_URL },
  },
});

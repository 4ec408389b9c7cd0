// The real calls through the local voice lab (e2e/voice-lab.spec.ts, e2e/voice-lab.config.ts): installs Chromium
// and the lab's Debian packages as root when they are missing (as scripts/e2e.mjs does for Chromium); without root
// and without them, says so and skips (exit 0), since a developer's `npm test` must not need root.
import { spawnSync } from 'node:child_process';
import { CHROMIUM, ensureChromium } from './chromium.mjs';
import { ensureLabInstalled } from './voice-lab/lab.mjs';

const missing = ensureLabInstalled();
const browser = ensureChromium();
if (missing.length || !browser) {
  const need = [...missing, ...(browser ? [] : ['chromium'])];
  console.log(`SKIPPED: the voice lab flows need ${need.join(' ')} (not root, so not installed).`);
  console.log(`Install them (sudo apt-get install -y ${need.join(' ')}) or run as root to include these flows.`);
  process.exit(0);
}
if (!process.env.CHROMIUM_PATH) process.env.CHROMIUM_PATH = CHROMIUM;
const args = ['playwright', 'test', '-c', 'e2e/voice-lab.config.ts', ...process.argv.slice(2)];
const r = spawnSync('npx', args, { stdio: 'inherit', env: process.env });
process.exit(r.status ?? 1);

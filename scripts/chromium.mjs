// Debian's Chromium for the browser flows (never a browser Playwright downloads itself): installed with apt-get
// when it is missing and we may (root), as CI does. Answers whether it is there.
import { execSync } from 'node:child_process';
import fs from 'node:fs';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export function ensureChromium() {
  if (fs.existsSync(CHROMIUM)) return true;
  if (process.getuid?.() !== 0) return false;
  console.log('Installing Debian chromium (apt-get)...');
  execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', {
    stdio: 'inherit',
  });
  return fs.existsSync(CHROMIUM);
}

// Debian's Chromium for the browser flows (never a browser Playwright downloads itself): installed with apt-get
// when it is missing and we may (root), as CI does. Answers whether it is there.
import { execSync } from 'node:child_process';
import fs from 'node:fs';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * apt-get, one at a time: the browser flows and the voice lab install side by side in `npm test`, and on a fresh
 * machine the second apt-get failed at once on dpkg's lock (the browser lane failed in 3 s). flock queues our own
 * installs; DPkg::Lock::Timeout waits for anyone else's (an unattended upgrade).
 */
export const APT_LOCK = '/var/lock/harbor-apt.lock';
export const APT_ARGS = ['-o', 'DPkg::Lock::Timeout=900'];
const APT = `flock ${APT_LOCK} apt-get ${APT_ARGS.join(' ')}`;

export function ensureChromium() {
  if (fs.existsSync(CHROMIUM)) return true;
  if (process.getuid?.() !== 0) return false;
  console.log('Installing Debian chromium (apt-get)...');
  execSync(`${APT} update -qq && DEBIAN_FRONTEND=noninteractive ${APT} install -y -qq chromium`, { stdio: 'inherit' });
  return fs.existsSync(CHROMIUM);
}

// Browser flows: Playwright driving Debian's Chromium (never a browser Playwright downloads itself). Installs the
// chromium package when it is missing and we may (root), as CI does.
import { execSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!fs.existsSync(CHROMIUM)) {
  if (process.getuid?.() !== 0) {
    console.error(`Chromium is not installed at ${CHROMIUM}: run "sudo apt-get install -y chromium" first.`);
    process.exit(1);
  }
  console.log('Installing Debian chromium (apt-get)...');
  execSync('apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium', {
    stdio: 'inherit',
  });
}
// A free port of our own: another run on this machine (or a developer's server) may hold any fixed one.
const freePort = () =>
  new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const p = srv.address().port;
      srv.close(() => resolve(p));
    });
  });
const port = await freePort();
// The identity provider the single sign-on flow signs in at (e2e/oidc-provider.mjs).
let oidcPort = await freePort();
while (oidcPort === port) oidcPort = await freePort();
const args = ['playwright', 'test', '-c', 'e2e/playwright.config.ts', ...process.argv.slice(2)];
const env = { ...process.env, E2E_PORT: String(port), E2E_OIDC_PORT: String(oidcPort) };
const r = spawnSync('npx', args, { stdio: 'inherit', env });
process.exit(r.status ?? 1);

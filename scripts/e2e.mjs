// Browser flows: Playwright driving Debian's Chromium (never a browser Playwright downloads itself). Installs the
// chromium package when it is missing and we may (root), as CI does.
import { spawnSync } from 'node:child_process';
import net from 'node:net';
import { CHROMIUM, ensureChromium } from './chromium.mjs';

if (!ensureChromium()) {
  console.error(`Chromium is not installed at ${CHROMIUM}: run "sudo apt-get install -y chromium" first.`);
  process.exit(1);
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

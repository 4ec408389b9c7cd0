// Browser flows: Playwright driving Debian's Chromium (never a browser Playwright downloads itself). Installs the
// chromium package when it is missing and we may (root), as CI does.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
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
const args = process.argv.slice(2);
// One Harbor server per Playwright worker (e2e/playwright.config.ts). A single spec file runs on one worker (files
// are not split), so it gets one server instead of seeding a copy nobody uses.
const specs = args.filter((a) => a.endsWith('.spec.ts'));
// One by default (a developer's run beside other work); `npm test` asks for two, with the integration passes at a
// lower priority so the flows get the cores when they need them (docs/decisions/test-speed.md).
const workers = specs.length === 1 ? 1 : Number(process.env.E2E_WORKERS ?? 1);
// Free ports of our own, all distinct: the servers' and the identity provider's (the single sign-on flow).
const ports = new Set();
while (ports.size < workers + 1) ports.add(await freePort());
const [oidcPort, ...harborPorts] = ports;
// The seeded databases live here for this run only.
const dataRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-e2e-'));
const env = {
  ...process.env,
  E2E_WORKERS: String(workers),
  E2E_PORTS: harborPorts.join(','),
  E2E_OIDC_PORT: String(oidcPort),
  E2E_DATA_ROOT: dataRoot,
};
const r = spawnSync('npx', ['playwright', 'test', '-c', 'e2e/playwright.config.ts', ...args], {
  stdio: 'inherit',
  env,
});
fs.rmSync(dataRoot, { recursive: true, force: true });
process.exit(r.status ?? 1);

// `npm run voice-lab`: the local voice lab (docs/decisions/voice-local-lab.md). Installs its Debian packages when
// root and missing, starts rtpengine, Kamailio (our configuration), the signed-event relay and a SIPp answerer on
// loopback, prints the env Harbor needs, and stops everything on Ctrl-C.
//   node scripts/voice-lab.mjs [--app-url http://localhost:3000] [--secret <hex>] [--dir <dir>]
import { parseArgs } from 'node:util';
import { ensureLabInstalled, startLab } from './voice-lab/lab.mjs';

const { values } = parseArgs({
  options: {
    'app-url': { type: 'string', default: process.env.APP_URL ?? 'http://localhost:3000' },
    secret: { type: 'string' },
    dir: { type: 'string' },
  },
});
const missing = ensureLabInstalled();
if (missing.length) {
  console.error(`The voice lab needs these Debian packages: ${missing.join(' ')}`);
  console.error(`Run as root (it installs them) or: sudo apt-get install -y ${missing.join(' ')}`);
  process.exit(1);
}
const lab = await startLab({ appUrl: values['app-url'], secret: values.secret, dir: values.dir, log: console.log });
console.log(`Voice lab running in ${lab.dir} (logs and recordings there). Start Harbor with:\n`);
for (const [k, v] of Object.entries(lab.env)) console.log(`export ${k}=${v}`);
console.log(`\nand APP_URL=${values['app-url']} (where the lab posts call events). Ctrl-C stops the lab.`);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, async () => {
    await lab.stop();
    process.exit(0);
  });
}

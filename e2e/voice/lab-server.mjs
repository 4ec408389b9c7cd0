// The voice lab flows' web server (e2e/voice-lab.config.ts): starts the local voice lab (scripts/voice-lab), then
// Harbor with the lab's env, in one process so Playwright stops both. The lab's directory and secret come from the
// config (VOICE_LAB_DIR, VOICE_LAB_SECRET) so the tests can read the recordings.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { startLab } from '../../scripts/voice-lab/lab.mjs';

const appUrl = process.env.APP_URL;
const lab = await startLab({
  appUrl,
  dir: process.env.VOICE_LAB_DIR,
  secret: process.env.VOICE_LAB_SECRET,
  // Playwright keeps a web server's output to itself: the lab's own lines go to a file the flows' reader can open.
  log: (line) =>
    fs.appendFileSync(path.join(process.env.VOICE_LAB_DIR, 'lab.log'), `${new Date().toISOString()} ${line}\n`),
});
const server = spawn('node', ['--import', 'tsx', 'apps/server/src/main.ts'], {
  stdio: 'inherit',
  env: { ...process.env, ...lab.env },
});
let stopping = false;
const stop = async (code) => {
  if (stopping) return;
  stopping = true;
  server.kill('SIGTERM');
  await lab.stop();
  process.exit(code);
};
server.on('exit', (code) => void stop(code ?? 1));
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => void stop(0));

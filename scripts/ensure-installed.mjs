// Installs dependencies when they are missing or older than package-lock.json, so `npm start` and `npm test` work
// on a fresh clone with nothing but Node and npm.
import { execSync } from 'node:child_process';
import fs from 'node:fs';

const marker = 'node_modules/.package-lock.json';
const stale = !fs.existsSync(marker) || fs.statSync('package-lock.json').mtimeMs > fs.statSync(marker).mtimeMs + 1000;
if (stale) {
  console.log('Installing dependencies (npm ci)...');
  try {
    execSync('npm ci --no-audit --no-fund', { stdio: 'inherit' });
  } catch {
    // npm ci refuses a lock file another npm version wrote slightly differently; npm install honours the lock too.
    console.log('npm ci refused the lock file; falling back to npm install.');
    execSync('npm install --no-audit --no-fund', { stdio: 'inherit' });
  }
}

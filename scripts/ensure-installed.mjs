// Installs dependencies when they are missing or older than package-lock.json, so `npm start` and `npm test` work
// on a fresh clone with nothing but Node and npm. Only `npm ci`: a lock it refuses is a defect to fix in the lock
// (scripts/test-all.mjs checks it with `npm ci --dry-run`), never something to paper over with `npm install`.
import { execSync } from 'node:child_process';
import fs from 'node:fs';

const marker = 'node_modules/.package-lock.json';
const stale = !fs.existsSync(marker) || fs.statSync('package-lock.json').mtimeMs > fs.statSync(marker).mtimeMs + 1000;
if (stale) {
  console.log('Installing dependencies (npm ci)...');
  try {
    execSync('npm ci --no-audit --no-fund', { stdio: 'inherit' });
  } catch {
    console.error('npm ci failed: package-lock.json does not match package.json (see the error above).');
    process.exit(1);
  }
}

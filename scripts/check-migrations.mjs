// Fails when the Drizzle schema and the committed migrations drift: generates into a scratch copy of the migrations
// folder and reports any new migration that generation produced.
import { execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const committed = 'apps/server/drizzle';
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-drift-'));
fs.cpSync(committed, scratch, { recursive: true });
const before = new Set(fs.readdirSync(scratch));
execSync('npx drizzle-kit generate --config apps/server/drizzle.config.ts --name drift', {
  env: { ...process.env, DRIZZLE_OUT: scratch },
  stdio: 'pipe',
});
const added = fs.readdirSync(scratch).filter((f) => !before.has(f) && f.endsWith('.sql'));
fs.rmSync(scratch, { recursive: true, force: true });
if (added.length) {
  console.error(`Schema and migrations have drifted: run "npm run db:generate" and commit (${added.join(', ')}).`);
  process.exit(1);
}
console.log('Migrations match the schema.');

// Repairs drizzle-kit's snapshot chain after branches that each generated a migration are merged (`npm run
// db:relink`). Each branch's snapshot points at the same parent, so drizzle-kit refuses to generate ("a collision"),
// and the newest snapshot lacks the other branch's tables, so the next generate would recreate them. This script
// (1) sets every snapshot's prevId to the id of the snapshot before it in meta/_journal.json order, and (2) replaces
// the newest snapshot's contents with the full current schema, keeping its id. Migration SQL is never touched.
//
// Step 2 asserts that the committed migrations already cover the schema: run it only right after a merge in which
// every schema change came with its migration, then `npm run db:check`. `--chain-only` skips step 2.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const dir = 'apps/server/drizzle';
const meta = path.join(dir, 'meta');
const journal = JSON.parse(fs.readFileSync(path.join(meta, '_journal.json'), 'utf8'));
const snapshotPath = (tag) => path.join(meta, `${tag.split('_')[0]}_snapshot.json`);
const write = (file, json) => fs.writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);

let prevId = '00000000-0000-0000-0000-000000000000';
let relinked = 0;
for (const { tag } of journal.entries) {
  const file = snapshotPath(tag);
  const snap = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (snap.prevId !== prevId) {
    snap.prevId = prevId;
    write(file, snap);
    relinked++;
  }
  prevId = snap.id;
}
console.log(`Snapshot chain: ${relinked} of ${journal.entries.length} prevIds relinked.`);

if (!process.argv.includes('--chain-only')) {
  // drizzle-kit prefixes the out folder with "./", so the scratch folder is given relative to the working directory.
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-schema-'));
  try {
    const r = spawnSync(
      'npx',
      ['drizzle-kit', 'generate', '--config', 'apps/server/drizzle.config.ts', '--name', 'full'],
      {
        env: { ...process.env, DRIZZLE_OUT: path.relative(process.cwd(), scratch) },
        encoding: 'utf8',
      },
    );
    const produced = fs.existsSync(path.join(scratch, 'meta'))
      ? fs.readdirSync(path.join(scratch, 'meta')).filter((f) => f.endsWith('_snapshot.json'))
      : [];
    if (r.status !== 0 || produced.length !== 1) {
      console.error(`drizzle-kit could not snapshot the schema:\n${r.stdout}${r.stderr}`);
      process.exit(1);
    }
    const full = JSON.parse(fs.readFileSync(path.join(scratch, 'meta', produced[0]), 'utf8'));
    const last = snapshotPath(journal.entries.at(-1).tag);
    const current = JSON.parse(fs.readFileSync(last, 'utf8'));
    write(last, { ...full, id: current.id, prevId: current.prevId });
    console.log(`${last} now holds the full current schema.`);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

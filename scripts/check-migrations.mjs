// `npm run db:check`: fails (exit 1) unless the committed migrations in apps/server/drizzle match the Drizzle schema.
// It checks, in order:
//  - every table, enum, sequence or view is declared in a file drizzle-kit reads (schema.ts / schema-*.ts);
//  - meta/_journal.json lists each migration once, with its SQL and snapshot, in strictly increasing `when` order
//    (the migrator skips a migration older than the newest one a database has applied, so a merged branch's older
//    migration would never run on an existing database);
//  - the snapshots form one chain (each prevId is the id before it), as drizzle-kit requires to generate;
//  - `drizzle-kit generate` into a scratch copy reports "No schema changes". drizzle-kit exits 0 even when it fails,
//    so anything else it prints (an error, or a new migration) fails the check with its output.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const committed = 'apps/server/drizzle';
const sourceRoot = 'apps/server/src';
const problems = [];

// Declarations drizzle-kit never sees produce no migration at all, so the generate step below cannot catch them.
const schemaFile = /^schema(-[\w-]+)?\.ts$/;
const declares = /\b(pgTable|pgEnum|pgSequence|pgView|pgMaterializedView|pgSchema)\s*\(/;
for (const entry of fs.readdirSync(sourceRoot, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.ts') || /\.test\.tsx?$/.test(entry.name)) continue;
  if (schemaFile.test(entry.name)) continue;
  const file = path.join(entry.parentPath, entry.name);
  if (declares.test(fs.readFileSync(file, 'utf8'))) {
    problems.push(`${file} declares database objects outside a schema.ts / schema-*.ts file; drizzle-kit ignores it.`);
  }
}

const metaDir = path.join(committed, 'meta');
const journal = JSON.parse(fs.readFileSync(path.join(metaDir, '_journal.json'), 'utf8'));
const tags = journal.entries.map((e) => e.tag);
const sqlFiles = fs.readdirSync(committed).filter((f) => f.endsWith('.sql'));
for (const f of sqlFiles) {
  if (!tags.includes(f.slice(0, -4))) problems.push(`${committed}/${f} is not listed in meta/_journal.json.`);
}
let prev = null;
for (const entry of journal.entries) {
  if (!sqlFiles.includes(`${entry.tag}.sql`)) problems.push(`journal entry ${entry.tag} has no ${entry.tag}.sql.`);
  if (tags.indexOf(entry.tag) !== tags.lastIndexOf(entry.tag)) problems.push(`journal lists ${entry.tag} twice.`);
  if (prev && entry.when <= prev.when) {
    problems.push(
      `journal entry ${entry.tag} is not newer than ${prev.tag} (when ${entry.when} <= ${prev.when}): databases that ` +
        'applied the newer one would skip it. Regenerate the merged migration so it sorts last.',
    );
  }
  prev = entry;
}

let prevId = '00000000-0000-0000-0000-000000000000';
let broken = 0;
for (const tag of tags) {
  const file = path.join(metaDir, `${tag.split('_')[0]}_snapshot.json`);
  if (!fs.existsSync(file)) {
    problems.push(`journal entry ${tag} has no snapshot ${file}.`);
    continue;
  }
  const snap = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (snap.prevId !== prevId) broken++;
  prevId = snap.id;
}
if (broken) {
  problems.push(
    `${broken} snapshot(s) do not point at the snapshot before them (branches merged with migrations of their own): ` +
      'run "npm run db:relink", then this check again.',
  );
}

if (!problems.length) {
  // drizzle-kit prefixes the out folder with "./", so an absolute scratch path must be given relative to the cwd.
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-drift-'));
  try {
    fs.cpSync(committed, scratch, { recursive: true });
    const before = new Set(fs.readdirSync(scratch));
    const r = spawnSync(
      'npx',
      ['drizzle-kit', 'generate', '--config', 'apps/server/drizzle.config.ts', '--name', 'drift'],
      { env: { ...process.env, DRIZZLE_OUT: path.relative(process.cwd(), scratch) }, encoding: 'utf8' },
    );
    const output = `${r.stdout ?? ''}${r.stderr ?? ''}`.replace(/^npm warn Unknown user config.*\n/gm, '');
    const added = fs.readdirSync(scratch).filter((f) => !before.has(f) && f.endsWith('.sql'));
    if (added.length) {
      const sql = fs.readFileSync(path.join(scratch, added[0]), 'utf8');
      problems.push(
        `The schema has changes no migration covers: run "npm run db:generate" and commit the migration.\n` +
          `drizzle-kit would generate:\n${sql}`,
      );
    } else if (r.status !== 0 || r.error || !/No schema changes/.test(output) || /\bError\b/.test(output)) {
      problems.push(`drizzle-kit generate failed (status ${r.status}):\n${r.error ?? ''}${output}`);
    }
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

if (problems.length) {
  for (const p of problems) console.error(`db:check: ${p}`);
  process.exit(1);
}
console.log(`Migrations match the schema (${tags.length} migrations, one snapshot chain).`);

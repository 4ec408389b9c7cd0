// After merging branches that each generated a migration (`npm run db:retime`, then `npm run db:relink`): drizzle's
// migrator applies a migration only when its journal `when` is newer than the newest one a database has applied, so a
// branch's migration merged after main's newer one would be skipped on every database that already ran main's. This
// gives each journal entry that is not newer than the entry before it a fresh time after it (and renames its SQL and
// snapshot files to the matching timestamp prefix), keeping the journal's order: put the merged-in entries last.
import fs from 'node:fs';
import path from 'node:path';

const dir = 'apps/server/drizzle';
const meta = path.join(dir, 'meta');
const journalFile = path.join(meta, '_journal.json');
const journal = JSON.parse(fs.readFileSync(journalFile, 'utf8'));

const stamp = (ms) => new Date(ms).toISOString().replace(/[-:T]/g, '').slice(0, 14);

let retimed = 0;
let prev = null;
for (const [i, entry] of journal.entries.entries()) {
  entry.idx = i;
  if (prev && entry.when <= prev.when) {
    const when = Math.max(prev.when + 1000, Date.now());
    const [oldPrefix, ...rest] = entry.tag.split('_');
    const tag = [stamp(when), ...rest].join('_');
    fs.renameSync(path.join(dir, `${entry.tag}.sql`), path.join(dir, `${tag}.sql`));
    fs.renameSync(path.join(meta, `${oldPrefix}_snapshot.json`), path.join(meta, `${stamp(when)}_snapshot.json`));
    console.log(`${entry.tag} -> ${tag}`);
    entry.tag = tag;
    entry.when = when;
    retimed++;
  }
  prev = entry;
}
fs.writeFileSync(journalFile, `${JSON.stringify(journal, null, 2)}\n`);
console.log(`${retimed} migration(s) retimed; now run npm run db:relink and npm run db:check.`);

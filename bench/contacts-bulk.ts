/**
 * The bulk-write designs of docs/decisions/contacts-bulk-writes.md, measured as SQL on the seeded book (each in a
 * transaction that is rolled back, then VACUUM): moving N contacts' owner in the contacts row as the transfer job
 * does, the same move in a narrow owner table (the design not taken), the per-contact timeline rows the old job also
 * wrote, and a change of an unindexed column (group) that stays on its page as a HOT update.
 */
import pg from 'pg';
import type { Seeded } from './contacts-seed.js';

export async function bulkOptions(url: string, s: Seeded, n: number) {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  const target = s.userIds[198];
  const timed = async (name: string, statements: string[], stats?: string) => {
    await c.query('begin');
    const t0 = performance.now();
    for (const text of statements) await c.query(text);
    const secs = (performance.now() - t0) / 1000;
    let extra = '';
    if (stats) {
      const { rows } = await c.query(
        'select n_tup_upd, n_tup_hot_upd from pg_stat_xact_user_tables where relname = $1',
        [stats],
      );
      extra = rows[0] ? ` (${rows[0].n_tup_hot_upd} of ${rows[0].n_tup_upd} updates HOT)` : '';
    }
    await c.query('rollback');
    console.log(`  ${name.padEnd(62)} ${secs.toFixed(1).padStart(6)} s${extra}`);
    await c.query('vacuum contacts');
  };
  console.log(`\nbulk-write designs, ${n.toLocaleString()} contacts (SQL, rolled back):`);
  await c.query(
    `create temp table pick as select id from contacts where company_id = ${s.companyId} and deleted_at is null
     order by last_name, first_name, id limit ${n}`,
  );
  await c.query('analyze pick');
  await timed(
    'owner in the contacts row (what the transfer job does)',
    [`update contacts set owner_id = ${target}, updated_at = now() from pick where contacts.id = pick.id`],
    'contacts',
  );
  await timed('per-contact timeline rows (what the old job also wrote)', [
    `insert into contact_events (company_id, contact_id, kind, data, actor_id)
     select ${s.companyId}, id, 'transferred', jsonb_build_object('transfer_attempt_id', 1), ${s.userIds[0]} from pick`,
  ]);
  await timed(
    'group (unindexed) in the contacts row: a HOT update with fillfactor 90',
    [`update contacts set group_id = null, updated_at = now() from pick where contacts.id = pick.id`],
    'contacts',
  );
  await c.query(
    `create table bench_narrow_owners as select id as contact_id, company_id, owner_id, pool_id from contacts`,
  );
  await c.query('alter table bench_narrow_owners add primary key (contact_id)');
  await c.query('create index on bench_narrow_owners (company_id, owner_id, contact_id)');
  await c.query('vacuum analyze bench_narrow_owners');
  await timed('owner in a narrow (contact, company, owner, pool) table', [
    `update bench_narrow_owners o set owner_id = ${target} from pick where o.contact_id = pick.id`,
  ]);
  await c.query('drop table bench_narrow_owners');
  await c.end();
}

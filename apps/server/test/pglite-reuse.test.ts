/**
 * An embedded copy handed to the next test file comes back as the template left it (pglite-reuse.ts): every table's
 * rows, every sequence, no table a test created. On the PostgreSQL server each file gets a new database instead, so
 * there is nothing to check there.
 */
import { describe, expect, it } from 'vitest';
import type { Database } from '../src/platform/db/client.js';
import { openTestDatabase } from './harness.js';

/** Every public table's rows (as text, in a stable order) and every sequence's position. */
async function fingerprint(db: Database) {
  const tables = await db.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace s on s.oid = c.relnamespace
     where s.nspname = 'public' and c.relkind = 'r' order by 1`,
  );
  const rows: Record<string, string[]> = {};
  for (const { name } of tables) {
    const r = await db.query<{ t: string }>(`select t::text as t from public."${name}" t`);
    rows[name] = r.map((x) => x.t).sort();
  }
  const sequences = await db.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace s on s.oid = c.relnamespace
     where s.nspname = 'public' and c.relkind = 'S' order by 1`,
  );
  const positions: Record<string, string> = {};
  for (const { name } of sequences) {
    const [p] = await db.query<{ v: string }>(`select last_value || '/' || is_called as v from public."${name}"`);
    positions[name] = p.v;
  }
  return { rows, positions };
}

describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('an embedded copy reused by the next test file', () => {
  it('is reset to the template: rows, sequences, and no table a test made', async () => {
    const first = await openTestDatabase();
    const before = await fingerprint(first.database);
    expect(Object.keys(before.rows).length).toBeGreaterThan(50);
    expect(before.rows.contacts.length).toBeGreaterThan(0);
    // What a test file does: writes (triggers fill derived tables), deletes, draws ids, makes a table of its own.
    await first.database.query(
      `update contacts set first_name = 'Changed' where id in (select id from contacts limit 5)`,
    );
    await first.database.query('delete from contact_tags');
    await first.database.query(
      `insert into contacts (company_id, owner_id, first_name, last_name)
       select company_id, owner_id, 'New', 'Row' from contacts limit 3`,
    );
    await first.database.query(`select nextval('users_id_seq')`);
    await first.database.query('create table test_scratch (id serial primary key)');
    await first.drop();

    const second = await openTestDatabase();
    // The same embedded instance, not a fresh load: otherwise this test would prove nothing.
    expect(second.database.db).toBe(first.database.db);
    expect(await fingerprint(second.database)).toEqual(before);
    // Triggers are on again after the reset: a rename still reaches the search text.
    await second.database.query(`update contacts set first_name = 'Zyxwvut' where id = (select min(id) from contacts)`);
    const found = await second.database.query(`select 1 from contact_search where search like '%zyxwvut%'`);
    expect(found).toHaveLength(1);
    await second.drop();
  });
});

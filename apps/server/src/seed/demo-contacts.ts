/**
 * Demo contacts (issue 4): a realistic book for Harbor Demo Insurance (a few hundred contacts across the agent,
 * telemarketer, managers and the basic agent, with statuses, sources, tags, a group, a pool the agent holds, a
 * handful of duplicates to merge and a few deleted ones) and a few dozen for Harbor Demo Recruiting, so tenant tests
 * always find another company's records. Set-based: generate_series and multi-row inserts, no per-row loop.
 * It runs after the demo lookups (demo-lookups.ts) and uses them; a lookup list the company lacks is filled with
 * this file's own, so it also works alone.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../platform/db/client.js';

const FIRST = [
  'Mary',
  'Robert',
  'Patricia',
  'James',
  'Linda',
  'John',
  'Barbara',
  'William',
  'Elizabeth',
  'Richard',
  'Susan',
  'Thomas',
  'Margaret',
  'Charles',
  'Dorothy',
  'Joseph',
  'Helen',
  'George',
  'Carol',
  'Donald',
  'Sandra',
  'Ronald',
  'Nancy',
  'Kenneth',
  'Betty',
  'Gary',
  'Shirley',
  'Larry',
  'Joyce',
  'Frank',
  'Maria',
  'Jose',
  'Rosa',
  'Luis',
  'Carmen',
  'Juan',
  'Gloria',
  'Carlos',
  'Ana',
  'Manuel',
];
const LAST = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
  'Hernandez',
  'Lopez',
  'Gonzalez',
  'Wilson',
  'Anderson',
  'Thomas',
  'Taylor',
  'Moore',
  'Jackson',
  'Martin',
  'Lee',
  'Perez',
  'Thompson',
  'White',
  'Harris',
  'Sanchez',
  'Clark',
  'Ramirez',
  'Lewis',
  'Robinson',
  'Walker',
  'Young',
  'Allen',
  'King',
  'Wright',
  'Scott',
  'Torres',
  'Nguyen',
  'Hill',
  'Flores',
];
const CITIES: Array<[string, string, string]> = [
  ['Tampa', 'FL', '33602'],
  ['Orlando', 'FL', '32801'],
  ['Miami', 'FL', '33101'],
  ['Houston', 'TX', '77002'],
  ['Dallas', 'TX', '75201'],
  ['Phoenix', 'AZ', '85004'],
  ['Tucson', 'AZ', '85701'],
  ['Atlanta', 'GA', '30303'],
  ['Charlotte', 'NC', '28202'],
  ['Columbus', 'OH', '43215'],
  ['Scottsdale', 'AZ', '85251'],
  ['Naples', 'FL', '34102'],
];
const STATUSES: Array<[string, string]> = [
  ['New', 'blue'],
  ['Contacted', 'cyan'],
  ['Appointment Set', 'violet'],
  ['Application Submitted', 'orange'],
  ['Enrolled', 'green'],
  ['Not Interested', 'gray'],
];
const SOURCES = ['Facebook Lead', 'Referral', 'Direct Mail', 'Website', 'Seminar', 'Call-in'];
const TAGS: Array<[string, string]> = [
  ['Medicare Advantage', 'blue'],
  ['Medigap', 'teal'],
  ['Part D', 'grape'],
  ['Turning 65', 'orange'],
  ['Hot Lead', 'red'],
  ['Follow Up', 'yellow'],
  ['Spanish Speaker', 'green'],
];

const textArray = (xs: string[]) => sql`${sql.param(xs)}::text[]`;

async function ids(db: Db, q: SQL): Promise<number[]> {
  const res = await db.execute<{ id: number }>(q);
  return res.rows.map((r) => Number(r.id));
}

async function lookups(db: Db, companyId: number) {
  const names = (xs: Array<[string, string]>) => xs.map((x) => x[0]);
  const colors = (xs: Array<[string, string]>) => xs.map((x) => x[1]);
  await db.execute(sql`insert into statuses (company_id, name, color, position)
    select ${companyId}, n, c, p from unnest(${textArray(names(STATUSES))}, ${textArray(colors(STATUSES))}) with ordinality x(n, c, p)
    where not exists (select 1 from statuses where company_id = ${companyId})`);
  await db.execute(sql`insert into sources (company_id, name) select ${companyId}, n from unnest(${textArray(SOURCES)}) n
    where not exists (select 1 from sources where company_id = ${companyId})`);
  await db.execute(sql`insert into tags (company_id, name, color)
    select ${companyId}, n, c from unnest(${textArray(names(TAGS))}, ${textArray(colors(TAGS))}) x(n, c)
    where not exists (select 1 from tags where company_id = ${companyId})`);
  return {
    statuses: await ids(db, sql`select id from statuses where company_id = ${companyId} order by position, id`),
    sources: await ids(db, sql`select id from sources where company_id = ${companyId} order by id`),
    tags: await ids(db, sql`select id from tags where company_id = ${companyId} order by id`),
  };
}

const userIds = (db: Db, emails: string[]) =>
  ids(
    db,
    sql`select id from users where email = any(${textArray(emails)}) order by array_position(${textArray(emails)}, email)`,
  );

/**
 * Inserts `n` generated contacts spread round-robin over `owners`. The last name shifts with every round of first
 * names, so names repeat only where the duplicates below are made on purpose.
 */
async function generate(
  db: Db,
  companyId: number,
  n: number,
  owners: number[],
  look: Awaited<ReturnType<typeof lookups>>,
  start: number,
) {
  const cities = CITIES.map((c) => c[0]);
  const states = CITIES.map((c) => c[1]);
  const zips = CITIES.map((c) => c[2]);
  await db.execute(sql`
    insert into contacts (company_id, owner_id, type, first_name, last_name, email, phone, phone_type, date_of_birth,
      gender, language, address, city, state, zip, status_id, source_id, category, is_new, created_by, created_at)
    select ${companyId}, o[1 + i % cardinality(o)], case when i % 4 = 0 then 'client' else 'lead' end,
      f[1 + (i * 7) % cardinality(f)], l[1 + (i * 13 + (i / cardinality(f)) * 3) % cardinality(l)],
      lower(f[1 + (i * 7) % cardinality(f)] || '.' || l[1 + (i * 13 + (i / cardinality(f)) * 3) % cardinality(l)])
        || i || '@example.com',
      '1555' || lpad(((i * 7919) % 10000000)::text, 7, '0'), case when i % 3 = 0 then 9 else 2 end,
      date '1948-01-01' + ((i * 37) % 7300), case when i % 2 = 0 then 'female' else 'male' end,
      case when i % 9 = 0 then 'spanish' else 'english' end,
      (100 + (i * 17) % 9800)::text || ' ' || (array['Oak', 'Palm', 'Main', 'Cedar', 'Bay', 'Lake'])[1 + i % 6] || ' St',
      ct[1 + i % cardinality(ct)], st[1 + i % cardinality(st)], zp[1 + i % cardinality(zp)],
      s[1 + (i * 3) % cardinality(s)], src[1 + (i * 5) % cardinality(src)],
      case when i % 5 = 0 then 'medicare' when i % 5 = 1 then 'final_expense' else null end,
      i % 6 = 0, o[1], now() - make_interval(days => (i * 11) % 400)
    from generate_series(${start}::int, ${start + n - 1}::int) i,
      (select ${sql.param(owners)}::int[] as o, ${textArray(FIRST)} as f, ${textArray(LAST)} as l,
        ${textArray(cities)} as ct, ${textArray(states)} as st, ${textArray(zips)} as zp,
        ${sql.param(look.statuses)}::int[] as s, ${sql.param(look.sources)}::int[] as src) a`);
  // Tags: every contact gets zero to two of the company's tags, picked by its id.
  await db.execute(sql`insert into contact_tags (contact_id, tag_id)
    select c.id, t[1 + (c.id % cardinality(t))] from contacts c, (select ${sql.param(look.tags)}::int[] as t) a
      where c.company_id = ${companyId} and c.id % 3 <> 0
    union
    select c.id, t[1 + ((c.id / 7) % cardinality(t))] from contacts c, (select ${sql.param(look.tags)}::int[] as t) a
      where c.company_id = ${companyId} and c.id % 5 = 0
    on conflict do nothing`);
}

export async function seedDemoContacts(db: Db, insuranceId: number, recruitingId: number) {
  const look = await lookups(db, insuranceId);
  const owners = await userIds(db, [
    'agent@demo.harbor.test',
    'telemarketer@demo.harbor.test',
    'manager@demo.harbor.test',
    'field_manager@demo.harbor.test',
    'basic@demo.harbor.test',
    'district_manager@demo.harbor.test',
    'agent@demo.harbor.test',
    'newhire@demo.harbor.test',
  ]);
  await generate(db, insuranceId, 360, owners, look, 1);
  const [agent, , manager] = owners;

  // A pool the agent holds, with contacts nobody owns directly, and a group.
  await db.execute(
    sql`insert into pools (company_id, name) values (${insuranceId}, 'Shared Leads') on conflict do nothing`,
  );
  const [poolId] = await ids(db, sql`select id from pools where company_id = ${insuranceId} and name = 'Shared Leads'`);
  await db.execute(
    sql`insert into pool_holders (pool_id, user_id) values (${poolId}, ${agent}) on conflict do nothing`,
  );
  await db.execute(sql`update contacts set pool_id = ${poolId}, owner_id = ${manager}
    where company_id = ${insuranceId} and id in (select id from contacts where company_id = ${insuranceId} order by id desc limit 20)`);
  await db.execute(
    sql`insert into groups (company_id, name) values (${insuranceId}, 'Seminar Attendees') on conflict do nothing`,
  );
  const [groupId] = await ids(
    db,
    sql`select id from groups where company_id = ${insuranceId} and name = 'Seminar Attendees'`,
  );
  if (groupId) {
    await db.execute(sql`update contacts set group_id = ${groupId}
      where company_id = ${insuranceId} and id % 10 = 1`);
  }

  // A few deleted ones for the deleted view.
  await db.execute(sql`update contacts set deleted_at = now() - interval '3 days'
    where id in (select id from contacts where company_id = ${insuranceId} and owner_id = ${agent} order by id desc limit 4)`);
  // Duplicates to merge: the agent's first five contacts, entered again with another email and no phone.
  await db.execute(sql`insert into contacts (company_id, owner_id, type, first_name, last_name, email, address, city, state, zip, created_by)
    select company_id, owner_id, type, first_name, last_name, lower(first_name) || '.dup@example.com', address, city, state, zip, owner_id
    from contacts where company_id = ${insuranceId} and owner_id = ${agent} and pool_id is null order by id limit 5`);
  await db.execute(sql`insert into quick_filters (company_id, user_id, name, data)
    values (${insuranceId}, ${agent}, 'Florida clients', ${JSON.stringify({ search: [{ field: 'state', value: 'FL' }], type: 'client' })}::jsonb)`);

  // The other company: a few dozen contacts, a completed transfer, a saved filter.
  const rlook = await lookups(db, recruitingId);
  const rOwners = await userIds(db, ['agent@recruit.harbor.test', 'manager@recruit.harbor.test']);
  await generate(db, recruitingId, 36, rOwners, rlook, 1000);
  const [rAgent, rManager] = rOwners;
  const [attempt] = await ids(
    db,
    sql`insert into transfer_attempts (company_id, created_by, to_user_id, status, total, processed, completed_at)
    values (${recruitingId}, ${rManager}, ${rManager}, 'complete', 3, 3, now()) returning id`,
  );
  await db.execute(sql`insert into transfer_logs (attempt_id, contact_id, from_user_id, to_user_id)
    select ${attempt}, id, ${rAgent}, ${rManager} from contacts where company_id = ${recruitingId} and owner_id = ${rAgent} order by id limit 3`);
  await db.execute(sql`update contacts set owner_id = ${rManager}
    where id in (select contact_id from transfer_logs where attempt_id = ${attempt})`);
  await db.execute(sql`insert into quick_filters (company_id, user_id, name, data)
    values (${recruitingId}, ${rAgent}, 'Texas leads', ${JSON.stringify({ search: [{ field: 'state', value: 'TX' }] })}::jsonb)`);
}

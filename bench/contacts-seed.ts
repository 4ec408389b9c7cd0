/**
 * Seeding for bench/contacts.ts: one company, 200 users in a five-way downline tree, and N contacts with realistic
 * names (some with accents: José, Muñoz, Peña), states, statuses, sources and tags. On the PostgreSQL server the
 * contacts go in with COPY (indexes and the search trigger off during the load, then the search text filled in one
 * statement and everything rebuilt, as a real bulk load would); on PGlite with one generate_series insert.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { hashPassword } from '../apps/server/src/platform/auth/passwords.js';
import type { Database } from '../apps/server/src/platform/db/client.js';

export const BENCH_PASSWORD = 'bench-password-2026';
export const USERS = 200;

const FIRST =
  `James Mary Robert Patricia John Jennifer Michael Linda David Elizabeth William Barbara Richard Susan Joseph
Jessica Thomas Sarah Charles Karen Christopher Lisa Daniel Nancy Matthew Betty Anthony Margaret Mark Sandra Donald Ashley
Steven Kimberly Paul Emily Andrew Donna Joshua Michelle Kenneth Carol Kevin Amanda Brian Dorothy George Melissa Timothy
Deborah Ronald Stephanie Edward Rebecca Jason Sharon Jeffrey Laura Ryan Cynthia Jacob Kathleen Gary Amy Nicholas Angela
Eric Shirley Jonathan Anna Stephen Brenda Larry Pamela Justin Emma Scott Nicole Brandon Helen Benjamin Samantha Samuel
Katherine Gregory Christine Alexander Debra Frank Rachel Patrick Carolyn Raymond Janet Jack Catherine Dennis Maria Jerry
Heather Tyler Diane Aaron Ruth Jose Julie Adam Olivia Nathan Joyce Henry Virginia Douglas Victoria Zachary Kelly Peter
Lauren Kyle Christina Ethan Joan Walter Evelyn Noah Judith Jeremy Megan Christian Andrea Keith Cheryl Roger Hannah
Terry Jacqueline Gerald Martha Harold Gloria Sean Teresa Austin Ann Carl Sara Arthur Madison Lawrence Frances Dylan
Kathryn Jesse Janice Jordan Jean Bryan Abigail Billy Alice Joe Judy Bruce Sophia Gabriel Grace Logan Denise Albert Amber
Willie Doris Alan Marilyn Juan Danielle Wayne Beverly Elijah Isabella Randy Theresa Roy Diana Vincent Natalie Ralph
Brittany Eugene Charlotte Russell Marie Bobby Kayla Mason Alexis Philip Lori José María Sofía René`.split(/\s+/);
const LAST = `Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Gonzalez Wilson
Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris Sanchez Clark Ramirez Lewis Robinson Walker
Young Allen King Wright Scott Torres Nguyen Hill Flores Green Adams Nelson Baker Hall Rivera Campbell Mitchell Carter
Roberts Gomez Phillips Evans Turner Diaz Parker Cruz Edwards Collins Reyes Stewart Morris Morales Murphy Cook Rogers
Gutierrez Ortiz Morgan Cooper Peterson Bailey Reed Kelly Howard Ramos Kim Cox Ward Richardson Watson Brooks Chavez Wood
James Bennett Gray Mendoza Ruiz Hughes Price Alvarez Castillo Sanders Patel Myers Long Ross Foster Jimenez Powell
Jenkins Perry Russell Sullivan Bell Coleman Butler Henderson Barnes Gonzales Fisher Vasquez Simmons Romero Jordan
Patterson Alexander Hamilton Graham Reynolds Griffin Wallace Moreno West Cole Hayes Bryant Herrera Gibson Ellis Tran
Medina Aguilar Stevens Murray Ford Castro Marshall Owens Harrison Fernandez McDonald Woods Washington Kennedy Wells
Vargas Henry Chen Freeman Webb Tucker Guzman Burns Crawford Olson Simpson Porter Hunter Gordon Mendez Silva Shaw Snyder
Mason Dixon Munoz Hunt Hicks Holmes Palmer Wagner Black Robertson Boyd Rose Stone Salazar Fox Warren Mills Meyer Rice
Schmidt Garza Daniels Ferguson Nichols Stephens Soto Weaver Ryan Gardner Payne Grant Dunn Kelley Spencer Hawkins Arnold
Pierce Vazquez Hansen Peters Santos Hart Bradley Knight Elliott Cunningham Duncan Armstrong Hudson Carroll Lane Riley
Andrews Alvarado Ray Delgado Berry Perkins Hoffman Johnston Matthews Pena Richards Contreras Willis Carpenter Lawrence
Sandoval Muñoz Peña Núñez Ibáñez`.split(/\s+/);
/** Weighted toward the Medicare-heavy states, as an insurance book would be. */
const STATES = 'FL FL FL FL TX TX TX AZ AZ CA CA NC GA OH PA MI NY IL NJ VA TN SC AL MO KY LA NV NM CO WA'.split(' ');
const CITY: Record<string, string> = {
  FL: 'Tampa',
  TX: 'Houston',
  AZ: 'Phoenix',
  CA: 'Fresno',
  NC: 'Charlotte',
  GA: 'Atlanta',
  OH: 'Columbus',
  PA: 'Allentown',
  MI: 'Lansing',
  NY: 'Albany',
  IL: 'Peoria',
  NJ: 'Trenton',
  VA: 'Richmond',
  TN: 'Knoxville',
  SC: 'Greenville',
  AL: 'Mobile',
  MO: 'Springfield',
  KY: 'Lexington',
  LA: 'Shreveport',
  NV: 'Reno',
  NM: 'Albuquerque',
  CO: 'Pueblo',
  WA: 'Spokane',
};

export interface Seeded {
  companyId: number;
  userIds: number[];
  statusIds: number[];
  sourceIds: number[];
}

/** Company, users (tree: user k manages 5k-7 .. 5k-3 by position), statuses, sources, tags. */
export async function seedCompany(database: Database): Promise<Seeded> {
  const q = database.query.bind(database);
  const hash = await hashPassword(BENCH_PASSWORD);
  const [company] = await q<{ id: number }>(
    `insert into companies (number, name, domain_name, variant) values ('C-9001', 'Bench Insurance', 'bench.harbor.test', 'insurance') returning id`,
  );
  const c = company.id;
  await q(
    `insert into users (company_id, number, email, username, password_hash, first_name, last_name, account_type, roles, tos_accepted_at)
     select $1, 'U-' || (90000 + i), 'user' || i || '@bench.harbor.test', 'bench' || i, $2, 'Bench', 'User ' || i,
       case when i = 1 then 'admin' when i <= 41 then 'manager' else 'agent' end,
       case when i = 1 then array['admin'] when i <= 41 then array['manager'] else array['agent'] end, now()
     from generate_series(1, ${USERS}) i`,
    [c, hash],
  );
  // Position 2 is the top of the tree; the children of position k are 5(k-2)+3 .. 5(k-2)+7.
  await q(
    `with pos as (select id, row_number() over (order by id) as rn from users where company_id = $1)
     update users u set manager_id = m.id from pos a, pos m
     where u.id = a.id and a.rn >= 3 and m.rn = (a.rn - 3) / 5 + 2`,
    [c],
  );
  const userIds = (await q<{ id: number }>('select id from users where company_id = $1 order by id', [c])).map(
    (r) => r.id,
  );
  await q(
    `insert into statuses (company_id, name, position) select $1, s, p from unnest(array['New','Contacted','Appointment Set',
     'Application Submitted','Enrolled','Not Interested','Do Not Call','Follow Up']) with ordinality x(s, p)`,
    [c],
  );
  await q(
    `insert into sources (company_id, name) select $1, s from unnest(array['Facebook Lead','Referral','Direct Mail',
     'Website','Seminar','Call-in','Lead Vendor','TV']) s`,
    [c],
  );
  await q(`insert into tags (company_id, name, color) select $1, 'Tag ' || i, 'blue' from generate_series(1, 20) i`, [
    c,
  ]);
  const statusIds = (await q<{ id: number }>('select id from statuses where company_id = $1 order by id', [c])).map(
    (r) => r.id,
  );
  const sourceIds = (await q<{ id: number }>('select id from sources where company_id = $1 order by id', [c])).map(
    (r) => r.id,
  );
  return { companyId: c, userIds, statusIds, sourceIds };
}

const COLUMNS =
  'company_id, owner_id, type, first_name, last_name, email, phone, date_of_birth, gender, city, state, zip, status_id, source_id, is_new, created_at';

/** Deterministic pseudo-random so two runs seed the same book. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

function* csvRows(s: Seeded, n: number, chunk = 10_000) {
  const r = rng(42);
  const owners = s.userIds.slice(1); // everyone but the admin owns contacts
  const now = Date.now();
  let buf: string[] = [];
  for (let i = 0; i < n; i++) {
    const f = FIRST[Math.floor(r() * FIRST.length)];
    const l = LAST[Math.floor(r() * LAST.length)];
    const st = STATES[Math.floor(r() * STATES.length)];
    const dob = new Date(Date.UTC(1940 + Math.floor(r() * 30), Math.floor(r() * 12), 1 + Math.floor(r() * 28)));
    const created = new Date(now - Math.floor(r() * 3 * 365 * 86400e3));
    buf.push(
      [
        s.companyId,
        owners[Math.floor(r() * owners.length)],
        r() < 0.3 ? 'client' : 'lead',
        f,
        l,
        `${f}.${l}${i}@example.com`.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase(),
        `1${String(2000000000 + Math.floor(r() * 7999999999)).slice(0, 10)}`,
        dob.toISOString().slice(0, 10),
        r() < 0.5 ? 'female' : 'male',
        CITY[st],
        st,
        String(10000 + Math.floor(r() * 89999)),
        s.statusIds[Math.floor(r() * s.statusIds.length)],
        s.sourceIds[Math.floor(r() * s.sourceIds.length)],
        r() < 0.1 ? 't' : 'f',
        created.toISOString(),
      ].join(','),
    );
    if (buf.length === chunk) {
      yield `${buf.join('\n')}\n`;
      buf = [];
    }
  }
  if (buf.length) yield `${buf.join('\n')}\n`;
}

/** COPY into the server with the contacts indexes dropped during the load and rebuilt after. */
export async function copyContacts(url: string, s: Seeded, n: number) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const defs = (
    await client.query<{ indexname: string; indexdef: string }>(
      `select indexname, indexdef from pg_indexes where tablename in ('contacts', 'contact_search')
         and indexname not in ('contacts_pkey', 'contact_search_pkey')`,
    )
  ).rows;
  for (const d of defs) await client.query(`drop index ${d.indexname}`);
  // The search text is filled once, set-based, after the load (the trigger would do the same per COPY batch).
  await client.query('alter table contacts disable trigger contacts_search_insert');
  await pipeline(
    Readable.from(csvRows(s, n)),
    client.query(copyFrom(`COPY contacts (${COLUMNS}) FROM STDIN WITH (FORMAT csv)`)),
  );
  await client.query('alter table contacts enable trigger contacts_search_insert');
  await client.query(
    `insert into contact_search (contact_id, company_id, search)
     select id, company_id, contact_search_text(first_name, last_name, email, phone, secondary_phone) from contacts
     where company_id = $1`,
    [s.companyId],
  );
  await client.query('set maintenance_work_mem = 524288');
  for (const d of defs) await client.query(d.indexdef);
  await tagContacts(client.query.bind(client), s.companyId);
  // Autovacuum is off on the CI server: without this the visibility map is empty and no scan is index-only.
  for (const t of ['contacts', 'contact_search', 'contact_tags']) await client.query(`vacuum analyze ${t}`);
  await client.end();
}

/** PGlite: the same shape of book with one set-based insert. */
export async function insertContacts(database: Database, s: Seeded, n: number) {
  await database.query(
    `insert into contacts (${COLUMNS})
     select $1, o[1 + (i * 7919) % cardinality(o)], case when i % 10 < 3 then 'client' else 'lead' end,
       f[1 + (i * 31) % cardinality(f)], l[1 + (i * 17) % cardinality(l)], 'c' || i || '@example.com',
       '1555' || lpad(((i * 7919) % 10000000)::text, 7, '0'), date '1940-01-01' + (i * 37) % 10950,
       case when i % 2 = 0 then 'female' else 'male' end, 'Tampa', st[1 + (i * 13) % cardinality(st)],
       lpad(((i * 97) % 99999)::text, 5, '0'), s[1 + i % cardinality(s)], src[1 + (i * 3) % cardinality(src)],
       i % 10 = 0, now() - make_interval(days => i % 1000)
     from generate_series(1, $2::int) i,
       (select $3::int[] o, $4::text[] f, $5::text[] l, $6::text[] st, $7::int[] s, $8::int[] src) a`,
    [s.companyId, n, s.userIds.slice(1), FIRST, LAST, STATES, s.statusIds, s.sourceIds],
  );
  await tagContacts(database.query.bind(database), s.companyId);
  await database.query('analyze');
}

async function tagContacts(query: (text: string, params?: unknown[]) => Promise<unknown>, companyId: number) {
  // One or two tags on most contacts (picked from the id), none on every third.
  await query(
    `insert into contact_tags (contact_id, tag_id)
     select c.id, t.ids[1 + c.id % 20] from contacts c, (select array_agg(id order by id) ids from tags where company_id = $1) t
       where c.company_id = $1 and c.id % 3 <> 0
     union
     select c.id, t.ids[1 + (c.id / 7) % 20] from contacts c, (select array_agg(id order by id) ids from tags where company_id = $1) t
       where c.company_id = $1 and c.id % 5 = 0`,
    [companyId],
  );
}

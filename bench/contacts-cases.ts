/**
 * The list cases of bench/contacts.ts, each with its "bare SQL": one hand-written statement returning the same rows
 * and columns as the route's page, run on a plain pg connection (not the product's SQL builders), so the ratio
 * route/bare shows what the product adds on top of the database.
 */
import pg from 'pg';
import type { Seeded } from './contacts-seed.js';

export interface Bare {
  text: string;
  params: unknown[];
}

export interface Case {
  name: string;
  email: string;
  body: Record<string, unknown>;
  bare: Bare;
  /** Single-request p95 goal in ms (the list: 15; searches: 100, issue 4). */
  goalMs: number;
}

const COLUMNS = `c.id, c.number, c.first_name, c.last_name, c.email, c.phone, c.city, c.state, c.zip, c.type,
  c.category, c.date_of_birth::text as date_of_birth, c.is_new, c.owner_id,
  nullif(trim(o.first_name || ' ' || o.last_name), '') as owner_name, c.status_id, st.name as status_name,
  st.color as status_color, c.source_id, so.name as source_name, c.pool_id, p.name as pool_name, c.group_id,
  g.name as group_name,
  coalesce((select json_agg(json_build_object('id', t.id, 'name', t.name, 'color', t.color) order by t.name)
            from contact_tags ct join tags t on t.id = ct.tag_id where ct.contact_id = c.id), '[]') as tags,
  c.created_at, c.updated_at, c.deleted_at`;
const JOINS = `left join users o on o.id = c.owner_id left join statuses st on st.id = c.status_id
  left join sources so on so.id = c.source_id left join pools p on p.id = c.pool_id
  left join groups g on g.id = c.group_id`;
const BY_NAME = 'order by c.last_name, c.first_name, c.id limit 51';

/** SELECT ... FROM contacts c WHERE <where> ORDER BY name LIMIT 51, with the presentation joins. */
const page = (where: string, params: unknown[]): Bare => ({
  text: `select ${COLUMNS} from contacts c ${JOINS} where c.company_id = $1 and c.deleted_at is null and ${where} ${BY_NAME}`,
  params,
});
const downline = (me: string) =>
  `(c.owner_id in (select id from users where tree_path @> array[${me}::int]) or c.pool_id in (select pool_id from pool_holders where user_id = ${me}))`;
const searching = (...patterns: string[]) =>
  `c.id in (select contact_id from contact_search where ${patterns.map((p) => `search like '${p}'`).join(' and ')})`;

export interface Probe {
  deep: { last: string; first: string; id: number };
  phone: string;
  userId: (n: number) => number;
}

/** Reads what the cases need from the seeded book: a deep keyset position and a real phone number. */
export async function probe(url: string, s: Seeded, n: number): Promise<Probe> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    const deep = (
      await c.query(
        `select id, last_name, first_name from contacts where company_id = $1 and deleted_at is null
         order by last_name, first_name, id offset $2 limit 1`,
        [s.companyId, Math.round(n * 0.9)],
      )
    ).rows[0];
    const phone = (await c.query('select phone from contacts where company_id = $1 order by id limit 1', [s.companyId]))
      .rows[0].phone as string;
    return {
      deep: { last: deep.last_name, first: deep.first_name, id: Number(deep.id) },
      phone,
      userId: (k: number) => s.userIds[k - 1],
    };
  } finally {
    await c.end();
  }
}

export function listCases(s: Seeded, p: Probe, cursor: string, n: number): Case[] {
  const admin = 'user1@bench.harbor.test';
  const c = s.companyId;
  const ten = p.phone.slice(1);
  const formatted = `(${ten.slice(0, 3)}) ${ten.slice(3, 6)}-${ten.slice(6)}`;
  const seven = `${ten.slice(3, 6)}-${ten.slice(6)}`;
  return [
    { name: 'first page (admin, 50)', email: admin, body: { limit: 50 }, bare: page('true', [c]), goalMs: 15 },
    {
      name: `deep page (keyset, ~${Math.round(n * 0.9).toLocaleString()} in)`,
      email: admin,
      body: { limit: 50, cursor, page: Math.round((n * 0.9) / 50) },
      bare: page('(c.last_name, c.first_name, c.id) > ($2, $3, $4)', [c, p.deep.last, p.deep.first, p.deep.id]),
      goalMs: 15,
    },
    {
      name: "manager's first page (downline)",
      email: 'user3@bench.harbor.test',
      body: { limit: 50 },
      bare: page(downline(String(p.userId(3))), [c]),
      goalMs: 15,
    },
    {
      name: "manager's all-downline view",
      email: 'user3@bench.harbor.test',
      body: { limit: 50, all_downline: true },
      bare: page(`c.owner_id in (select id from users where tree_path @> array[${p.userId(3)}::int])`, [c]),
      goalMs: 15,
    },
    {
      name: 'agent (own book) first page',
      email: 'user150@bench.harbor.test',
      body: { limit: 50 },
      bare: page(
        `(c.owner_id = ${p.userId(150)} or c.pool_id in (select pool_id from pool_holders where user_id = ${p.userId(150)}))`,
        [c],
      ),
      goalMs: 15,
    },
    {
      name: 'filter: FL + client + 2 statuses',
      email: admin,
      body: {
        limit: 50,
        type: 'client',
        search: [
          { field: 'state', value: ['FL'] },
          { field: 'status_id', value: [s.statusIds[1], s.statusIds[2]] },
        ],
      },
      bare: page(`c.type = 'client' and c.state = 'FL' and c.status_id in (${s.statusIds[1]}, ${s.statusIds[2]})`, [c]),
      goalMs: 15,
    },
    {
      name: 'search q="mart"',
      email: admin,
      body: { limit: 50, q: 'mart' },
      bare: page(searching('%mart%'), [c]),
      goalMs: 100,
    },
    {
      name: 'search q="ohnso"',
      email: admin,
      body: { limit: 50, q: 'ohnso' },
      bare: page(searching('%ohnso%'), [c]),
      goalMs: 100,
    },
    {
      name: 'accents q="Jose Munoz"',
      email: admin,
      body: { limit: 50, q: 'Jose Munoz' },
      bare: page(searching('%jose%', '%munoz%'), [c]),
      goalMs: 100,
    },
    {
      name: `phone q="${formatted}"`,
      email: admin,
      body: { limit: 50, q: formatted },
      bare: page(searching(`%${ten}%`), [c]),
      goalMs: 100,
    },
    {
      name: `phone q="${seven}" (7 digits)`,
      email: admin,
      body: { limit: 50, q: seven },
      bare: page(searching(`%${seven.replace('-', '')} %`), [c]),
      goalMs: 100,
    },
  ];
}

/** Scopes whose count the bench times and checks against a bare count(*). */
export function countCases(
  s: Seeded,
  p: Probe,
): Array<{ name: string; email: string; body: Record<string, unknown>; bare: Bare }> {
  const c = s.companyId;
  const all = (where: string): Bare => ({
    text: `select count(*)::int as n from contacts c where c.company_id = $1 and c.deleted_at is null and ${where}`,
    params: [c],
  });
  return [
    { name: 'admin, whole book', email: 'user1@bench.harbor.test', body: {}, bare: all('true') },
    { name: "manager's view", email: 'user3@bench.harbor.test', body: {}, bare: all(downline(String(p.userId(3)))) },
    {
      name: 'agent, own book',
      email: 'user150@bench.harbor.test',
      body: {},
      bare: all(
        `(c.owner_id = ${p.userId(150)} or c.pool_id in (select pool_id from pool_holders where user_id = ${p.userId(150)}))`,
      ),
    },
    { name: 'search "ohnso"', email: 'user1@bench.harbor.test', body: { q: 'ohnso' }, bare: all(searching('%ohnso%')) },
    { name: 'search "son"', email: 'user1@bench.harbor.test', body: { q: 'son' }, bare: all(searching('%son%')) },
    {
      name: 'filter FL + client',
      email: 'user1@bench.harbor.test',
      body: { type: 'client', search: [{ field: 'state', value: ['FL'] }] },
      bare: all(`c.type = 'client' and c.state = 'FL'`),
    },
  ];
}

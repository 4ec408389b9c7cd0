/**
 * The set-based heart of an import: classify every staged row (duplicates inside the file, matches in the existing
 * book, visibility) in one transaction, then write contacts in chunks, each chunk one transaction together with
 * the attempt's checkpoint, so a chunk re-run after a crash writes nothing twice.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import type { ImportOptions } from './options.js';
import { pgArray } from './options.js';

const KEYS = {
  phone: { row: sql`phone`, contact: sql`c.phone`, staged: sql`r2.phone`, label: 'phone' },
  email: { row: sql`email`, contact: sql`lower(c.email)`, staged: sql`r2.email`, label: 'email' },
  name_address: {
    row: sql`case when first_name is not null and last_name is not null and address is not null
      then lower(first_name) || '|' || lower(last_name) || '|' || lower(address) end`,
    contact: sql`lower(c.first_name) || '|' || lower(c.last_name) || '|' || lower(c.address)`,
    staged: sql`case when r2.first_name is not null and r2.last_name is not null and r2.address is not null
      then lower(r2.first_name) || '|' || lower(r2.last_name) || '|' || lower(r2.address) end`,
    label: 'name and address',
  },
} as const;

export interface Counts {
  total: number;
  create: number;
  update: number;
  skip: number;
  duplicate: number;
  invalid: number;
}

const TIMES = new Map<string, number>();
/** IMPORT_TRACE=1: sums time per statement kind (bench). */
function timed(db: Db): Db {
  if (process.env.IMPORT_TRACE !== '1') return db;
  return new Proxy(db, {
    get(target, prop) {
      if (prop !== 'execute') return Reflect.get(target, prop);
      return async (q: SQL) => {
        const t0 = performance.now();
        const out = await target.execute(q);
        const key = JSON.stringify(q.queryChunks[0]).slice(0, 60);
        TIMES.set(key, (TIMES.get(key) ?? 0) + performance.now() - t0);
        return out;
      };
    },
  });
}
export function dumpTimes() {
  for (const [k, v] of TIMES) console.log(`    ${Math.round(v)} ms ${k}`);
  TIMES.clear();
}

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;
export function affected(res: unknown): number {
  const r = res as { rowCount?: number | null; affectedRows?: number };
  return Number(r.rowCount ?? r.affectedRows ?? 0);
}

/**
 * Marks each unclassified row duplicate, update, skip or create. `visible` is the caller's contacts condition
 * (alias contacts), or null when they see the whole company.
 */
export async function classify(
  db: Db,
  companyId: number,
  attemptId: number,
  opts: Pick<ImportOptions, 'scrub'>,
  visible: SQL | null,
  assignIds = true,
) {
  db = timed(db);
  const by = opts.scrub?.by ?? ['phone', 'email'];
  for (const k of by) {
    const key = KEYS[k];
    await db.execute(sql`update import_rows r set action = 'duplicate',
        reasons = ${`Same ${key.label} as row `}::text || d.first_row
      from (select row_no, first_value(row_no) over (partition by ${key.row} order by row_no) as first_row
            from import_rows where attempt_id = ${attemptId} and action is null and ${key.row} is not null) d
      where r.attempt_id = ${attemptId} and r.row_no = d.row_no and d.first_row <> d.row_no`);
  }
  if (opts.scrub) {
    const onMatch = opts.scrub.on_match;
    for (const k of opts.scrub.by) {
      const key = KEYS[k];
      await db.execute(sql`update import_rows r set contact_id = m.contact_id, action = ${onMatch},
          reasons = ${`Already in the book (same ${key.label})`}
        from (select distinct on (r2.row_no) r2.row_no, c.id as contact_id
              from import_rows r2 join contacts c
                on c.company_id = ${companyId} and c.deleted_at is null and ${key.contact} = ${key.staged}
              where r2.attempt_id = ${attemptId} and r2.action is null
              order by r2.row_no, c.id) m
        where r.attempt_id = ${attemptId} and r.row_no = m.row_no`);
    }
    if (visible && onMatch === 'update') {
      await db.execute(sql`update import_rows r set action = 'skip',
          reasons = 'Matches a contact outside your book'
        where r.attempt_id = ${attemptId} and r.action = 'update'
          and not exists (select 1 from contacts where contacts.id = r.contact_id and ${visible})`);
    }
  }
  // Contact ids are given out here, so each chunk's insert is a plain INSERT ... SELECT (and the created
  // contacts are known by id for "delete the attempt and its contacts"). A preview gives none out.
  await db.execute(sql`update import_rows set action = 'create',
      contact_id = ${assignIds ? sql`nextval(pg_get_serial_sequence('contacts', 'id'))` : sql`null`}
    where attempt_id = ${attemptId} and action is null`);
}

export async function countActions(db: Db, attemptId: number): Promise<Counts> {
  const res = rowsOf<{ action: string; n: number }>(
    await db.execute(sql`select action, count(*)::int as n from import_rows where attempt_id = ${attemptId}
      group by action`),
  );
  const c: Counts = { total: 0, create: 0, update: 0, skip: 0, duplicate: 0, invalid: 0 };
  for (const r of res) {
    c.total += Number(r.n);
    if (r.action in c) c[r.action as keyof Counts] = Number(r.n);
  }
  return c;
}

/** Namespace of the per-company advisory lock that serialises import chunk writes. */
const WRITE_LOCK = 7_140_501;

/**
 * Classification ran before any write, so two imports of the same list (a double click) would both plan to create
 * the same people. Chunk writes of one company take turns (a transaction-scoped advisory lock), and rows whose
 * contact appeared since classification are skipped. Each key is an index lookup (name + address uses the
 * case-sensitive name index: a concurrent copy of the same file has the same case).
 */
async function skipAddedMeanwhile(tx: Db, companyId: number, chunk: SQL, by: Array<keyof typeof KEYS>) {
  await tx.execute(sql`select pg_advisory_xact_lock(${WRITE_LOCK}, ${companyId})`);
  const probes: Record<keyof typeof KEYS, SQL> = {
    phone: sql`r.phone is not null and exists (select 1 from contacts c where c.company_id = ${companyId}
      and c.phone = r.phone and c.deleted_at is null)`,
    email: sql`r.email is not null and exists (select 1 from contacts c where c.company_id = ${companyId}
      and lower(c.email) = r.email and c.deleted_at is null)`,
    name_address: sql`r.address is not null and exists (select 1 from contacts c where c.company_id = ${companyId}
      and c.last_name = r.last_name and c.first_name = r.first_name and lower(c.address) = lower(r.address)
      and c.deleted_at is null)`,
  };
  const any = sql.join(
    by.map((k) => probes[k]),
    sql` or `,
  );
  await tx.execute(sql`update import_rows r set action = 'skip', contact_id = null,
      reasons = 'Added to the book by another import meanwhile'
    where ${chunk} and r.action = 'create' and (${any})`);
}

export interface WriteContext {
  companyId: number;
  attemptId: number;
  fileName: string;
  opts: ImportOptions;
  vendorId: number | null;
  tagIds: number[];
  updatedTagIds: number[];
}

/**
 * Rows lo < row_no <= hi: new contacts (ids were given out by classify), updates of matched ones where something
 * changed, tags and timeline events. The caller commits this with the attempt's checkpoint in one transaction, so
 * a chunk is either wholly written and recorded, or not at all.
 */
export async function writeChunk(db: Db, w: WriteContext, lo: number, hi: number) {
  const tx = timed(db);
  const { companyId: c, attemptId: a, opts } = w;
  const chunk = sql`r.attempt_id = ${a} and r.row_no > ${lo} and r.row_no <= ${hi}`;
  if (opts.scrub) await skipAddedMeanwhile(tx, c, chunk, opts.scrub.by);
  const created = affected(
    await tx.execute(sql`insert into contacts (id, company_id, owner_id, pool_id, type, first_name, last_name,
        email, phone, secondary_phone, date_of_birth, gender, language, address, address2, city, state, zip, county,
        medicare_number, part_a_effective, part_b_effective, api_vendor_id, extra, created_by)
      select r.contact_id, ${c}, ${opts.ownerId}, ${opts.poolId}, ${opts.type}, coalesce(r.first_name, ''),
        coalesce(r.last_name, ''), r.email, r.phone, r.secondary_phone, r.date_of_birth::date, r.gender, r.language,
        r.address, r.address2, r.city, r.state, r.zip, r.county, r.medicare_number, r.part_a_effective::date,
        r.part_b_effective::date, ${w.vendorId}, coalesce(r.extra, '{}'::jsonb), ${opts.userId}
      from import_rows r where ${chunk} and r.action = 'create'`),
  );
  const [{ n: matched }] = rowsOf<{ n: number }>(
    await tx.execute(sql`select count(*)::int as n from import_rows r where ${chunk} and r.action = 'update'`),
  );
  if (matched > 0) {
    // Only contacts whose values change are written (and get a timeline event): re-importing the same file
    // touches no row and no index.
    await tx.execute(sql`with changed as (update contacts c set
        first_name = n.first_name, last_name = n.last_name, email = n.email, phone = n.phone,
        secondary_phone = n.secondary_phone, date_of_birth = n.date_of_birth, gender = n.gender,
        language = n.language, address = n.address, address2 = n.address2, city = n.city, state = n.state,
        zip = n.zip, county = n.county, medicare_number = n.medicare_number, part_a_effective = n.part_a_effective,
        part_b_effective = n.part_b_effective, extra = n.extra, type = n.type, updated_at = now()
      from (select c2.id,
          coalesce(r.first_name, c2.first_name) first_name, coalesce(r.last_name, c2.last_name) last_name,
          coalesce(r.email, c2.email) email, coalesce(r.phone, c2.phone) phone,
          coalesce(r.secondary_phone, c2.secondary_phone) secondary_phone,
          coalesce(r.date_of_birth::date, c2.date_of_birth) date_of_birth, coalesce(r.gender, c2.gender) gender,
          coalesce(r.language, c2.language) language, coalesce(r.address, c2.address) address,
          coalesce(r.address2, c2.address2) address2, coalesce(r.city, c2.city) city,
          coalesce(r.state, c2.state) state, coalesce(r.zip, c2.zip) zip, coalesce(r.county, c2.county) county,
          coalesce(r.medicare_number, c2.medicare_number) medicare_number,
          coalesce(r.part_a_effective::date, c2.part_a_effective) part_a_effective,
          coalesce(r.part_b_effective::date, c2.part_b_effective) part_b_effective,
          c2.extra || coalesce(r.extra, '{}'::jsonb) extra,
          case when ${opts.type} = 'client' then 'client' else c2.type end as type
        from import_rows r join contacts c2 on c2.id = r.contact_id and c2.company_id = ${c}
        where ${chunk} and r.action = 'update') n
      where c.id = n.id and (c.first_name, c.last_name, c.email, c.phone, c.secondary_phone, c.date_of_birth,
        c.gender, c.language, c.address, c.address2, c.city, c.state, c.zip, c.county, c.medicare_number,
        c.part_a_effective, c.part_b_effective, c.extra, c.type) is distinct from (n.first_name, n.last_name,
        n.email, n.phone, n.secondary_phone, n.date_of_birth, n.gender, n.language, n.address, n.address2, n.city,
        n.state, n.zip, n.county, n.medicare_number, n.part_a_effective, n.part_b_effective, n.extra, n.type)
      returning c.id)
      insert into contact_events (company_id, contact_id, kind, data, actor_id)
      select ${c}, id, 'import_updated', ${JSON.stringify({ import_attempt_id: a })}::jsonb, ${opts.userId}
      from changed`);
  }
  const tagRows = (ids: number[], action: string) =>
    ids.length === 0
      ? null
      : sql`select r.contact_id, t from import_rows r, unnest(${pgArray(ids)}::int[]) t
          where ${chunk} and r.action = ${action}`;
  for (const q of [tagRows(w.tagIds, 'create'), tagRows(w.updatedTagIds, 'update')]) {
    if (q) await tx.execute(sql`insert into contact_tags (contact_id, tag_id) ${q} on conflict do nothing`);
  }
  // A "Tags" column: names split on commas, new ones created, then linked, all in two statements.
  await tx.execute(sql`insert into tags (company_id, name)
      select distinct on (lower(n)) ${c}, n from (
        select trim(x) as n from import_rows r, unnest(string_to_array(r.tags, ',')) x
        where ${chunk} and r.action in ('create', 'update') and r.tags is not null) s
      where n <> '' order by lower(n), n
      on conflict (company_id, lower(name)) do nothing`);
  await tx.execute(sql`insert into contact_tags (contact_id, tag_id)
      select r.contact_id, t.id from import_rows r, unnest(string_to_array(r.tags, ',')) x
      join tags t on t.company_id = ${c} and lower(t.name) = lower(trim(x))
      where ${chunk} and r.action in ('create', 'update') and r.tags is not null
      on conflict do nothing`);
  await tx.execute(sql`insert into contact_events (company_id, contact_id, kind, data, actor_id)
      select ${c}, r.contact_id, 'imported', ${JSON.stringify({ import_attempt_id: a })}::jsonb, ${opts.userId}
      from import_rows r where ${chunk} and r.action = 'create'`);
  return { created, updated: Number(matched) };
}

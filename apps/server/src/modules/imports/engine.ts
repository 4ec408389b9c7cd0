/**
 * The set-based heart of an import: once every staged row is classified (match.ts), write contacts in chunks, each
 * chunk one transaction together with the attempt's checkpoint, so a chunk re-run after a crash writes nothing twice.
 * Matched contacts change as plan.ts says, and every changed field's old and new value goes to the staging row (for
 * undo) and to the contact's timeline.
 */
import type { ScrubKey } from '@harbor/shared';
import { type SQL, sql } from 'drizzle-orm';
import { affectedRows, type Db } from '../../platform/db/client.js';
import { changeEventsSql } from '../contacts/events.js';
import { mbi } from './match.js';
import type { ImportOptions } from './options.js';
import { pgArray } from './options.js';
import { applyPlanSql, FIELDS, planSql, staged } from './plan.js';

export interface Counts {
  total: number;
  create: number;
  update: number;
  unchanged: number;
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

export async function countActions(db: Db, attemptId: number): Promise<Counts> {
  const res = rowsOf<{ action: string; n: number }>(
    await db.execute(sql`select action, count(*)::int as n from import_rows where attempt_id = ${attemptId}
      group by action`),
  );
  const c: Counts = { total: 0, create: 0, update: 0, unchanged: 0, skip: 0, duplicate: 0, invalid: 0 };
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
async function skipAddedMeanwhile(tx: Db, companyId: number, chunk: SQL, by: ScrubKey[]) {
  await tx.execute(sql`select pg_advisory_xact_lock(${WRITE_LOCK}, ${companyId})`);
  const probes: Record<ScrubKey, SQL> = {
    phone: sql`r.phone is not null and exists (select 1 from contacts c where c.company_id = ${companyId}
      and c.phone = r.phone and c.deleted_at is null)`,
    email: sql`r.email is not null and exists (select 1 from contacts c where c.company_id = ${companyId}
      and lower(c.email) = r.email and c.deleted_at is null)`,
    medicare_number: sql`r.medicare_number is not null and exists (select 1 from contacts c
      where c.company_id = ${companyId} and ${mbi(sql`c.medicare_number`)} = ${mbi(sql`r.medicare_number`)}
      and c.deleted_at is null)`,
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

const columns = FIELDS.map((f) => f.name).join(', ');

/**
 * Rows lo < row_no <= hi: new contacts (ids were given out by classify), matched ones changed as the plan says,
 * tags and timeline events with old and new values. The caller commits this with the attempt's checkpoint in one
 * transaction, so a chunk is either wholly written and recorded, or not at all.
 */
export async function writeChunk(db: Db, w: WriteContext, lo: number, hi: number) {
  const tx = timed(db);
  const { companyId: c, attemptId: a, opts } = w;
  const chunk = sql`r.attempt_id = ${a} and r.row_no > ${lo} and r.row_no <= ${hi}`;
  if (opts.scrub) await skipAddedMeanwhile(tx, c, chunk, opts.scrub.by);
  const created = affectedRows(
    await tx.execute(sql`insert into contacts (id, company_id, owner_id, pool_id, type, ${sql.raw(columns)},
        api_vendor_id, extra, created_by)
      select r.contact_id, ${c}, ${opts.ownerId}, ${opts.poolId}, ${opts.type}, coalesce(r.first_name, ''),
        coalesce(r.last_name, ''), ${sql.join(
          FIELDS.slice(2).map((f) => staged(f)),
          sql`, `,
        )}, ${w.vendorId}, coalesce(r.extra, '{}'::jsonb), ${opts.userId}
      from import_rows r where ${chunk} and r.action = 'create'`),
  );
  // A "Tags" column: names split on commas, new ones created (before anything links them).
  await tx.execute(sql`insert into tags (company_id, name)
      select distinct on (lower(n)) ${c}, n from (
        select trim(x) as n from import_rows r, unnest(string_to_array(r.tags, ',')) x
        where ${chunk} and r.action in ('create', 'update') and r.tags is not null) s
      where n <> '' order by lower(n), n
      on conflict (company_id, lower(name)) do nothing`);
  await tx.execute(sql`insert into contact_tags (contact_id, tag_id) ${tagsOf(w, chunk, 'create')}
      on conflict do nothing`);
  const [{ n: matched }] = rowsOf<{ n: number }>(
    await tx.execute(sql`select count(*)::int as n from import_rows r where ${chunk} and r.action = 'update'`),
  );
  let updated = 0;
  if (matched > 0) updated = await writeMatched(tx, w, chunk);
  await tx.execute(sql`insert into contact_events (company_id, contact_id, kind, data, actor_id)
      select ${c}, r.contact_id, 'imported', ${JSON.stringify({ import_attempt_id: a })}::jsonb, ${opts.userId}
      from import_rows r where ${chunk} and r.action = 'create'`);
  return { created, updated };
}

/** The (contact, tag) pairs a chunk's rows of `action` get: the form's tags and the file's "Tags" column. */
function tagsOf(w: WriteContext, chunk: SQL, action: 'create' | 'update'): SQL {
  const ids = action === 'create' ? w.tagIds : w.updatedTagIds;
  const form =
    ids.length === 0
      ? sql``
      : sql`select r.contact_id, t from import_rows r, unnest(${pgArray(ids)}::int[]) t
          where ${chunk} and r.action = ${action} union `;
  return sql`${form}select r.contact_id, t.id from import_rows r, unnest(string_to_array(r.tags, ',')) x
      join tags t on t.company_id = ${w.companyId} and lower(t.name) = lower(trim(x))
      where ${chunk} and r.action = ${action} and r.tags is not null`;
}

/**
 * Matched contacts of a chunk: locked, tagged (the tags they did not have yet are remembered), changed as the plan
 * says; the staging row keeps what changed (undo needs the old values) and the timeline gets old and new values.
 * Rows whose contact neither changed nor gained a tag become `unchanged`. Answers how many contacts changed.
 */
async function writeMatched(tx: Db, w: WriteContext, chunk: SQL): Promise<number> {
  const { companyId: c, attemptId: a, opts } = w;
  // Read the values to change under a row lock: a person's edit committed meanwhile is what the plan starts from.
  await tx.execute(sql`select 1 from contacts where id in (select r.contact_id from import_rows r
      where ${chunk} and r.action = 'update') order by id for update`);
  await tx.execute(sql`with added as (insert into contact_tags (contact_id, tag_id) ${tagsOf(w, chunk, 'update')}
        on conflict do nothing returning contact_id, tag_id)
      update import_rows r set tags_added = x.ids
      from (select contact_id, jsonb_agg(tag_id order by tag_id) as ids from added group by contact_id) x
      where ${chunk} and r.action = 'update' and r.contact_id = x.contact_id`);
  const plan = planSql(c, chunk, opts.scrub?.on_match ?? 'fill', opts.type === 'client');
  const tagNames = sql`(select coalesce(jsonb_agg(t.name order by t.name), '[]'::jsonb) from tags t
      where t.id in (select jsonb_array_elements_text(r.tags_added)::int))`;
  const [{ n }] = rowsOf<{ n: number }>(
    await tx.execute(sql`with p as (${plan}),
      upd as (update contacts c set ${applyPlanSql()} from p
        where c.id = p.contact_id and p.changes <> '{}'::jsonb returning c.id),
      marked as (update import_rows r set changes = p.changes, kept = nullif(p.kept, '{}'::jsonb),
          action = case when p.changes = '{}'::jsonb and r.tags_added is null then 'unchanged' else 'update' end
        from p where r.attempt_id = ${a} and r.row_no = p.row_no),
      ev as (${changeEventsSql({
        companyId: c,
        actorId: opts.userId,
        kind: 'import_updated',
        withData: true,
        keepEmpty: sql`s.data ? 'tags_added'`,
        source: sql`select p.contact_id, p.changes, jsonb_strip_nulls(jsonb_build_object(
            'import_attempt_id', ${a}::bigint, 'matched_by', r.matched_by, 'same_person', r.same_person,
            'tags_added', case when r.tags_added is not null then ${tagNames} end)) as data
          from p join import_rows r on r.attempt_id = ${a} and r.row_no = p.row_no`,
      })})
      select count(*)::int as n from p where p.changes <> '{}'::jsonb
        or exists (select 1 from import_rows r where r.attempt_id = ${a} and r.row_no = p.row_no
          and r.tags_added is not null)`),
  );
  return Number(n);
}

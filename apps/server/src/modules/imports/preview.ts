/**
 * The preview (validate_import): the file staged under a throwaway id, classified and planned exactly as the job
 * would, then described: counts, the contacts it would change field by field (old -> new), the matched ones it would
 * leave alone and why, the rows it would skip and the invalid ones. Nothing is written to the book.
 */
import type { ImportPreview, MatchPlan, ScrubKey } from '@harbor/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Db } from '../../platform/db/client.js';
import type { Deps } from '../../platform/deps.js';
import { invalid } from '../../platform/http/errors.js';
import { countActions } from './engine.js';
import { invalidCsv, type ListFile, refusing, visibleFor } from './lists.js';
import { classify } from './match.js';
import { type ImportOptions, pgArray } from './options.js';
import { planSql } from './plan.js';
import { type ContactRef, fieldChanges, keptFields, presentMatchedContact } from './presenter.js';
import { stageFile } from './stage.js';

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;
export const INVALID_LIST_LIMIT = 1000;
/** The CSV download is built in memory: a list that is mostly invalid is cut here (and says so in its last line). */
export const INVALID_CSV_LIMIT = 200_000;
export const MATCH_LIST_LIMIT = 1000;

/** Stages the file under a throwaway id, classifies and plans it like the job would, and removes the staging rows. */
export async function previewList(
  deps: Deps,
  auth: AuthContext,
  upload: { path: string; name: string },
  list: ListFile,
  opts: ImportOptions,
  format: 'json' | 'csv',
): Promise<ImportPreview | string> {
  const { database } = deps;
  const db = database.db;
  const [{ id }] = await database.query<{ id: string }>(
    "select nextval(pg_get_serial_sequence('import_attempts', 'id')) as id",
  );
  const previewId = -Number(id);
  const visible = visibleFor(auth);
  try {
    await refusing(() => stageFile(database, previewId, upload.path, list.info, opts.headers, opts.fields));
    await db.execute(sql`analyze import_rows`); // as the job does: the planner must know how many rows came in
    await db.transaction(async (t) => {
      const tx = t;
      await classify(tx, auth.company.id, previewId, opts, visible, false);
      if (opts.scrub && opts.scrub.on_match !== 'skip') await planPreview(tx, auth.company.id, previewId, opts);
    });
    const n = await countActions(db, previewId);
    if (n.total === 0) throw invalid('file', `${upload.name} has a header row but no data rows`);
    const limit = format === 'csv' ? INVALID_CSV_LIMIT : INVALID_LIST_LIMIT + 1;
    const bad = rowsOf<{ row_no: number; reasons: string; raw: string[] | string }>(
      await db.execute(sql`select row_no, reasons, raw from import_rows
        where attempt_id = ${previewId} and action = 'invalid' order by row_no limit ${limit}`),
    ).map((r) => ({
      row: Number(r.row_no),
      reasons: r.reasons.split('; '),
      values: (typeof r.raw === 'string' ? JSON.parse(r.raw) : r.raw) as string[],
    }));
    if (format === 'csv') {
      const csv = invalidCsv(opts.headers, bad);
      return n.invalid > INVALID_CSV_LIMIT
        ? `${csv}"Only the first ${INVALID_CSV_LIMIT} of ${n.invalid} invalid rows are listed"\r\n`
        : csv;
    }
    const matches = await listMatches(db, previewId, opts, visible);
    const skipped = rowsOf<{ row_no: number; reasons: string }>(
      await db.execute(sql`select row_no, reasons from import_rows where attempt_id = ${previewId}
        and action in ('duplicate', 'skip') and contact_id is null order by row_no limit ${MATCH_LIST_LIMIT}`),
    ).map((r) => ({ row: Number(r.row_no), reasons: [r.reasons] }));
    return {
      file_name: upload.name,
      sheets: list.info.sheets,
      sheet: list.info.sheet,
      columns: list.columns,
      row_count: n.total,
      to_create: n.create,
      to_update: n.update,
      unchanged: n.unchanged,
      to_skip: n.skip + n.duplicate,
      duplicates_in_file: n.duplicate,
      invalid_count: n.invalid,
      invalid: bad.slice(0, INVALID_LIST_LIMIT),
      invalid_truncated: n.invalid > INVALID_LIST_LIMIT,
      on_match: opts.scrub?.on_match ?? null,
      changes: matches.changes,
      untouched: matches.untouched,
      matches_truncated: matches.truncated,
      other_owners: matches.otherOwners,
      skipped,
      skipped_rows: await footerRows(db, previewId),
    };
  } finally {
    await database.query('delete from import_rows where attempt_id = $1', [previewId]);
  }
}

/**
 * Stores the plan on the throwaway rows: what each matched contact would get (changes, the file's values it would
 * not apply, the tags it does not have yet, by name since a preview creates no tag), and `unchanged` for those that
 * would get nothing.
 */
async function planPreview(tx: Db, companyId: number, previewId: number, opts: ImportOptions) {
  const plan = planSql(
    companyId,
    sql`r.attempt_id = ${previewId}`,
    opts.scrub?.on_match ?? 'fill',
    opts.type === 'client',
  );
  const names = pgArray(opts.updatedTags.map((t) => t.name));
  const wouldTag = sql`(select jsonb_agg(distinct s.n) from (select trim(x) as n
      from unnest(${names}::text[] || coalesce(string_to_array(r.tags, ','), '{}'::text[])) x) s
    where s.n <> '' and not exists (select 1 from contact_tags ct join tags t on t.id = ct.tag_id
      where ct.contact_id = p.contact_id and lower(t.name) = lower(s.n)))`;
  await tx.execute(sql`with p as (${plan})
    update import_rows r set changes = p.changes, kept = nullif(p.kept, '{}'::jsonb), tags_added = ${wouldTag},
      action = case when p.changes = '{}'::jsonb and ${wouldTag} is null then 'unchanged' else 'update' end
    from p where r.attempt_id = ${previewId} and r.row_no = p.row_no`);
}

interface MatchRow extends ContactRef {
  row_no: number;
  action: string;
  reasons: string | null;
  matched_by: ScrubKey;
  same_person: boolean;
  changes: Record<string, { from: unknown; to: unknown }> | null;
  kept: Record<string, { value: unknown; file: unknown; reason: string }> | null;
  tags_added: string[] | null;
}

/** The first MATCH_LIST_LIMIT contacts it would change and the first it would leave alone, with counts. */
async function listMatches(db: Db, previewId: number, opts: ImportOptions, visible: SQL | null) {
  const seen = visible ?? sql`true`;
  const rows = rowsOf<MatchRow & { n: number }>(
    await db.execute(sql`select r.row_no, r.action, r.reasons, r.matched_by, r.same_person, r.changes, r.kept,
        r.tags_added, contacts.id as contact_id, contacts.number, contacts.first_name, contacts.last_name,
        contacts.owner_id, nullif(trim(u.first_name || ' ' || u.last_name), '') as owner_name,
        coalesce((${seen}), false) as visible, r.n
      from (select *, row_number() over (partition by action = 'update' order by row_no) as rn,
              count(*) over (partition by action = 'update') as n
            from import_rows where attempt_id = ${previewId} and contact_id is not null
              and action in ('update', 'unchanged', 'skip')) r
      join contacts on contacts.id = r.contact_id left join users u on u.id = contacts.owner_id
      where r.rn <= ${MATCH_LIST_LIMIT} order by r.row_no`),
  );
  const [{ other }] = rowsOf<{ other: number }>(
    await db.execute(sql`select count(*)::int as other from import_rows r join contacts c on c.id = r.contact_id
      where r.attempt_id = ${previewId} and r.action = 'update' and c.owner_id is distinct from ${opts.ownerId}`),
  );
  const plans = rows.map((r) => toPlan(r, opts.ownerId));
  return {
    changes: plans.filter((_, i) => rows[i].action === 'update'),
    untouched: plans.filter((_, i) => rows[i].action !== 'update'),
    truncated: rows.some((r) => Number(r.n) > MATCH_LIST_LIMIT),
    otherOwners: Number(other),
  };
}

function toPlan(r: MatchRow, ownerId: number): MatchPlan {
  const untouchedReason =
    r.action === 'update' ? null : r.action === 'skip' ? r.reasons : 'The file has nothing new for this contact';
  return {
    row: Number(r.row_no),
    contact: presentMatchedContact(r, ownerId),
    matched_by: r.matched_by,
    same_person: Boolean(r.same_person),
    changes: fieldChanges(r.changes),
    kept: keptFields(r.kept),
    tags_added: (r.tags_added ?? []).map(String),
    reason: untouchedReason,
  };
}

/** Rows the reader itself skipped (footers), staged before classification with their reason and cells. */
async function footerRows(db: Db, attemptId: number) {
  const rows = rowsOf<{ row_no: number; reasons: string; raw: string[] | string }>(
    await db.execute(sql`select row_no, reasons, raw from import_rows
      where attempt_id = ${attemptId} and action = 'skip' and raw is not null order by row_no limit ${INVALID_LIST_LIMIT}`),
  );
  return rows.map((r) => ({
    row: Number(r.row_no),
    reasons: [r.reasons],
    values: (typeof r.raw === 'string' ? JSON.parse(r.raw) : r.raw) as string[],
  }));
}

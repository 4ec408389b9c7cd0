/**
 * The result page of an attempt: its figures and settings, whether it can still be undone, its rows by kind (each
 * skipped or invalid row with its reason and cells, each changed contact with old -> new), the CSV of the rows that
 * were not imported, and the undo preview. Rows are described only while they are kept (IMPORT_RESULT_DAYS).
 */
import { Readable } from 'node:stream';
import {
  IMPORT_RESULT_DAYS,
  type ImportAttemptDetail,
  type ImportRowEntry,
  type ImportRowsQuery,
  type ScrubKey,
  type UndoPreview,
} from '@harbor/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Db } from '../../platform/db/client.js';
import { csvLine, visibleFor } from './lists.js';
import type { ImportOptions } from './options.js';
import { STAGE_COLUMNS } from './parse/normalize.js';
import { type ContactRef, fieldChanges, presentAttempt, presentMatchedContact, shown } from './presenter.js';
import type { importAttempts } from './schema.js';
import { countUndo, undoPlanSql, workedOnSince } from './undo.js';
import type { UndoState } from './undo-job.js';

type Attempt = typeof importAttempts.$inferSelect;
const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;
const DAY = 86_400_000;

const KIND: Record<z.infer<typeof ImportRowsQuery>['kind'], SQL> = {
  not_imported: sql`r.action in ('invalid', 'duplicate', 'skip')`,
  invalid: sql`r.action = 'invalid'`,
  skipped: sql`r.action in ('duplicate', 'skip')`,
  updated: sql`r.action = 'update'`,
  unchanged: sql`r.action = 'unchanged'`,
  created: sql`r.action = 'create'`,
};

export const optionsOf = (a: Attempt) => a.options as unknown as Partial<ImportOptions>;

export function keptUntil(a: Attempt): Date | null {
  return a.finishedAt ? new Date(new Date(a.finishedAt).getTime() + IMPORT_RESULT_DAYS * DAY) : null;
}

export function rowsAvailable(a: Attempt): boolean {
  const until = keptUntil(a);
  return !('rows_purged_at' in a.result) && (until === null || until.getTime() > Date.now());
}

/** Null when the attempt can be undone; otherwise why not. */
export function whyNoUndo(a: Attempt): string | null {
  if (a.kind === 'attachments') return 'Files attached from a ZIP are removed from each contact, not undone';
  if (a.status === 'undone') return 'This import has been undone';
  const undo = a.result.undo as UndoState | undefined;
  if (a.status === 'undoing' && !undo?.error) return 'This import is being undone';
  if (a.status !== 'completed' && a.status !== 'undoing') return 'Only a completed import can be undone';
  if (!rowsAvailable(a)) {
    return `An import can be undone for ${IMPORT_RESULT_DAYS} days; this one's records are no longer kept`;
  }
  return null;
}

export async function attemptDetail(db: Db, a: Attempt): Promise<ImportAttemptDetail> {
  const [names] = rowsOf<{ user_name: string | null; owner_name: string | null }>(
    await db.execute(sql`select (select nullif(trim(first_name || ' ' || last_name), '') from users
        where id = ${a.userId}) as user_name,
      (select nullif(trim(first_name || ' ' || last_name), '') from users where id = ${a.ownerId}) as owner_name`),
  );
  const o = optionsOf(a);
  const reason = whyNoUndo(a);
  const undo = a.result.undo as UndoState | undefined;
  return {
    ...presentAttempt(a, { id: a.userId, name: names?.user_name ?? '' }),
    scrub: o.scrub ?? null,
    tags: (o.tags ?? []).map((t) => t.name),
    owner: a.ownerId ? { id: a.ownerId, name: names?.owner_name ?? '' } : null,
    kept_until: keptUntil(a)?.toISOString() ?? null,
    rows_available: rowsAvailable(a),
    undo: {
      available: reason === null,
      reason,
      summary: undo
        ? {
            by: undo.by,
            started_at: undo.started_at,
            finished_at: undo.finished_at,
            removed: undo.removed,
            kept: undo.kept,
            restored: undo.restored,
            fields_restored: undo.fields_restored,
            fields_skipped: undo.fields_skipped,
            tags_removed: undo.tags_removed,
          }
        : null,
    },
  };
}

type Staged = Record<string, unknown>;

/** A row's cells under the file's headers: the original cells of an invalid row, else rebuilt from its values. */
export function cellsOf(r: Staged, o: Partial<ImportOptions>): string[] | null {
  if (Array.isArray(r.raw)) return (r.raw as unknown[]).map((v) => String(v ?? ''));
  const headers = o.headers ?? [];
  const fields = o.fields ?? [];
  if (!STAGE_COLUMNS.some((c) => r[c] !== null && r[c] !== undefined)) return null;
  const extra = (r.extra ?? {}) as Record<string, unknown>;
  return headers.map((h, i) => {
    const f = fields[i];
    if (f === 'full_name') return [r.first_name, r.last_name].filter(Boolean).join(' ');
    if (f === 'extra') return String(extra[h] ?? '');
    if (f && (STAGE_COLUMNS as readonly string[]).includes(f)) return shown(f, r[f]) ?? '';
    return '';
  });
}

const rowColumns = sql.raw(
  ['row_no', 'action', 'reasons', 'matched_by', 'same_person', 'changes', 'tags_added', 'undo', 'raw', 'extra']
    .concat(STAGE_COLUMNS)
    .map((c) => `r.${c}`)
    .join(', '),
);

export async function listRows(
  db: Db,
  viewer: AuthContext,
  a: Attempt,
  q: z.infer<typeof ImportRowsQuery>,
): Promise<{ headers: string[]; data: ImportRowEntry[]; total: number }> {
  const o = optionsOf(a);
  const where = sql`r.attempt_id = ${a.id} and ${KIND[q.kind]}`;
  const [{ n }] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from import_rows r where ${where}`),
  );
  const rows = rowsOf<Staged>(
    await db.execute(sql`select ${rowColumns}, contacts.id as contact_id, contacts.number,
        contacts.first_name as c_first, contacts.last_name as c_last, contacts.owner_id,
        nullif(trim(u.first_name || ' ' || u.last_name), '') as owner_name,
        coalesce((${visibleFor(viewer) ?? sql`true`}), false) as visible,
        (select jsonb_agg(t.name order by t.name) from tags t
          where t.id in (select jsonb_array_elements_text(r.tags_added)::int)) as tag_names
      from import_rows r left join contacts on contacts.id = r.contact_id and contacts.company_id = ${a.companyId}
        left join users u on u.id = contacts.owner_id
      where ${where} order by r.row_no limit ${q.limit} offset ${(q.page - 1) * q.limit}`),
  );
  return { headers: o.headers ?? [], data: rows.map((r) => toEntry(r, a, o)), total: Number(n) };
}

function toEntry(r: Staged, a: Attempt, o: Partial<ImportOptions>): ImportRowEntry {
  const ref: ContactRef = {
    contact_id: (r.contact_id as number | null) ?? null,
    number: (r.number as number | null) ?? null,
    first_name: r.c_first as string | null,
    last_name: r.c_last as string | null,
    owner_id: r.owner_id as number | null,
    owner_name: r.owner_name as string | null,
    visible: Boolean(r.visible),
  };
  const undo = r.undo as { outcome: string; skipped?: Record<string, { from: unknown; to: unknown }>; reason?: string };
  return {
    row: Number(r.row_no),
    action: r.action as ImportRowEntry['action'],
    reasons: r.reasons ? String(r.reasons).split('; ') : [],
    contact: presentMatchedContact(ref, a.ownerId),
    matched_by: (r.matched_by as ScrubKey | null) ?? null,
    same_person: (r.same_person as boolean | null) ?? null,
    changes: fieldChanges(r.changes as Record<string, { from: unknown; to: unknown }> | null),
    tags_added: ((r.tag_names as string[] | null) ?? []).map(String),
    cells: cellsOf(r, o),
    undo: undo
      ? {
          outcome: undo.outcome as 'removed' | 'kept' | 'restored' | 'unchanged',
          skipped_fields: fieldChanges(undo.skipped),
          reason: undo.reason ?? null,
        }
      : null,
  };
}

/** The rows that were not imported as CSV (the file's headers, then Row and Reason), read in keyset batches. */
export function notImportedCsv(db: Db, a: Attempt): Readable {
  const o = optionsOf(a);
  const headers = o.headers ?? [];
  return Readable.from(
    (async function* () {
      // A byte-order mark, so a spreadsheet reads accents ("José") as UTF-8.
      yield `\uFEFF${csvLine([...headers, 'Row', 'Reason'])}`;
      let after = 0;
      for (;;) {
        const rows = rowsOf<Staged>(
          await db.execute(sql`select ${rowColumns} from import_rows r where r.attempt_id = ${a.id}
            and ${KIND.not_imported} and r.row_no > ${after} order by r.row_no limit 5000`),
        );
        if (!rows.length) return;
        after = Number(rows[rows.length - 1].row_no);
        yield rows
          .map((r) => {
            const cells = cellsOf(r, o) ?? [];
            return csvLine([...headers.map((_, i) => cells[i] ?? ''), String(r.row_no), String(r.reasons ?? '')]);
          })
          .join('');
      }
    })(),
  );
}

const LIST = 100;

export async function undoPreview(db: Db, viewer: AuthContext, a: Attempt): Promise<z.infer<typeof UndoPreview>> {
  const all = sql`r.attempt_id = ${a.id}`;
  const figures = await countUndo(db, a.companyId, a.id, all);
  const seen = visibleFor(viewer) ?? sql`true`;
  const contact = sql`contacts.id as contact_id, contacts.number, contacts.first_name, contacts.last_name,
    contacts.owner_id, nullif(trim(u.first_name || ' ' || u.last_name), '') as owner_name,
    coalesce((${seen}), false) as visible`;
  const skipped = rowsOf<ContactRef & { row_no: number; skipped: Record<string, { from: unknown; to: unknown }> }>(
    await db.execute(sql`select p.row_no, p.skipped, ${contact} from (${undoPlanSql(a.companyId, all)}) p
      join contacts on contacts.id = p.contact_id left join users u on u.id = contacts.owner_id
      where p.skipped <> '{}'::jsonb order by p.row_no limit ${LIST}`),
  );
  const kept = rowsOf<ContactRef & { row_no: number }>(
    await db.execute(sql`select r.row_no, ${contact} from import_rows r
      join contacts c on c.id = r.contact_id and c.company_id = ${a.companyId}
      join contacts on contacts.id = c.id left join users u on u.id = contacts.owner_id
      where ${all} and r.action = 'create' and c.deleted_at is null and ${workedOnSince(a.id)}
      order by r.row_no limit ${LIST}`),
  );
  return {
    ...figures,
    skipped_fields: skipped.flatMap((r) =>
      fieldChanges(r.skipped).map((f) => ({
        row: Number(r.row_no),
        contact: presentMatchedContact(r, a.ownerId),
        field: f.field,
        import_set: f.from,
        now: f.to,
      })),
    ),
    kept_contacts: kept.map((r) => ({
      row: Number(r.row_no),
      contact: presentMatchedContact(r, a.ownerId),
      reason: 'Worked on since the import',
    })),
    truncated: figures.kept > LIST || skipped.length >= LIST,
  };
}

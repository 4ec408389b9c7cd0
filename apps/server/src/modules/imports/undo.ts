/**
 * Undoing a completed import (docs/decisions/import-undo.md): the contacts it created are removed (soft, restorable
 * like any deleted contact) unless someone worked on them since; every field it changed goes back to its old value
 * unless it changed again since (a person's later edit is never overwritten: the field is left and reported); the
 * tags it added to matched contacts are taken off. The same SQL answers the preview (what undo would do) and does the
 * work, in chunks committed with a checkpoint by a durable job, so a big undo survives a restart and writes nothing
 * twice.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { changeEventsSql, changesJsonSql } from '../contacts/events.js';
import { FIELDS } from './plan.js';

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;

/** Every column an import may change, with its SQL type for reading the old value back out of jsonb. */
const UNDOABLE: Array<{ name: string; type: string }> = [
  ...FIELDS.map((f) => ({ name: f.name, type: f.date ? 'date' : 'text' })),
  { name: 'extra', type: 'jsonb' },
  { name: 'type', type: 'text' },
];

/** Created contacts (alias c) someone worked on since: any timeline event that is not this import's own. */
export const workedOnSince = (attemptId: number) =>
  sql`exists (select 1 from contact_events e where e.contact_id = c.id
    and coalesce(e.data->>'import_attempt_id', '') <> ${String(attemptId)})`;

const old = (f: { name: string; type: string }) =>
  f.type === 'jsonb'
    ? sql.raw(`(r.changes->'${f.name}'->'from')`)
    : sql.raw(`(r.changes->'${f.name}'->>'from')::${f.type}`);
/** The field still holds what the import wrote: nobody changed it since. */
const untouched = (f: { name: string }) =>
  sql.raw(`to_jsonb(c.${f.name}) is not distinct from r.changes->'${f.name}'->'to'`);

/**
 * One row per changed contact of `where` (a condition on `r`): `new_<field>` (the old value back, or the current one
 * when it changed since), `restored` ({field: {from: now, to: old}}) and `skipped` ({field: {from: what the import
 * wrote, to: what it is now}}).
 */
export function undoPlanSql(companyId: number, where: SQL): SQL {
  const news = UNDOABLE.map(
    (f) => sql`case when r.changes ? ${sql.raw(`'${f.name}'`)} and ${untouched(f)} then ${old(f)}
      else ${sql.raw(`c.${f.name}`)} end as ${sql.raw(`new_${f.name}`)}`,
  );
  const olds = UNDOABLE.map((f) => sql.raw(`c.${f.name} as cur_${f.name}`));
  const skipped = UNDOABLE.map(
    (f) => sql`case when r.changes ? ${sql.raw(`'${f.name}'`)} and not (${untouched(f)})
      then jsonb_build_object(${sql.raw(`'${f.name}'`)}, jsonb_build_object('from', r.changes->${sql.raw(`'${f.name}'`)}->'to',
        'to', to_jsonb(${sql.raw(`c.${f.name}`)}))) else '{}'::jsonb end`,
  );
  const restored = changesJsonSql(
    UNDOABLE.map((f) => ({ field: f.name, before: sql.raw(`p.cur_${f.name}`), after: sql.raw(`p.new_${f.name}`) })),
  );
  return sql`select p.*, ${restored} as restored from (
      select r.row_no, r.contact_id, r.tags_added, ${sql.join(news, sql`, `)}, ${sql.join(olds, sql`, `)},
        (${sql.join(skipped, sql` || `)}) as skipped
      from import_rows r join contacts c on c.id = r.contact_id and c.company_id = ${companyId}
      where ${where} and r.action = 'update') p`;
}

export interface UndoFigures {
  removed: number;
  kept: number;
  restored: number;
  fields_restored: number;
  fields_skipped: number;
  tags_removed: number;
}

export const noFigures = (): UndoFigures => ({
  removed: 0,
  kept: 0,
  restored: 0,
  fields_restored: 0,
  fields_skipped: 0,
  tags_removed: 0,
});

const keys = (e: string) => sql.raw(`(select count(*) from jsonb_object_keys(${e}))`);

/** What undoing the rows of `where` would do, counted (the preview; nothing is written). */
export async function countUndo(db: Db, companyId: number, attemptId: number, where: SQL): Promise<UndoFigures> {
  const [created] = rowsOf<{ removed: number; kept: number }>(
    await db.execute(sql`select count(*) filter (where not ${workedOnSince(attemptId)})::int as removed,
        count(*) filter (where ${workedOnSince(attemptId)})::int as kept
      from import_rows r join contacts c on c.id = r.contact_id and c.company_id = ${companyId}
      where ${where} and r.action = 'create' and c.deleted_at is null`),
  );
  const [updated] = rowsOf<{ restored: number; fields_restored: number; fields_skipped: number }>(
    await db.execute(sql`select count(*) filter (where p.restored <> '{}'::jsonb)::int as restored,
        coalesce(sum(${keys('p.restored')}), 0)::int as fields_restored,
        coalesce(sum(${keys('p.skipped')}), 0)::int as fields_skipped
      from (${undoPlanSql(companyId, where)}) p`),
  );
  const [tags] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from import_rows r join contact_tags ct on ct.contact_id = r.contact_id
      where ${where} and r.action = 'update' and r.tags_added is not null
        and ct.tag_id in (select jsonb_array_elements_text(r.tags_added)::int)`),
  );
  return figures(created, updated, tags.n);
}

type Counted = Record<string, number | string>;
const figures = (created: Counted, updated: Counted, tags: number | string): UndoFigures => ({
  removed: Number(created.removed),
  kept: Number(created.kept),
  restored: Number(updated.restored),
  fields_restored: Number(updated.fields_restored),
  fields_skipped: Number(updated.fields_skipped),
  tags_removed: Number(tags),
});

/** Undoes the rows of one chunk (`where`, a condition on `r`); the caller commits it with the job's checkpoint. */
export async function undoChunk(
  tx: Db,
  ctx: { companyId: number; attemptId: number; actorId: number },
  where: SQL,
): Promise<UndoFigures> {
  const { companyId: c, attemptId: a, actorId } = ctx;
  const mark = JSON.stringify({ import_attempt_id: a, undo: true });
  const [created] = rowsOf<{ removed: number; kept: number }>(
    await tx.execute(sql`with cand as (select r.row_no, c.id, c.deleted_at is not null as gone,
          ${workedOnSince(a)} as worked from import_rows r
          join contacts c on c.id = r.contact_id and c.company_id = ${c} where ${where} and r.action = 'create'),
        removed as (update contacts set deleted_at = now(), updated_at = now() from cand
          where contacts.id = cand.id and not cand.gone and not cand.worked returning contacts.id),
        ev as (insert into contact_events (company_id, contact_id, kind, data, actor_id)
          select ${c}, id, 'deleted', ${mark}::jsonb, ${actorId} from removed),
        noted as (update import_rows r set undo = case
            when cand.gone then '{"outcome": "unchanged", "reason": "Already deleted"}'::jsonb
            when cand.worked then '{"outcome": "kept", "reason": "Worked on since the import"}'::jsonb
            else '{"outcome": "removed"}'::jsonb end
          from cand where r.attempt_id = ${a} and r.row_no = cand.row_no)
      select (select count(*)::int from removed) as removed,
        (select count(*)::int from cand where cand.worked and not cand.gone) as kept`),
  );
  await tx.execute(sql`select 1 from contacts where id in (select r.contact_id from import_rows r
      where ${where} and r.action = 'update') order by id for update`);
  const tagNames = sql`(select coalesce(jsonb_agg(t.name order by t.name), '[]'::jsonb) from tags t
      where t.id in (select jsonb_array_elements_text(p.tags_added)::int))`;
  const [updated] = rowsOf<{ restored: number; fields_restored: number; fields_skipped: number; tags: number }>(
    await tx.execute(sql`with p as (${undoPlanSql(c, where)}),
      upd as (update contacts c set ${sql.join(
        UNDOABLE.map((f) => sql.raw(`${f.name} = p.new_${f.name}`)),
        sql`, `,
      )}, email_status = case when p.restored ? 'email' then 'unknown' else c.email_status end, updated_at = now()
        from p where c.id = p.contact_id and p.restored <> '{}'::jsonb returning c.id),
      untagged as (delete from contact_tags ct using p where ct.contact_id = p.contact_id and p.tags_added is not null
        and ct.tag_id in (select jsonb_array_elements_text(p.tags_added)::int) returning ct.contact_id),
      ev as (${changeEventsSql({
        companyId: c,
        actorId,
        kind: 'import_undone',
        withData: true,
        keepEmpty: sql`true`,
        source: sql`select p.contact_id, p.restored as changes, jsonb_build_object('import_attempt_id', ${a}::bigint,
            'skipped', p.skipped, 'tags_removed', case when p.tags_added is not null then ${tagNames} else '[]'::jsonb end)
            as data from p`,
      })}),
      noted as (update import_rows r set undo = jsonb_build_object('outcome',
          case when p.restored = '{}'::jsonb and p.tags_added is null then 'unchanged' else 'restored' end,
          'skipped', p.skipped)
        from p where r.attempt_id = ${a} and r.row_no = p.row_no)
      select (select count(*)::int from p where p.restored <> '{}'::jsonb) as restored,
        (select coalesce(sum(${keys('p.restored')}), 0)::int from p) as fields_restored,
        (select coalesce(sum(${keys('p.skipped')}), 0)::int from p) as fields_skipped,
        (select count(*)::int from untagged) as tags`),
  );
  return figures(created, updated, updated.tags);
}

export function addFigures(a: UndoFigures, b: UndoFigures): UndoFigures {
  const out = noFigures();
  for (const k of Object.keys(out) as Array<keyof UndoFigures>) out[k] = (a[k] ?? 0) + (b[k] ?? 0);
  return out;
}

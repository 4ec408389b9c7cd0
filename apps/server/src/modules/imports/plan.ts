/**
 * What an import does to each contact it matched, field by field, as one SELECT: the new value of every field, the
 * `{field: {from, to}}` of those that change, and the file's values it does not apply (and why). The preview lists
 * it; the write applies it, in the same terms, so the preview and the import can never disagree.
 * Rules (docs/decisions/import-matching-rules.md): `fill` fills blank fields only, `update` takes the file's values;
 * identity fields (names, date of birth, Medicare number) are only ever written when the match proves it is the same
 * person.
 */
import { IDENTITY_FIELDS, type OnMatch } from '@harbor/shared';
import { type SQL, sql } from 'drizzle-orm';
import { changesJsonSql } from '../contacts/events.js';
import { mbi } from './match.js';

interface Field {
  name: string;
  date?: boolean;
}

/** The contact columns an import writes, each staged under the same name. */
export const FIELDS: Field[] = [
  { name: 'first_name' },
  { name: 'last_name' },
  { name: 'email' },
  { name: 'phone' },
  { name: 'secondary_phone' },
  { name: 'date_of_birth', date: true },
  { name: 'gender' },
  { name: 'language' },
  { name: 'address' },
  { name: 'address2' },
  { name: 'city' },
  { name: 'state' },
  { name: 'zip' },
  { name: 'county' },
  { name: 'medicare_number' },
  { name: 'part_a_effective', date: true },
  { name: 'part_b_effective', date: true },
];

const IDENTITY = new Set<string>(IDENTITY_FIELDS);

/** The staged value of a field, typed as the contact column (Medicare numbers as the contact form stores them). */
export function staged(f: Field, alias = 'r'): SQL {
  const col = sql.raw(`${alias}.${f.name}`);
  if (f.date) return sql`${col}::date`;
  if (f.name === 'medicare_number') return mbi(col);
  return col;
}

const current = (f: Field) => sql.raw(`c.${f.name}`);

/** Whether the file's value differs from the contact's (emails without case: the file's are lower-cased). */
function differs(f: Field): SQL {
  const r = staged(f);
  return f.name === 'email'
    ? sql`lower(${current(f)}) is distinct from ${r}`
    : sql`${current(f)} is distinct from ${r}`;
}

function newValue(f: Field, mode: OnMatch): SQL {
  const r = staged(f);
  const c = current(f);
  const allowed = IDENTITY.has(f.name) ? sql`r.same_person` : sql`true`;
  const blank = f.date ? sql`${c} is null` : sql`nullif(${c}, '') is null`;
  const take = mode === 'update' ? differs(f) : blank;
  return sql`case when ${allowed} and ${r} is not null and ${take} then ${r} else ${c} end`;
}

/** `{field: {value, file, reason}}` for file values that differ and are not applied. */
function keptJson(mode: OnMatch): SQL {
  const parts = FIELDS.map((f) => {
    const identity = IDENTITY.has(f.name);
    const r = staged(f);
    // Not applied: an identity field on a match that does not prove the person, or (fill) a field already filled.
    const notApplied = identity
      ? sql`(not r.same_person or ${mode === 'fill' ? sql`nullif(${current(f)}::text, '') is not null` : sql`false`})`
      : mode === 'fill'
        ? sql`nullif(${current(f)}::text, '') is not null`
        : sql`false`;
    const reason = identity ? sql`case when not r.same_person then 'identity' else 'not_blank' end` : sql`'not_blank'`;
    return sql`case when ${r} is not null and ${differs(f)} and ${notApplied}
      then jsonb_build_object(${sql.raw(`'${f.name}'`)}, jsonb_build_object('value', to_jsonb(${current(f)}),
        'file', to_jsonb(${r}), 'reason', ${reason}))
      else '{}'::jsonb end`;
  });
  return sql`(${sql.join(parts, sql` || `)})`;
}

/**
 * One row per matched row (`r.action = 'update'`) of `where` (a condition on `r`): `row_no`, `contact_id`,
 * `new_<field>` for every field plus `new_extra` and `new_type`, `changes` and `kept`. `clientList`: a client list
 * turns a matched lead into a client (only when the match proves the person, or in update mode).
 */
export function planSql(companyId: number, where: SQL, mode: OnMatch, clientList: boolean): SQL {
  const news = FIELDS.map((f) => sql`${newValue(f, mode)} as ${sql.raw(`new_${f.name}`)}`);
  const extra =
    mode === 'update' ? sql`c.extra || coalesce(r.extra, '{}'::jsonb)` : sql`coalesce(r.extra, '{}'::jsonb) || c.extra`;
  const type = clientList
    ? sql`case when c.type = 'lead' and (${mode === 'update'} or r.same_person) then 'client' else c.type end`
    : sql`c.type`;
  const inner = sql`select r.row_no, r.contact_id, ${sql.join(news, sql`, `)}, ${extra} as new_extra,
      ${type} as new_type, ${keptJson(mode)} as kept,
      ${sql.join(
        FIELDS.map((f) => sql`${current(f)} as ${sql.raw(`old_${f.name}`)}`),
        sql`, `,
      )}, c.extra as old_extra, c.type as old_type
    from import_rows r join contacts c on c.id = r.contact_id and c.company_id = ${companyId}
    where ${where} and r.action = 'update'`;
  const diff = changesJsonSql([
    ...FIELDS.map((f) => ({
      field: f.name,
      before: sql.raw(`p.old_${f.name}`),
      after: sql.raw(`p.new_${f.name}`),
    })),
    { field: 'extra', before: sql`p.old_extra`, after: sql`p.new_extra` },
    { field: 'type', before: sql`p.old_type`, after: sql`p.new_type` },
  ]);
  return sql`select p.*, ${diff} as changes from (${inner}) p`;
}

/** SET list applying a plan row `p` to contact `c`. */
export function applyPlanSql(): SQL {
  return sql.join(
    [
      ...FIELDS.map((f) => sql.raw(`${f.name} = p.new_${f.name}`)),
      sql`extra = p.new_extra`,
      sql`type = p.new_type`,
      sql`email_status = case when p.changes ? 'email' then 'unknown' else c.email_status end`,
      sql`updated_at = now()`,
    ],
    sql`, `,
  );
}

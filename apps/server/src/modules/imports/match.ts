/**
 * Classification of staged rows (docs/decisions/import-matching-rules.md): duplicates inside the file, then the
 * contact each row matches in the book (by the chosen keys), whether that match proves it is the same person, and
 * whether the importer may touch it. Set-based: a handful of statements whatever the file's size.
 */
import type { ScrubKey } from '@harbor/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import type { ImportOptions } from './options.js';

/** A Medicare number as stored by the contact form: no spaces or dashes, upper case. */
export const mbi = (e: SQL) => sql`upper(translate(${e}, ' -', ''))`;
/** Names compared without case, surrounding spaces or the common accents ("José" is "Jose"). */
const norm = (e: SQL) => sql`translate(lower(trim(${e})), 'áàâäãåéèêëíìîïóòôöõúùûüñç', 'aaaaaaeeeeiiiiooooouuuunc')`;

interface Key {
  /** The row's key (alias-free: used on import_rows inside a window over the file). */
  row: SQL;
  /** Join condition between staged row `r` and `contacts`. */
  join: SQL;
  /** The row has this key at all. */
  present: SQL;
  label: string;
  /** Tie-break between candidates found by different keys: the most specific key first. */
  rank: number;
}

export const KEYS: Record<ScrubKey, Key> = {
  medicare_number: {
    row: mbi(sql`medicare_number`),
    join: sql`${mbi(sql`contacts.medicare_number`)} = ${mbi(sql`r.medicare_number`)}`,
    present: sql`r.medicare_number is not null`,
    label: 'Medicare number',
    rank: 1,
  },
  email: {
    row: sql`email`,
    join: sql`lower(contacts.email) = r.email`,
    present: sql`r.email is not null`,
    label: 'email',
    rank: 2,
  },
  phone: {
    row: sql`phone`,
    join: sql`contacts.phone = r.phone`,
    present: sql`r.phone is not null`,
    label: 'phone',
    rank: 3,
  },
  name_address: {
    row: sql`case when first_name is not null and last_name is not null and address is not null
      then lower(first_name) || '|' || lower(last_name) || '|' || lower(address) end`,
    join: sql`lower(contacts.first_name) = lower(r.first_name) and lower(contacts.last_name) = lower(r.last_name)
      and lower(contacts.address) = lower(r.address)`,
    present: sql`r.first_name is not null and r.last_name is not null and r.address is not null`,
    label: 'name and address',
    rank: 4,
  },
};

/**
 * Whether staged row `r` and `contacts` are provably the same person: the same Medicare number, or the same first
 * and last name together with the same email or the same date of birth; and no date of birth or Medicare number
 * that disagrees. A phone, an email or an address alone proves nothing (households share them, numbers are recycled).
 */
export const samePersonSql = sql`coalesce((
  not (r.date_of_birth is not null and contacts.date_of_birth is not null
       and r.date_of_birth::date <> contacts.date_of_birth)
  and not (r.medicare_number is not null and contacts.medicare_number is not null
       and ${mbi(sql`r.medicare_number`)} <> ${mbi(sql`contacts.medicare_number`)})
  and (
    (r.medicare_number is not null and ${mbi(sql`r.medicare_number`)} = ${mbi(sql`contacts.medicare_number`)})
    or (r.first_name is not null and r.last_name is not null
        and ${norm(sql`r.first_name`)} = ${norm(sql`contacts.first_name`)}
        and ${norm(sql`r.last_name`)} = ${norm(sql`contacts.last_name`)}
        and ((r.email is not null and r.email = lower(contacts.email))
          or (r.date_of_birth is not null and r.date_of_birth::date = contacts.date_of_birth))))), false)`;

export const OUTSIDE_BOOK = 'Matches a contact outside your book';

/**
 * Marks each unclassified row duplicate, update, skip or create. `visible` is the importer's contacts condition
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
  const by = opts.scrub?.by ?? ['phone', 'email'];
  for (const k of by) {
    const key = KEYS[k];
    await db.execute(sql`update import_rows r set action = 'duplicate',
        reasons = ${`Same ${key.label} as row `}::text || d.first_row
      from (select row_no, first_value(row_no) over (partition by ${key.row} order by row_no) as first_row
            from import_rows where attempt_id = ${attemptId} and action is null and ${key.row} is not null) d
      where r.attempt_id = ${attemptId} and r.row_no = d.row_no and d.first_row <> d.row_no`);
  }
  if (opts.scrub) await matchBook(db, companyId, attemptId, opts.scrub, visible);
  // Contact ids are given out here, so each chunk's insert is a plain INSERT ... SELECT (and the created
  // contacts are known by id for "delete the attempt and its contacts"). A preview gives none out.
  await db.execute(sql`update import_rows set action = 'create',
      contact_id = ${assignIds ? sql`nextval(pg_get_serial_sequence('contacts', 'id'))` : sql`null`}
    where attempt_id = ${attemptId} and action is null`);
}

/**
 * One statement: every candidate contact of every row by every key, the best per row (a proven same person first,
 * then one the importer may touch, then the most specific key), and a contact matched by two rows goes to the first.
 */
async function matchBook(
  db: Db,
  companyId: number,
  attemptId: number,
  scrub: NonNullable<ImportOptions['scrub']>,
  visible: SQL | null,
) {
  const mayTouch = visible ?? sql`true`;
  const candidates = sql.join(
    scrub.by.map((k) => {
      const key = KEYS[k];
      return sql`select r.row_no, contacts.id as contact_id, ${k}::text as key, ${key.rank}::int as rank,
          ${samePersonSql} as same_person, coalesce((${mayTouch}), false) as visible
        from import_rows r join contacts
          on contacts.company_id = ${companyId} and contacts.deleted_at is null and ${key.join}
        where r.attempt_id = ${attemptId} and r.action is null and ${key.present}`;
    }),
    sql` union all `,
  );
  const matched = scrub.on_match === 'skip' ? 'skip' : 'update';
  const label = (k: string) => sql.raw(`'${KEYS[k as ScrubKey].label}'`);
  const sameKeyReason = sql`case m.key ${sql.join(
    scrub.by.map((k) => sql`when ${k} then ${label(k)}`),
    sql` `,
  )} end`;
  await db.execute(sql`update import_rows r set contact_id = m.contact_id, matched_by = m.key,
      same_person = m.same_person,
      action = case when not m.visible or m.first_row <> m.row_no then 'skip' else ${matched} end,
      reasons = case
        when not m.visible then ${OUTSIDE_BOOK}
        when m.first_row <> m.row_no then 'Row ' || m.first_row || ' already matches this contact'
        when ${matched} = 'skip' then 'Already in the book (same ' || ${sameKeyReason} || ')'
      end
    from (select b.*, first_value(b.row_no) over (partition by b.contact_id order by b.row_no) as first_row
          from (select distinct on (row_no) * from (${candidates}) c
                order by row_no, same_person desc, visible desc, rank, contact_id) b) m
    where r.attempt_id = ${attemptId} and r.row_no = m.row_no`);
}

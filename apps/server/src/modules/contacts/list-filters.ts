/**
 * The parts of a contacts scope that come from what a person types or picks: the `search` array of field filters and
 * the `q` box (names accent-insensitive, phones in any format). Input only ever names a field through an own-key
 * check of a frozen allow-list, so `constructor`, `__proto__` or `toString` are unknown fields (422), never SQL.
 */
import {
  addDays,
  addMonths,
  birthDatesTurning,
  CONTACT_FILTER_FIELDS,
  type ContactFilterField,
  type ContactsScope,
  type IsoDate,
  MEDICARE_AGE,
  medigapOeWindow,
} from '@harbor/shared';
import { type SQL, sql } from 'drizzle-orm';
import { invalid } from '../../platform/http/errors.js';

/** True only for the allow-list's own keys: `in` and `list[key]` would also see Object.prototype's members. */
export function isAllowed<T extends object>(list: T, key: string): key is Extract<keyof T, string> {
  return Object.hasOwn(list, key);
}

export function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (m) => `\\${m}`);
}

const isEmpty = (v: unknown) =>
  v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && !v.length);

/** The column each date filter compares (a frozen, prototype-free map). */
const DATE_COLUMNS: Readonly<Record<string, string>> = Object.freeze(
  Object.assign(Object.create(null), {
    created_from: 'created_at',
    created_to: 'created_at',
    updated_from: 'updated_at',
    updated_to: 'updated_at',
    birth_from: 'date_of_birth',
    birth_to: 'date_of_birth',
  }),
);

/**
 * The `search` array: empty entries are dropped (spec §5); an unknown field is a 422 that names it. `today` is the
 * caller's day (their time zone) for the Medicare date filters.
 */
export function filterConditions(scope: ContactsScope, today: IsoDate = new Date().toISOString().slice(0, 10)): SQL[] {
  const out: SQL[] = [];
  for (const [i, entry] of scope.search.entries()) {
    if (!isAllowed(CONTACT_FILTER_FIELDS, entry.field)) {
      throw invalid('search', `unknown filter field '${entry.field}'`);
    }
    if (isEmpty(entry.value)) continue;
    out.push(filterSql(entry.field, entry.value, i, today));
  }
  return out;
}

// Only reached with an own key of CONTACT_FILTER_FIELDS (plain column names), never with raw input.
const col = (field: string) => sql.raw(`contacts.${field}`);

function filterSql(field: ContactFilterField, value: unknown, i: number, today: IsoDate): SQL {
  const list = (Array.isArray(value) ? value : [value]).map(String);
  const ints = () => {
    const n = list.map(Number);
    if (n.some((x) => !Number.isInteger(x) || x <= 0 || x > 2_147_483_647)) {
      throw invalid('search', `'${field}' takes ids (entry ${i})`);
    }
    return n;
  };
  const kind = CONTACT_FILTER_FIELDS[field];
  switch (kind) {
    case 'contains':
      return sql`${col(field)} ilike ${`%${likeEscape(list[0])}%`}`;
    case 'phone': {
      const digits = list[0].replace(/\D/g, '');
      if (!digits) throw invalid('search', `'phone' takes digits (entry ${i})`);
      return searchWordsSql([phonePattern(digits)]);
    }
    case 'equals': {
      const values = field === 'state' ? list.map((v) => v.toUpperCase()) : list;
      return sql`${col(field)} = any(${sql.param(values)}::text[])`;
    }
    case 'id':
      return sql`${col(field)} = any(${sql.param(ints())}::int[])`;
    case 'tags':
      return sql`exists (select 1 from contact_tags ct where ct.contact_id = contacts.id and ct.tag_id = any(${sql.param(ints())}::int[]))`;
    case 'boolean':
      return sql`contacts.is_new = ${list[0] === 'true'}`;
    case 'date_from':
    case 'date_to': {
      const d = list[0];
      if (!/^\d{4}-\d{2}-\d{2}$/.test(d) || Number.isNaN(Date.parse(d))) {
        throw invalid('search', `'${field}' takes a date YYYY-MM-DD (entry ${i})`);
      }
      const column = sql.raw(`contacts.${DATE_COLUMNS[field]}`);
      // Both ends are whole days: "to 2024-03-31" includes the 31st.
      return kind === 'date_from' ? sql`${column} >= ${d}::date` : sql`${column} < ${d}::date + 1`;
    }
    case 'month': {
      const m = Number(list[0]);
      if (!Number.isInteger(m) || m < 1 || m > 12) throw invalid('search', `'birth_month' takes 1-12 (entry ${i})`);
      return sql`extract(month from contacts.date_of_birth) = ${m}`;
    }
    case 'turning_65':
    case 'medigap_oe':
      return medicareFilterSql(kind, list[0], i, today);
  }
}

/**
 * The Medicare date engine's filters as plain range conditions on date_of_birth and part_b_effective (each with its
 * own index): the engine turns "turning 65 within N days" and "in Medigap open enrollment today" into date bounds
 * (packages/shared/src/medicare/dates.ts, docs/decisions/medicare-dates.md).
 */
function medicareFilterSql(kind: 'turning_65' | 'medigap_oe', value: string, i: number, today: IsoDate): SQL {
  if (kind === 'turning_65') {
    const days = Number(value);
    if (!Number.isInteger(days) || days < 1 || days > 366) {
      throw invalid('search', `'turning_65_within' takes a number of days 1-366 (entry ${i})`);
    }
    const r = birthDatesTurning(MEDICARE_AGE, today, addDays(today, days));
    return sql`contacts.date_of_birth between ${r.start}::date and ${r.end}::date`;
  }
  if (value !== 'true') throw invalid('search', `'medigap_oe' takes true (entry ${i})`);
  const w = medigapOeWindow(today);
  const next = addMonths(w.latestStart, 1);
  return sql`(contacts.part_b_effective < ${next}::date and contacts.date_of_birth <= ${w.bornOnOrBefore}::date
    and (contacts.part_b_effective >= ${w.earliestStart}::date or contacts.date_of_birth >= ${w.bornOnOrAfter}::date))`;
}

/** A LIKE pattern over contact_search.search, and whether it names enough characters for the trigram index. */
export interface SearchWord {
  pattern: SQL;
  indexed: boolean;
}

/**
 * Phone digits as typed in any format. Stored numbers carry the leading 1 (11 digits), so "+1 305 892 0000" is
 * looked for as its last ten; seven digits ("892-0000") match the end of a number, anything else a run of digits.
 */
export function phonePattern(digits: string): SearchWord {
  const d = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
  const text = d.length === 7 ? `%${d} %` : `%${d}%`;
  return { pattern: sql`${text}`, indexed: d.length >= 3 };
}

/** Looks like a phone number: digits with the usual punctuation, at least three digits. */
export const isPhoneLike = (q: string) => /^[+()\d\s.-]+$/.test(q) && q.replace(/\D/g, '').length >= 3;

/**
 * The `q` box as words that must all appear: "munoz jose" finds José Muñoz as "jose munoz" does; each word is folded
 * in the database with the same function that folded the stored text. Null when there is nothing to look for.
 */
export function qWords(q: string | null | undefined): SearchWord[] | null {
  const text = q?.trim();
  if (!text) return null;
  if (isPhoneLike(text)) return [phonePattern(text.replace(/\D/g, ''))];
  const words = [...new Set(text.toLowerCase().split(/\s+/))].slice(0, 8);
  return words.map((w) => ({
    pattern: sql`'%' || harbor_fold(${likeEscape(w)}) || '%'`,
    indexed: w.length >= 3,
  }));
}

const likeAll = (words: SearchWord[], alias: string) =>
  sql.join(
    words.map((w) => sql`${sql.raw(alias)}.search like ${w.pattern}`),
    sql` and `,
  );

/** The contacts whose search text holds every word: a set (the trigram index answers it), for counts and selections. */
export function searchWordsSql(words: SearchWord[]): SQL {
  return sql`contacts.id in (select cs.contact_id from contact_search cs where ${likeAll(words, 'cs')})`;
}

/**
 * The same test for one row at a time: a scalar subquery the planner cannot turn into a join, so an ordered walk
 * checks each row it passes by primary key instead of first collecting every match.
 */
export function searchRowSql(words: SearchWord[]): SQL {
  return sql`coalesce((select ${likeAll(words, 'cs')} from contact_search cs where cs.contact_id = contacts.id), false)`;
}

/** Up to `limit` ids of the company's contacts whose search text holds every word (through the trigram index). */
export function searchProbeSql(companyId: number, words: SearchWord[], limit: number): SQL {
  return sql`select cs.contact_id as id from contact_search cs where cs.company_id = ${companyId} and ${likeAll(words, 'cs')}
    limit ${limit}`;
}

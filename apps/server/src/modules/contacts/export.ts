/**
 * Exports of a selection as CSV or XLSX in the order of the list on screen, with labels rather than stored codes and
 * phones as text a spreadsheet keeps (a CSV starts with a byte-order mark so accents survive Excel), streamed so
 * memory stays flat at a million rows. On the PostgreSQL server
 * each is one `COPY (...) TO STDOUT` (CSV passed through as PostgreSQL writes it; XLSX from its text format); on PGlite
 * rows are read in keyset batches by id. XLSX goes through our own writer (platform/files/xlsx-writer.ts: about 10 s
 * for 999,999 rows where exceljs's streaming writer took 149 s). Cells that a spreadsheet would read as a formula
 * (starting with = + - @, tab or carriage return) are prefixed with a quote in SQL, so every path is safe.
 */
import { PassThrough, Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { OPTION_LABELS } from '@harbor/shared';
import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Database, Db } from '../../platform/db/client.js';
import { XlsxWriter } from '../../platform/files/xlsx-writer.js';
import {
  afterCursorSql,
  type Cursor,
  cursorFieldName,
  fullScope,
  orderBySql,
  type ResolvedScope,
  resolveScope,
  rowsOf,
} from './list-scope.js';
import type { ResolvedSelection } from './selection.js';

const BATCH = 5_000;
/** Smaller batches off the COPY stream keep fewer strings alive across awaits (measured: lower peak RSS, faster). */
const COPY_BATCH = 1_000;

/** Neutralises a text cell against formula injection (OWASP "CSV injection"). */
const safe = (expr: string) => `case when ${expr} ~ '^[-=+@\\t\\r]' then '''' || ${expr} else ${expr} end`;

/**
 * A phone as people write it, 1-xxx-xxx-xxxx (spec §5): a spreadsheet keeps that as text, where the stored eleven
 * digits became a number shown as 1.79E+10.
 */
function phoneText(col: string) {
  return `case when ${col} ~ '^1[0-9]{10}$' then substr(${col}, 1, 1) || '-' || substr(${col}, 2, 3) || '-' ||
    substr(${col}, 5, 3) || '-' || substr(${col}, 8) else ${col} end`;
}

const quoted = (v: string) => `'${v.replace(/'/g, "''")}'`;
/**
 * An option's label rather than its stored value (`final_expense` -> "Final expense"): the shared labels where the
 * field has them, else the code humanised as humanizeOption does; text a person typed stays as typed.
 */
function labelled(field: string, col: string) {
  const known = Object.entries(OPTION_LABELS[field] ?? {});
  const cases = known.map(([v, l]) => `when ${quoted(v)} then ${quoted(l)}`).join(' ');
  const humanised = `case when ${col} ~ '^[a-z0-9]+(_[a-z0-9]+)*$'
    then upper(left(${col}, 1)) || substr(replace(${col}, '_', ' '), 2) else ${col} end`;
  return cases ? `case ${col} ${cases} else ${humanised} end` : humanised;
}

/**
 * A channel's consent as the contact page says it (modules/consent): an opt-out first, then what the address's
 * suppression says (email: spam complaint, bounce), then the recorded consent, else Unknown.
 */
function consentText(channel: 'email' | 'sms' | 'voice') {
  const address = channel === 'email' ? 'lower(trim(contacts.email))' : 'contacts.phone';
  const status = `(select k.status from contact_consents k
    where k.contact_id = contacts.id and k.channel = '${channel}' and k.sender_id = 0)`;
  const suppressed = `(select s.reason from consent_suppressions s
    where s.company_id = contacts.company_id and s.channel = '${channel}' and s.address = ${address})`;
  return `case when ${status} = 'opted_out' or ${suppressed} = 'opted_out' then 'Opted out'
    else coalesce(case ${suppressed} when 'complained' then 'Marked as spam' when 'bounced' then 'Bounced' end,
      case ${status} when 'allowed' then 'Allowed' end, 'Unknown') end`;
}

/** Header, and the SQL expression of each column. */
export const EXPORT_COLUMNS: Array<[string, string]> = [
  ['Number', 'contacts.number::text'],
  ['First Name', safe('contacts.first_name')],
  ['Last Name', safe('contacts.last_name')],
  ['Email', safe('contacts.email')],
  ['Phone', phoneText('contacts.phone')],
  ['Address', safe('contacts.address')],
  ['City', safe('contacts.city')],
  ['State', safe('contacts.state')],
  ['Zip', safe('contacts.zip')],
  ['Date of Birth', 'contacts.date_of_birth::text'],
  ['Type', labelled('type', 'contacts.type')],
  ['Category', safe(labelled('category', 'contacts.category'))],
  ['Status', safe('st.name')],
  ['Source', safe('so.name')],
  ['Owner', safe("nullif(trim(o.first_name || ' ' || o.last_name), '')")],
  [
    'Tags',
    safe(
      `(select string_agg(t.name, ', ' order by t.name) from contact_tags ct join tags t on t.id = ct.tag_id where ct.contact_id = contacts.id)`,
    ),
  ],
  ['Created At', "to_char(contacts.created_at at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS')"],
  ['Email Consent', consentText('email')],
  ['Text Consent', consentText('sms')],
  ['Call Consent', consentText('voice')],
  [
    'Permission to Contact Until',
    `(select to_char(max(p.expires_at) at time zone 'UTC', 'YYYY-MM-DD') from permissions_to_contact p
      where p.contact_id = contacts.id and p.revoked_at is null and p.expires_at > now())`,
  ],
];

const columnsSql = () => sql.raw(EXPORT_COLUMNS.map(([, e], i) => `${e} as c${i}`).join(', '));
const joins = sql`left join users o on o.id = contacts.owner_id
  left join statuses st on st.id = contacts.status_id left join sources so on so.id = contacts.source_id`;

/**
 * The order of the list on screen: the scope's own for "all matching", else the order and order_field sent with
 * the chosen ids (the list's defaults, last_name ASC, when none).
 */
export async function exportOrder(
  db: Db,
  auth: AuthContext,
  body: { all?: boolean; contacts_scope?: unknown; order?: string; order_field?: string },
): Promise<ResolvedScope> {
  const given = body.all ? ((body.contacts_scope ?? {}) as Record<string, unknown>) : {};
  const picked = Object.fromEntries(
    Object.entries({ order: body.order, order_field: body.order_field }).filter(([, v]) => v !== undefined),
  );
  return resolveScope(db, auth, fullScope({ ...given, ...picked, cursor: null }));
}

const keysSql = (order: ResolvedScope) =>
  sql.join(
    order.keys.map((k, i) => sql`${k.expr}::text as ${sql.raw(`_k${i}`)}`),
    sql`, `,
  );

function exportQuery(sel: ResolvedSelection, order: ResolvedScope, after?: Cursor, limit?: number): SQL {
  const from = after === undefined ? sql`` : sql` and ${afterCursorSql(order, after)}`;
  const lim = limit === undefined ? sql`` : sql` limit ${limit}`;
  return sql`select contacts.id as _id, ${keysSql(order)}, ${columnsSql()} from contacts ${joins}
    where ${sel.condition}${from} order by ${orderBySql(order)}${lim}`;
}

/** A literal for COPY, which takes no parameters. Strings are quoted standard-style (the connection sets it on). */
export function literal(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new Error('non-finite number in export query');
    return String(v);
  }
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Array.isArray(v)) return `ARRAY[${v.map(literal).join(',')}]`;
  const s = v instanceof Date ? v.toISOString() : String(v);
  if (s.includes('\0')) throw new Error('NUL in export query literal');
  return `'${s.replace(/'/g, "''")}'`;
}

/** Replaces $n placeholders with literals in one pass (so $1 never eats the start of $10). */
export function inline(query: SQL): string {
  const { sql: text, params } = new PgDialect().sqlToQuery(query);
  return text.replace(/\$(\d+)/g, (_, n: string) => literal(params[Number(n) - 1]));
}

function csvCell(v: unknown): string {
  if (v === null || v === undefined) return '';
  const s = String(v);
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Keyset batches in the list's order (PGlite and XLSX without COPY): each batch starts after the last row's keys. */
async function* batches(
  db: Db,
  sel: ResolvedSelection,
  order: ResolvedScope,
): AsyncGenerator<Array<Array<string | null>>> {
  let after: Cursor | undefined;
  for (;;) {
    const rows = await rowsOf<Record<string, string | null>>(db, exportQuery(sel, order, after, BATCH));
    if (!rows.length) return;
    const last = rows[rows.length - 1];
    after = {
      f: cursorFieldName(order),
      o: order.dir,
      k: order.keys.map((_, i) => String(last[`_k${i}`] ?? '')),
      id: Number(last._id),
    };
    yield rows.map((r) => EXPORT_COLUMNS.map((_, i) => r[`c${i}`]));
    if (rows.length < BATCH) return;
  }
}

const selectAll = (sel: ResolvedSelection, order: ResolvedScope) =>
  sql`select ${columnsSql()} from contacts ${joins} where ${sel.condition} order by ${orderBySql(order)}`;

/** A byte-order mark first, so a spreadsheet reads the file as UTF-8 ("José", not "JosÃ©"). */
const BOM = '\uFEFF';

export async function exportCsv(database: Database, sel: ResolvedSelection, order: ResolvedScope): Promise<Readable> {
  if (database.copyOut) {
    const select = selectAll(sel, order);
    const header = EXPORT_COLUMNS.map(([h]) => h);
    // COPY's own HEADER would print c0..cN; name the columns with the headers instead.
    const renamed = `select ${header.map((h, i) => `s.c${i} as "${h}"`).join(', ')} from (${inline(select)}) s`;
    const copy = await database.copyOut(`COPY (${renamed}) TO STDOUT WITH (FORMAT csv, HEADER true)`);
    const out = new PassThrough();
    out.write(BOM);
    copy.on('error', (err) => out.destroy(err));
    out.on('close', () => copy.destroy());
    return copy.pipe(out);
  }
  const db = database.db;
  return Readable.from(
    (async function* () {
      yield `${BOM}${EXPORT_COLUMNS.map(([h]) => csvCell(h)).join(',')}\r\n`;
      for await (const rows of batches(db, sel, order)) {
        yield rows.map((r) => `${r.map(csvCell).join(',')}\r\n`).join('');
      }
    })(),
  );
}

/** Reads the next batch while the current one is written, so the database and the writer work at the same time. */
async function* prefetched<T>(source: AsyncGenerator<T>): AsyncGenerator<T> {
  let next = source.next();
  try {
    for (;;) {
      const r = await next;
      if (r.done) return;
      next = source.next();
      yield r.value;
    }
  } finally {
    next.catch(() => undefined); // the read ahead of a failed or abandoned export
  }
}

const COPY_ESCAPES: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

/** One field of COPY's text format: \N is NULL; COPY TO emits only these backslash escapes (never octal or hex). */
function copyField(f: string): string | null {
  if (f === '\\N') return null;
  return f.includes('\\') ? f.replace(/\\(.)/g, (_, c: string) => COPY_ESCAPES[c] ?? c) : f;
}

/**
 * The rows of one `COPY (...) TO STDOUT` in text format, in batches: one statement for the whole selection (keyset
 * batches would re-run the selection's query per batch), pulled only as fast as the writer takes them.
 */
async function* copyBatches(stream: Readable): AsyncGenerator<Array<Array<string | null>>> {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  let batch: Array<Array<string | null>> = [];
  for await (const chunk of stream) {
    const text = rest + decoder.write(chunk as Buffer);
    // Real newlines only end rows; a newline inside a value arrives as the two characters \n.
    const lines = text.split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) batch.push(line.split('\t').map(copyField));
    if (batch.length >= COPY_BATCH) {
      yield batch;
      batch = [];
    }
  }
  if (rest) batch.push(rest.split('\t').map(copyField));
  if (batch.length) yield batch;
}

export async function exportXlsx(database: Database, sel: ResolvedSelection, order: ResolvedScope): Promise<Readable> {
  const copy = database.copyOut
    ? await database.copyOut(`COPY (${inline(selectAll(sel, order))}) TO STDOUT`)
    : undefined;
  const source = copy ? copyBatches(copy) : prefetched(batches(database.db, sel, order));
  const out = new PassThrough();
  const xlsx = new XlsxWriter(out, { sheetName: 'Contacts' });
  void (async () => {
    try {
      await xlsx.header(EXPORT_COLUMNS.map(([h]) => h));
      // The contact number is a number cell; every other column stays text as the database formats it.
      for await (const rows of source) {
        await xlsx.rows(rows.map((r) => [r[0] === null ? null : Number(r[0]), ...r.slice(1)]));
      }
      await xlsx.finish();
    } catch (err) {
      copy?.destroy(); // gives the connection back even if no row was read yet
      out.destroy(err as Error);
    }
  })();
  return out;
}

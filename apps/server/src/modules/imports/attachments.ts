/**
 * ZIP attachments: each file goes to the contact it names, by file name (contact number, email or phone) for
 * import_attachments, or by a list column for attachments_leads_uploader. Matching is one query per ZIP; files are
 * streamed from the ZIP to storage one at a time.
 */
import { normalizePhone } from '@harbor/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Db } from '../../platform/db/client.js';
import type { Deps } from '../../platform/deps.js';
import { visibleContactsSql } from '../contacts/visibility.js';
import { pgArray } from './options.js';
import type { importAttempts } from './schema.js';
import { contentTypeOf, storeFile } from './storage.js';
import { baseName, eachEntry, zipEntries } from './zipfiles.js';

export interface AttachReport {
  matched: Array<{ file: string; contact_id: number }>;
  unmatched: string[];
}

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;
const stem = (name: string) =>
  baseName(name)
    .replace(/\.[^.]+$/, '')
    .trim()
    .toLowerCase();

/** import_attachments: "100123.pdf", "ada@example.com.pdf" or "15552010001.txt" name their contact. */
export async function attachByFileName(deps: Deps, auth: AuthContext, zipPath: string): Promise<AttachReport> {
  const db = deps.database.db;
  const names = await zipEntries(zipPath);
  if (names.length === 0) return { matched: [], unmatched: [] };
  const keys = names.map(stem);
  const phones = keys.map((k) => (/^[\d\s().+-]+$/.test(k) ? (normalizePhone(k) ?? '') : ''));
  const numbers = keys.map((k) => (/^\d{6,9}$/.test(k) ? k : ''));
  const visible = visibleContactsSql(auth);
  const pick = (cond: SQL) =>
    sql`(select contacts.id from contacts where ${visible} and contacts.deleted_at is null and ${cond}
         order by contacts.id limit 1)`;
  const found = rowsOf<{ name: string; contact_id: number | null }>(
    await db.execute(sql`select f.name, coalesce(
        ${pick(sql`f.num <> '' and contacts.number = f.num::bigint`)},
        ${pick(sql`position('@' in f.key) > 0 and lower(contacts.email) = f.key`)},
        ${pick(sql`f.phone <> '' and contacts.phone = f.phone`)}) as contact_id
      from unnest(${pgArray(names)}::text[], ${pgArray(keys)}::text[], ${pgArray(phones)}::text[],
        ${pgArray(numbers)}::text[]) as f(name, key, phone, num)`),
  );
  return store(deps, db, auth.company.id, auth.user.id, zipPath, found);
}

/** attachments_leads_uploader: after the list is written, files named in its attachment column join their rows. */
export async function attachFromList(deps: Deps, attempt: typeof importAttempts.$inferSelect): Promise<AttachReport> {
  const db = deps.database.db;
  const zipPath = String(attempt.options.zipPath ?? '');
  const listName = String(attempt.options.listEntry ?? '');
  const names = (await zipEntries(zipPath)).filter((n) => n !== listName);
  if (names.length === 0) return { matched: [], unmatched: [] };
  const found = rowsOf<{ name: string; contact_id: number | null }>(
    await db.execute(sql`select f.name, (select r.contact_id from import_rows r
          where r.attempt_id = ${attempt.id} and r.contact_id is not null and r.attachment is not null
            and lower(r.attachment) = f.base order by r.row_no limit 1) as contact_id
      from unnest(${pgArray(names)}::text[], ${pgArray(names.map((n) => baseName(n).toLowerCase()))}::text[])
        as f(name, base)`),
  );
  return store(deps, db, attempt.companyId, attempt.userId, zipPath, found);
}

async function store(
  deps: Deps,
  db: Db,
  companyId: number,
  userId: number,
  zipPath: string,
  found: Array<{ name: string; contact_id: number | null }>,
): Promise<AttachReport> {
  const target = new Map(found.filter((f) => f.contact_id !== null).map((f) => [f.name, Number(f.contact_id)]));
  const saved: Array<{ file: string; contact: number; name: string; type: string; size: number; key: string }> = [];
  await eachEntry(
    zipPath,
    (name) => target.has(name),
    async (name, stream) => {
      const { key, size } = await storeFile(deps.config.dataDir, companyId, baseName(name), stream);
      saved.push({
        file: name,
        contact: target.get(name)!,
        name: baseName(name),
        type: contentTypeOf(name),
        size,
        key,
      });
    },
  );
  if (saved.length > 0) {
    await db.execute(sql`insert into contact_files (company_id, contact_id, name, content_type, size, storage_key,
        uploaded_by)
      select ${companyId}, c, n, t, s, k, ${userId}
      from unnest(${pgArray(saved.map((s) => s.contact))}::bigint[], ${pgArray(saved.map((s) => s.name))}::text[],
        ${pgArray(saved.map((s) => s.type))}::text[], ${pgArray(saved.map((s) => s.size))}::int[],
        ${pgArray(saved.map((s) => s.key))}::text[]) as f(c, n, t, s, k)`);
  }
  const stored = new Set(saved.map((s) => s.file));
  return {
    matched: saved.map((s) => ({ file: s.file, contact_id: s.contact })),
    // Files named for no contact, and those too large to store.
    unmatched: found.filter((f) => !stored.has(f.name)).map((f) => f.name),
  };
}

/**
 * ZIP attachments: each file goes to the contact it names, by file name (contact number, email or phone) for
 * import_attachments, or by a list column for attachments_leads_uploader. Matching is one query per ZIP. Files become
 * contact files by the same rules as a direct upload (kinds, content checked, at most MAX_FILE_BYTES), through the
 * storage ledger (counted against the company's quota, never orphaned), with storage keys of server-side ids only.
 * The whole upload is refused first when what it would unpack, or store, is over a cap.
 */
import { normalizePhone } from '@harbor/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Db } from '../../platform/db/client.js';
import type { Deps } from '../../platform/deps.js';
import { assertRoom, commitBlobs, discardBlobs, QuotaExceeded, storeBlob } from '../../platform/files/blobs.js';
import { FileRefused } from '../../platform/files/limits.js';
import type { ZipEntryInfo } from '../../platform/files/zip-reader.js';
import { checkUpload } from '../contact-records/file-type.js';
import { cleanFileName, contactFileKey } from '../contact-records/files.js';
import { visibleContactsSql } from '../contacts/visibility.js';
import { pgArray } from './options.js';
import type { importAttempts } from './schema.js';
import {
  assertTotal,
  attachable,
  baseName,
  maxAttachmentsBytes,
  openUserFiles,
  type Refusal,
  readEntry,
  refuseEntry,
  type UserFiles,
} from './zipfiles.js';

export interface AttachReport {
  matched: Array<{ file: string; contact_id: number }>;
  unmatched: string[];
  refused: Refusal[];
}

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;
const stem = (name: string) =>
  baseName(name)
    .replace(/\.[^.]+$/, '')
    .trim()
    .toLowerCase();

/** import_attachments: "100123.pdf", "ada@example.com.pdf" or "15552010001.txt" name their contact. */
export async function attachByFileName(
  deps: Deps,
  auth: AuthContext,
  zipPath: string,
  label: string,
): Promise<AttachReport> {
  const zip = await openUserFiles(zipPath, label);
  try {
    const { eligible, refused } = attachable(zip, label);
    if (eligible.length === 0) return { matched: [], unmatched: [], refused };
    const names = eligible.map((e) => e.name);
    const keys = names.map(stem);
    const phones = keys.map((k) => (/^[\d\s().+-]+$/.test(k) ? (normalizePhone(k) ?? '') : ''));
    const numbers = keys.map((k) => (/^\d{6,9}$/.test(k) ? k : ''));
    const visible = visibleContactsSql(auth);
    const pick = (cond: SQL) =>
      sql`(select contacts.id from contacts where ${visible} and contacts.deleted_at is null and ${cond}
           order by contacts.id limit 1)`;
    const found = rowsOf<{ name: string; contact_id: number | null }>(
      await deps.database.db.execute(sql`select f.name, coalesce(
          ${pick(sql`f.num <> '' and contacts.number = f.num::bigint`)},
          ${pick(sql`position('@' in f.key) > 0 and lower(contacts.email) = f.key`)},
          ${pick(sql`f.phone <> '' and contacts.phone = f.phone`)}) as contact_id
        from unnest(${pgArray(names)}::text[], ${pgArray(keys)}::text[], ${pgArray(phones)}::text[],
          ${pgArray(numbers)}::text[]) as f(name, key, phone, num)`),
    );
    const report = await store(deps, auth.company.id, auth.user.id, zip, found, true);
    return { ...report, refused: [...refused, ...report.refused] };
  } finally {
    zip.archive.close();
  }
}

/** attachments_leads_uploader: after the list is written, files named in its attachment column join their rows. */
export async function attachFromList(deps: Deps, attempt: typeof importAttempts.$inferSelect): Promise<AttachReport> {
  const zipPath = String(attempt.options.zipPath ?? '');
  const listName = String(attempt.options.listEntry ?? '');
  const zip = await openUserFiles(zipPath, attempt.fileName);
  try {
    const files = zip.files.filter((e) => e.name !== listName);
    if (files.length === 0) return { matched: [], unmatched: [], refused: zip.repeated };
    const names = files.map((e) => e.name);
    const found = rowsOf<{ name: string; contact_id: number | null }>(
      await deps.database.db.execute(sql`select f.name, (select r.contact_id from import_rows r
            where r.attempt_id = ${attempt.id} and r.contact_id is not null and r.attachment is not null
              and lower(r.attachment) = f.base order by r.row_no limit 1) as contact_id
        from unnest(${pgArray(names)}::text[], ${pgArray(names.map((n) => baseName(n).toLowerCase()))}::text[])
          as f(name, base)`),
    );
    const report = await store(deps, attempt.companyId, attempt.userId, zip, found, false);
    return { ...report, refused: [...zip.repeated, ...report.refused] };
  } catch (err) {
    // In the job a refusal is the report's, not a failure of the whole import.
    if (err instanceof FileRefused || err instanceof QuotaExceeded) {
      return { matched: [], unmatched: [], refused: [{ file: attempt.fileName, reason: err.message }] };
    }
    throw err;
  } finally {
    zip.archive.close();
  }
}

interface Saved {
  file: string;
  contact: number;
  name: string;
  type: string;
  size: number;
  key: string;
}

/**
 * Stores the matched files one at a time (one at most MAX_FILE_BYTES in memory), then records them all in one
 * transaction. `whole`: refuse the upload at once when the files to store are over the total cap or the quota.
 */
async function store(
  deps: Deps,
  companyId: number,
  userId: number,
  zip: UserFiles,
  found: Array<{ name: string; contact_id: number | null }>,
  whole: boolean,
): Promise<AttachReport> {
  const db = deps.database.db;
  const byName = new Map(zip.files.map((e) => [e.name, e]));
  const refused: Refusal[] = [];
  const unmatched: string[] = [];
  const wanted: Array<{ entry: ZipEntryInfo; contact: number }> = [];
  for (const f of found) {
    const entry = byName.get(f.name);
    if (!entry) continue;
    if (f.contact_id === null) {
      unmatched.push(f.name);
      continue;
    }
    const why = refuseEntry(entry);
    if (why) refused.push({ file: f.name, reason: why });
    else wanted.push({ entry, contact: Number(f.contact_id) });
  }
  const bytes = wanted.reduce((n, w) => n + w.entry.size, 0);
  if (whole) {
    assertTotal(wanted.map((w) => w.entry));
    await assertRoom(db, companyId, bytes);
  }
  const taken = await namesTaken(db, [...new Set(wanted.map((w) => w.contact))]);
  const saved: Saved[] = [];
  try {
    let unpacked = 0;
    for (const w of wanted) {
      // In the job (no one to answer a 413 to) files past the total cap are refused one by one instead.
      unpacked += w.entry.size;
      if (!whole && unpacked > maxAttachmentsBytes()) {
        refused.push({ file: w.entry.name, reason: 'is over what one upload can attach' });
        continue;
      }
      const data = await readEntry(zip.archive, w.entry);
      const name = uniqueName(cleanFileName(baseName(w.entry.name)), taken, w.contact);
      const check = await checkUpload(name, '', data);
      if (!check.ok) {
        refused.push({ file: w.entry.name, reason: check.message });
        continue;
      }
      const key = contactFileKey(companyId, w.contact);
      try {
        await storeBlob(deps, { companyId, key, data, contentType: check.contentType });
      } catch (err) {
        if (!(err instanceof QuotaExceeded)) throw err;
        refused.push({ file: w.entry.name, reason: err.message });
        continue;
      }
      saved.push({ file: w.entry.name, contact: w.contact, name, type: check.contentType, size: data.length, key });
    }
    if (saved.length > 0) {
      await db.transaction(async (t) => {
        const tx = t;
        await tx.execute(sql`with f as (
            insert into contact_files (company_id, contact_id, name, content_type, size, storage_key, uploaded_by)
            select ${companyId}, c, n, t, s, k, ${userId}
            from unnest(${pgArray(saved.map((s) => s.contact))}::bigint[], ${pgArray(saved.map((s) => s.name))}::text[],
              ${pgArray(saved.map((s) => s.type))}::text[], ${pgArray(saved.map((s) => s.size))}::int[],
              ${pgArray(saved.map((s) => s.key))}::text[]) as f(c, n, t, s, k)
            returning id, contact_id, name, size)
          insert into contact_events (company_id, contact_id, kind, data, actor_id)
          select ${companyId}, f.contact_id, 'file_uploaded',
            jsonb_build_object('file_id', f.id, 'name', f.name, 'size', f.size, 'from', 'import'), ${userId}
          from f`);
        await commitBlobs(
          tx,
          saved.map((s) => s.key),
        );
      });
    }
  } catch (err) {
    await discardBlobs(
      deps,
      saved.map((s) => s.key),
    );
    throw err;
  }
  return { matched: saved.map((s) => ({ file: s.file, contact_id: s.contact })), unmatched, refused };
}

/** The file names each contact already has, lower-cased: a file attached under a taken name gets "(2)". */
async function namesTaken(db: Db, contacts: number[]): Promise<Map<number, Set<string>>> {
  const out = new Map<number, Set<string>>();
  if (contacts.length === 0) return out;
  const rows = rowsOf<{ contact_id: number; name: string }>(
    await db.execute(sql`select contact_id, lower(name) as name from contact_files
      where contact_id = any(${pgArray(contacts)}::bigint[])`),
  );
  for (const r of rows) {
    const set = out.get(Number(r.contact_id)) ?? new Set<string>();
    set.add(r.name);
    out.set(Number(r.contact_id), set);
  }
  return out;
}

function uniqueName(name: string, taken: Map<number, Set<string>>, contact: number): string {
  const set = taken.get(contact) ?? new Set<string>();
  taken.set(contact, set);
  const dot = name.lastIndexOf('.');
  const [base, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  let candidate = name;
  for (let i = 2; set.has(candidate.toLowerCase()); i++) candidate = `${base} (${i})${ext}`;
  set.add(candidate.toLowerCase());
  return candidate;
}

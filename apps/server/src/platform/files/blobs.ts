/**
 * Stored blobs with a ledger and a per-company quota (schema.ts, docs/decisions/storage-quota.md). The order makes
 * every crash recoverable and nothing orphaned for good:
 *   store:  reserve bytes + ledger row 'pending' (one statement, refused over quota) -> put the blob
 *           -> the caller's transaction writes its record and commitBlobs() marks the row 'live'.
 *   delete: the caller's transaction deletes its record and releaseBlobs() marks the row 'deleting' and gives the
 *           bytes back -> purgeBlobs() deletes the blob, then the row.
 * A failure in between is undone at once (discardBlobs); a crash is cleaned up by the sweeper (sweeper.ts).
 */
import { sql } from 'drizzle-orm';
import type { StoragePort } from '../../integrations/storage/port.js';
import type { Database, Db } from '../db/client.js';
import { HttpError } from '../http/errors.js';

const GB = 1024 * 1024 * 1024;

/** STORAGE_QUOTA_MB: a company's default quota (10 GB); a company's own `quota_bytes` overrides it. */
export const defaultQuotaBytes = () => Number(process.env.STORAGE_QUOTA_MB ?? 10_240) * 1024 * 1024;

interface Ledger {
  database: Database;
  storage: StoragePort;
}

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;
const size = (bytes: number) =>
  bytes >= GB ? `${(bytes / GB).toFixed(1)} GB` : `${Math.max(0.1, Math.round(bytes / 104_857.6) / 10)} MB`;

export class QuotaExceeded extends HttpError {
  constructor(used: number, quota: number, wanted: number) {
    super(413, {
      file: [
        `would take your company's files past its storage quota: ${size(used)} of ${size(quota)} are in use and this needs ${size(wanted)}. Delete files you no longer need or ask us for more room.`,
      ],
    });
  }
}

export async function usageOf(db: Db, companyId: number): Promise<{ used: number; quota: number }> {
  const [row] = rowsOf<{ used: string | number; quota: string | number | null }>(
    await db.execute(
      sql`select used_bytes as used, quota_bytes as quota from storage_usage where company_id = ${companyId}`,
    ),
  );
  return { used: Number(row?.used ?? 0), quota: row?.quota == null ? defaultQuotaBytes() : Number(row.quota) };
}

/** Refuses before any work when `bytes` more would not fit (the reservation itself checks again, atomically). */
export async function assertRoom(db: Db, companyId: number, bytes: number) {
  const u = await usageOf(db, companyId);
  if (u.used + bytes > u.quota) throw new QuotaExceeded(u.used, u.quota, bytes);
}

/** Reserves the bytes and writes the blob; the caller then records it and calls commitBlobs in that transaction. */
export async function storeBlob(
  deps: Ledger,
  blob: { companyId: number; key: string; data: Buffer; contentType: string },
): Promise<void> {
  const { companyId, key, data } = blob;
  const db = deps.database.db;
  await db.execute(sql`insert into storage_usage (company_id) values (${companyId}) on conflict do nothing`);
  // One statement: the bytes are counted only while they fit the quota, and the ledger row exists exactly then.
  const [ok] = rowsOf<{ key: string }>(
    await db.execute(sql`with grown as (
        update storage_usage set used_bytes = used_bytes + ${data.length}, updated_at = now()
        where company_id = ${companyId} and used_bytes + ${data.length} <= coalesce(quota_bytes, ${defaultQuotaBytes()})
        returning company_id)
      insert into stored_blobs (key, company_id, bytes, state)
        select ${key}, company_id, ${data.length}, 'pending' from grown returning key`),
  );
  if (!ok) {
    const u = await usageOf(db, companyId);
    throw new QuotaExceeded(u.used, u.quota, data.length);
  }
  try {
    await deps.storage.put(key, data, blob.contentType);
  } catch (err) {
    await discardBlobs(deps, [key]);
    throw err;
  }
}

/** In the caller's transaction that records the blobs: they are no longer orphans. */
export async function commitBlobs(tx: Db, keys: string[]) {
  if (keys.length === 0) return;
  await tx.execute(sql`update stored_blobs set state = 'live', updated_at = now()
    where key = any(${sql.param(keys)}::text[]) and state = 'pending'`);
}

/** Undoes stored but unrecorded blobs (the record's transaction failed): blob, bytes and ledger row go. */
export async function discardBlobs(deps: Ledger, keys: string[]) {
  for (const key of keys) {
    try {
      await deps.storage.delete(key);
    } catch {
      continue; // the ledger row stays 'pending' and the sweeper tries again
    }
    await forget(deps.database.db, key, 'pending');
  }
}

/** In the caller's transaction that deletes the records: their bytes are released, the blobs marked for deletion. */
export async function releaseBlobs(tx: Db, keys: string[]) {
  if (keys.length === 0) return;
  await tx.execute(sql`with gone as (
      update stored_blobs set state = 'deleting', updated_at = now()
      where key = any(${sql.param(keys)}::text[]) and state = 'live' returning company_id, bytes)
    update storage_usage u set used_bytes = greatest(0, u.used_bytes - s.total), updated_at = now()
    from (select company_id, sum(bytes) as total from gone group by company_id) s where u.company_id = s.company_id`);
}

/** After the deleting transaction committed: the blobs go, then their ledger rows. Never throws. */
export async function purgeBlobs(deps: Ledger, keys: string[]) {
  for (const key of keys) {
    try {
      await deps.storage.delete(key);
      await deps.database.db.execute(sql`delete from stored_blobs where key = ${key} and state = 'deleting'`);
    } catch {
      // Left 'deleting': the sweeper deletes it when storage answers again.
    }
  }
}

/** Removes a ledger row in `state`, giving its bytes back when they were still counted (pending). */
async function forget(db: Db, key: string, state: 'pending' | 'deleting') {
  await db.execute(sql`with gone as (delete from stored_blobs where key = ${key} and state = ${state}
      returning company_id, bytes, state)
    update storage_usage u set used_bytes = greatest(0, u.used_bytes - gone.bytes), updated_at = now()
    from gone where u.company_id = gone.company_id and gone.state = 'pending'`);
}

export interface SweepCounts {
  pending: number;
  deleting: number;
  failed: number;
}

/**
 * Orphans after a crash: blobs reserved over `pendingAgeMs` ago that no record ever claimed, and blobs whose record
 * was deleted but which are still there. Works in batches; a blob storage refuses to delete is left for next time.
 */
export async function sweepBlobs(
  deps: Ledger,
  opts: { pendingAgeMs?: number; deletingAgeMs?: number; batch?: number; signal?: AbortSignal } = {},
): Promise<SweepCounts> {
  const counts: SweepCounts = { pending: 0, deleting: 0, failed: 0 };
  const pendingAge = `${Math.round((opts.pendingAgeMs ?? 3_600_000) / 1000)} seconds`;
  const deletingAge = `${Math.round((opts.deletingAgeMs ?? 60_000) / 1000)} seconds`;
  const batch = opts.batch ?? 500;
  let after = '';
  for (;;) {
    if (opts.signal?.aborted) break;
    const rows = rowsOf<{ key: string; state: 'pending' | 'deleting' }>(
      await deps.database.db.execute(sql`select key, state from stored_blobs
        where key > ${after} and (
          (state = 'pending' and updated_at < now() - ${pendingAge}::interval)
          or (state = 'deleting' and updated_at < now() - ${deletingAge}::interval))
        order by key limit ${batch}`),
    );
    if (rows.length === 0) break;
    for (const r of rows) {
      try {
        await deps.storage.delete(r.key);
      } catch {
        counts.failed++;
        continue;
      }
      await forget(deps.database.db, r.key, r.state);
      counts[r.state]++;
    }
    after = rows[rows.length - 1].key;
  }
  return counts;
}

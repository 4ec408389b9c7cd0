/**
 * Whose import attempts a caller sees: everyone sees their own; with import-lead tracking (spec §6: admin or
 * manager) the attempts of everyone they reach (platform/reach.ts, the one reach rule).
 */
import { can } from '@harbor/shared';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Db } from '../../platform/db/client.js';
import { notFound } from '../../platform/http/errors.js';
import { reachesUserSql } from '../../platform/reach.js';
import { importAttempts } from './schema.js';

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;

/** Attempts (alias `a`) the caller may see. */
export function attemptsReachSql(auth: AuthContext): SQL {
  const c = auth.company.id;
  const own = sql`a.company_id = ${c} and a.user_id = ${auth.user.id}`;
  if (!can(auth.subject, 'imports.track')) return own;
  return sql`a.company_id = ${c} and ${reachesUserSql(auth, sql`a.user_id`)}`;
}

/**
 * The attempt the path names, when the caller may see it (404 otherwise, like another company's). The path's id is
 * the company's own attempt number (docs/decisions/per-company-numbers.md); the row's `id` stays internal.
 */
export async function attemptInReach(db: Db, auth: AuthContext, number: number) {
  const found = rowsOf<{ id: number }>(
    await db.execute(sql`select a.id from import_attempts a where a.number = ${number} and ${attemptsReachSql(auth)}`),
  );
  if (found.length === 0) throw notFound('import_attempt');
  const [row] = await db
    .select()
    .from(importAttempts)
    .where(eq(importAttempts.id, Number(found[0].id)));
  return row;
}

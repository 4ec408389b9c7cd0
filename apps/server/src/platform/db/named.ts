/**
 * `db.execute` as a named prepared statement. node-postgres sends a named statement's text once per pooled connection;
 * after five runs PostgreSQL keeps a generic plan, so later calls only bind and execute. An unnamed statement is
 * planned at every call: the softphone's enablement read (a union of plan covers beside the person's flags) spent
 * 2-4 ms of each 3-7 ms token request in planning on the 2-core bench machine (bench/voice.ts), 0.1 ms executing.
 * For hot statements of a few shapes (the text changes with optional filters, never with values): the name carries a
 * hash of the text, since node-postgres refuses a second text under one name, and each shape is kept once per
 * connection by the server. Never for text built from a list's length (a VALUES list): every length would be kept.
 * PGlite ignores the name.
 */
import { createHash } from 'node:crypto';
import type { SQL } from 'drizzle-orm';
import type { Db, RowsResult } from './client.js';

interface Internals {
  dialect: { sqlToQuery(query: SQL): { sql: string } };
  session: {
    prepareQuery(
      query: { sql: string },
      fields: undefined,
      name: string,
      arrayMode: boolean,
    ): { execute(): Promise<unknown> };
  };
}

export function executeNamed<Row extends Record<string, unknown>>(
  db: Db,
  name: string,
  query: SQL,
): Promise<RowsResult<Row>> {
  // Drizzle's own `execute` does exactly this with no name (pg-core/session.js); its dialect and session are internal.
  const d = db as unknown as Internals;
  const q = d.dialect.sqlToQuery(query);
  const shape = createHash('sha1').update(q.sql).digest('base64url').slice(0, 12);
  return d.session.prepareQuery(q, undefined, `${name}_${shape}`, false).execute() as Promise<RowsResult<Row>>;
}

/**
 * `db.execute` as a named prepared statement. node-postgres sends a named statement's text once per pooled connection;
 * after five runs PostgreSQL keeps a generic plan, so later calls only bind and execute. An unnamed statement is
 * planned at every call: the softphone's enablement read (a union of plan covers beside the person's flags) spent
 * 2-4 ms of each 3-7 ms token request in planning on the 2-core bench machine (bench/voice.ts), 0.1 ms executing.
 * For hot statements whose text never changes between calls (only their parameters): one name, one text, or
 * node-postgres refuses the second text. PGlite ignores the name.
 */
import type { SQL } from 'drizzle-orm';
import type { Db, RowsResult } from './client.js';

interface Internals {
  dialect: { sqlToQuery(query: SQL): unknown };
  session: {
    prepareQuery(query: unknown, fields: undefined, name: string, arrayMode: boolean): { execute(): Promise<unknown> };
  };
}

export function executeNamed<Row extends Record<string, unknown>>(
  db: Db,
  name: string,
  query: SQL,
): Promise<RowsResult<Row>> {
  // Drizzle's own `execute` does exactly this with no name (pg-core/session.js); its dialect and session are internal.
  const d = db as unknown as Internals;
  return d.session.prepareQuery(d.dialect.sqlToQuery(query), undefined, name, false).execute() as Promise<
    RowsResult<Row>
  >;
}

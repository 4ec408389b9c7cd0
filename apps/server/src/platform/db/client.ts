/**
 * One database handle for the whole process: PGlite (real PostgreSQL in-process, data under ./data) by default,
 * node-postgres when DATABASE_URL is set. Both run the same Drizzle migrations.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { unaccent } from '@electric-sql/pglite/contrib/unaccent';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzleLite } from 'drizzle-orm/pglite';
import { migrate as migrateLite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { copyIntoPglite, copyIntoPostgres } from './copy.js';

/**
 * What `execute` answers on both drivers: PGlite's `Results` and node-postgres's `QueryResult` both carry `rows`
 * (and one of `affectedRows` / `rowCount`). Typing the handle with it lets `db.execute<Row>(sql)` return typed rows
 * without a cast at every call site.
 */
export interface RowsResultHKT extends PgQueryResultHKT {
  type: RowsResult<this['row']>;
}
export interface RowsResult<Row> {
  rows: Array<Row extends Record<string, unknown> ? Row : Record<string, unknown>>;
}

/** How many rows a write changed: node-postgres answers `rowCount`, PGlite `affectedRows`. */
export function affectedRows(res: unknown): number {
  const r = res as { rowCount?: number | null; affectedRows?: number };
  return Number(r.rowCount ?? r.affectedRows ?? 0);
}

/** The database handle every query function takes. A transaction (`Tx`) is one: pass it wherever a `Db` goes. */
export type Db = PgDatabase<RowsResultHKT>;
/** The handle a `db.transaction(async (tx) => ...)` callback receives; it is a `Db` (nested calls use savepoints). */
export type Tx = PgTransaction<RowsResultHKT>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Plain SQL with positional parameters, for set-based statements Drizzle has no builder for. */
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  migrate(): Promise<void>;
  close(): Promise<void>;
  /**
   * Bulk load: streams CSV text (no header) into `table (columns)` with COPY and answers the rows loaded. The source
   * is consumed lazily; PGlite gets it in blobs of a few MB, so neither side holds a whole file.
   */
  copyFrom(table: string, columns: readonly string[], csv: AsyncIterable<string>): Promise<number>;
  /** PGlite only: a snapshot of the data directory (tests clone a migrated, seeded database from it). */
  dump?(): Promise<Blob>;
  /**
   * PostgreSQL server only: `COPY (...) TO STDOUT` as a stream on a dedicated connection (released when the stream
   * ends or fails). COPY takes no parameters: callers inline literals (see contacts/export.ts).
   */
  copyOut?(copySql: string): Promise<Readable>;
}

export const MIGRATIONS_DIR = path.resolve(import.meta.dirname, '../../../drizzle');

export interface OpenOptions {
  databaseUrl?: string | null;
  /** PGlite: where the data lives; undefined = in memory. */
  dataDir?: string;
  /** PGlite: start from this snapshot instead of an empty database. */
  loadDataDir?: Blob;
}

export async function openDatabase(opts: OpenOptions): Promise<Database> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl);
  if (opts.dataDir) fs.mkdirSync(opts.dataDir, { recursive: true });
  const client = await PGlite.create({
    dataDir: opts.dataDir,
    loadDataDir: opts.loadDataDir,
    extensions: { pg_trgm, unaccent },
  });
  // The one place the driver's own result type is narrowed to the rows both drivers share.
  const db: Db = drizzleLite(client) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    async query<T>(text: string, params?: unknown[]) {
      const res = await client.query<T>(text, params);
      return res.rows;
    },
    copyFrom: (table, columns, csv) => copyIntoPglite(client, table, columns, csv),
    migrate: () => migrateLite(drizzleLite(client), { migrationsFolder: MIGRATIONS_DIR }),
    close: () => client.close(),
    dump: async () => (await client.dumpDataDir('none')) as Blob,
  };
}

async function openPostgres(url: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: Number(process.env.DATABASE_POOL ?? 10) });
  // Without a listener, a server restart emits 'error' on an idle client and kills the process.
  pool.on('error', (err) => console.error('database pool error', err.message));
  const db: Db = drizzlePg(pool) as unknown as Db;
  return {
    db,
    kind: 'postgres',
    async query<T>(text: string, params?: unknown[]) {
      const res = await pool.query(text, params);
      return res.rows as T[];
    },
    copyFrom: (table, columns, csv) => copyIntoPostgres(pool, table, columns, csv),
    migrate: () => migratePg(drizzlePg(pool), { migrationsFolder: MIGRATIONS_DIR }),
    close: () => pool.end(),
    async copyOut(copySql: string) {
      const client = await pool.connect();
      try {
        // Inlined literals rely on standard strings (a backslash is just a backslash).
        await client.query('set standard_conforming_strings = on');
      } catch (err) {
        client.release(err as Error);
        throw err;
      }
      const stream = client.query(copyTo(copySql));
      let released = false;
      finished(stream, (err) => {
        if (released) return;
        released = true;
        // A broken or abandoned COPY leaves the connection mid-protocol: discard it rather than reuse it.
        client.release(err ?? (stream.readableEnded ? undefined : new Error('copy abandoned')));
      });
      return stream;
    },
  };
}

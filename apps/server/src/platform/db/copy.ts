/**
 * COPY for both databases (machine-and-tools.md: ~68k rows/s on PGlite, ~130k on the server, several times a
 * batched INSERT). Callers hand CSV lines; identifiers are checked because they end up in the statement text.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';

const IDENT = /^[a-z_][a-z0-9_]*$/;
const BLOB_BYTES = 8 * 1024 * 1024;

function statement(table: string, columns: readonly string[], source: string) {
  for (const id of [table, ...columns]) if (!IDENT.test(id)) throw new Error(`bad identifier ${id}`);
  return `COPY ${table} (${columns.join(', ')}) FROM ${source} WITH (FORMAT csv)`;
}

export async function copyIntoPglite(
  client: PGlite,
  table: string,
  columns: readonly string[],
  csv: AsyncIterable<string>,
): Promise<number> {
  const sql = statement(table, columns, "'/dev/blob'");
  let parts: string[] = [];
  let size = 0;
  let total = 0;
  const flush = async () => {
    if (parts.length === 0) return;
    const res = await client.query(sql, [], { blob: new Blob(parts) });
    total += res.affectedRows ?? 0;
    parts = [];
    size = 0;
  };
  for await (const chunk of csv) {
    parts.push(chunk);
    size += chunk.length;
    if (size >= BLOB_BYTES) await flush();
  }
  await flush();
  return total;
}

export async function copyIntoPostgres(
  pool: pg.Pool,
  table: string,
  columns: readonly string[],
  csv: AsyncIterable<string>,
): Promise<number> {
  const client = await pool.connect();
  try {
    const stream = client.query(copyFrom(statement(table, columns, 'STDIN')));
    await pipeline(Readable.from(csv, { objectMode: false }), stream);
    return Number(stream.rowCount ?? 0);
  } finally {
    client.release();
  }
}

/** One CSV field for COPY: null stays an unquoted empty field, every value is quoted. */
export function csvField(v: string | null | undefined): string {
  if (v === null || v === undefined) return '';
  return `"${v.replace(/"/g, '""')}"`;
}

/**
 * Rows that arrive as JSON (`to_jsonb(t)` inside one statement that gathers several lists) turned into the shape
 * Drizzle would have given for `select * from t`: property names and driver mapping (timestamps to Date) of the
 * table's own columns, so the usual presenters take them unchanged.
 */
import { getTableColumns, type Table } from 'drizzle-orm';

export function rowFromJson<T extends Table>(table: T, json: Record<string, unknown>): T['$inferSelect'] {
  const out: Record<string, unknown> = {};
  for (const [prop, column] of Object.entries(getTableColumns(table))) {
    const value = json[column.name];
    out[prop] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return out as T['$inferSelect'];
}

export const rowsFromJson = <T extends Table>(table: T, list: unknown): T['$inferSelect'][] =>
  ((list ?? []) as Record<string, unknown>[]).map((json) => rowFromJson(table, json));

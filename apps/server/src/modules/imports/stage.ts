/**
 * File -> staging: rows are read one at a time, normalised (parse/normalize.ts) and streamed into import_rows with
 * COPY. Memory stays flat whatever the file size: lines are batched into ~256 kB strings and handed on.
 */
import type { ImportField } from '@harbor/shared';
import type { Database } from '../../platform/db/client.js';
import { csvField } from '../../platform/db/copy.js';
import { STAGE_COLUMNS, stageRow } from './parse/normalize.js';
import { readRows, type SourceInfo } from './parse/read.js';

const COLUMNS = ['attempt_id', 'row_no', 'action', 'reasons', 'raw', 'extra', ...STAGE_COLUMNS] as const;

/** The first data row is row 2, as a spreadsheet numbers it under its header. */
export const FIRST_ROW = 2;

export async function stageFile(
  database: Database,
  attemptId: number,
  file: string,
  info: SourceInfo,
  headers: string[],
  fields: ImportField[],
  /** Told the rows read so far, at every batch handed to COPY (progress before the total is known). */
  onRead?: (rows: number) => void,
): Promise<number> {
  await database.query('delete from import_rows where attempt_id = $1', [attemptId]);
  return database.copyFrom('import_rows', COLUMNS, lines(attemptId, file, info, headers, fields, onRead));
}

async function* lines(
  attemptId: number,
  file: string,
  info: SourceInfo,
  headers: string[],
  fields: ImportField[],
  onRead?: (rows: number) => void,
): AsyncGenerator<string> {
  let rowNo = FIRST_ROW - 1;
  let header = true;
  let batch = '';
  const id = String(attemptId);
  for await (const cells of readRows(file, info)) {
    if (header) {
      header = false;
      continue;
    }
    rowNo++;
    const s = stageRow(cells, headers, fields);
    // A footer ("Total") is skipped with its reason; a row with bad values is invalid with them.
    const action = s.skip ? 'skip' : s.reasons.length > 0 ? 'invalid' : '';
    const why = s.skip ?? s.reasons.join('; ');
    let line = `${id},${rowNo},${action},${action ? csvField(why) : ''},`;
    line += `${action ? csvField(JSON.stringify(cells)) : ''},${s.extra ? csvField(JSON.stringify(s.extra)) : ''}`;
    for (const c of STAGE_COLUMNS) line += `,${csvField(s.values[c])}`;
    batch += `${line}\n`;
    if (batch.length > 256 * 1024) {
      onRead?.(rowNo - FIRST_ROW + 1);
      yield batch;
      batch = '';
    }
  }
  if (batch) yield batch;
}

/**
 * CSV rows, streamed: bytes -> text (UTF-8 and UTF-16 decoded strictly, so a broken byte anywhere in the file is
 * refused with where it is, not turned into garbage; Windows-1252 has no invalid bytes) -> csv-parse. Every error of
 * the file, the decoder or the parser ends the loop as a FileRefused naming the row: none is left unhandled.
 */
import fs from 'node:fs';
import { Transform, type TransformCallback } from 'node:stream';
import { TextDecoder } from 'node:util';
import { parse } from 'csv-parse';
import iconv from 'iconv-lite';
import { FILE_CAPS, type FileCaps, FileRefused } from '../../../platform/files/limits.js';
import type { Encoding } from './detect.js';

export interface SourceRow {
  /** Where the row starts in the file (1-based; the header is row 1). */
  row: number;
  cells: string[];
}

class EncodingError extends Error {
  constructor(readonly line: number) {
    super('invalid text');
  }
}

const newlines = (s: string, end = s.length) => {
  let n = 0;
  for (let i = s.indexOf('\n'); i >= 0 && i < end; i = s.indexOf('\n', i + 1)) n++;
  return n;
};

const LABELS: Record<Exclude<Encoding, 'win1252'>, string> = {
  utf8: 'utf-8',
  'utf-16le': 'utf-16le',
  'utf-16be': 'utf-16be',
};

/** Decodes strictly: an invalid sequence fails the stream, saying on which line, instead of becoming U+FFFD. */
class StrictDecoder extends Transform {
  private readonly decoder: TextDecoder;
  private lines = 1;
  constructor(private readonly label: string) {
    super();
    this.decoder = new TextDecoder(label, { fatal: true });
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback) {
    let text: string;
    try {
      text = this.decoder.decode(chunk, { stream: true });
    } catch {
      // Where in the chunk: the lines before the first character a lenient decoder could not read.
      const lenient = new TextDecoder(this.label).decode(chunk);
      const bad = lenient.indexOf('\uFFFD');
      cb(new EncodingError(this.lines + newlines(lenient, bad < 0 ? lenient.length : bad)));
      return;
    }
    this.lines += newlines(text);
    cb(null, text);
  }
  override _flush(cb: TransformCallback) {
    try {
      cb(null, this.decoder.decode());
    } catch {
      cb(new EncodingError(this.lines));
    }
  }
}

const NAMES: Record<Encoding, string> = {
  utf8: 'UTF-8',
  'utf-16le': 'UTF-16',
  'utf-16be': 'UTF-16',
  win1252: 'Windows-1252',
};

export async function* csvRows(
  file: string,
  name: string,
  encoding: Encoding,
  delimiter: string,
  caps: FileCaps = FILE_CAPS,
): AsyncGenerator<SourceRow> {
  const source = fs.createReadStream(file, { highWaterMark: 256 * 1024 });
  const decoder: Transform =
    encoding === 'win1252'
      ? (iconv.decodeStream('win1252') as unknown as Transform)
      : new StrictDecoder(LABELS[encoding]);
  const parser = parse({
    delimiter,
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    skip_records_with_empty_values: true,
    bom: true,
    max_record_size: caps.csvRecordChars,
    info: true,
  });
  // pipe() forwards no errors: each one ends the parser, whose iteration below then throws it.
  source.on('error', (e) => parser.destroy(e));
  decoder.on('error', (e: Error) => parser.destroy(e));
  source.pipe(decoder).pipe(parser);
  let lines = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const row = lines + 1;
      lines = info.lines;
      yield { row, cells: record };
    }
  } catch (err) {
    throw refusal(err as Error & { code?: string }, name, lines + 1, encoding);
  } finally {
    source.destroy();
    decoder.destroy();
    parser.destroy();
  }
}

function refusal(err: Error & { code?: string }, name: string, row: number, encoding: Encoding): Error {
  if (err instanceof FileRefused) return err;
  if (err instanceof EncodingError) {
    return new FileRefused(
      `${name} is not valid ${NAMES[encoding]} text at line ${err.line}: save it again as "CSV UTF-8" and upload it again`,
    );
  }
  switch (err.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return new FileRefused(`Row ${row} of ${name} opens a quoted cell (") that is never closed`);
    case 'CSV_MAX_RECORD_SIZE':
      return new FileRefused(
        `Row ${row} of ${name} is too long to be a row of a list; does it open a quoted cell (") that is never closed?`,
      );
    case 'ENOENT':
      return new Error(`the uploaded file ${name} is gone`);
  }
  if (err.code?.startsWith('CSV_'))
    return new FileRefused(`Row ${row} of ${name} cannot be read as CSV (${err.message})`);
  return err;
}

/**
 * What an uploaded file may cost the server, in one place (docs/decisions/upload-limits-and-caps.md). Every reader
 * of uploaded bytes (CSV, XLSX, ZIP) checks these while it streams and stops with a FileRefused, which the routes
 * answer as a 4xx naming the cap; nothing is ever read whole into memory first.
 */

const MB = 1024 * 1024;

/** A file the server will not read further. `status` is 413 for a size cap, 422 for what the file holds. */
export class FileRefused extends Error {
  constructor(
    message: string,
    readonly status: 413 | 422 = 422,
  ) {
    super(message);
  }
}

export const tooLarge = (message: string) => new FileRefused(message, 413);

export const FILE_CAPS = {
  /** Entries in any uploaded ZIP (an XLSX is a ZIP too). */
  zipEntries: 10_000,
  /** Small XLSX parts: [Content_Types].xml and the .rels files. */
  relsBytes: 1 * MB,
  /** xl/workbook.xml (sheet names, defined names). */
  workbookBytes: 16 * MB,
  /** xl/styles.xml (only number formats and cell formats are kept). */
  stylesBytes: 32 * MB,
  /** xl/sharedStrings.xml, unpacked. */
  sharedStringsBytes: 512 * MB,
  /** Distinct shared strings. */
  sharedStrings: 5_000_000,
  /** Text of all shared strings together (held in memory, packed as UTF-8). */
  sharedStringsText: 128 * MB,
  /** One worksheet's XML, unpacked. */
  sheetBytes: 2048 * MB,
  /** A part that unpacks to more than `bombMinBytes` at more than `bombRatio` times its packed size is a ZIP bomb. */
  bombRatio: 400,
  bombMinBytes: 32 * MB,
  /** Excel's own row limit. */
  rows: 1_048_576,
  /** Columns of a list (a contact has about 25 fields; vendors send a few dozen more). */
  columns: 500,
  /** Characters in one cell: Excel's own maximum is 32,767. */
  cellChars: 32_767,
  /** One CSV record, in characters (the longest row of `columns` cells people really have, and an unclosed quote stops here). */
  csvRecordChars: 4 * MB,
  /** Reading a workbook's structure and shared strings (before any row). */
  openSeconds: 60,
  /** Reading one whole file, row by row. */
  readSeconds: 15 * 60,
} as const;

export type FileCaps = { readonly [K in keyof typeof FILE_CAPS]: number };

export const mb = (bytes: number) => `${Math.round((bytes / MB) * 10) / 10} MB`;
export const count = (n: number) => n.toLocaleString('en-US');

/** A wall-clock budget, checked by readers between chunks. */
export class Deadline {
  private readonly until: number;
  constructor(
    seconds: number,
    private readonly what: string,
  ) {
    this.until = Date.now() + seconds * 1000;
  }
  check() {
    if (Date.now() > this.until)
      throw new FileRefused(`${this.what} takes too long to read; split it into smaller files`);
  }
}

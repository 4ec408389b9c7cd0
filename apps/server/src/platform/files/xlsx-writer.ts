/**
 * A streaming one-sheet XLSX (OOXML SpreadsheetML) writer on top of ZipWriter. Text is written as inline strings
 * (t="inlineStr"), so there is no shared-string table to hold in memory; numbers are numeric cells; null, undefined
 * and '' leave the cell out. No cell is ever a formula, whatever its text. Characters that XML 1.0 forbids (control
 * characters, lone surrogates, U+FFFE/U+FFFF) are dropped, since a reader would reject the whole file for one of them.
 */
import type { Writable } from 'node:stream';
import { type ZipEntryWriter, ZipWriter } from './zip-writer.js';

export type XlsxCell = string | number | null | undefined;

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_REL = 'http://schemas.openxmlformats.org/package/2006/relationships';
const CT = 'application/vnd.openxmlformats-officedocument.spreadsheetml';

const CONTENT_TYPES = `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">\
<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>\
<Default Extension="xml" ContentType="application/xml"/>\
<Override PartName="/xl/workbook.xml" ContentType="${CT}.sheet.main+xml"/>\
<Override PartName="/xl/worksheets/sheet1.xml" ContentType="${CT}.worksheet+xml"/>\
<Override PartName="/xl/styles.xml" ContentType="${CT}.styles+xml"/></Types>`;

const ROOT_RELS = `${XML}<Relationships xmlns="${PKG_REL}">\
<Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`;

const WORKBOOK_RELS = `${XML}<Relationships xmlns="${PKG_REL}">\
<Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>\
<Relationship Id="rId2" Type="${REL}/styles" Target="styles.xml"/></Relationships>`;

/** Style 0 is the default; style 1 is bold, for the header row. */
const STYLES = `${XML}<styleSheet xmlns="${MAIN}">\
<fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts>\
<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>\
<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>\
<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>\
<cellXfs count="2"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>\
<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs>\
<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`;

// Control characters are exactly what these patterns look for.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching the characters XML 1.0 forbids
const NEEDS_WORK = /[&<>"\r\u0000-\u0008\u000b\u000c\u000e-\u001f\ud800-\udfff\ufffe\uffff]/;
const INVALID = /[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\u{10000}-\u{10ffff}]/gu;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\r': '&#13;' };

/** `s` as XML text (or attribute value): escaped, with the characters XML 1.0 forbids dropped. */
export function xmlText(s: string): string {
  if (!NEEDS_WORK.test(s)) return s;
  return s.replace(INVALID, '').replace(/[&<>"\r]/g, (c) => ENTITIES[c]);
}

/** Column letters: 0 -> A, 25 -> Z, 26 -> AA. */
export function columnName(i: number): string {
  let s = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

export interface XlsxOptions {
  sheetName: string;
  /** zlib level; the default favours speed. */
  level?: number;
}

export class XlsxWriter {
  private readonly zip: ZipWriter;
  private sheet: ZipEntryWriter | undefined;
  private row = 0;
  private readonly columns: string[] = [];

  constructor(
    out: Writable,
    private readonly opts: XlsxOptions,
  ) {
    if (!/^[^[\]:*?/\\]{1,31}$/.test(opts.sheetName) || opts.sheetName.startsWith("'")) {
      throw new Error(`invalid sheet name ${JSON.stringify(opts.sheetName)}`);
    }
    this.zip = new ZipWriter(out, opts.level ?? 1);
  }

  private async start(): Promise<ZipEntryWriter> {
    if (this.sheet) return this.sheet;
    await this.zip.file('[Content_Types].xml', CONTENT_TYPES);
    await this.zip.file('_rels/.rels', ROOT_RELS);
    await this.zip.file(
      'xl/workbook.xml',
      `${XML}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets>\
<sheet name="${xmlText(this.opts.sheetName)}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    );
    await this.zip.file('xl/_rels/workbook.xml.rels', WORKBOOK_RELS);
    await this.zip.file('xl/styles.xml', STYLES);
    this.sheet = await this.zip.entry('xl/worksheets/sheet1.xml');
    await this.sheet.write(`${XML}<worksheet xmlns="${MAIN}"><sheetData>`);
    return this.sheet;
  }

  private rowXml(cells: readonly XlsxCell[], style: string): string {
    const r = ++this.row;
    let xml = `<row r="${r}">`;
    for (let i = 0; i < cells.length; i++) {
      const v = cells[i];
      if (v === null || v === undefined || v === '') continue;
      if (i >= this.columns.length) this.columns.push(columnName(i));
      const ref = `${this.columns[i]}${r}`;
      if (typeof v === 'number') {
        if (Number.isFinite(v)) xml += `<c r="${ref}"${style}><v>${v}</v></c>`;
        continue;
      }
      const text = xmlText(v);
      // Excel trims leading and trailing spaces and newlines unless told to keep them.
      const keep = text.charCodeAt(0) <= 32 || text.charCodeAt(text.length - 1) <= 32;
      xml += `<c r="${ref}"${style} t="inlineStr"><is><t${keep ? ' xml:space="preserve"' : ''}>${text}</t></is></c>`;
    }
    return `${xml}</row>`;
  }

  /** A bold first row. */
  async header(names: readonly string[]): Promise<void> {
    const sheet = await this.start();
    await sheet.write(this.rowXml(names, ' s="1"'));
  }

  /** Appends rows; await it before the next call (that is the backpressure). */
  async rows(rows: ReadonlyArray<readonly XlsxCell[]>): Promise<void> {
    const sheet = await this.start();
    if (this.row + rows.length > 1_048_576) throw new Error('a sheet holds at most 1,048,576 rows');
    let xml = '';
    for (const cells of rows) xml += this.rowXml(cells, '');
    await sheet.write(xml);
  }

  /** Closes the sheet and the archive, and ends the output stream. */
  async finish(): Promise<void> {
    const sheet = await this.start();
    await sheet.write('</sheetData></worksheet>');
    await sheet.end();
    await this.zip.finish();
  }
}

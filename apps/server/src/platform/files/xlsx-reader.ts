/**
 * A bounded streaming XLSX reader for the workbooks people really have: Excel, LibreOffice, Google Sheets, Numbers
 * and streaming writers. Parts are found the OPC way (package relationships -> workbook -> its relationships, absolute
 * or relative targets, any part order in the ZIP, names compared case-insensitively); shared strings or inline
 * strings; formulas give their cached value; numbers with a date format (or t="d" cells) become ISO dates, in the
 * 1900 or 1904 date system; rows and cells with or without `r` references, sparse or not. Every part is read as a
 * capped stream (limits.ts) and the shared strings are packed (string-table.ts), so memory and time stay bounded
 * whatever the file claims.
 */
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { Deadline, FILE_CAPS, type FileCaps, FileRefused, tooLarge } from './limits.js';
import { StringTable } from './string-table.js';
import { columnName } from './xlsx-writer.js';
import { attr, attrsOf, XmlScanner } from './xml-scan.js';
import { ZipArchive, type ZipEntryInfo } from './zip-reader.js';

export interface XlsxSheet {
  name: string;
  /** Part name inside the archive. */
  part: string;
  hidden: boolean;
}

export interface XlsxRow {
  /** The spreadsheet's row number (1-based). */
  r: number;
  cells: string[];
}

interface Rel {
  type: string;
  target: string;
}

const REL_END = (type: string, what: string) => type.endsWith(`/${what}`);

/** Excel counts days from 1899-12-30 (after its 1900 leap-year bug); the 1904 system starts 1462 days later. */
export function excelSerialToIso(serial: number, date1904 = false): string | null {
  const s = date1904 ? serial + 1462 : serial;
  if (!Number.isFinite(s) || s < 1 || s > 2958465) return null;
  const d = new Date(Math.round((Math.floor(s) - 25569) * 86_400_000));
  const y = d.getUTCFullYear();
  if (y < 1850 || y > 2200) return null;
  return d.toISOString().slice(0, 10);
}

/** Built-in number formats that show a date (14-17, 22, 27-36, 50-58: the East Asian date formats). */
const BUILTIN_DATES = new Set([14, 15, 16, 17, 22, 27, 28, 29, 30, 31, 34, 35, 36, 50, 51, 52, 53, 54, 57, 58]);

/** A format shows a date when, outside quoted text, escapes and [colour]/[locale] sections, it has a day or year. */
export function isDateFormat(id: number, code: string | undefined): boolean {
  if (code === undefined) return BUILTIN_DATES.has(id);
  const bare = code
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/\[[^\]]*\]/g, '')
    .split(';')[0];
  return /[dy]/i.test(bare) && !/^[#0.,%\s]*$/.test(bare);
}

const unescapeOoxml = (s: string) =>
  s.indexOf('_x') < 0
    ? s
    : s.replace(/_x([0-9a-fA-F]{4})_/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));

/** Column index of a cell reference: "A1" -> 0, "AB12" -> 27; -1 when it is not a reference. */
export function columnIndex(ref: string): number {
  let n = 0;
  let i = 0;
  for (; i < ref.length; i++) {
    const c = ref.charCodeAt(i) | 32;
    if (c < 97 || c > 122) break;
    n = n * 26 + (c - 96);
    if (n > 16_384) return 16_384;
  }
  return i === 0 ? -1 : n - 1;
}

/** Decodes the chunks of one part to text (UTF-8, or UTF-16 by its byte-order mark) and feeds the scanner. */
async function scan(
  archive: ZipArchive,
  entry: ZipEntryInfo,
  maxBytes: number,
  what: string,
  deadline: Deadline,
  scanner: XmlScanner,
) {
  let decoder: StringDecoder | null = null;
  for await (const chunk of archive.chunks(entry, { maxBytes, what, deadline })) {
    if (!decoder) {
      const le = chunk[0] === 0xff && chunk[1] === 0xfe;
      const be = chunk[0] === 0xfe && chunk[1] === 0xff;
      if (be) throw new FileRefused(`${what} is UTF-16 big-endian XML, which this reader does not take`);
      decoder = new StringDecoder(le ? 'utf16le' : 'utf8');
    }
    try {
      scanner.write(decoder.write(chunk));
    } catch (err) {
      if (err instanceof FileRefused) throw err;
      throw new FileRefused(`${what} cannot be read (${(err as Error).message})`);
    }
  }
  scanner.write(decoder?.end() ?? '');
  scanner.end();
}

export class XlsxReader {
  private strings: StringTable | null = null;
  private dateStyles: Uint8Array | null = null;

  private constructor(
    private readonly archive: ZipArchive,
    private readonly label: string,
    private readonly caps: FileCaps,
    readonly sheets: XlsxSheet[],
    readonly date1904: boolean,
    private readonly stringsPart: ZipEntryInfo | undefined,
    private readonly stylesPart: ZipEntryInfo | undefined,
  ) {}

  /** Opens the workbook and lists its worksheets, reading only the small parts that say where things are. */
  static async open(file: string, label: string, caps: FileCaps = FILE_CAPS): Promise<XlsxReader> {
    const archive = await ZipArchive.open(file, label, caps.zipEntries);
    try {
      const deadline = new Deadline(caps.openSeconds, label);
      const rels = async (source: string) => {
        const dir = path.posix.dirname(source);
        const relsPart = path.posix.join(dir === '.' ? '' : dir, '_rels', `${path.posix.basename(source)}.rels`);
        const entry = archive.find(relsPart);
        const out = new Map<string, Rel>();
        if (!entry) return out;
        await scan(
          archive,
          entry,
          caps.relsBytes,
          relsPart,
          deadline,
          new XmlScanner({
            open(name, raw) {
              if (name !== 'Relationship') return;
              const a = attrsOf(raw);
              if (!a.Id || !a.Target || a.TargetMode === 'External') return;
              out.set(a.Id, { type: a.Type ?? '', target: resolveTarget(dir === '.' ? '' : dir, a.Target) });
            },
            close() {},
            text() {},
          }),
        );
        return out;
      };
      const root = [...(await rels('')).values()].find((r) => REL_END(r.type, 'officeDocument'));
      const workbookPart = archive.find(root?.target ?? 'xl/workbook.xml') ?? archive.find('xl/workbook.xml');
      if (!workbookPart) throw new FileRefused(`${label} is not an Excel workbook (it has no workbook part)`);
      const wbName = workbookPart.name.replace(/^\/+/, '');
      const wbRels = await rels(wbName);
      const wbDir = path.posix.dirname(wbName) === '.' ? '' : path.posix.dirname(wbName);

      const listed: Array<{ name: string; id: string; hidden: boolean }> = [];
      let date1904 = false;
      await scan(
        archive,
        workbookPart,
        caps.workbookBytes,
        wbName,
        deadline,
        new XmlScanner({
          open(name, raw) {
            if (name === 'sheet') {
              const a = attrsOf(raw);
              listed.push({
                name: a.name ?? `Sheet${listed.length + 1}`,
                id: a.id ?? '',
                hidden: Boolean(a.state && a.state !== 'visible'),
              });
            } else if (name === 'workbookPr') {
              const v = attrsOf(raw).date1904;
              date1904 = v === '1' || v === 'true';
            }
          },
          close() {},
          text() {},
        }),
      );
      const sheets: XlsxSheet[] = [];
      listed.forEach((s, i) => {
        const rel = wbRels.get(s.id);
        if (rel && !REL_END(rel.type, 'worksheet')) return; // chart sheets and dialog sheets hold no rows
        const part = archive.find(rel?.target ?? path.posix.join(wbDir, `worksheets/sheet${i + 1}.xml`));
        if (part) sheets.push({ name: s.name, part: part.name, hidden: s.hidden });
      });
      const byType = (t: string, fallback: string) => {
        const rel = [...wbRels.values()].find((r) => REL_END(r.type, t));
        return archive.find(rel?.target ?? path.posix.join(wbDir, fallback));
      };
      return new XlsxReader(
        archive,
        label,
        caps,
        sheets,
        date1904,
        byType('sharedStrings', 'sharedStrings.xml'),
        byType('styles', 'styles.xml'),
      );
    } catch (err) {
      archive.close();
      throw err;
    }
  }

  close() {
    this.archive.close();
  }

  /** Which cell formats (by index) show dates. */
  private async loadStyles(deadline: Deadline) {
    if (this.dateStyles) return this.dateStyles;
    const formats = new Map<number, string>();
    const xfs: number[] = [];
    if (this.stylesPart) {
      let inCellXfs = false;
      await scan(
        this.archive,
        this.stylesPart,
        this.caps.stylesBytes,
        this.stylesPart.name,
        deadline,
        new XmlScanner({
          open(name, raw) {
            if (name === 'numFmt') {
              const a = attrsOf(raw);
              formats.set(Number(a.numFmtId), a.formatCode ?? '');
            } else if (name === 'cellXfs') inCellXfs = true;
            else if (name === 'xf' && inCellXfs) xfs.push(Number(attrsOf(raw).numFmtId ?? 0));
          },
          close(name) {
            if (name === 'cellXfs') inCellXfs = false;
          },
          text() {},
        }),
      );
    }
    const dates = new Uint8Array(xfs.length);
    xfs.forEach((id, i) => {
      dates[i] = isDateFormat(id, formats.get(id)) ? 1 : 0;
    });
    this.dateStyles = dates;
    return dates;
  }

  private async loadStrings(deadline: Deadline) {
    if (this.strings) return this.strings;
    const table = new StringTable(this.caps.sharedStrings, this.caps.sharedStringsText);
    if (this.stringsPart) {
      const max = this.caps.cellChars;
      let depthRph = 0;
      let inT = false;
      let text = '';
      await scan(
        this.archive,
        this.stringsPart,
        this.caps.sharedStringsBytes,
        this.stringsPart.name,
        deadline,
        new XmlScanner({
          open(name) {
            if (name === 'si') text = '';
            else if (name === 'rPh') depthRph++;
            else if (name === 't') inT = depthRph === 0;
          },
          close(name) {
            if (name === 't') inT = false;
            else if (name === 'rPh') depthRph--;
            else if (name === 'si') table.add(unescapeOoxml(text));
          },
          text(t) {
            if (!inT) return;
            text += t;
            if (text.length > max)
              throw tooLarge(`a text in the workbook is longer than ${max.toLocaleString('en-US')} characters`);
          },
        }),
      );
    }
    this.strings = table;
    return table;
  }

  /** The non-empty rows of a sheet, in file order, with the last empty cells trimmed. */
  async *rows(sheet: XlsxSheet): AsyncGenerator<XlsxRow> {
    const open = new Deadline(this.caps.openSeconds, this.label);
    const dates = await this.loadStyles(open);
    const strings = await this.loadStrings(open);
    const entry = this.archive.find(sheet.part);
    if (!entry) throw new FileRefused(`${this.label} has no part for sheet '${sheet.name}'`);
    const caps = this.caps;
    const date1904 = this.date1904;
    const ready: XlsxRow[] = [];
    let done = false;
    let inData = false;
    let rowNo = 0;
    let rows = 0;
    let cells: string[] = [];
    let cursor = 0;
    let col = 0;
    let type = '';
    let style = 0;
    let value = '';
    let inValue = false;
    let inline = false;
    let rph = 0;
    const where = () => `Sheet '${sheet.name}', cell ${columnName(Math.min(col, 16_383))}${rowNo}`;
    const finishCell = () => {
      let out: string;
      switch (type) {
        case 's':
          out = value.trim() === '' ? '' : strings.get(Number(value));
          break;
        case 'inlineStr':
        case 'str':
          out = unescapeOoxml(value);
          break;
        case 'b':
          out = value === '' ? '' : value.trim() === '1' || value.trim() === 'true' ? 'TRUE' : 'FALSE';
          break;
        case 'e':
          out = '';
          break;
        case 'd':
          out = /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : value;
          break;
        default: {
          const v = value.trim();
          const n = Number(v);
          if (v === '' || !Number.isFinite(n)) out = v;
          else if (dates[style] === 1) out = excelSerialToIso(n, date1904) ?? v;
          else out = /e/i.test(v) ? String(n) : v;
        }
      }
      if (out === '') return;
      if (col >= caps.columns) {
        throw new FileRefused(`${where()} is beyond the ${caps.columns} columns a list can have`);
      }
      while (cells.length < col) cells.push('');
      cells[col] = out;
    };
    const scanner = new XmlScanner({
      open(name, raw) {
        if (!inData) {
          if (name === 'sheetData') inData = true;
          return;
        }
        switch (name) {
          case 'row': {
            const r = Number(attr(raw, 'r'));
            rowNo = Number.isInteger(r) && r > 0 ? r : rowNo + 1;
            if (++rows > caps.rows)
              throw tooLarge(`Sheet '${sheet.name}' has more than ${caps.rows.toLocaleString('en-US')} rows`);
            cells = [];
            cursor = 0;
            break;
          }
          case 'c': {
            const r = attr(raw, 'r');
            const ref = r ? columnIndex(r) : -1;
            col = ref >= 0 ? ref : cursor;
            cursor = col + 1;
            type = attr(raw, 't') ?? '';
            const st = attr(raw, 's');
            style = st ? Number(st) : 0;
            value = '';
            break;
          }
          case 'v':
            inValue = true;
            break;
          case 'is':
            inline = true;
            break;
          case 'rPh':
            rph++;
            break;
          case 't':
            if (inline && rph === 0) inValue = true;
            break;
        }
      },
      close(name) {
        if (!inData) return;
        switch (name) {
          case 'v':
          case 't':
            inValue = false;
            break;
          case 'is':
            inline = false;
            break;
          case 'rPh':
            rph--;
            break;
          case 'c':
            finishCell();
            break;
          case 'row':
            if (cells.some((c) => c.trim() !== '')) ready.push({ r: rowNo, cells });
            cells = [];
            break;
          case 'sheetData':
            inData = false;
            done = true;
            break;
        }
      },
      text(t) {
        if (!inValue) return;
        value += t;
        if (value.length > caps.cellChars) {
          throw tooLarge(`${where()} holds more than ${caps.cellChars.toLocaleString('en-US')} characters`);
        }
      },
    });
    const read = new Deadline(caps.readSeconds, this.label);
    // Rows are handed on after each chunk; scanning stops at </sheetData> (what follows is layout, not data).
    const chunks = this.archive.chunks(entry, {
      maxBytes: caps.sheetBytes,
      what: `Sheet '${sheet.name}'`,
      deadline: read,
    });
    let decoder: StringDecoder | null = null;
    try {
      for await (const chunk of chunks) {
        if (!decoder) decoder = new StringDecoder(chunk[0] === 0xff && chunk[1] === 0xfe ? 'utf16le' : 'utf8');
        scanner.write(decoder.write(chunk));
        yield* ready.splice(0);
        if (done) return;
      }
      scanner.write(decoder?.end() ?? '');
      scanner.end();
      yield* ready.splice(0);
    } finally {
      await chunks.return(undefined);
    }
  }
}

/** A relationship target: absolute ("/xl/worksheets/sheet1.xml") or relative to the source part's folder. */
function resolveTarget(dir: string, target: string): string {
  let t = target;
  try {
    t = decodeURIComponent(target);
  } catch {
    // a literal % in a part name
  }
  t = t.replace(/\\/g, '/');
  if (t.startsWith('/')) return path.posix.normalize(t).replace(/^\/+/, '');
  return path.posix.normalize(path.posix.join(dir, t)).replace(/^(\.\.\/)+/, '');
}

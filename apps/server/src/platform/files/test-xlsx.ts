/**
 * Workbooks as the software people use writes them, built part by part for the reader's tests: Excel (shared strings
 * with rich text and phonetic runs, relative targets, a date style), LibreOffice, Google Sheets / openpyxl (absolute
 * targets), streaming writers (inline strings, no `r`, no styles), the OpenXML SDK (prefixed elements), and the parts
 * in any order. Each sheet is a list of rows of cells; a cell is a plain value or one written exactly as given.
 */
import type { ZipPart } from './test-zip.js';

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG = 'http://schemas.openxmlformats.org/package/2006/relationships';
const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export type Cell = string | number | boolean | null | { xml: string } | { date: number } | { iso: string };
export interface SheetSpec {
  name: string;
  rows: Cell[][];
  hidden?: boolean;
}

export interface XlsxStyle {
  strings: 'shared' | 'inline';
  /** Write r="A1" / r="1" references. */
  refs: boolean;
  /** Relationship targets: relative ("worksheets/sheet1.xml") or absolute ("/xl/worksheets/sheet1.xml"). */
  targets: 'relative' | 'absolute';
  /** Element prefix, as the OpenXML SDK writes ("x:"). */
  prefix: string;
  styles: boolean;
  date1904: boolean;
  /** Part order: 'excel' (content types first), 'reversed', or 'sheets-first'. */
  order: 'excel' | 'reversed' | 'sheets-first';
  /** A chart sheet before the worksheets. */
  chartSheet: boolean;
}

const DEFAULT: XlsxStyle = {
  strings: 'shared',
  refs: true,
  targets: 'relative',
  prefix: '',
  styles: true,
  date1904: false,
  order: 'excel',
  chartSheet: false,
};

const colName = (i: number) => {
  let s = '';
  for (let n = i + 1; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
};

export function xlsxParts(sheets: SheetSpec[], style: Partial<XlsxStyle> = {}): ZipPart[] {
  const o = { ...DEFAULT, ...style };
  const p = o.prefix;
  const ns = p ? `xmlns:${p.slice(0, -1)}="${MAIN}"` : `xmlns="${MAIN}"`;
  const shared: string[] = [];
  const sharedIndex = new Map<string, number>();
  const str = (s: string) => {
    if (!sharedIndex.has(s)) {
      sharedIndex.set(s, shared.length);
      shared.push(s);
    }
    return sharedIndex.get(s)!;
  };
  const target = (t: string) => (o.targets === 'absolute' ? `/xl/${t}` : t);
  const sheetParts: ZipPart[] = sheets.map((sheet, si) => {
    let xml = `${XML}<${p}worksheet ${ns} xmlns:r="${REL}"><${p}dimension ref="A1"/><${p}sheetData>`;
    sheet.rows.forEach((row, ri) => {
      const r = ri + 1;
      xml += o.refs ? `<${p}row r="${r}">` : `<${p}row>`;
      row.forEach((v, ci) => {
        if (v === null) return;
        const ref = o.refs ? ` r="${colName(ci)}${r}"` : '';
        if (typeof v === 'object' && 'xml' in v) xml += v.xml;
        else if (typeof v === 'object' && 'date' in v) xml += `<${p}c${ref} s="1"><${p}v>${v.date}</${p}v></${p}c>`;
        else if (typeof v === 'object' && 'iso' in v) xml += `<${p}c${ref} t="d"><${p}v>${v.iso}</${p}v></${p}c>`;
        else if (typeof v === 'number') xml += `<${p}c${ref}><${p}v>${v}</${p}v></${p}c>`;
        else if (typeof v === 'boolean') xml += `<${p}c${ref} t="b"><${p}v>${v ? 1 : 0}</${p}v></${p}c>`;
        else if (o.strings === 'shared') xml += `<${p}c${ref} t="s"><${p}v>${str(v)}</${p}v></${p}c>`;
        else xml += `<${p}c${ref} t="inlineStr"><${p}is><${p}t xml:space="preserve">${esc(v)}</${p}t></${p}is></${p}c>`;
      });
      xml += `</${p}row>`;
    });
    xml += `</${p}sheetData><${p}mergeCells count="1"><${p}mergeCell ref="A1:B1"/></${p}mergeCells></${p}worksheet>`;
    return { name: `xl/worksheets/sheet${si + 1}.xml`, data: xml };
  });

  const rels: string[] = [];
  const sheetTags: string[] = [];
  let rid = 1;
  if (o.chartSheet) {
    rels.push(`<Relationship Id="rId${rid}" Type="${REL}/chartsheet" Target="${target('chartsheets/sheet1.xml')}"/>`);
    sheetTags.push(`<${p}sheet name="Chart" sheetId="${rid}" r:id="rId${rid}"/>`);
    rid++;
  }
  sheets.forEach((s, i) => {
    rels.push(
      `<Relationship Id="rId${rid}" Type="${REL}/worksheet" Target="${target(`worksheets/sheet${i + 1}.xml`)}"/>`,
    );
    const state = s.hidden ? ' state="hidden"' : '';
    sheetTags.push(`<${p}sheet name="${esc(s.name)}" sheetId="${rid}"${state} r:id="rId${rid}"/>`);
    rid++;
  });
  if (o.strings === 'shared')
    rels.push(`<Relationship Id="rId${rid++}" Type="${REL}/sharedStrings" Target="${target('sharedStrings.xml')}"/>`);
  if (o.styles) rels.push(`<Relationship Id="rId${rid++}" Type="${REL}/styles" Target="${target('styles.xml')}"/>`);

  const workbook = `${XML}<${p}workbook ${ns} xmlns:r="${REL}"><${p}workbookPr${o.date1904 ? ' date1904="1"' : ''}/><${p}sheets>${sheetTags.join('')}</${p}sheets><${p}definedNames><${p}definedName name="_xlnm._FilterDatabase" localSheetId="0" hidden="1">Sheet1!$A$1:$B$2</${p}definedName></${p}definedNames></${p}workbook>`;
  const CT = 'application/vnd.openxmlformats-officedocument.spreadsheetml';
  const overrides = [
    `<Override PartName="/xl/workbook.xml" ContentType="${CT}.sheet.main+xml"/>`,
    ...sheets.map(
      (_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="${CT}.worksheet+xml"/>`,
    ),
    o.styles ? `<Override PartName="/xl/styles.xml" ContentType="${CT}.styles+xml"/>` : '',
    o.strings === 'shared' ? `<Override PartName="/xl/sharedStrings.xml" ContentType="${CT}.sharedStrings+xml"/>` : '',
    o.chartSheet ? `<Override PartName="/xl/chartsheets/sheet1.xml" ContentType="${CT}.chartsheet+xml"/>` : '',
  ].join('');
  const parts: ZipPart[] = [
    {
      name: '[Content_Types].xml',
      data: `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${overrides}</Types>`,
    },
    {
      name: '_rels/.rels',
      data: `${XML}<Relationships xmlns="${PKG}"><Relationship Id="rId3" Type="${REL}/extended-properties" Target="docProps/app.xml"/><Relationship Id="rId1" Type="${REL}/officeDocument" Target="${o.targets === 'absolute' ? '/xl/workbook.xml' : 'xl/workbook.xml'}"/></Relationships>`,
    },
    { name: 'docProps/app.xml', data: `${XML}<Properties><Application>Test</Application></Properties>` },
    { name: 'xl/workbook.xml', data: workbook },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: `${XML}<Relationships xmlns="${PKG}">${rels.join('')}</Relationships>`,
    },
  ];
  if (o.styles) {
    parts.push({
      name: 'xl/styles.xml',
      data: `${XML}<${p}styleSheet ${ns}><${p}numFmts count="1"><${p}numFmt numFmtId="164" formatCode="[$-409]mmmm\\ d&quot;, &quot;yyyy;@"/></${p}numFmts><${p}cellStyleXfs count="1"><${p}xf numFmtId="0"/></${p}cellStyleXfs><${p}cellXfs count="3"><${p}xf numFmtId="0" xfId="0"/><${p}xf numFmtId="14" xfId="0" applyNumberFormat="1"/><${p}xf numFmtId="164" xfId="0" applyNumberFormat="1"/></${p}cellXfs></${p}styleSheet>`,
    });
  }
  if (o.strings === 'shared') {
    const si = shared.map((s) => `<${p}si><${p}t xml:space="preserve">${esc(s)}</${p}t></${p}si>`).join('');
    parts.push({
      name: 'xl/sharedStrings.xml',
      data: `${XML}<${p}sst ${ns} count="${shared.length}" uniqueCount="${shared.length}">${si}</${p}sst>`,
    });
  }
  if (o.chartSheet) parts.push({ name: 'xl/chartsheets/sheet1.xml', data: `${XML}<chartsheet xmlns="${MAIN}"/>` });
  const all = [...parts, ...sheetParts];
  if (o.order === 'reversed') return all.reverse();
  if (o.order === 'sheets-first') return [...sheetParts, ...parts.slice().reverse()];
  return all;
}

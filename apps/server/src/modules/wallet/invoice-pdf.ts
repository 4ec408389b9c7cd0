/**
 * A one-page PDF invoice, written by hand: PDF 1.4 with the standard Helvetica fonts (every reader has them, nothing
 * embedded), one content stream of text and rules, and an exact cross-reference table. A few kilobytes, no
 * dependency. Text is limited to what WinAnsiEncoding prints; anything else becomes '?'.
 */

export interface InvoiceData {
  number: string;
  issuedAt: Date;
  company: string;
  billedTo: { name: string; email: string };
  lines: Array<{ description: string; amount: string }>;
  total: string;
  paidWith: string;
  note?: string;
}

/** A PDF string literal: backslash and parentheses escaped, outside printable Latin-1 replaced. */
function text(s: string) {
  const safe = [...s].map((c) => (c.charCodeAt(0) >= 32 && c.charCodeAt(0) <= 255 ? c : '?')).join('');
  return `(${safe.replace(/[\\()]/g, (c) => `\\${c}`)})`;
}

/** Width of Helvetica text in points, close enough to right-align amounts (digits and '$,.' are 556/1000). */
const width = (s: string, size: number) => s.length * 0.556 * size;

export function invoicePdf(inv: InvoiceData): Buffer {
  const ops: string[] = [];
  const put = (x: number, y: number, s: string, size = 10, bold = false) =>
    ops.push(`BT /${bold ? 'F2' : 'F1'} ${size} Tf ${x} ${y} Td ${text(s)} Tj ET`);
  const right = (xRight: number, y: number, s: string, size = 10, bold = false) =>
    put(Math.round(xRight - width(s, size)), y, s, size, bold);
  const rule = (y: number, grey = 0.8) => ops.push(`${grey} G 0.75 w 56 ${y} m 556 ${y} l S`);

  put(56, 770, 'Harbor', 22, true);
  right(556, 774, 'INVOICE', 16, true);
  put(56, 752, inv.company, 10);
  right(556, 752, `No. ${inv.number}`, 10);
  right(556, 738, inv.issuedAt.toLocaleDateString('en-US', { dateStyle: 'long', timeZone: 'UTC' }), 10);
  rule(720);
  put(56, 700, 'Billed to', 9, true);
  put(56, 686, inv.billedTo.name, 10);
  put(56, 672, inv.billedTo.email, 10);
  put(330, 700, 'Paid with', 9, true);
  put(330, 686, inv.paidWith, 10);
  rule(650);
  put(56, 634, 'Description', 9, true);
  right(556, 634, 'Amount (USD)', 9, true);
  rule(626);
  let y = 608;
  for (const line of inv.lines) {
    put(56, y, line.description.slice(0, 80), 10);
    right(556, y, line.amount, 10);
    y -= 18;
  }
  rule(y + 6);
  right(470, y - 12, 'Total paid', 11, true);
  right(556, y - 12, inv.total, 11, true);
  if (inv.note) put(56, y - 48, inv.note.slice(0, 100), 9);
  put(56, 60, 'Thank you. This invoice was issued by Harbor for a prepaid wallet payment.', 8);

  const content = ops.join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
    `<< /Title ${text(`Invoice ${inv.number}`)} /Producer (Harbor) /CreationDate (D:${pdfDate(inv.issuedAt)}) >>`,
  ];
  let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  for (const [i, body] of objects.entries()) {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  }
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info ${objects.length} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

const pdfDate = (d: Date) => d.toISOString().replace(/[-:T]/g, '').slice(0, 14);

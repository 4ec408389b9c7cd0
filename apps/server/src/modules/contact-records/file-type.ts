/**
 * Does an upload's content match what it claims to be? The extension picks the kind; the declared MIME type must be
 * one the kind allows; the bytes must carry the kind's signature (for docx/xlsx: a zip holding the Word or Excel
 * part; for csv/txt: decodable text with no binary control bytes). Anything else is refused before storing.
 */
import { FILE_KINDS, type FileKind, hasOwnKey } from '@harbor/shared';
import yauzl from 'yauzl';

export type FileCheck = { ok: true; kind: FileKind; contentType: string } | { ok: false; message: string };

const startsWith = (buf: Buffer, sig: number[] | string) =>
  buf.subarray(0, sig.length).equals(typeof sig === 'string' ? Buffer.from(sig, 'latin1') : Buffer.from(sig));

/** Names of the entries of a zip held in memory (central directory only; nothing is inflated). */
function zipEntries(buf: Buffer): Promise<string[] | null> {
  return new Promise((resolve) => {
    yauzl.fromBuffer(buf, { lazyEntries: true, validateEntrySizes: false }, (err, zip) => {
      if (err || !zip) return resolve(null);
      const names: string[] = [];
      zip.on('entry', (e: yauzl.Entry) => {
        names.push(e.fileName);
        if (names.length > 10_000) {
          zip.close();
          resolve(names);
        } else zip.readEntry();
      });
      zip.on('end', () => resolve(names));
      zip.on('error', () => resolve(null));
      zip.readEntry();
    });
  });
}

/** Plain text: valid UTF-8 (a BOM allowed) or single-byte text, and no NUL or other binary control bytes. */
function looksLikeText(buf: Buffer): boolean {
  const sample = buf.subarray(0, 64 * 1024);
  for (const b of sample) {
    if (b === 0) return false;
    if (b < 0x20 && b !== 0x09 && b !== 0x0a && b !== 0x0d && b !== 0x0c) return false;
  }
  return true;
}

async function contentMatches(kind: FileKind, buf: Buffer): Promise<boolean> {
  switch (kind) {
    case 'pdf':
      return startsWith(buf, '%PDF-');
    case 'png':
      return startsWith(buf, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    case 'jpg':
    case 'jpeg':
      return startsWith(buf, [0xff, 0xd8, 0xff]);
    case 'gif':
      return startsWith(buf, 'GIF87a') || startsWith(buf, 'GIF89a');
    case 'docx':
    case 'xlsx': {
      if (!startsWith(buf, [0x50, 0x4b, 0x03, 0x04])) return false;
      const names = await zipEntries(buf);
      const part = kind === 'docx' ? 'word/document.xml' : 'xl/workbook.xml';
      return Boolean(names?.includes('[Content_Types].xml') && names.includes(part));
    }
    case 'csv':
    case 'txt':
      return buf.length > 0 && looksLikeText(buf);
  }
}

export async function checkUpload(fileName: string, declaredType: string, buf: Buffer): Promise<FileCheck> {
  const ext = fileName.toLowerCase().match(/\.([a-z0-9]{1,5})$/)?.[1];
  if (!ext || !hasOwnKey(FILE_KINDS, ext)) {
    return { ok: false, message: `must be one of: ${Object.keys(FILE_KINDS).join(', ')}` };
  }
  const kind = ext as FileKind;
  const allowed: readonly string[] = FILE_KINDS[kind];
  const declared = declaredType.split(';')[0].trim().toLowerCase();
  // Browsers send octet-stream when they do not know a type; the bytes decide then.
  if (declared && declared !== 'application/octet-stream' && !allowed.includes(declared)) {
    return { ok: false, message: `is declared as ${declared}, which does not match a .${kind} file` };
  }
  if (buf.length === 0) return { ok: false, message: 'is empty' };
  if (!(await contentMatches(kind, buf))) {
    return { ok: false, message: `content is not a valid .${kind} file` };
  }
  return { ok: true, kind, contentType: allowed[0] };
}

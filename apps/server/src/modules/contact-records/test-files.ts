/** Tiny well-formed samples of each accepted kind, for the upload tests (built in memory, nothing checked in). */
import { makeZip } from '../imports/fixtures/zip.js';

/** A zip with stored (uncompressed) entries: enough for docx/xlsx structure checks. */
export const storedZip = (entries: Record<string, string>): Buffer =>
  makeZip(Object.entries(entries).map(([name, data]) => ({ name, data })));

export const SAMPLES = {
  pdf: Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n'),
  png: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]),
  jpg: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0]),
  gif: Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'),
  docx: storedZip({ '[Content_Types].xml': '<Types/>', 'word/document.xml': '<w:document/>' }),
  xlsx: storedZip({ '[Content_Types].xml': '<Types/>', 'xl/workbook.xml': '<workbook/>' }),
  csv: Buffer.from('first_name,last_name\nMary,Smith\n'),
  txt: Buffer.from('Called on Monday; wants a Part D quote.\n'),
};

/** A multipart/form-data body with one file part, as a browser would send it. */
export function multipart(fileName: string, contentType: string, data: Buffer, boundary = 'harborTestBoundary') {
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return {
    body: Buffer.concat([head, data, tail]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

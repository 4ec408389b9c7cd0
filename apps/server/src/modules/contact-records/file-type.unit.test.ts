import { describe, expect, it } from 'vitest';
import { checkUpload } from './file-type.js';
import { SAMPLES, storedZip } from './test-files.js';

const TYPES: Record<keyof typeof SAMPLES, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv',
  txt: 'text/plain',
};

describe('checkUpload', () => {
  it('accepts each kind whose bytes match', async () => {
    for (const [ext, buf] of Object.entries(SAMPLES)) {
      const r = await checkUpload(`sample.${ext}`, TYPES[ext as keyof typeof SAMPLES], buf);
      expect(r, ext).toMatchObject({ ok: true });
    }
  });

  it('accepts octet-stream when the bytes match the extension', async () => {
    expect(await checkUpload('scan.PDF', 'application/octet-stream', SAMPLES.pdf)).toMatchObject({
      ok: true,
      kind: 'pdf',
    });
  });

  it('refuses content that does not match the extension', async () => {
    expect(await checkUpload('scan.pdf', 'application/pdf', SAMPLES.png)).toMatchObject({ ok: false });
    expect(await checkUpload('photo.png', 'image/png', SAMPLES.jpg)).toMatchObject({ ok: false });
    expect(await checkUpload('notes.txt', 'text/plain', SAMPLES.png)).toMatchObject({ ok: false });
    // A zip that is not a Word document is not a docx; an xlsx is not a docx either.
    expect(await checkUpload('a.docx', TYPES.docx, storedZip({ 'x.txt': 'x' }))).toMatchObject({ ok: false });
    expect(await checkUpload('a.docx', TYPES.docx, SAMPLES.xlsx)).toMatchObject({ ok: false });
    expect(await checkUpload('a.xlsx', TYPES.xlsx, Buffer.from('PK\x03\x04garbage'))).toMatchObject({ ok: false });
  });

  it('refuses a declared type that contradicts the extension', async () => {
    const r = await checkUpload('scan.pdf', 'image/png', SAMPLES.pdf);
    expect(r).toEqual({ ok: false, message: 'is declared as image/png, which does not match a .pdf file' });
  });

  it('refuses unknown extensions and empty files', async () => {
    expect(await checkUpload('tool.exe', 'application/octet-stream', Buffer.from('MZ'))).toMatchObject({ ok: false });
    expect(await checkUpload('noext', 'text/plain', SAMPLES.txt)).toMatchObject({ ok: false });
    expect(await checkUpload('empty.txt', 'text/plain', Buffer.alloc(0))).toEqual({ ok: false, message: 'is empty' });
  });
});

/**
 * Minimal local-disk file store for attachments (DATA_DIR/files/<company>/...). The contacts-detail branch builds
 * the real storage port (integrations/storage); this writer keeps the same idea — a key per file — until it lands.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export async function storeFile(dataDir: string, companyId: number, name: string, body: Readable) {
  const safe =
    path
      .basename(name)
      .replace(/[^\w.-]+/g, '_')
      .slice(-120) || 'file';
  const key = `${companyId}/${crypto.randomUUID()}-${safe}`;
  const target = path.join(dataDir, 'files', key);
  await fs.promises.mkdir(path.dirname(target), { recursive: true });
  let size = 0;
  body.on('data', (c: Buffer) => {
    size += c.length;
  });
  await pipeline(body, fs.createWriteStream(target));
  return { key, size };
}

const TYPES: Record<string, string> = {
  pdf: 'application/pdf',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  txt: 'text/plain',
  csv: 'text/csv',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
};
export const contentTypeOf = (name: string) =>
  TYPES[name.toLowerCase().split('.').pop() ?? ''] ?? 'application/octet-stream';

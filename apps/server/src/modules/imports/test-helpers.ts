/** Test helpers for the imports area: multipart bodies as a browser sends them, fixtures by name. */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect } from 'vitest';
import type { Client, TestApp } from '../../../test/harness.js';

export const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, 'fixtures', name));

export function multipart(fields: Record<string, unknown>, file?: { name: string; data: Buffer | string }) {
  const boundary = `----harbor${crypto.randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    if (v === undefined) continue;
    const value = typeof v === 'string' ? v : JSON.stringify(v);
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      ),
      Buffer.isBuffer(file.data) ? file.data : Buffer.from(file.data),
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

export function upload(
  client: Client,
  url: string,
  file: { name: string; data: Buffer | string } | undefined,
  fields: Record<string, unknown> = {},
) {
  const m = multipart(fields, file);
  return client.request('POST', url, m.body, { 'content-type': m.contentType });
}

/** Starts an import and waits for every job (the import and its compaction); answers the attempt id. */
export async function importAndWait(
  t: TestApp,
  client: Client,
  file: { name: string; data: Buffer },
  fields: Record<string, unknown> = {},
  url = '/v1/contacts/import',
): Promise<number> {
  const res = await upload(client, url, file, fields);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  await t.deps.jobs.drain();
  return res.body.id as number;
}

/** A CSV upload from lines. */
export const csv = (name: string, lines: string[]) => ({ name, data: Buffer.from(lines.join('\n')) });

export const fx = (name: string) => ({ name, data: fixture(name) });

/**
 * Uploads and stored attachments of a test file go to a directory of its own (removed after the file), not the
 * repository's data/. Call at the top level of a test file.
 */
export function testDataDir() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-imports-test-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  return { DATA_DIR: dir };
}

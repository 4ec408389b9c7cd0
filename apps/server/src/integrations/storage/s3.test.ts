/**
 * The S3 adapter against a real S3-compatible server on loopback (s3rver: the REST API over HTTP, access keys checked;
 * it does not recompute Signature V4, so the signing itself is the AWS SDK's), alone and as the app's storage: a contact file uploaded through the API lands in the bucket and downloads back.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO, signIn } from '../../../test/harness.js';
import { multipart } from '../../modules/contact-records/test-files.js';
import { newContact } from '../../modules/contacts/test-helpers.js';
import { S3Storage } from './s3.js';

const BUCKET = 'harbor-files';
let server: S3rver;
let endpoint: string;
let dir: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-s3-'));
  server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: BUCKET }],
  });
  const { port } = (await server.run()) as { port: number };
  endpoint = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const read = async (s: Readable | null) => {
  if (!s) return null;
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks);
};
const objects = () =>
  (fs.readdirSync(path.join(dir, BUCKET), { recursive: true }) as string[]).filter((f) =>
    f.endsWith('._S3rver_object'),
  );

describe('S3Storage', () => {
  it('puts, gets the same bytes, answers null for a missing key and deletes idempotently, under its prefix', async () => {
    const s3 = new S3Storage({ bucket: BUCKET, endpoint, prefix: 'tenant-a/', ...credentials });
    const data = Buffer.from('%PDF-1.4 a policy document');
    await s3.put('contacts/1/files/1', data, 'application/pdf');
    expect((await read(await s3.get('contacts/1/files/1')))?.equals(data)).toBe(true);
    expect(objects().some((f) => f.startsWith(path.join('tenant-a', 'contacts', '1', 'files', '1')))).toBe(true);
    expect(await s3.get('contacts/1/files/2')).toBeNull();
    await s3.delete('contacts/1/files/1');
    await s3.delete('contacts/1/files/1');
    expect(await s3.get('contacts/1/files/1')).toBeNull();
    s3.close();
  });

  it('refuses keys that could climb out of the store, and credentials the store does not know', async () => {
    const s3 = new S3Storage({ bucket: BUCKET, endpoint, ...credentials });
    await expect(s3.put('../etc/passwd', Buffer.from('x'), 'text/plain')).rejects.toThrow(/invalid storage key/);
    const wrong = new S3Storage({ bucket: BUCKET, endpoint, accessKeyId: 'NOT-A-KEY', secretAccessKey: 'S3RVER' });
    await expect(wrong.put('contacts/9/files/9', Buffer.from('x'), 'text/plain')).rejects.toThrow(/Access Key Id/);
    s3.close();
    wrong.close();
  });

  it('serves as the app storage: a contact file goes to the bucket and downloads back', async () => {
    const t = await createTestApp({
      env: {
        STORAGE_S3_BUCKET: BUCKET,
        STORAGE_S3_ENDPOINT: endpoint,
        STORAGE_S3_PREFIX: 'app',
        STORAGE_S3_ACCESS_KEY_ID: 'S3RVER',
        STORAGE_S3_SECRET_ACCESS_KEY: 'S3RVER',
      },
    });
    try {
      const agent = await signIn(t.app, DEMO('agent'));
      const c = await newContact(agent);
      const before = objects().filter((f) => f.startsWith(`app${path.sep}`)).length;
      const body = Buffer.from('name,phone\nIvy,5556100001\n');
      const form = multipart('list.csv', 'text/csv', body);
      const up = await agent.request('POST', `/v1/contacts/${c.number}/files`, form.body, form.headers);
      expect(up.status, JSON.stringify(up.body)).toBe(201);
      expect(objects().filter((f) => f.startsWith(`app${path.sep}`)).length).toBe(before + 1);
      const dl = await agent.get(up.body.download_url);
      expect(dl.status).toBe(200);
      expect(dl.body).toBe(body.toString());
      expect((await agent.delete(`/v1/contacts/${c.number}/files/${up.body.id}`)).status).toBe(204);
      expect(objects().filter((f) => f.startsWith(`app${path.sep}`)).length).toBe(before);
    } finally {
      await t.close();
    }
  });
});

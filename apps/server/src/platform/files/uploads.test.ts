/**
 * Every upload route and the JSON body limit, over a real socket (app.inject hands the body over in one piece and
 * hid the bug): a part over its limit is a 413 naming the file, a JSON body over its limit a 413 naming the body,
 * and a list of ids over the spec's own limit is answered with that limit, not with the body's.
 */
import fs from 'node:fs';
import { MAX_FILE_BYTES, MAX_IMAGE_BYTES, MAX_TRANSFER_LIMIT } from '@harbor/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, signIn, type TestApp } from '../../../test/harness.js';
import { newContact } from '../../modules/contacts/test-helpers.js';
import { testDataDir } from '../../modules/imports/test-helpers.js';

let t: TestApp;
let base: string;
let admin: Client;
const dataDir = testDataDir();
const previousMax = process.env.IMPORT_MAX_MB;

beforeAll(async () => {
  // The imports' multipart limit is read when the app is built.
  process.env.IMPORT_MAX_MB = '2';
  t = await createTestApp({ env: dataDir });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  admin = await signIn(t.app, DEMO('admin'));
});
afterAll(async () => {
  if (previousMax === undefined) delete process.env.IMPORT_MAX_MB;
  else process.env.IMPORT_MAX_MB = previousMax;
  await t.close();
});

/** A request over the socket with the client's session and CSRF token. */
async function send(
  client: Client,
  method: string,
  url: string,
  body: NonNullable<RequestInit['body']>,
  type?: string,
) {
  await client.get('/v1/health');
  const headers: Record<string, string> = {
    cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    'x-csrf-token': client.cookies.get('csrf_token') ?? '',
    origin: 'http://localhost:3000',
  };
  if (type) headers['content-type'] = type;
  const res = await fetch(`${base}${url}`, { method, body, headers });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

const form = (field: string, name: string, type: string, data: Buffer) => {
  const fd = new FormData();
  fd.append(field, new Blob([data], { type }), name);
  return fd;
};
const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const storedBlobs = async () =>
  Number((await t.database.query<{ n: number }>('select count(*)::int n from stored_blobs'))[0].n);

describe('uploads over their limit answer 413 naming the file', () => {
  it('a 60 MB profile picture (was 422 "could not be read as an image")', async () => {
    const before = (await admin.get('/v1/users/me')).body.profile.personal_photo;
    const big = Buffer.concat([PNG_HEAD, Buffer.alloc(60 * 1024 * 1024)]);
    const res = await send(
      admin,
      'PATCH',
      '/v1/users/update_profile',
      form('personal_photo', 'me.png', 'image/png', big),
    );
    expect(res).toEqual({
      status: 413,
      body: { errors: { file: [`is too large; the limit is ${MAX_IMAGE_BYTES / 1048576} MB`] } },
    });
    expect((await admin.get('/v1/users/me')).body.profile.personal_photo).toBe(before);
  });

  it('a contact file of 60 MB, with nothing stored', async () => {
    const c = await newContact(admin);
    const blobs = await storedBlobs();
    const big = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(60 * 1024 * 1024)]);
    const res = await send(
      admin,
      'POST',
      `/v1/contacts/${c.number}/files`,
      form('file', 'big.pdf', 'application/pdf', big),
    );
    expect(res).toEqual({
      status: 413,
      body: { errors: { file: [`is too large; the limit is ${MAX_FILE_BYTES / 1048576} MB`] } },
    });
    expect((await admin.get(`/v1/contacts/${c.number}/files`)).body.data).toEqual([]);
    expect(await storedBlobs()).toBe(blobs);
  });

  it('a list over IMPORT_MAX_MB, on every import route, leaving no upload behind', async () => {
    const csv = Buffer.from(`First,Last,Phone\n${'Ada,Lovelace,5552010001\n'.repeat(200_000)}`);
    for (const url of ['/v1/contacts/validate_import', '/v1/contacts/import', '/v1/contacts/leads_uploader']) {
      const res = await send(admin, 'POST', url, form('file', 'big.csv', 'text/csv', csv));
      expect(res, url).toEqual({ status: 413, body: { errors: { file: ['The file is larger than the 2 MB limit'] } } });
    }
    const zip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(3 * 1024 * 1024)]);
    for (const url of ['/v1/contacts/import_attachments', '/v1/contacts/attachments_leads_uploader']) {
      expect((await send(admin, 'POST', url, form('file', 'big.zip', 'application/zip', zip))).status, url).toBe(413);
    }
    expect(fs.readdirSync(`${dataDir.DATA_DIR}/imports`)).toEqual([]);
    expect((await admin.get('/v1/health')).status).toBe(200);
  });
});

describe('JSON bodies', () => {
  it('over the body limit: 413 naming the body and the limit', async () => {
    const body = JSON.stringify({ theme: 'x'.repeat(2 * 1024 * 1024) });
    const res = await send(admin, 'PATCH', '/v1/users/update_theme', body, 'application/json');
    expect(res).toEqual({ status: 413, body: { errors: { body: ['is too large (max 1 MB)'] } } });
  });

  it('250,001 transfer ids are refused by MAX_TRANSFER_LIMIT, not by the body limit', async () => {
    const ids = Array.from({ length: MAX_TRANSFER_LIMIT + 1 }, (_, i) => 10_000_000 + i);
    const res = await send(
      admin,
      'PATCH',
      '/v1/contacts/transfer_group',
      JSON.stringify({ ids, to_user_id: 1 }),
      'application/json',
    );
    expect(res.status).toBe(422);
    expect(res.body.errors.ids).toEqual([`at most ${MAX_TRANSFER_LIMIT} contacts can be transferred at once`]);
    // A selection of the most contacts an export takes is read to its end too (it is checked, not cut off).
    const all = Array.from({ length: 999_999 }, (_, i) => 10_000_000 + i);
    const exp = await send(admin, 'PATCH', '/v1/export.csv', JSON.stringify({ ids: all }), 'application/json');
    expect(exp.status).not.toBe(413);
  });
});

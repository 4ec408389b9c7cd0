import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MAX_IMAGE_BYTES } from '@harbor/shared';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, RECRUIT, signIn, type TestApp } from '../../../test/harness.js';
import { users } from '../../platform/db/schema.js';
import { SAMPLES } from '../contact-records/test-files.js';
import { sniffImage } from './images.js';

let t: TestApp;
let dataDir: string;
let agent: Client;
let manager: Client;
let foreign: Client;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-images-'));
  t = await createTestApp({ env: { DATA_DIR: dataDir } });
  [agent, manager, foreign] = await Promise.all([
    signIn(t.app, DEMO('agent')),
    signIn(t.app, DEMO('manager')),
    signIn(t.app, RECRUIT('admin')),
  ]);
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x20, 0, 0, 0]), Buffer.from('WEBPVP8 ')]);
/** Real pictures (the byte samples above only start like images, which sniffing needs and decoding refuses). */
const picture = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: '#f08a24' } });
let PNG: Buffer;
let JPG: Buffer;
let REAL_WEBP: Buffer;
beforeAll(async () => {
  PNG = await picture(40, 30).png().toBuffer();
  JPG = await picture(40, 30).jpeg().toBuffer();
  REAL_WEBP = await picture(40, 30).webp().toBuffer();
});

type Part = { name: string; value: string } | { name: string; file: string; type: string; data: Buffer };
function form(parts: Part[], boundary = 'harborImageBoundary') {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition =
      'file' in p
        ? `form-data; name="${p.name}"; filename="${p.file}"\r\nContent-Type: ${p.type}`
        : `form-data; name="${p.name}"`;
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n\r\n`));
    chunks.push('file' in p ? p.data : Buffer.from(p.value));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
const send = (c: Client, parts: Part[]) => {
  const { body, headers } = form(parts);
  return c.request('PATCH', '/v1/users/update_profile', body, headers);
};
const storedFiles = () => {
  const root = path.join(dataDir, 'files');
  return fs.existsSync(root)
    ? (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(root, f)).isFile())
    : [];
};
const agentCookie = () => [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
const rowOf = async (email: string) => (await t.database.db.select().from(users).where(eq(users.email, email)))[0];

describe('image sniffing', () => {
  it('knows png, jpeg, gif and webp by their bytes and nothing else', () => {
    expect(sniffImage(SAMPLES.png)).toBe('png');
    expect(sniffImage(SAMPLES.jpg)).toBe('jpeg');
    expect(sniffImage(SAMPLES.gif)).toBe('gif');
    expect(sniffImage(WEBP)).toBe('webp');
    expect(sniffImage(SAMPLES.pdf)).toBeNull();
    expect(sniffImage(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(sniffImage(Buffer.alloc(0))).toBeNull();
  });
});

describe('PATCH /v1/users/update_profile with pictures', () => {
  it('stores a photo and a logo with profile fields, serves them to the same company only', async () => {
    const res = await send(agent, [
      { name: 'first_name', value: 'Angie' },
      { name: 'personal_photo', file: 'me.png', type: 'image/png', data: PNG },
      { name: 'logo', file: 'logo.webp', type: 'application/octet-stream', data: REAL_WEBP },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.profile.first_name).toBe('Angie');
    const id = res.body.id;
    expect(res.body.profile.personal_photo).toMatch(new RegExp(`^/v1/users/${id}/photo\\?v=[0-9a-f]{8}$`));
    expect(res.body.profile.logo).toMatch(new RegExp(`^/v1/users/${id}/logo\\?v=[0-9a-f]{8}$`));
    expect(storedFiles()).toHaveLength(2);

    const photo = await manager.get(res.body.profile.personal_photo);
    expect(photo.status).toBe(200);
    expect(photo.headers['content-type']).toBe('image/png');
    expect(photo.headers['x-content-type-options']).toBe('nosniff');
    expect(Number(photo.headers['content-length'] ?? String(photo.body).length)).toBeGreaterThan(0);
    const logo = await agent.get(res.body.profile.logo);
    expect(logo.headers['content-type']).toBe('image/webp');

    // Another company's user gets the same 404 as for a missing user; nobody signed in gets 401.
    expect((await foreign.get(`/v1/users/${id}/photo`)).status).toBe(404);
    const anonymous = await t.app.inject({ method: 'GET', url: `/v1/users/${id}/photo` });
    expect(anonymous.statusCode).toBe(401);
  });

  it('replaces a photo (the old blob goes) and removes it with null', async () => {
    const before = (await agent.get('/v1/users/me')).body.profile.personal_photo;
    const res = await send(agent, [{ name: 'personal_photo', file: 'new.jpg', type: 'image/jpeg', data: JPG }]);
    expect(res.status).toBe(200);
    expect(res.body.profile.personal_photo).not.toBe(before);
    expect((await agent.get(res.body.profile.personal_photo)).headers['content-type']).toBe('image/jpeg');
    expect(storedFiles()).toHaveLength(2);

    const removed = await agent.patch('/v1/users/update_profile', { personal_photo: null });
    expect(removed.status).toBe(200);
    expect(removed.body.profile.personal_photo).toBeNull();
    expect(removed.body.profile.logo).not.toBeNull();
    expect(storedFiles()).toHaveLength(1);
    expect((await manager.get(`/v1/users/${removed.body.id}/photo`)).status).toBe(404);
  });

  it('answers 404 for a user without a logo', async () => {
    const me = (await manager.get('/v1/users/me')).body;
    expect((await agent.get(`/v1/users/${me.id}/logo`)).status).toBe(404);
  });

  it('refuses what is not an image, too large, an unknown file field or bad fields, writing nothing', async () => {
    const mgr = await rowOf(DEMO('manager'));
    const files = storedFiles().length;
    const pdf = await send(manager, [{ name: 'personal_photo', file: 'x.png', type: 'image/png', data: SAMPLES.pdf }]);
    expect(pdf.status).toBe(422);
    expect(pdf.body.errors.personal_photo[0]).toMatch(/PNG, JPEG, GIF or WebP/);
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    expect((await send(manager, [{ name: 'logo', file: 'x.svg', type: 'image/svg+xml', data: svg }])).status).toBe(422);

    const huge = Buffer.concat([PNG, Buffer.alloc(MAX_IMAGE_BYTES)]);
    const tooBig = await send(manager, [{ name: 'personal_photo', file: 'big.png', type: 'image/png', data: huge }]);
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.errors.file[0]).toMatch(/limit is 5 MB/);

    const other = await send(manager, [{ name: 'avatar', file: 'a.png', type: 'image/png', data: PNG }]);
    expect(other.status).toBe(422);
    expect(other.body.errors.avatar).toBeDefined();

    const badField = await send(manager, [
      { name: 'first_name', value: '' },
      { name: 'personal_photo', file: 'ok.png', type: 'image/png', data: PNG },
    ]);
    expect(badField.status).toBe(422);
    expect(badField.body.errors.first_name).toBeDefined();
    const roles = await send(manager, [{ name: 'roles', value: 'admin' }]);
    expect(roles.status).toBe(422);

    expect(storedFiles()).toHaveLength(files);
    const after = await rowOf(DEMO('manager'));
    expect(after.firstName).toBe(mgr.firstName);
    expect(after.personalPhoto).toBeNull();
  });

  it('shrinks a big photo, turns it upright and drops its metadata (GPS included), keeping small ones as they are', async () => {
    // A phone shot held sideways: stored 3000 x 2000 with EXIF orientation 6 (turn 90 degrees), a make and a position.
    const phone = await picture(3000, 2000)
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExif({ IFD0: { Make: 'PhoneCo' }, IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '40/1 26/1 0/1' } })
      .toBuffer();
    expect((await sharp(phone).metadata()).exif).toBeDefined();
    const res = await send(agent, [
      { name: 'personal_photo', file: 'IMG_0001.jpg', type: 'image/jpeg', data: phone },
      { name: 'logo', file: 'logo.png', type: 'image/png', data: await picture(1600, 400).png().toBuffer() },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const read = async (url: string) => {
      const r = await t.app.inject({ method: 'GET', url, headers: { cookie: agentCookie() } });
      return sharp(r.rawPayload).metadata();
    };
    const photo = await read(res.body.profile.personal_photo);
    // 3000 x 2000 shot with the phone turned: upright it is 2000 wide, 3000 high; it now fits 512 px.
    expect([photo.width, photo.height]).toEqual([341, 512]);
    expect(photo.format).toBe('jpeg');
    expect(photo.exif).toBeUndefined();
    const logo = await read(res.body.profile.logo);
    expect([logo.width, logo.height, logo.format]).toEqual([1024, 256, 'png']);
    const small = await send(agent, [{ name: 'logo', file: 'small.png', type: 'image/png', data: PNG }]);
    const kept = await read(small.body.profile.logo);
    expect([kept.width, kept.height]).toEqual([40, 30]);
  });

  it('refuses a file that only starts like an image, and a decompression bomb', async () => {
    const files = storedFiles().length;
    const broken = await send(agent, [{ name: 'personal_photo', file: 'x.png', type: 'image/png', data: SAMPLES.png }]);
    expect(broken.status).toBe(422);
    expect(broken.body.errors.personal_photo).toEqual(['could not be read as an image']);
    // 10,000 x 10,000 of one colour compresses to a few kB and would take 300 MB to decode.
    const bomb = await sharp({ create: { width: 10_000, height: 10_000, channels: 3, background: '#000' } })
      .png({ compressionLevel: 9 })
      .toBuffer();
    expect(bomb.length).toBeLessThan(MAX_IMAGE_BYTES);
    const res = await send(agent, [{ name: 'logo', file: 'bomb.png', type: 'image/png', data: bomb }]);
    expect(res.status).toBe(422);
    expect(res.body.errors.logo).toEqual(['has too many pixels to be a picture']);
    expect(storedFiles()).toHaveLength(files);
  });

  it('still takes JSON bodies, with the same strictness', async () => {
    expect((await manager.patch('/v1/users/update_profile', { about_me: 'Medicare since 2009' })).status).toBe(200);
    expect((await manager.patch('/v1/users/update_profile', { personal_photo: 'http://x' })).status).toBe(422);
  });
});

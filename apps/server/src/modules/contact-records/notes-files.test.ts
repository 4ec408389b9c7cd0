import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MAX_FILE_BYTES } from '@harbor/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, RECRUIT, signIn, type TestApp } from '../../../test/harness.js';
import { contactFiles, contacts, notes } from '../contacts/schema.js';
import { newContact } from '../contacts/test-helpers.js';
import { multipart, SAMPLES } from './test-files.js';

let t: TestApp;
let dataDir: string;
let admin: Client;
let manager: Client;
let agent: Client;
let telemarketer: Client;
let foreign: Client;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-files-'));
  t = await createTestApp({ env: { DATA_DIR: dataDir } });
  [admin, manager, agent, telemarketer, foreign] = await Promise.all([
    signIn(t.app, DEMO('admin')),
    signIn(t.app, DEMO('manager')),
    signIn(t.app, DEMO('agent')),
    signIn(t.app, DEMO('telemarketer')),
    signIn(t.app, RECRUIT('admin')),
  ]);
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const storedFiles = () => {
  const root = path.join(dataDir, 'files');
  return fs.existsSync(root)
    ? (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(root, f)).isFile())
    : [];
};
const upload = (client: Client, number: number, name: string, type: string, data: Buffer) => {
  const { body, headers } = multipart(name, type, data);
  return client.request('POST', `/v1/contacts/${number}/files`, body, headers);
};

describe('notes', () => {
  it('adds, lists, edits and deletes notes, each on the timeline', async () => {
    const c = await newContact(agent);
    const created = await agent.post(`/v1/contacts/${c.number}/notes`, { body: 'First call went well.' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ body: 'First call went well.', author: { name: 'Angela Diaz' } });
    await agent.post(`/v1/contacts/${c.number}/notes`, { body: 'Second' });
    const list = await manager.get(`/v1/contacts/${c.number}/notes`);
    expect(list.body.data.map((n: { body: string }) => n.body)).toEqual(['Second', 'First call went well.']);
    const edited = await agent.patch(`/v1/contacts/${c.number}/notes/${created.body.id}`, { body: 'Edited' });
    expect(edited.body.body).toBe('Edited');
    expect((await agent.delete(`/v1/contacts/${c.number}/notes/${created.body.id}`)).status).toBe(204);
    const detail = (await agent.get(`/v1/contacts/${c.number}`)).body;
    expect(detail.timeline.slice(0, 4).map((e: { kind: string }) => e.kind)).toEqual([
      'note_deleted',
      'note_edited',
      'note_added',
      'note_added',
    ]);
    expect(detail.timeline[0].data.body).toBe('Edited');
  });

  it("refuses empty and unknown bodies, other people's notes for agents, and foreign or mismatched ids", async () => {
    const c = await newContact(agent);
    expect((await agent.post(`/v1/contacts/${c.number}/notes`, { body: '  ' })).status).toBe(422);
    expect((await agent.post(`/v1/contacts/${c.number}/notes`, { body: 'x', author_id: 1 })).status).toBe(422);
    const managerNote = (await manager.post(`/v1/contacts/${c.number}/notes`, { body: 'From the manager' })).body;
    expect((await agent.patch(`/v1/contacts/${c.number}/notes/${managerNote.id}`, { body: 'mine now' })).status).toBe(
      403,
    );
    expect((await agent.delete(`/v1/contacts/${c.number}/notes/${managerNote.id}`)).status).toBe(403);
    const agentNote = (await agent.post(`/v1/contacts/${c.number}/notes`, { body: 'Agent note' })).body;
    expect((await manager.patch(`/v1/contacts/${c.number}/notes/${agentNote.id}`, { body: 'Fixed typo' })).status).toBe(
      200,
    );
    const other = await newContact(agent);
    expect((await agent.patch(`/v1/contacts/${other.number}/notes/${agentNote.id}`, { body: 'x' })).status).toBe(404);
    expect((await telemarketer.get(`/v1/contacts/${c.number}/notes`)).status).toBe(404);
    expect((await foreign.post(`/v1/contacts/${c.number}/notes`, { body: 'x' })).status).toBe(404);
  });

  it('keeps notes when the contact is soft-deleted', async () => {
    const c = await newContact(agent);
    await agent.post(`/v1/contacts/${c.number}/notes`, { body: 'Keep me' });
    await t.database.db.update(contacts).set({ deletedAt: new Date() }).where(eq(contacts.id, c.id));
    expect((await agent.get(`/v1/contacts/${c.number}/notes`)).body.data).toHaveLength(1);
    expect((await agent.post(`/v1/contacts/${c.number}/notes`, { body: 'x' })).status).toBe(422);
    expect(await t.database.db.select().from(notes).where(eq(notes.contactId, c.id))).toHaveLength(1);
  });
});

describe('files', () => {
  it('uploads each accepted kind, lists, downloads the same bytes and deletes', async () => {
    const c = await newContact(agent);
    const types: Record<string, string> = {
      pdf: 'application/pdf',
      png: 'image/png',
      jpg: 'image/jpeg',
      gif: 'image/gif',
      docx: 'application/octet-stream',
      xlsx: 'application/octet-stream',
      csv: 'text/csv',
      txt: 'text/plain',
    };
    for (const [ext, data] of Object.entries(SAMPLES)) {
      const res = await upload(agent, c.number, `sample.${ext}`, types[ext], data);
      expect(res.status, ext).toBe(201);
      expect(res.body).toMatchObject({
        name: `sample.${ext}`,
        size: data.length,
        uploaded_by: { name: 'Angela Diaz' },
      });
    }
    const list = (await manager.get(`/v1/contacts/${c.number}/files`)).body.data;
    expect(list).toHaveLength(8);
    const pdf = list.find((f: { name: string }) => f.name === 'sample.pdf');
    const dl = await t.app.inject({
      method: 'GET',
      url: pdf.download_url,
      headers: { cookie: [...manager.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    expect(dl.statusCode).toBe(200);
    expect(dl.headers['content-type']).toBe('application/pdf');
    expect(dl.headers['content-disposition']).toContain('attachment; filename="sample.pdf"');
    expect(dl.rawPayload.equals(SAMPLES.pdf)).toBe(true);
    const before = storedFiles().length;
    expect((await agent.delete(`/v1/contacts/${c.number}/files/${pdf.id}`)).status).toBe(204);
    expect(storedFiles().length).toBe(before - 1);
    expect((await agent.get(pdf.download_url)).status).toBe(404);
    expect((await agent.get(`/v1/contacts/${c.number}`)).body.timeline[0]).toMatchObject({
      kind: 'file_deleted',
      data: { name: 'sample.pdf' },
    });
  });

  it('refuses too-big, mismatched and unknown files with a clear message, storing nothing', async () => {
    const c = await newContact(agent);
    const before = storedFiles().length;
    const big = Buffer.concat([SAMPLES.pdf, Buffer.alloc(MAX_FILE_BYTES)]);
    const tooBig = await upload(agent, c.number, 'huge.pdf', 'application/pdf', big);
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.errors.file[0]).toBe('is too large; the limit is 25 MB');
    const fake = await upload(agent, c.number, 'invoice.pdf', 'application/pdf', SAMPLES.png);
    expect(fake.status).toBe(422);
    expect(fake.body.errors.file[0]).toBe('content is not a valid .pdf file');
    const lying = await upload(agent, c.number, 'photo.png', 'application/pdf', SAMPLES.png);
    expect(lying.status).toBe(422);
    const exe = await upload(agent, c.number, 'setup.exe', 'application/octet-stream', Buffer.from('MZ\x90\x00'));
    expect(exe.status).toBe(422);
    const json = await agent.post(`/v1/contacts/${c.number}/files`, { file: 'x' });
    expect(json.status).toBe(422);
    expect(storedFiles().length).toBe(before);
    expect(await t.database.db.select().from(contactFiles).where(eq(contactFiles.contactId, c.id))).toHaveLength(0);
  });

  it('accepts a file well above the JSON body limit and just under 25 MB', async () => {
    const c = await newContact(agent);
    const data = Buffer.concat([SAMPLES.pdf, Buffer.alloc(MAX_FILE_BYTES - SAMPLES.pdf.length - 1, 0x20)]);
    const res = await upload(agent, c.number, 'scan.pdf', 'application/pdf', data);
    expect(res.status).toBe(201);
    expect(res.body.size).toBe(data.length);
  });

  it('strips paths from names and keeps other people and companies out', async () => {
    const c = await newContact(agent);
    const res = await upload(agent, c.number, '../../etc/passwd.txt', 'text/plain', SAMPLES.txt);
    expect(res.body.name).toBe('passwd.txt');
    expect((await upload(telemarketer, c.number, 'a.txt', 'text/plain', SAMPLES.txt)).status).toBe(404);
    expect((await upload(foreign, c.number, 'a.txt', 'text/plain', SAMPLES.txt)).status).toBe(404);
    expect((await foreign.get(res.body.download_url)).status).toBe(404);
    expect((await telemarketer.delete(`/v1/contacts/${c.number}/files/${res.body.id}`)).status).toBe(404);
    const managerFile = (await upload(manager, c.number, 'm.txt', 'text/plain', SAMPLES.txt)).body;
    expect((await agent.delete(`/v1/contacts/${c.number}/files/${managerFile.id}`)).status).toBe(403);
    expect((await admin.delete(`/v1/contacts/${c.number}/files/${managerFile.id}`)).status).toBe(204);
  });
});

/** Notes on a contact: list, add, edit, delete. Every change lands on the contact's timeline (a deleted note's text too). */
import { NoContent, Note, NoteBody, NoteList, NoteParams } from '@harbor/shared';
import { and, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Db } from '../../platform/db/client.js';
import { users } from '../../platform/db/schema.js';
import { notFound } from '../../platform/http/errors.js';
import { authOf } from '../../platform/http/pipeline.js';
import { findVisibleContact } from '../contacts/access.js';
import { recordContactEvent } from '../contacts/events.js';
import { notes } from '../contacts/schema.js';
import { assertMayChange, ContactParams, contactTenant, fullName } from './shared.js';

const tags = ['contact-records'];
const config = { access: 'contacts.use', tenant: contactTenant } as const;

async function listNotes(db: Db, contactId: number, noteId?: number) {
  const rows = await db
    .select({ note: notes, first: users.firstName, last: users.lastName })
    .from(notes)
    .leftJoin(users, eq(users.id, notes.authorId))
    .where(noteId ? and(eq(notes.contactId, contactId), eq(notes.id, noteId)) : eq(notes.contactId, contactId))
    .orderBy(desc(notes.id));
  return rows.map(({ note, first, last }) => ({
    id: note.id,
    body: note.body,
    author: note.authorId ? { id: note.authorId, name: fullName(first, last) } : null,
    created_at: note.createdAt.toISOString(),
    updated_at: note.updatedAt.toISOString(),
  }));
}

async function findNote(db: Db, contactId: number, noteId: number) {
  const [row] = await db
    .select()
    .from(notes)
    .where(and(eq(notes.id, noteId), eq(notes.contactId, contactId)));
  if (!row) throw notFound('note');
  return row;
}

export function noteRoutes(scope: FastifyInstance) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const db = scope.deps.database.db;
  const event = (t: Db, auth: AuthContext, contactId: number, kind: string, data: Record<string, unknown>) =>
    recordContactEvent(t, { companyId: auth.company.id, contactId, kind, actorId: auth.user.id, data });

  app.get(
    '/v1/contacts/:id/notes',
    {
      config,
      schema: {
        tags,
        summary: 'Notes, newest first',
        params: ContactParams,
        response: { 200: NoteList },
      },
    },
    async (req) => {
      const c = await findVisibleContact(db, authOf(req), req.params.id);
      return { data: await listNotes(db, c.id) };
    },
  );

  app.post(
    '/v1/contacts/:id/notes',
    { config, schema: { tags, summary: 'Add a note', params: ContactParams, body: NoteBody, response: { 201: Note } } },
    async (req, reply) => {
      const auth = authOf(req);
      const note = await db.transaction(async (t) => {
        const c = await findVisibleContact(t, auth, req.params.id, true);
        const [row] = await t
          .insert(notes)
          .values({ companyId: auth.company.id, contactId: c.id, body: req.body.body, authorId: auth.user.id })
          .returning();
        await event(t, auth, c.id, 'note_added', { note_id: row.id, excerpt: row.body.slice(0, 200) });
        return (await listNotes(t, c.id, row.id))[0];
      });
      return reply.code(201).send(note);
    },
  );

  app.patch(
    '/v1/contacts/:id/notes/:noteId',
    { config, schema: { tags, summary: 'Edit a note', params: NoteParams, body: NoteBody, response: { 200: Note } } },
    async (req) => {
      const auth = authOf(req);
      return db.transaction(async (t) => {
        const c = await findVisibleContact(t, auth, req.params.id, true);
        const note = await findNote(t, c.id, req.params.noteId);
        assertMayChange(auth, note.authorId);
        await t.update(notes).set({ body: req.body.body, updatedAt: new Date() }).where(eq(notes.id, note.id));
        await event(t, auth, c.id, 'note_edited', { note_id: note.id, from: note.body, to: req.body.body });
        return (await listNotes(t, c.id, note.id))[0];
      });
    },
  );

  app.delete(
    '/v1/contacts/:id/notes/:noteId',
    {
      config,
      schema: {
        tags,
        summary: 'Delete a note (its text stays on the timeline)',
        params: NoteParams,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      await db.transaction(async (t) => {
        const c = await findVisibleContact(t, auth, req.params.id, true);
        const note = await findNote(t, c.id, req.params.noteId);
        assertMayChange(auth, note.authorId);
        await t.delete(notes).where(eq(notes.id, note.id));
        await event(t, auth, c.id, 'note_deleted', { note_id: note.id, body: note.body, author_id: note.authorId });
      });
      return reply.code(204).send(null);
    },
  );
}

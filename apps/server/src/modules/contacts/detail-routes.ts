/**
 * One contact: create, show (opening clears the "new" mark unless not_remove_new_tag), edit and quick update.
 * `{id}` is the contact's public number (docs/decisions/contact-path-id-is-number.md).
 */
import {
  ContactDetail,
  ContactFields,
  ContactParams,
  ContactQuickUpdateBody,
  CreateContactBody,
  ShowContactQuery,
  UpdateContactBody,
} from '@harbor/shared';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { HttpError } from '../../platform/http/errors.js';
import { authOf } from '../../platform/http/pipeline.js';
import { findVisibleContact } from './access.js';
import { presentContact } from './detail-presenter.js';
import { contacts } from './schema.js';
import { createContact, updateContact } from './write.js';

export { ContactParams };
export const contactTenant = { param: 'id', resource: 'contact' } as const;
const tags = ['contacts'];

export function contactDetailRoutes(scope: FastifyInstance) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const db = scope.deps.database.db;

  app.post(
    '/v1/contacts',
    {
      config: { access: 'contacts.use' },
      schema: { tags, summary: 'Create a contact', body: CreateContactBody, response: { 201: ContactDetail } },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const row = await db.transaction(async (tx) => createContact(tx, auth, req.body));
      return reply.code(201).send(await presentContact(db, row));
    },
  );

  app.get(
    '/v1/contacts/:id',
    {
      config: { access: 'contacts.use', tenant: contactTenant },
      schema: {
        tags,
        summary: 'A contact with its timeline; opening it clears the "new" mark unless not_remove_new_tag is set',
        params: ContactParams,
        querystring: ShowContactQuery,
        response: { 200: ContactDetail },
      },
    },
    async (req) => {
      let row = await findVisibleContact(db, authOf(req), req.params.id);
      const keep = req.query.not_remove_new_tag === 'true' || req.query.not_remove_new_tag === '1';
      if (row.isNew && !keep) {
        [row] = await db.update(contacts).set({ isNew: false }).where(eq(contacts.id, row.id)).returning();
      }
      return presentContact(db, row);
    },
  );

  app.patch(
    '/v1/contacts/:id',
    {
      config: { access: 'contacts.use', tenant: contactTenant },
      schema: {
        tags,
        summary: 'Edit a contact (only the fields given change)',
        params: ContactParams,
        body: UpdateContactBody,
        response: { 200: ContactDetail },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const row = await db.transaction(async (t) => {
        const current = await findVisibleContact(t, auth, req.params.id, true);
        if (!(req.body.first_name ?? current.firstName) && !(req.body.last_name ?? current.lastName)) {
          throw new HttpError(422, { first_name: ['a first or last name is required'] });
        }
        return updateContact(t, auth, current, req.body);
      });
      return presentContact(db, row);
    },
  );

  app.patch(
    '/v1/contacts/:id/quick_update',
    {
      config: { access: 'contacts.use', tenant: contactTenant },
      schema: {
        tags,
        summary: 'Change one field of a contact',
        params: ContactParams,
        body: ContactQuickUpdateBody,
        response: { 200: ContactDetail },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const { field, value } = req.body;
      // The one field is checked by exactly the rule the full edit form uses.
      const parsed = ContactFields.safeParse({ [field]: value });
      if (!parsed.success) {
        throw new HttpError(422, { [field]: parsed.error.issues.map((i) => i.message) });
      }
      const row = await db.transaction(async (t) => {
        const current = await findVisibleContact(t, auth, req.params.id, true);
        return updateContact(t, auth, current, parsed.data, 'quick_updated');
      });
      return presentContact(db, row);
    },
  );
}

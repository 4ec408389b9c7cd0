import { and, desc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { companyRowResolver } from '../../platform/tenancy.js';
import type { Module, ModuleContext } from '../types.js';
import { contactActionRoutes } from './action-routes.js';
import { contactDetailRoutes } from './detail-routes.js';
import { duplicateCheckRoute } from './duplicate-check.js';
import { contacts } from './schema.js';

/** The single-contact half of the `contacts` area (detail, create, edit, quick actions); the list registers apart. */
export const contactDetailModule: Module = {
  name: 'contact-detail',
  register(scope: FastifyInstance, { tenants }: ModuleContext) {
    // `{id}` in /v1/contacts/{id}/... is the contact's public number (docs/decisions/contact-path-id-is-number.md).
    // Deleted contacts still resolve: their notes and files stay readable.
    const byNumber = companyRowResolver(contacts, { key: contacts.number });
    tenants.register('contact', {
      exists: byNumber.exists,
      // Numbers are counted per company, so the same number names a contact in several companies; a cross-tenant
      // probe needs one that only this company uses (docs/decisions/per-company-numbers.md).
      async sample(db, companyId) {
        const [row] = await db
          .select({ number: contacts.number })
          .from(contacts)
          .where(
            and(
              eq(contacts.companyId, companyId),
              sql`not exists (select 1 from contacts o where o.number = ${contacts.number} and o.company_id <> ${companyId})`,
            ),
          )
          .orderBy(desc(contacts.number))
          .limit(1);
        return row ? String(row.number) : null;
      },
    });
    contactDetailRoutes(scope);
    contactActionRoutes(scope);
    duplicateCheckRoute(scope);
  },
};

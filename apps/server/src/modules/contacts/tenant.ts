import { and, eq } from 'drizzle-orm';
import { asId, type TenantResolver } from '../../platform/tenancy.js';
import { contacts } from './schema.js';

/**
 * `{id}` in /v1/contacts/{id}/... is the contact's public number (the one in the browser's /contacts/{number}), see
 * docs/decisions/contact-path-id-is-number.md. Deleted contacts still resolve: their notes and files stay readable.
 */
export const contactTenantResolver: TenantResolver = {
  async exists(db, companyId, raw) {
    const n = asId(raw);
    if (n === null) return false;
    const [row] = await db
      .select({ id: contacts.id })
      .from(contacts)
      .where(and(eq(contacts.companyId, companyId), eq(contacts.number, n)));
    return Boolean(row);
  },
  async sample(db, companyId) {
    const [row] = await db
      .select({ number: contacts.number })
      .from(contacts)
      .where(eq(contacts.companyId, companyId))
      .limit(1);
    return row ? String(row.number) : null;
  },
};

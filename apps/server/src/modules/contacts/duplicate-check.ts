/**
 * POST /v1/contacts/duplicate_check (DECIDED, docs/decisions/contact-duplicate-check.md): the "New contact" form
 * asks before it creates. Phones match on their stored 11-digit form, emails case-insensitively; both through the
 * (company, phone) and (company, lower(email)) indexes. The caller sees names only of contacts they may see.
 */
import { DuplicateCheckBody, DuplicateCheckReply, normalizePhone } from '@harbor/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { invalid } from '../../platform/http/errors.js';
import { authOf } from '../../platform/http/pipeline.js';
import { rowsOf } from './list-scope.js';
import { visibleContactsSql } from './visibility.js';

const SHOWN = 10;

export function duplicateCheckRoute(scope: FastifyInstance) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const db = scope.deps.database.db;

  app.post(
    '/v1/contacts/duplicate_check',
    {
      config: { access: 'contacts.use' },
      schema: {
        tags: ['contacts'],
        summary: 'Contacts that already have this phone or email (before creating one)',
        body: DuplicateCheckBody,
        response: { 200: DuplicateCheckReply },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const phone = req.body.phone ? normalizePhone(req.body.phone) : null;
      if (req.body.phone && !phone && !req.body.email) throw invalid('phone', 'is not a US phone number');
      const email = req.body.email?.toLowerCase() || null;
      const same: SQL[] = [];
      if (phone) same.push(sql`contacts.phone = ${phone}`);
      if (email) same.push(sql`lower(contacts.email) = ${email}`);
      if (!same.length) return { matches: [], hidden_count: 0 };
      const rows = await rowsOf<{
        id: string;
        number: string;
        first_name: string;
        last_name: string;
        phone: string | null;
        email: string | null;
        owner_id: number | null;
        owner_name: string | null;
        visible: boolean;
      }>(
        db,
        sql`select contacts.id, contacts.number, contacts.first_name, contacts.last_name, contacts.phone,
                   contacts.email, contacts.owner_id, trim(u.first_name || ' ' || u.last_name) as owner_name,
                   (${visibleContactsSql(auth)}) as visible
            from contacts left join users u on u.id = contacts.owner_id
            where contacts.company_id = ${auth.company.id} and contacts.deleted_at is null
              and (${sql.join(same, sql` or `)})
            order by contacts.created_at, contacts.id
            limit 1000`,
      );
      const visible = rows.filter((r) => r.visible);
      return {
        matches: visible.slice(0, SHOWN).map((r) => ({
          id: Number(r.id),
          number: Number(r.number),
          name: `${r.first_name} ${r.last_name}`.trim() || `#${r.number}`,
          owner: r.owner_id ? { id: r.owner_id, name: r.owner_name ?? '' } : null,
          matched_on: [
            ...(phone && r.phone === phone ? (['phone'] as const) : []),
            ...(email && r.email?.toLowerCase() === email ? (['email'] as const) : []),
          ],
        })),
        hidden_count: rows.length - visible.length,
      };
    },
  );
}

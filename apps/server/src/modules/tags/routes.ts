/** The `tags` area: PATCH /v1/tags lists (search, paging), POST /v1/tags creates (name unique per company). */
import { Tag, TagBody, TagPage, TagsListBody } from '@harbor/shared';
import { and, asc, count, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { invalid } from '../../platform/http/errors.js';
import { pageMeta, pageOffset } from '../../platform/http/paging.js';
import { authOf } from '../../platform/http/pipeline.js';
import { tags } from '../contacts/schema.js';
import type { Module } from '../types.js';

const usedBy = sql<number>`(select count(*)::int from contact_tags where contact_tags.tag_id = ${tags.id})`;

export const tagsModule: Module = {
  name: 'tags',
  register(scope: FastifyInstance) {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const db = scope.deps.database.db;

    app.patch(
      '/v1/tags',
      {
        config: { access: 'contacts.use' },
        schema: {
          tags: ['tags'],
          summary: 'List tags (search by name fragment), with how many contacts carry each',
          body: TagsListBody,
          response: { 200: TagPage },
        },
      },
      async (req) => {
        const { search, page = 1, limit = 100 } = req.body ?? {};
        const like = search ? `%${search.toLowerCase().replace(/[\\%_]/g, (m) => `\\${m}`)}%` : null;
        const where = and(
          eq(tags.companyId, authOf(req).company.id),
          like ? sql`lower(${tags.name}) like ${like}` : undefined,
        );
        const [{ n }] = await db.select({ n: count() }).from(tags).where(where);
        const rows = await db
          .select({ id: tags.id, name: tags.name, color: tags.color, contacts_count: usedBy })
          .from(tags)
          .where(where)
          .orderBy(asc(sql`lower(${tags.name})`), asc(tags.id))
          .limit(limit)
          .offset(pageOffset(page, limit));
        return {
          data: rows.map((r) => ({ ...r, contacts_count: Number(r.contacts_count) })),
          meta: pageMeta(page, limit, n),
        };
      },
    );

    app.post(
      '/v1/tags',
      {
        config: { access: 'contacts.use' },
        schema: { tags: ['tags'], summary: 'Create a tag', body: TagBody, response: { 201: Tag } },
      },
      async (req, reply) => {
        const companyId = authOf(req).company.id;
        const [dup] = await db
          .select({ id: tags.id })
          .from(tags)
          .where(and(eq(tags.companyId, companyId), sql`lower(${tags.name}) = lower(${req.body.name})`));
        if (dup) throw invalid('name', 'has already been taken');
        const [row] = await db
          .insert(tags)
          .values({ companyId, name: req.body.name, color: req.body.color })
          .onConflictDoNothing()
          .returning();
        // A concurrent create of the same name loses the race at the unique index, not with a 500.
        if (!row) throw invalid('name', 'has already been taken');
        return reply.code(201).send({ id: row.id, name: row.name, color: row.color, contacts_count: 0 });
      },
    );
  },
};

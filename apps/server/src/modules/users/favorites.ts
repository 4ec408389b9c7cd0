/**
 * Favourite users (docs/decisions/favourite-users.md): a person may pick, and see, only colleagues they already
 * know of: everyone they reach (admins the company, BU admins their unit, managers their downline), their upline,
 * their teammates (people with the same manager) and their own downline. The same condition lists the candidates,
 * checks a new set and filters the stored one, so a favourite id can never reveal a stranger's name or email.
 */
import { FavoriteLists, FavoriteListsQuery } from '@harbor/shared';
import { and, asc, eq, ilike, inArray, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Db } from '../../platform/db/client.js';
import { users } from '../../platform/db/schema.js';
import { downlineIdsSql, uplineIdsSql } from '../../platform/downline.js';
import { invalid } from '../../platform/http/errors.js';
import { authOf } from '../../platform/http/pipeline.js';
import { reachCondition } from '../../platform/reach.js';
import { presentUserOption } from '../admin/users/presenter.js';
import { favoriteUsers } from './schema.js';

/** Over `users`: the colleagues `auth` may pick as favourites (never themselves, never deleted, never elsewhere). */
export function favoriteCandidates(auth: AuthContext): SQL {
  const { user, company } = auth;
  const teammates = user.managerId ? eq(users.managerId, user.managerId) : sql`false`;
  return and(
    eq(users.companyId, company.id),
    isNull(users.deletedAt),
    ne(users.id, user.id),
    or(
      reachCondition(auth),
      sql`${users.id} IN ${uplineIdsSql(company.id, user.id)}`,
      sql`${users.id} IN ${downlineIdsSql(company.id, user.id)}`,
      teammates,
    ),
  )!;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

export function favoriteRoutes(scope: FastifyInstance) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const db = scope.deps.database.db;

  app.get(
    '/v1/users/favorite_lists',
    {
      config: { access: 'authenticated' },
      schema: {
        tags: ['users'],
        summary: 'Your favorite users, and the colleagues you may pick (q narrows them by name or email)',
        querystring: FavoriteListsQuery,
        response: { 200: FavoriteLists },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const pickable = favoriteCandidates(auth);
      const { q, limit } = req.query;
      const like = q ? `%${escapeLike(q)}%` : null;
      const [favourites, candidates] = await Promise.all([
        db
          .select({ u: users })
          .from(favoriteUsers)
          .innerJoin(users, eq(users.id, favoriteUsers.favoriteUserId))
          .where(and(eq(favoriteUsers.userId, auth.user.id), pickable))
          .orderBy(asc(users.lastName), asc(users.firstName)),
        db
          .select()
          .from(users)
          .where(
            and(
              pickable,
              like
                ? or(ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, like), ilike(users.email, like))
                : undefined,
            ),
          )
          .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id))
          .limit(limit),
      ]);
      return { data: favourites.map((r) => presentUserOption(r.u)), candidates: candidates.map(presentUserOption) };
    },
  );
}

/** The whole new set is checked against the candidates in one query, then replaces the old one. */
export async function replaceFavorites(db: Db, auth: AuthContext, ids: number[]) {
  const wanted = [...new Set(ids)];
  if (wanted.includes(auth.user.id)) throw invalid('favorite_user_ids', 'cannot include yourself');
  const found = wanted.length
    ? await db
        .select({ id: users.id })
        .from(users)
        .where(and(inArray(users.id, wanted), favoriteCandidates(auth)))
    : [];
  if (found.length !== wanted.length) {
    throw invalid('favorite_user_ids', 'includes a user you cannot pick (only your team, upline and downline)');
  }
  await db.transaction(async (t) => {
    await t.delete(favoriteUsers).where(eq(favoriteUsers.userId, auth.user.id));
    if (wanted.length)
      await t.insert(favoriteUsers).values(wanted.map((id) => ({ userId: auth.user.id, favoriteUserId: id })));
  });
}

/**
 * Everything the current user's reply needs beyond their own row, in one statement: business unit, favourites, live
 * API keys, the addresses they signed in from, the company's offices. Each part is the very query its own route runs
 * (embedded as a subquery and returned as JSON), so the boot call costs one round trip instead of eight and can
 * never disagree with the paged routes. The statement is built once per database handle and prepared (the server
 * plans it once per connection): building it was most of the boot call's CPU.
 */
import { eq, type SQLWrapper, sql } from 'drizzle-orm';
import { apiKeys } from '../../platform/auth/schema.js';
import type { Db } from '../../platform/db/client.js';
import { rowFromJson, rowsFromJson } from '../../platform/db/json-rows.js';
import { businessUnits, type UserRow } from '../../platform/db/schema.js';
import {
  officeLocationsCountQuery,
  officeLocationsPage,
  officeLocationsPageQuery,
} from '../office-locations/queries.js';
import { officeLocations } from '../office-locations/schema.js';
import {
  apiKeysQuery,
  authIpsCountQuery,
  authIpsPage,
  authIpsPageQuery,
  favoritesQuery,
  presentApiKey,
} from './account-queries.js';

/** The first page of each list, as the paged routes answer by default. */
const AUTH_IPS_LIMIT = 25;
const OFFICES_LIMIT = 100;

const list = (query: SQLWrapper) =>
  sql<Record<string, unknown>[]>`(select coalesce(jsonb_agg(to_jsonb(x)), '[]'::jsonb) from (${query}) x)`;
const one = <T>(query: SQLWrapper) => sql<T | null>`(select to_jsonb(x) from (${query}) x limit 1)`;

function prepare(db: Db) {
  const user = sql.placeholder('user');
  const company = sql.placeholder('company');
  const unit = db
    .select()
    .from(businessUnits)
    .where(eq(businessUnits.id, sql.placeholder('unit')));
  return db
    .select({
      bu: one<Record<string, unknown>>(unit),
      favorites: list(favoritesQuery(db, user)),
      apiKeys: list(apiKeysQuery(db, user)),
      authIps: list(authIpsPageQuery(db, user, 1, AUTH_IPS_LIMIT)),
      authIpsTotal: one<{ total: number }>(authIpsCountQuery(db, user)),
      offices: list(officeLocationsPageQuery(db, company, 1, OFFICES_LIMIT)),
      officesTotal: one<{ total: number }>(officeLocationsCountQuery(db, company)),
    })
    .from(sql`(select 1) as me`)
    .prepare('me_account_lists');
}

const statements = new WeakMap<Db, ReturnType<typeof prepare>>();

export async function loadAccountLists(db: Db, user: UserRow, companyId: number) {
  let statement = statements.get(db);
  if (!statement) {
    statement = prepare(db);
    statements.set(db, statement);
  }
  const [raw] = await statement.execute({ user: user.id, company: companyId, unit: user.businessUnitId ?? -1 });
  const unit = raw.bu ? rowFromJson(businessUnits, raw.bu) : null;
  return {
    businessUnit: unit ? { number: unit.number, name: unit.name } : null,
    favorites: (raw.favorites as Array<{ id: number }>).map((f) => Number(f.id)),
    apiKeys: rowsFromJson(apiKeys, raw.apiKeys).map(presentApiKey),
    authIps: authIpsPage(
      raw.authIps as Array<{ ip: string | null; last: string; n: number }>,
      raw.authIpsTotal?.total ?? 0,
      1,
      AUTH_IPS_LIMIT,
    ),
    offices: officeLocationsPage(
      rowsFromJson(officeLocations, raw.offices),
      raw.officesTotal?.total ?? 0,
      1,
      OFFICES_LIMIT,
    ),
  };
}

/**
 * The 48-hour rule where appointments are booked (events/write.ts): a Medicare Advantage or Part D appointment
 * needs the contact's signed SOA naming one of its products, signed at least 48 hours before the start unless the
 * agent claims an exception (walk-in, beneficiary-initiated call, last four days of an enrollment period), which
 * is recorded with the event. The rule itself is shared with the browser (packages/shared/src/medicare/soa-rule.ts).
 */
import {
  checkSoaRule,
  coveredByRule,
  dateInZone,
  SOA_RULE_PRODUCTS,
  type SoaException,
  TIME_ZONE_IANA,
  type TimeZone,
} from '@harbor/shared';
import { sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Db } from '../../platform/db/client.js';
import { HttpError, invalid } from '../../platform/http/errors.js';
import type { ContactRow } from '../contacts/access.js';
import { rowsOf } from '../contacts/list-scope.js';

/** A signed SOA counts for twelve months (docs/decisions/medicare-dates.md). */
const SOA_VALID_DAYS = 365;

export interface SoaDecision {
  soaRequestId: number | null;
  exception: SoaException | null;
}

export interface AppointmentInput {
  type: string;
  products: readonly string[];
  contact: ContactRow | null;
  startsAt: Date;
  exception: SoaException | null;
}

/** The contact's latest signed SOA covering one of `products`, signed before `before` and still valid then. */
export async function latestSignedSoa(db: Db, companyId: number, contactId: number, products: string[], before: Date) {
  const [row] = await rowsOf<{ id: number; signed_at: string | Date }>(
    db,
    sql`select id, signed_at from soa_requests
      where company_id = ${companyId} and contact_id = ${contactId} and status in ('signed', 'completed')
        and products && ${sql.param(products)}::text[] and signed_at <= ${before.toISOString()}
        and signed_at > ${before.toISOString()}::timestamptz - make_interval(days => ${SOA_VALID_DAYS})
      order by signed_at desc limit 1`,
  );
  return row ? { id: Number(row.id), signedAt: new Date(row.signed_at) } : null;
}

/** Refuses the booking with the reason the calendar shows (422), or answers what to record with the event. */
export async function soaDecision(db: Db, auth: AuthContext, a: AppointmentInput): Promise<SoaDecision> {
  if (a.type !== 'appointment' || !coveredByRule(a.products)) return { soaRequestId: null, exception: null };
  if (!a.contact) {
    throw invalid(
      'contact_id',
      'A Medicare Advantage or Part D appointment must name the contact (their SOA is checked).',
    );
  }
  const ruled = a.products.filter((p) => (SOA_RULE_PRODUCTS as readonly string[]).includes(p));
  // Any signed SOA before the start counts for the exceptions; the wait is then checked against its signature.
  const soa = await latestSignedSoa(db, auth.company.id, a.contact.id, ruled, a.startsAt);
  const zone = TIME_ZONE_IANA[auth.user.timezone as TimeZone] ?? TIME_ZONE_IANA.est;
  const verdict = checkSoaRule({
    products: a.products,
    signedAt: soa?.signedAt ?? null,
    startsAt: a.startsAt,
    startDate: dateInZone(a.startsAt, zone),
    dateOfBirth: a.contact.dateOfBirth,
    exception: a.exception,
  });
  if (!verdict.ok) {
    const errors: Record<string, string[]> = { soa: [verdict.reason] };
    if (verdict.earliest) errors.earliest_start_at = [verdict.earliest.toISOString()];
    throw new HttpError(422, errors);
  }
  return { soaRequestId: soa?.id ?? null, exception: verdict.exception };
}

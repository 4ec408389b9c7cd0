/**
 * The scope-of-appointment 48-hour rule (docs/decisions/medicare-dates.md): a personal marketing appointment for a
 * Medicare Advantage or Part D product may start no sooner than 48 hours after the beneficiary signed the SOA,
 * except for an unscheduled walk-in or a call the beneficiary initiated, and in the last four days of an enrollment
 * period. Server (which enforces it) and browser (which explains it before the agent saves) share this function.
 */
import type { IsoDate } from './calendar-dates.js';
import { lastFourDaysOf, PERIOD_LABELS } from './dates.js';

export const SOA_WAIT_HOURS = 48;
const WAIT_MS = SOA_WAIT_HOURS * 3_600_000;

/** Products an SOA names; the first two are the ones the 48-hour rule covers. */
export const SOA_PRODUCTS = [
  'medicare_advantage',
  'part_d',
  'dental_vision_hearing',
  'medigap',
  'hospital_indemnity',
  'cancer_heart_stroke',
  'final_expense',
] as const;
export type SoaProduct = (typeof SOA_PRODUCTS)[number];

export const SOA_PRODUCT_LABELS: Record<SoaProduct, string> = {
  medicare_advantage: 'Medicare Advantage (Part C) and cost plans',
  part_d: 'Stand-alone prescription drug plans (Part D)',
  dental_vision_hearing: 'Dental, vision and hearing products',
  medigap: 'Medicare Supplement (Medigap) products',
  hospital_indemnity: 'Hospital indemnity products',
  cancer_heart_stroke: 'Cancer, heart attack and stroke products',
  final_expense: 'Final expense and life products',
};

/** The products whose sales appointments the 48-hour rule covers. */
export const SOA_RULE_PRODUCTS: readonly SoaProduct[] = ['medicare_advantage', 'part_d'];

export const SOA_EXCEPTIONS = ['walk_in', 'inbound_call', 'enrollment_period_end'] as const;
export type SoaException = (typeof SOA_EXCEPTIONS)[number];

export const SOA_EXCEPTION_LABELS: Record<SoaException, string> = {
  walk_in: 'Unscheduled walk-in by the beneficiary',
  inbound_call: 'Call initiated by the beneficiary',
  enrollment_period_end: 'Last four days of an enrollment period',
};

export interface SoaCheckInput {
  /** Products the appointment is about. */
  products: readonly string[];
  /** When the SOA was signed; null: no signed SOA covers the appointment. */
  signedAt: Date | null;
  /** The appointment's start. */
  startsAt: Date;
  /** The appointment's calendar day in the agent's time zone (enrollment periods are whole days). */
  startDate: IsoDate;
  /** The contact's date of birth, for their Initial Enrollment Period. */
  dateOfBirth?: IsoDate | null;
  exception?: SoaException | null;
}

export type SoaCheck =
  | { ok: true; ruleApplies: boolean; exception: SoaException | null }
  | { ok: false; reason: string; earliest: Date | null };

export const coveredByRule = (products: readonly string[]) =>
  products.some((p) => (SOA_RULE_PRODUCTS as readonly string[]).includes(p));

/** Whether the appointment may be booked, and if not, why (a sentence the calendar shows as is). */
export function checkSoaRule(i: SoaCheckInput): SoaCheck {
  if (!coveredByRule(i.products)) return { ok: true, ruleApplies: false, exception: null };
  if (!i.signedAt) {
    return {
      ok: false,
      earliest: null,
      reason: 'A Medicare Advantage or Part D appointment needs a signed scope of appointment from the contact first.',
    };
  }
  if (i.signedAt.getTime() > i.startsAt.getTime()) {
    return { ok: false, earliest: null, reason: 'The scope of appointment must be signed before the appointment.' };
  }
  if (i.exception === 'enrollment_period_end') {
    const period = lastFourDaysOf(i.startDate, i.dateOfBirth);
    if (!period) {
      return {
        ok: false,
        earliest: null,
        reason: 'The appointment is not in the last four days of an enrollment period (AEP, MA OEP or the IEP).',
      };
    }
    return { ok: true, ruleApplies: true, exception: i.exception };
  }
  if (i.exception) return { ok: true, ruleApplies: true, exception: i.exception };
  const earliest = new Date(i.signedAt.getTime() + WAIT_MS);
  if (i.startsAt.getTime() < earliest.getTime()) {
    return {
      ok: false,
      earliest,
      reason: `A Medicare Advantage or Part D appointment must start at least ${SOA_WAIT_HOURS} hours after the scope of appointment was signed, unless the beneficiary walked in, called you, or it is the last four days of an enrollment period.`,
    };
  }
  return { ok: true, ruleApplies: true, exception: null };
}

/** The label of the period whose last four days include `date`, for the exception's explanation. */
export function lastFourDaysLabel(date: IsoDate, dob?: IsoDate | null): string | null {
  const p = lastFourDaysOf(date, dob);
  return p ? PERIOD_LABELS[p.key] : null;
}

/**
 * The Medicare date engine: pure functions from a date of birth, the Part B effective date and the calendar to the
 * dates an agent works by. The rules and their sources are in docs/decisions/medicare-dates.md; every function here
 * is unit-tested across year ends, leap days and month ends (dates.test.ts).
 */
import {
  addDays,
  addMonths,
  addYears,
  type DateRange,
  firstOfMonth,
  type IsoDate,
  inRange,
  isoOf,
  lastOfMonth,
  maxDate,
  parts,
} from './calendar-dates.js';

export const MEDICARE_AGE = 65;

/** The 65th birthday as people keep it: Feb 29 births have it on Feb 28 in a common year. */
export function sixtyFifthBirthday(dob: IsoDate): IsoDate {
  return addYears(dob, MEDICARE_AGE);
}

/**
 * The day a person attains age 65 in Social Security's reckoning: the day before the 65th anniversary of birth (a
 * Feb 29 birth's anniversary in a common year is Mar 1, so they attain 65 on Feb 28 as well).
 */
export function attains65On(dob: IsoDate): IsoDate {
  const { m, d } = parts(dob);
  const birthday = sixtyFifthBirthday(dob);
  if (m === 2 && d === 29 && parts(birthday).d === 28) return birthday;
  return addDays(birthday, -1);
}

/** The month Medicare (Parts A and B) can start at 65: the month age 65 is attained, as its first day. */
export function medicareStartMonth(dob: IsoDate): IsoDate {
  return firstOfMonth(attains65On(dob));
}

/**
 * The Initial Enrollment Period: seven months, the three before the month age 65 is attained, that month, and the
 * three after. A birthday on the 1st moves the whole period a month earlier (age is attained the day before).
 */
export function initialEnrollmentPeriod(dob: IsoDate): DateRange {
  const month = medicareStartMonth(dob);
  return { start: addMonths(month, -3), end: lastOfMonth(addMonths(month, 3)) };
}

/**
 * Medigap open enrollment: six months from the first day of the month in which the person is both 65 or older and
 * enrolled in Part B. Null without a Part B date.
 */
export function medigapOpenEnrollment(dob: IsoDate, partBEffective: IsoDate | null | undefined): DateRange | null {
  if (!partBEffective) return null;
  const start = maxDate(firstOfMonth(partBEffective), medicareStartMonth(dob));
  return { start, end: addDays(addMonths(start, 6), -1) };
}

/** The year's fixed periods (the plan year they prepare is `year + 1` for marketing and AEP). */
export interface YearlyPeriods {
  /** Marketing of next year's plans may start October 1. */
  marketing: DateRange;
  /** Annual Enrollment Period, October 15 - December 7. */
  aep: DateRange;
  /** Medicare Advantage Open Enrollment Period, January 1 - March 31. */
  maOep: DateRange;
}

export function yearlyPeriods(year: number): YearlyPeriods {
  return {
    marketing: { start: isoOf(year, 10, 1), end: isoOf(year, 12, 31) },
    aep: { start: isoOf(year, 10, 15), end: isoOf(year, 12, 7) },
    maOep: { start: isoOf(year, 1, 1), end: isoOf(year, 3, 31) },
  };
}

export type PeriodKey = 'marketing' | 'aep' | 'ma_oep' | 'iep' | 'medigap_oe';

export const PERIOD_LABELS: Record<PeriodKey, string> = {
  marketing: 'Marketing season',
  aep: 'Annual Enrollment Period',
  ma_oep: 'MA Open Enrollment Period',
  iep: 'Initial Enrollment Period',
  medigap_oe: 'Medigap open enrollment',
};

/** The yearly periods that include `date`. */
export function yearlyPeriodsOn(date: IsoDate): PeriodKey[] {
  const p = yearlyPeriods(parts(date).y);
  const out: PeriodKey[] = [];
  if (inRange(date, p.marketing)) out.push('marketing');
  if (inRange(date, p.aep)) out.push('aep');
  if (inRange(date, p.maOep)) out.push('ma_oep');
  return out;
}

export interface ContactDates {
  dateOfBirth: IsoDate | null;
  partBEffective?: IsoDate | null;
}

/** A contact's own Medicare dates, as the contact card and the reminders show them. */
export interface MedicareProfile {
  turning65: IsoDate;
  medicareStart: IsoDate;
  iep: DateRange;
  medigapOe: DateRange | null;
}

export function medicareProfile(c: ContactDates): MedicareProfile | null {
  if (!c.dateOfBirth) return null;
  return {
    turning65: sixtyFifthBirthday(c.dateOfBirth),
    medicareStart: medicareStartMonth(c.dateOfBirth),
    iep: initialEnrollmentPeriod(c.dateOfBirth),
    medigapOe: medigapOpenEnrollment(c.dateOfBirth, c.partBEffective),
  };
}

/**
 * The enrollment periods (for a Medicare Advantage or Part D sale) that end on or after `date`, with their last
 * day: the year's AEP and MA OEP, and the contact's IEP when the date of birth is known.
 */
export function enrollmentPeriodsAround(date: IsoDate, dob?: IsoDate | null): Array<{ key: PeriodKey } & DateRange> {
  const y = parts(date).y;
  const out: Array<{ key: PeriodKey } & DateRange> = [];
  for (const year of [y - 1, y]) {
    const p = yearlyPeriods(year);
    out.push({ key: 'aep', ...p.aep }, { key: 'ma_oep', ...p.maOep });
  }
  if (dob) out.push({ key: 'iep', ...initialEnrollmentPeriod(dob) });
  return out.filter((r) => inRange(date, r));
}

/** Of the enrollment periods including `date`, the one whose last four days it is in (null when none). */
export function lastFourDaysOf(date: IsoDate, dob?: IsoDate | null): ({ key: PeriodKey } & DateRange) | null {
  return enrollmentPeriodsAround(date, dob).find((r) => date >= addDays(r.end, -3)) ?? null;
}

/**
 * The dates of birth whose 65th birthday (as `sixtyFifthBirthday` counts it) falls in [from, to]: an inclusive
 * range of dates of birth, so a list filter is one range scan of a date-of-birth index. Adding years is monotonic
 * but not one-to-one (Feb 28 and 29 share a birthday in a common year), so each bound is settled by a short walk.
 */
export function birthDatesTurning(age: number, from: IsoDate, to: IsoDate): DateRange {
  const at = (dob: IsoDate) => addYears(dob, age);
  let lo = addYears(from, -age);
  while (at(addDays(lo, -1)) >= from) lo = addDays(lo, -1);
  while (at(lo) < from) lo = addDays(lo, 1);
  let hi = addYears(to, -age);
  while (at(addDays(hi, 1)) <= to) hi = addDays(hi, 1);
  while (at(hi) > to) hi = addDays(hi, -1);
  return { start: lo, end: hi };
}

/**
 * For the "in Medigap open enrollment on `today`" filter: a person is in it when their start month (the later of
 * the Part B month and the month they attain 65) is one of the six months ending with today's month. The bounds
 * returned let SQL test that with range conditions only (see contacts' list filters).
 */
export function medigapOeWindow(today: IsoDate): {
  /** The earliest start month still open today. */
  earliestStart: IsoDate;
  /** The first day of today's month: the latest start month. */
  latestStart: IsoDate;
  /** Dates of birth whose attainment month is at or before today's month. */
  bornOnOrBefore: IsoDate;
  /** Dates of birth whose attainment month is at or after `earliestStart`. */
  bornOnOrAfter: IsoDate;
} {
  const latestStart = firstOfMonth(today);
  const earliestStart = addMonths(latestStart, -5);
  // attains65On(dob) < first of next month  <=>  dob's 65th anniversary <= first of next month (the day before it).
  const bornOnOrBefore = lastDobAttainingBefore(addMonths(latestStart, 1));
  const bornOnOrAfter = addDays(lastDobAttainingBefore(earliestStart), 1);
  return { earliestStart, latestStart, bornOnOrBefore, bornOnOrAfter };
}

/** The latest date of birth that attains 65 strictly before `day`. */
function lastDobAttainingBefore(day: IsoDate): IsoDate {
  let dob = addYears(day, -MEDICARE_AGE);
  while (attains65On(dob) >= day) dob = addDays(dob, -1);
  while (attains65On(addDays(dob, 1)) < day) dob = addDays(dob, 1);
  return dob;
}

import { describe, expect, it } from 'vitest';
import {
  addDays,
  addMonths,
  dateInZone,
  fromUsDate,
  type IsoDate,
  inRange,
  toUsDate,
  zonedTimeToUtc,
} from './calendar-dates.js';
import {
  attains65On,
  birthDatesTurning,
  initialEnrollmentPeriod,
  lastFourDaysOf,
  medicareProfile,
  medicareStartMonth,
  medigapOeWindow,
  medigapOpenEnrollment,
  sixtyFifthBirthday,
  yearlyPeriodsOn,
} from './dates.js';

/** Every day from `from` to `to` inclusive. */
function* days(from: IsoDate, to: IsoDate) {
  for (let d = from; d <= to; d = addDays(d, 1)) yield d;
}

describe('calendar dates', () => {
  it('adds months and years clamping to the month end, across year ends and leap days', () => {
    expect(addMonths('2024-01-31', 1)).toBe('2024-02-29');
    expect(addMonths('2025-01-31', 1)).toBe('2025-02-28');
    expect(addMonths('2025-11-30', 3)).toBe('2026-02-28');
    expect(addMonths('2025-03-31', -1)).toBe('2025-02-28');
    expect(addMonths('2025-01-15', -1)).toBe('2024-12-15');
    expect(addDays('2024-12-31', 1)).toBe('2025-01-01');
    expect(addDays('2024-03-01', -1)).toBe('2024-02-29');
  });

  it('reads and writes the MM/DD/YYYY wire form, refusing days that do not exist', () => {
    expect(fromUsDate('02/29/2024')).toBe('2024-02-29');
    expect(fromUsDate('02/29/2025')).toBeNull();
    expect(fromUsDate('13/01/2025')).toBeNull();
    expect(fromUsDate('04/31/2025')).toBeNull();
    expect(fromUsDate('2025-01-01')).toBeNull();
    expect(fromUsDate('1/2/2025')).toBeNull();
    expect(toUsDate('2025-01-02')).toBe('01/02/2025');
  });

  it('finds the instant a day starts in a time zone, on daylight-saving days too', () => {
    expect(zonedTimeToUtc('2025-03-09', '00:00', 'America/New_York').toISOString()).toBe('2025-03-09T05:00:00.000Z');
    expect(zonedTimeToUtc('2025-03-10', '00:00', 'America/New_York').toISOString()).toBe('2025-03-10T04:00:00.000Z');
    expect(zonedTimeToUtc('2025-11-02', '09:30', 'America/Los_Angeles').toISOString()).toBe('2025-11-02T17:30:00.000Z');
    expect(zonedTimeToUtc('2025-01-01', '00:00', 'Pacific/Honolulu').toISOString()).toBe('2025-01-01T10:00:00.000Z');
    expect(dateInZone(new Date('2025-01-01T03:00:00Z'), 'America/Chicago')).toBe('2024-12-31');
  });
});

describe('turning 65', () => {
  it('keeps a leap-day birthday on Feb 28 in the common year it falls in', () => {
    expect(sixtyFifthBirthday('1960-02-29')).toBe('2025-02-28');
    expect(sixtyFifthBirthday('1959-03-01')).toBe('2024-03-01');
    expect(sixtyFifthBirthday('1960-12-31')).toBe('2025-12-31');
    expect(() => sixtyFifthBirthday('1959-02-29')).toThrow(RangeError);
  });

  it('attains age 65 the day before the birthday (Social Security), a leap-day birth on Feb 28', () => {
    expect(attains65On('1960-07-15')).toBe('2025-07-14');
    expect(attains65On('1960-01-01')).toBe('2024-12-31');
    expect(attains65On('1960-02-29')).toBe('2025-02-28');
    expect(attains65On('1960-03-01')).toBe('2025-02-28');
  });

  it('starts Medicare the month age 65 is attained: a birthday on the 1st starts it a month early', () => {
    expect(medicareStartMonth('1960-07-02')).toBe('2025-07-01');
    expect(medicareStartMonth('1960-07-01')).toBe('2025-06-01');
    expect(medicareStartMonth('1960-01-01')).toBe('2024-12-01');
  });
});

describe('Initial Enrollment Period', () => {
  it('is seven months around the month of turning 65', () => {
    expect(initialEnrollmentPeriod('1960-07-15')).toEqual({ start: '2025-04-01', end: '2025-10-31' });
  });
  it('moves a month earlier for a birthday on the 1st, across the year end', () => {
    expect(initialEnrollmentPeriod('1960-01-01')).toEqual({ start: '2024-09-01', end: '2025-03-31' });
    expect(initialEnrollmentPeriod('1960-01-02')).toEqual({ start: '2024-10-01', end: '2025-04-30' });
  });
  it('ends on the last day of February, leap or not', () => {
    expect(initialEnrollmentPeriod('1960-11-20')).toEqual({ start: '2025-08-01', end: '2026-02-28' });
    expect(initialEnrollmentPeriod('1962-11-20')).toEqual({ start: '2027-08-01', end: '2028-02-29' });
  });
  it('treats a leap-day birth like the one born the day after', () => {
    const leap = initialEnrollmentPeriod('1960-02-29');
    expect(leap).toEqual({ start: '2024-11-01', end: '2025-05-31' });
    expect(initialEnrollmentPeriod('1960-03-01')).toEqual(leap);
  });
});

describe('Medigap open enrollment', () => {
  it('runs six months from the Part B month once 65', () => {
    expect(medigapOpenEnrollment('1960-07-15', '2025-07-01')).toEqual({ start: '2025-07-01', end: '2025-12-31' });
    expect(medigapOpenEnrollment('1960-07-15', '2026-09-15')).toEqual({ start: '2026-09-01', end: '2027-02-28' });
    expect(medigapOpenEnrollment('1960-07-15', '2027-09-01')).toEqual({ start: '2027-09-01', end: '2028-02-29' });
  });
  it('waits for 65 when Part B started earlier (disability)', () => {
    expect(medigapOpenEnrollment('1960-07-15', '2024-03-01')).toEqual({ start: '2025-07-01', end: '2025-12-31' });
    expect(medigapOpenEnrollment('1960-07-01', '2020-01-01')).toEqual({ start: '2025-06-01', end: '2025-11-30' });
  });
  it('is unknown without a Part B date', () => {
    expect(medigapOpenEnrollment('1960-07-15', null)).toBeNull();
    expect(medicareProfile({ dateOfBirth: null })).toBeNull();
    expect(medicareProfile({ dateOfBirth: '1960-07-15', partBEffective: null })).toMatchObject({
      turning65: '2025-07-15',
      medicareStart: '2025-07-01',
      medigapOe: null,
    });
  });
});

describe('yearly periods', () => {
  it('opens marketing October 1, AEP October 15 - December 7, MA OEP January 1 - March 31', () => {
    expect(yearlyPeriodsOn('2025-09-30')).toEqual([]);
    expect(yearlyPeriodsOn('2025-10-01')).toEqual(['marketing']);
    expect(yearlyPeriodsOn('2025-10-14')).toEqual(['marketing']);
    expect(yearlyPeriodsOn('2025-10-15')).toEqual(['marketing', 'aep']);
    expect(yearlyPeriodsOn('2025-12-07')).toEqual(['marketing', 'aep']);
    expect(yearlyPeriodsOn('2025-12-08')).toEqual(['marketing']);
    expect(yearlyPeriodsOn('2025-12-31')).toEqual(['marketing']);
    expect(yearlyPeriodsOn('2026-01-01')).toEqual(['ma_oep']);
    expect(yearlyPeriodsOn('2024-03-31')).toEqual(['ma_oep']);
    expect(yearlyPeriodsOn('2024-04-01')).toEqual([]);
  });

  it('knows the last four days of AEP, MA OEP (leap or not) and the contact’s IEP', () => {
    expect(lastFourDaysOf('2025-12-03')).toBeNull();
    expect(lastFourDaysOf('2025-12-04')?.key).toBe('aep');
    expect(lastFourDaysOf('2025-12-07')?.key).toBe('aep');
    expect(lastFourDaysOf('2025-12-08')).toBeNull();
    expect(lastFourDaysOf('2024-03-27')).toBeNull();
    expect(lastFourDaysOf('2024-03-28')?.key).toBe('ma_oep');
    expect(lastFourDaysOf('2025-10-27', '1960-07-15')).toBeNull();
    expect(lastFourDaysOf('2025-10-28', '1960-07-15')?.key).toBe('iep');
    expect(lastFourDaysOf('2026-02-25', '1960-11-20')?.key).toBe('iep');
    expect(lastFourDaysOf('2026-02-24', '1960-11-20')).toBeNull();
  });
});

describe('filters as date-of-birth ranges', () => {
  it('finds who turns 65 in a window, Feb 28 and 29 births sharing a birthday', () => {
    expect(birthDatesTurning(65, '2025-02-28', '2025-02-28')).toEqual({ start: '1960-02-28', end: '1960-02-29' });
    expect(birthDatesTurning(65, '2025-03-01', '2025-03-01')).toEqual({ start: '1960-03-01', end: '1960-03-01' });
    expect(birthDatesTurning(65, '2025-12-20', '2026-01-10')).toEqual({ start: '1960-12-20', end: '1961-01-10' });
    const none = birthDatesTurning(65, '2024-02-29', '2024-02-29');
    expect(none.start > none.end).toBe(true);
  });

  it('agrees with the birthday of every date of birth for many windows', () => {
    const windows: Array<[IsoDate, IsoDate]> = [
      ['2024-02-27', '2024-03-02'],
      ['2024-02-29', '2024-05-28'],
      ['2025-02-28', '2025-05-28'],
      ['2025-12-25', '2026-03-25'],
      ['2027-01-31', '2027-03-01'],
    ];
    for (const [from, to] of windows) {
      const r = birthDatesTurning(65, from, to);
      for (const dob of days('1958-12-01', '1962-06-30')) {
        const b = sixtyFifthBirthday(dob);
        expect(inRange(dob, r), `${dob} for ${from}..${to}`).toBe(b >= from && b <= to);
      }
    }
  });

  it('answers "in Medigap open enrollment today" with range tests only, as the rule does', () => {
    const partBs = ['2024-01-01', '2024-06-15', '2025-01-01', '2025-03-01', '2025-08-31', '2026-01-01'];
    for (const today of ['2025-03-15', '2025-08-01', '2025-12-31', '2026-01-01', '2026-02-28']) {
      const w = medigapOeWindow(today);
      for (const dob of days('1959-06-01', '1961-06-30')) {
        for (const partB of partBs) {
          const oe = medigapOpenEnrollment(dob, partB)!;
          const next = addMonths(w.latestStart, 1);
          const sql = partB < next && dob <= w.bornOnOrBefore && (partB >= w.earliestStart || dob >= w.bornOnOrAfter);
          expect(sql, `${dob} / ${partB} on ${today}`).toBe(inRange(today, oe));
        }
      }
    }
  });
});

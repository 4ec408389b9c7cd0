import { describe, expect, it } from 'vitest';
import { monthDaysAhead, nextBirthday, todayIn } from './birthdays.js';

const d = (s: string) => new Date(`${s}T00:00:00Z`);

describe('birthday arithmetic', () => {
  it('lists the month-days ahead, across the new year', () => {
    expect(monthDaysAhead(d('2026-12-30'), 3)).toEqual([1230, 1231, 101, 102]);
    expect(monthDaysAhead(d('2026-03-14'), 0)).toEqual([314]);
  });

  it('keeps a Feb 29 birthday on Feb 28 in a common year only', () => {
    expect(monthDaysAhead(d('2026-02-27'), 2)).toEqual([227, 228, 229, 301]);
    expect(monthDaysAhead(d('2028-02-27'), 2)).toEqual([227, 228, 229]);
    expect(nextBirthday('1960-02-29', d('2026-02-20'))).toEqual({ date: d('2026-02-28'), turns: 66 });
    expect(nextBirthday('1960-02-29', d('2028-02-20'))).toEqual({ date: d('2028-02-29'), turns: 68 });
  });

  it('finds the next birthday and the age turned, today included', () => {
    expect(nextBirthday('1961-11-22', d('2026-11-22'))).toEqual({ date: d('2026-11-22'), turns: 65 });
    expect(nextBirthday('1961-11-21', d('2026-11-22'))).toEqual({ date: d('2027-11-21'), turns: 66 });
  });

  it("takes today's date in the user's zone, not the server's", () => {
    // 03:00 UTC on Nov 22 is still Nov 21 in Hawaii and on the US east coast.
    const at = new Date('2026-11-22T03:00:00Z');
    expect(todayIn('hst', at)).toEqual(d('2026-11-21'));
    expect(todayIn('est', at)).toEqual(d('2026-11-21'));
  });
});

import { describe, expect, it } from 'vitest';
import {
  fromLocalInput,
  localParts,
  rangeTitle,
  stepAnchor,
  toLocalInput,
  viewRange,
  wireRange,
} from './calendarDates';

describe('calendar dates in the user’s time zone', () => {
  it('spans whole weeks for a month, Sunday to Saturday, across the year end', () => {
    expect(viewRange('month', '2030-12-15')).toEqual({ start: '2030-12-01', end: '2031-01-04' });
    expect(viewRange('week', '2031-01-01')).toEqual({ start: '2030-12-29', end: '2031-01-04' });
    expect(viewRange('agenda', '2030-03-01')).toEqual({ start: '2030-03-01', end: '2030-03-14' });
    expect(wireRange(viewRange('day', '2030-02-28'))).toEqual({ start_date: '02/28/2030', end_date: '02/28/2030' });
  });

  it('steps by the view: months clamp, weeks and days move', () => {
    expect(stepAnchor('month', '2030-01-31', 1)).toBe('2030-02-01');
    expect(stepAnchor('week', '2030-12-30', 1)).toBe('2031-01-06');
    expect(stepAnchor('day', '2032-03-01', -1)).toBe('2032-02-29');
    expect(rangeTitle('month', '2030-03-12')).toBe('March 2030');
  });

  it('reads and writes datetime-local values in the profile’s zone, not the browser’s', () => {
    expect(fromLocalInput('2030-03-12T09:30', 'America/Chicago')).toBe('2030-03-12T14:30:00.000Z');
    expect(toLocalInput('2030-03-12T14:30:00.000Z', 'America/Chicago')).toBe('2030-03-12T09:30');
    expect(toLocalInput('2030-03-12T14:30:00.000Z', 'Pacific/Honolulu')).toBe('2030-03-12T04:30');
    expect(localParts('2030-01-01T03:00:00.000Z', 'America/New_York')).toEqual({
      date: '2029-12-31',
      minutes: 22 * 60,
    });
    expect(fromLocalInput('2030-03-12', 'America/Chicago')).toBeNull();
  });
});

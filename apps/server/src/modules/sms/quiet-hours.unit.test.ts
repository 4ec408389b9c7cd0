import { describe, expect, it } from 'vitest';
import { quietUntil, zoneOfState } from './quiet-hours.js';

describe('quiet hours in the recipient’s time zone', () => {
  it('maps a state to its zone, Eastern without one', () => {
    expect(zoneOfState('tx')).toBe('America/Chicago');
    expect(zoneOfState('AZ')).toBe('America/Phoenix');
    expect(zoneOfState(null)).toBe('America/New_York');
  });
  it('holds a text from 9 p.m. to 8 a.m. local time, until 8 a.m.', () => {
    // 02:30 UTC on 26 Nov 2026: 9:30 p.m. in New York (quiet), 7:30 p.m. in Denver (not).
    const now = new Date('2026-11-26T02:30:00Z');
    expect(quietUntil('America/Denver', now)).toBeNull();
    expect(quietUntil('America/New_York', now)?.toISOString()).toBe('2026-11-26T13:00:00.000Z');
    // 12:59 UTC: 7:59 a.m. in New York (quiet one more minute); 13:00: 8 a.m. (allowed).
    expect(quietUntil('America/New_York', new Date('2026-11-26T12:59:00Z'))?.toISOString()).toBe(
      '2026-11-26T13:00:00.000Z',
    );
    expect(quietUntil('America/New_York', new Date('2026-11-26T13:00:00Z'))).toBeNull();
  });
});

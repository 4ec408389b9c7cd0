import { describe, expect, it } from 'vitest';
import { checkSoaRule, lastFourDaysLabel } from './soa-rule.js';

const signedAt = new Date('2025-03-10T15:00:00Z');
const hours = (h: number) => new Date(signedAt.getTime() + h * 3_600_000);
const base = { products: ['medicare_advantage'], signedAt, startDate: '2025-03-12' };

describe('the SOA 48-hour rule', () => {
  it('refuses an MA or Part D appointment sooner than 48 hours after signing, naming the earliest time', () => {
    const early = checkSoaRule({ ...base, startsAt: hours(47.99) });
    expect(early.ok).toBe(false);
    if (!early.ok) {
      expect(early.earliest?.toISOString()).toBe('2025-03-12T15:00:00.000Z');
      expect(early.reason).toMatch(/48 hours/);
    }
    expect(checkSoaRule({ ...base, products: ['part_d'], startsAt: hours(1) }).ok).toBe(false);
  });

  it('allows it from 48 hours on', () => {
    expect(checkSoaRule({ ...base, startsAt: hours(48) })).toEqual({ ok: true, ruleApplies: true, exception: null });
  });

  it('does not apply to other products', () => {
    expect(checkSoaRule({ ...base, products: ['medigap', 'dental_vision_hearing'], startsAt: hours(1) })).toEqual({
      ok: true,
      ruleApplies: false,
      exception: null,
    });
  });

  it('needs a signed SOA, signed before the appointment', () => {
    expect(checkSoaRule({ ...base, signedAt: null, startsAt: hours(100) }).ok).toBe(false);
    expect(checkSoaRule({ ...base, startsAt: hours(-1), exception: 'walk_in' }).ok).toBe(false);
  });

  it('lets walk-ins and beneficiary-initiated calls through at once, recording which', () => {
    expect(checkSoaRule({ ...base, startsAt: hours(0.5), exception: 'walk_in' })).toEqual({
      ok: true,
      ruleApplies: true,
      exception: 'walk_in',
    });
    expect(checkSoaRule({ ...base, startsAt: hours(0.5), exception: 'inbound_call' }).ok).toBe(true);
  });

  it('accepts the last-four-days exception only in the last four days of a period', () => {
    const aepEnd = new Date('2025-12-05T15:00:00Z');
    const dec = { ...base, signedAt: new Date('2025-12-05T10:00:00Z'), startsAt: aepEnd };
    expect(checkSoaRule({ ...dec, startDate: '2025-12-05', exception: 'enrollment_period_end' }).ok).toBe(true);
    const notYet = checkSoaRule({ ...dec, startDate: '2025-12-03', exception: 'enrollment_period_end' });
    expect(notYet.ok).toBe(false);
    // The contact's own IEP counts: born 1960-07-15, IEP ends 2025-10-31.
    expect(
      checkSoaRule({ ...dec, startDate: '2025-10-30', dateOfBirth: '1960-07-15', exception: 'enrollment_period_end' })
        .ok,
    ).toBe(true);
    expect(lastFourDaysLabel('2024-03-29')).toBe('MA Open Enrollment Period');
  });
});

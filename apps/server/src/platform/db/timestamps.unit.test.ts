import { describe, expect, it } from 'vitest';
import { isoOf, isoOfSet } from './timestamps.js';

describe('isoOf', () => {
  it('gives exactly what Date gives for every shape PostgreSQL prints', () => {
    for (const text of [
      '2026-11-28 15:45:06+00',
      '2026-11-28 15:45:06.1+00',
      '2026-11-28 15:45:06.12+00',
      '2026-11-28 15:45:06.123+00',
      '2026-11-28 15:45:06.123999+00',
      '1999-12-31 23:59:59.000001+00',
      '2026-11-28 10:45:06.5-05',
      '2026-11-28 21:15:06.5+05:30',
    ]) {
      expect(isoOf(text)).toBe(new Date(text).toISOString());
    }
  });

  it('passes null through and accepts a Date', () => {
    expect(isoOf(null)).toBeNull();
    expect(isoOf(undefined)).toBeNull();
    const d = new Date('2026-01-02T03:04:05.678Z');
    expect(isoOfSet(d)).toBe('2026-01-02T03:04:05.678Z');
  });
});

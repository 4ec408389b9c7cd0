import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('HARBOR_CLOCK_OFFSET_MS (the clock of quiet hours, for browser flows)', () => {
  it('is 0 unless set, and taken as given outside production', () => {
    expect(loadConfig({}).clockOffsetMs).toBe(0);
    expect(loadConfig({ HARBOR_CLOCK_OFFSET_MS: '-3600000' }).clockOffsetMs).toBe(-3_600_000);
  });

  it('is refused in production, and when it is not a whole number of ms', () => {
    const production = { HARBOR_ENV: 'production', SECRET_KEY: 'k'.repeat(40) };
    expect(loadConfig(production).clockOffsetMs).toBe(0);
    expect(() => loadConfig({ ...production, HARBOR_CLOCK_OFFSET_MS: '5000' })).toThrow(/refused in production/);
    expect(() => loadConfig({ HARBOR_CLOCK_OFFSET_MS: '1.5h' })).toThrow(/must be an integer/);
  });
});

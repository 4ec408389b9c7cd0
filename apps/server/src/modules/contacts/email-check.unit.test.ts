import { describe, expect, it } from 'vitest';
import { checkEmail } from './email-check.js';

describe('checkEmail', () => {
  it('accepts ordinary addresses', () => {
    for (const e of ['mary.smith@gmail.com', "o'brien+medicare@agency.co.uk", 'a@b.io', 'x@xn--bcher-kva.com']) {
      expect(checkEmail(e), e).toEqual({ valid: true, reasons: [], suggestion: null });
    }
  });

  it('rejects malformed addresses with a reason', () => {
    for (const e of [
      'plainaddress',
      '@gmail.com',
      'mary@',
      'mary..smith@gmail.com',
      'mary@gmail',
      'mary@-bad-.com',
      'mary smith@gmail.com',
      'mary@gmail.c0m',
    ]) {
      const r = checkEmail(e);
      expect(r.valid, e).toBe(false);
      expect(r.reasons.length, e).toBeGreaterThan(0);
    }
  });

  it('rejects reserved and disposable domains', () => {
    expect(checkEmail('joe@example.com').valid).toBe(false);
    expect(checkEmail('joe@site.test').reasons).toContain('uses a reserved domain that cannot receive mail');
    expect(checkEmail('joe@mailinator.com').reasons).toContain('uses a disposable mailbox service');
  });

  it('suggests fixes for provider typos', () => {
    expect(checkEmail('joe@gmial.com')).toMatchObject({ valid: false, suggestion: 'joe@gmail.com' });
    expect(checkEmail('joe@yahoo.con')).toMatchObject({ valid: false, suggestion: 'joe@yahoo.com' });
    expect(checkEmail('joe@hotmial.com').suggestion).toBe('joe@hotmail.com');
    expect(checkEmail('joe@gmail.com').suggestion).toBeNull();
  });

  it('limits lengths', () => {
    expect(checkEmail(`${'a'.repeat(65)}@gmail.com`).valid).toBe(false);
    expect(checkEmail(`a@${'b'.repeat(250)}.com`).valid).toBe(false);
  });
});

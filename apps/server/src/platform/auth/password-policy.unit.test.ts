import { describe, expect, it } from 'vitest';
import { passwordProblem, TOO_COMMON, TOO_PERSONAL, TOO_SIMPLE } from './password-policy.js';

describe('password policy', () => {
  it('refuses common and breached passwords, whatever their case', () => {
    for (const p of ['12345678', 'password', 'Password1', 'PASSWORD', 'qwertyuiop', 'iloveyou', 'sunshine1']) {
      expect(passwordProblem(p), p).toBe(TOO_COMMON);
    }
  });
  it('refuses one or a few characters repeated', () => {
    expect(passwordProblem('aaaaaaaa')).not.toBeNull();
    expect(passwordProblem('zzzzzzzzzzzzzzzz')).toBe(TOO_SIMPLE);
    expect(passwordProblem('xyxyxyxyxyxy')).toBe(TOO_SIMPLE);
  });
  it('refuses the account’s own name, username or email', () => {
    const who = { email: 'nadia.hughes@example.com', username: 'nhughes', firstName: 'Nadia', lastName: 'Hughes' };
    expect(passwordProblem('nadia.hughes-2026', who)).toBe(TOO_PERSONAL);
    expect(passwordProblem('my nhughes login', who)).toBe(TOO_PERSONAL);
  });
  it('accepts a passphrase', () => {
    expect(passwordProblem('correct horse battery staple', { email: 'ann@example.com' })).toBeNull();
    expect(passwordProblem('Quiet river lights 77')).toBeNull();
  });
});

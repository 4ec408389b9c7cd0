import { describe, expect, it } from 'vitest';
import { DTMF_DIGITS, dialNumberProblem, INVALID_PHONE_NUMBER, voiceErrorOf } from './api/dialer.js';

describe('dialer input rules (spec §5)', () => {
  it('takes 9 to 16 characters of 0-9 * # w, formatting dropped', () => {
    expect(dialNumberProblem('1-813-555-0100')).toBeNull();
    expect(dialNumberProblem('+18135550100')).toBeNull();
    expect(dialNumberProblem('813555010')).toBeNull(); // 9
    expect(dialNumberProblem('81355501')).toBe(INVALID_PHONE_NUMBER); // 8
    expect(dialNumberProblem('1234567890123456')).toBeNull(); // 16
    expect(dialNumberProblem('12345678901234567')).toBe(INVALID_PHONE_NUMBER); // 17
    expect(dialNumberProblem('18135550100w#12')).toBeNull();
    expect(dialNumberProblem('1813555abcd')).toBe(INVALID_PHONE_NUMBER);
    expect(dialNumberProblem('18135+550100')).toBe(INVALID_PHONE_NUMBER);
    expect(DTMF_DIGITS.test('0123456789*#w')).toBe(true);
    expect(DTMF_DIGITS.test('A')).toBe(false);
  });
  it('maps SIP failures onto the spec voice error codes', () => {
    expect(voiceErrorOf({ sipStatus: 486 })).toBe(31486);
    expect(voiceErrorOf({ sipStatus: 603 })).toBe(31603);
    expect(voiceErrorOf({ sipStatus: 480 })).toBe(31480);
    expect(voiceErrorOf({ kind: 'media' })).toBe(53405);
    expect(voiceErrorOf({ kind: 'transport' })).toBe(53001);
  });
});

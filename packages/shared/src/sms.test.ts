import { describe, expect, it } from 'vitest';
import { smsSegments } from './api/sms.js';

describe('smsSegments (what the composer shows and what is charged)', () => {
  it('counts GSM-7 texts in 160 / 153 septets and the extension set twice', () => {
    expect(smsSegments('')).toEqual({ encoding: 'GSM-7', units: 0, segments: 0 });
    expect(smsSegments('a'.repeat(160)).segments).toBe(1);
    expect(smsSegments('a'.repeat(161)).segments).toBe(2);
    expect(smsSegments('a'.repeat(306)).segments).toBe(2);
    expect(smsSegments('a'.repeat(307)).segments).toBe(3);
    expect(smsSegments('€'.repeat(80))).toEqual({ encoding: 'GSM-7', units: 160, segments: 1 });
  });
  it('switches to UCS-2 for any other character (70 / 67), an emoji counting two units', () => {
    expect(smsSegments('Hola, ¿cómo está?').encoding).toBe('UCS-2');
    expect(smsSegments('á'.repeat(70)).segments).toBe(1);
    expect(smsSegments('á'.repeat(71)).segments).toBe(2);
    expect(smsSegments('😀').units).toBe(2);
  });
});
